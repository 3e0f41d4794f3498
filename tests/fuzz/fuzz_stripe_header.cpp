// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// libFuzzer target: the Stripe-Signature header parser.
#include "signatures/headerparsers.h"

#include <cstdlib>

using namespace redrive::signatures;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView header(data, static_cast<qsizetype>(size));
    StripeSignatureHeader detailed;
    const auto result = detail::parseStripeHeader(header, detailed);
    const auto parsed = parseStripeSignatureHeader(header);
    // The public parser says yes exactly when the detailed one finds nothing wrong.
    if (parsed.has_value() != (result == detail::StripeParse::Ok))
        std::abort();
    if (parsed) {
        if (parsed->v1.isEmpty() || parsed->v1.size() > detail::kMaxSignatures)
            std::abort();
        if (parsed->timestamp < 0 || parsed->timestamp > 999'999'999'999)
            std::abort();
        for (const QByteArray &mac : parsed->v1) {
            if (mac.size() != detail::kMacSize)
                std::abort();
        }
    }
    return 0;
}
