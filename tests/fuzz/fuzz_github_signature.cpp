// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// libFuzzer target: the X-Hub-Signature-256 parser.
#include "signatures/verifier.h"

#include <cstdlib>

using namespace redrive::signatures;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView header(data, static_cast<qsizetype>(size));
    const auto mac = parseGitHubSignature(header);
    if (mac) {
        // Accepted means exactly "sha256=" and 64 hex digits, which round-trip.
        if (mac->size() != 32 || !header.startsWith("sha256="))
            std::abort();
        if (mac->toHex() != header.sliced(7).toByteArray().toLower())
            std::abort();
    }
    return 0;
}
