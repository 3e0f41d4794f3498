// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "signatures/verifier.h"

// Parser details that verify() needs beyond the public yes/no parsers: which part of a header
// is wrong decides between a 400 (malformed timestamp) and a 401 (no usable signature).
namespace redrive::signatures::detail {

inline constexpr int kMaxSignatures = 32; // entries looked at in one signature header
inline constexpr qsizetype kMacSize = 32; // HMAC-SHA256

enum class StripeParse { Ok, MissingTimestamp, MalformedTimestamp, NoSignature };

// Fills `out` as far as the header allows; `out.timestamp` is valid unless the result is
// MissingTimestamp or MalformedTimestamp.
StripeParse parseStripeHeader(QByteArrayView header, StripeSignatureHeader &out);

} // namespace redrive::signatures::detail
