// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// libFuzzer target: strict Unix seconds, checked against a plain reference definition.
#include "signatures/verifier.h"

#include <cstdlib>

using namespace redrive::signatures;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView text(data, static_cast<qsizetype>(size));
    bool digitsOnly = size >= 1 && size <= 12;
    long long expected = 0;
    for (size_t i = 0; digitsOnly && i < size; ++i) {
        if (data[i] < '0' || data[i] > '9')
            digitsOnly = false;
        else
            expected = expected * 10 + (data[i] - '0');
    }
    const auto parsed = parseUnixSeconds(text);
    if (parsed.has_value() != digitsOnly || (parsed && *parsed != expected))
        std::abort();
    return 0;
}
