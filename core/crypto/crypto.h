// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <initializer_list>
#include <optional>

// Thin, allocation-light wrappers over OpenSSL's libcrypto. Qt's own SHA-256 is several times
// slower (no SHA-NI), so every MAC and digest on a hot path goes through here.
namespace redrive::crypto {

inline constexpr int kSha256Size = 32;

[[nodiscard]] QByteArray sha256(QByteArrayView data);
[[nodiscard]] QByteArray sha256Hex(QByteArrayView data);

// HMAC-SHA256 over the concatenation of parts (no copy of the parts is made).
[[nodiscard]] QByteArray hmacSha256(QByteArrayView key, std::initializer_list<QByteArrayView> parts);
[[nodiscard]] inline QByteArray hmacSha256(QByteArrayView key, QByteArrayView data)
{
    return hmacSha256(key, { data });
}

// Constant-time comparison of two MACs. Different lengths compare unequal immediately: lengths
// of decoded MACs are public (always 32 for SHA-256), so this leaks nothing secret.
[[nodiscard]] bool constantTimeEquals(QByteArrayView a, QByteArrayView b);

// Strict decoders: any character outside the alphabet, or bad padding, is an error.
[[nodiscard]] std::optional<QByteArray> decodeBase64(QByteArrayView text);
[[nodiscard]] std::optional<QByteArray> decodeBase64Url(QByteArrayView text);
[[nodiscard]] std::optional<QByteArray> decodeHex(QByteArrayView text);

[[nodiscard]] QByteArray randomBytes(int count);

} // namespace redrive::crypto
