// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// libFuzzer target: the webhook-signature list parser.
#include "signatures/headerparsers.h"

#include <cstdlib>

using namespace redrive::signatures;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QList<QByteArray> macs
        = parseStandardWebhooksSignatures(QByteArrayView(data, static_cast<qsizetype>(size)));
    if (macs.size() > detail::kMaxSignatures)
        std::abort();
    for (const QByteArray &mac : macs) {
        if (mac.size() != detail::kMacSize)
            std::abort();
    }
    return 0;
}
