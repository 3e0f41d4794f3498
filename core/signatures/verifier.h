// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"
#include "util/headers.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

#include <optional>

// Incoming signature schemes (docs/operations.md, `[[sources]]`): Standard Webhooks, Stripe, GitHub, Shopify
// and a configurable HMAC-SHA256. Every MAC is computed with OpenSSL and compared with CRYPTO_memcmp on
// equal-length decoded values. Verification also extracts the stable id, event type and occurred-at time, so
// ingest reads each header once.
namespace redrive::signatures {

enum class Verdict {
    Ok,
    MissingSignature, // 401
    BadSignature, // 401 (also: wrong secret, undecodable signature)
    StaleTimestamp, // 401: older than the tolerance
    FutureTimestamp, // 401: newer than the tolerance
    MalformedTimestamp, // 400: missing, non-numeric, negative or absurdly long
    MissingId, // 400: the scheme defines an id and the request has none
    MalformedBody, // 400: the scheme needs a JSON body field and the body is not JSON
};

struct Verification {
    Verdict verdict = Verdict::BadSignature;
    // Short category, the value of the rejections.reason column and the metrics label:
    // "bad_signature", "missing_signature", "stale_timestamp", "future_timestamp",
    // "malformed_timestamp", "missing_id", "malformed_body"; empty when Ok.
    QString reason;
    QString detail; // one sentence for humans (and the 401 body); never a secret, a MAC or how many secrets
                    // there are
    int secretIndex = -1; // which configured secret matched
    QString secretLabel; // its label (never the value)
    std::optional<qint64> signedAt; // seconds, for schemes that sign a timestamp
    std::optional<qint64>
        skewSeconds; // now - signedAt (positive: the sender's clock is behind or the request is late)
    QString providerEventId;
    bool weakId = false; // id derived from a digest of the body
    QString eventType;
    std::optional<qint64> occurredAtMs;
    // The source's business keys found in this request, in config order: strings and numbers
    // from the body (read in the same JSON pass as the scheme's own fields) and header values.
    // A key that finds nothing, or an empty value, is absent.
    QList<EventKey> keys;
    int keysTooLong = 0; // values longer than kMaxBusinessKeyValueLength, left out of `keys`

    [[nodiscard]] bool ok() const { return verdict == Verdict::Ok; }
    [[nodiscard]] int httpStatus() const;
};

// Verifies one request for `source`. `nowSeconds` comes from the injected clock.
Verification verify(
    const SourceConfig &source, const Headers &headers, QByteArrayView body, qint64 nowSeconds);

// Outgoing Standard Webhooks signature for a destination: "v1,<base64 HMAC-SHA256(key, id.ts.body)>".
QByteArray signStandardWebhooks(
    QByteArrayView key, QByteArrayView messageId, qint64 timestamp, QByteArrayView body);

// ---- Parsers (each is a libFuzzer target) ----------------------------------------------------

struct StripeSignatureHeader {
    qint64 timestamp = 0;
    QList<QByteArray> v1; // decoded MACs (raw bytes), in header order
};
// "t=1614265330,v1=<hex>[,v1=<hex>…][,v0=…]"; unknown schemes are ignored; nullopt when t is
// missing or malformed or there is no well-formed v1.
std::optional<StripeSignatureHeader> parseStripeSignatureHeader(QByteArrayView header);

// "v1,<b64> v1,<b64> v1a,<b64>": decoded v1 MACs; entries of other versions and undecodable
// entries are skipped. Bounded: at most 32 entries are considered.
QList<QByteArray> parseStandardWebhooksSignatures(QByteArrayView header);

// "sha256=<64 hex>" → 32 raw bytes.
std::optional<QByteArray> parseGitHubSignature(QByteArrayView header);

// Strict Unix seconds: 1–12 ASCII digits, nothing else (no sign, no spaces).
std::optional<qint64> parseUnixSeconds(QByteArrayView text);

// The value of a top-level string member of a JSON object, without building a DOM (nested
// objects and arrays are skipped correctly, escapes are decoded). nullopt when the body is not a
// JSON object, the member is absent, or it is not a string.
std::optional<QString> topLevelJsonString(QByteArrayView json, QByteArrayView key);
// Same for an integer member (e.g. Stripe's "created").
std::optional<qint64> topLevelJsonInteger(QByteArrayView json, QByteArrayView key);

} // namespace redrive::signatures
