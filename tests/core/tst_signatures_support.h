// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Shared by the signature test executables: known-answer vectors and small request builders.
#pragma once

#include "config/config.h"
#include "crypto/crypto.h"
#include "signatures/verifier.h"
#include "util/headers.h"

#include <QByteArray>
#include <QMetaType>
#include <QString>

#include <initializer_list>
#include <optional>
#include <utility>

namespace sigtest {

using namespace redrive;

// ---- Known-answer vectors -------------------------------------------------------------------

// Standard Webhooks, from the reference library's own test suite
// (standard-webhooks libraries/javascript/src/webhook.test.ts).
inline const QByteArray kSwSecret = QByteArrayLiteral("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
inline const QByteArray kSwId = QByteArrayLiteral("msg_p5jXN8AQM9LWM0D4loKWxJek");
inline constexpr qint64 kSwTimestamp = 1614265330;
inline const QByteArray kSwBody = QByteArrayLiteral("{\"test\": 2432232314}");
inline const QByteArray kSwSignature = QByteArrayLiteral("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");

// GitHub, from "Validating webhook deliveries" on docs.github.com.
inline const QByteArray kGhSecret = QByteArrayLiteral("It's a Secret to Everybody");
inline const QByteArray kGhBody = QByteArrayLiteral("Hello, World!");
inline const QByteArray kGhSignature
    = QByteArrayLiteral("sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17");

// Stripe: headers produced by the npm `stripe` package 23.1.0,
// stripe.webhooks.generateTestHeaderString({payload, secret, timestamp: 1686089970}).
inline const QByteArray kStripeSecret = QByteArrayLiteral("whsec_5WbX5kEWLlfzsGNjH64I8lOOqUB6e8FH");
inline const QByteArray kStripeOldSecret = QByteArrayLiteral("whsec_oldOLDold0ld0ld0ld0ld0ld0ld0ld0ld0l");
inline constexpr qint64 kStripeTimestamp = 1686089970;
inline const QByteArray kStripeBody = QByteArrayLiteral(
    "{\"id\":\"evt_1NG8Du2eZvKYlo2CUI79vXWy\",\"object\":\"event\",\"created\":1686089970,"
    "\"type\":\"customer.created\",\"data\":{\"object\":{\"id\":\"cus_O2D2hVQ7D9F8sM\","
    "\"name\":\"Zo\\u00eb \\\"Q\\\" Test\"}}}");
inline const QByteArray kStripeHeader
    = QByteArrayLiteral("t=1686089970,v1=a643cf0d8ea342b6e1336630dacf50c0e76f6dfc79b04618be2af2ee11b72faa");
inline const QByteArray kStripeOldV1
    = QByteArrayLiteral("efdf0cd689589ebdded81cb3bca16cafbe5f691ca48b8f3eafec48c836dbd732");

// Shopify: node:crypto createHmac('sha256', secret).update(body, 'utf8').digest('base64').
inline const QByteArray kShopifySecret = QByteArrayLiteral("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");
inline const QByteArray kShopifyBody
    = QByteArrayLiteral("{\"id\":820982911946154508,\"email\":\"jon@example.com\",\"note\":\"caf\xc3\xa9\"}");
inline const QByteArray kShopifySignature = QByteArrayLiteral("PQU83rPL8YV/wAzEEIEkh6ZVBxlB3/bdgxJ2/+lvs9A=");

// ---- Builders -------------------------------------------------------------------------------

struct Request {
    Headers headers;
    QByteArray body;
    qint64 now = 0;
};

inline SourceConfig makeSource(SchemeKind kind, const QList<QByteArray> &keys, int tolerance = 300)
{
    SourceConfig source;
    source.name = QStringLiteral("test");
    source.scheme = kind;
    source.toleranceSeconds = tolerance;
    for (qsizetype i = 0; i < keys.size(); ++i)
        source.secrets.append(Secret { QStringLiteral("secrets[%1]").arg(i), keys[i] });
    return source;
}

// What config does to a "whsec_" secret: strip the prefix, base64-decode the rest.
inline QByteArray whsecKey(const QByteArray &secret)
{
    return crypto::decodeBase64(QByteArrayView(secret).sliced(6)).value_or(QByteArray());
}

inline Headers makeHeaders(std::initializer_list<std::pair<QByteArray, QByteArray>> fields)
{
    Headers headers;
    for (const auto &[name, value] : fields)
        headers.add(name, value);
    return headers;
}

// A copy of `headers` with `name` replaced by `value`, or removed when `value` is nullopt.
inline Headers withHeader(const Headers &headers, QByteArrayView name, std::optional<QByteArray> value)
{
    Headers out;
    bool replaced = false;
    for (const auto &[n, v] : headers.fields()) {
        if (n.compare(name, Qt::CaseInsensitive) != 0) {
            out.add(n, v);
        } else if (value && !replaced) {
            out.add(n, *value);
            replaced = true;
        }
    }
    if (value && !replaced)
        out.add(name.toByteArray(), *value);
    return out;
}

// One character changed to another of the same alphabet (hex digit or base64 letter), so the
// value still decodes but carries a different MAC.
inline QByteArray changeChar(QByteArray text, qsizetype index)
{
    const char c = text[index];
    text[index] = (c == '0') ? '1' : (c == 'a' || c == 'A') ? 'b' : (c >= '1' && c <= '9') ? '0' : 'a';
    return text;
}

inline QByteArray changeByte(QByteArray body, qsizetype index)
{
    body[index] = static_cast<char>(body[index] ^ 0x01);
    return body;
}

inline QByteArray hmacHex(const QByteArray &key, std::initializer_list<QByteArrayView> parts)
{
    return crypto::hmacSha256(key, parts).toHex();
}

inline QByteArray hmacBase64(const QByteArray &key, std::initializer_list<QByteArrayView> parts)
{
    return crypto::hmacSha256(key, parts).toBase64();
}

inline QByteArray stripeHeader(const QByteArray &secret, qint64 timestamp, const QByteArray &body)
{
    const QByteArray t = QByteArray::number(timestamp);
    return "t=" + t + ",v1=" + hmacHex(secret, { t, ".", body });
}

} // namespace sigtest

Q_DECLARE_METATYPE(redrive::SchemeKind)
Q_DECLARE_METATYPE(redrive::SourceConfig)
Q_DECLARE_METATYPE(sigtest::Request)
