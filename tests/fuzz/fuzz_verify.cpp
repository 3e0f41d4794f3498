// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// libFuzzer target: verify() for every scheme.
//
// Input: one control byte, then "Name: value" header lines up to an empty line, then the body.
//   control & 0x07  scheme (mod 5): standard-webhooks, stripe, github, shopify, hmac-sha256
//   control & 0x08  sign: add a correct signature for the fuzzed id/timestamp/body, so the
//                   paths after the MAC check (ids, types, JSON bodies) are fuzzed too
//   control & 0x10  hmac-sha256: base64 instead of hex, and a "sha256=" prefix
//   control & 0x60  hmac-sha256 id source: digest (weak), header, JSON pointer, both
#include "crypto/crypto.h"
#include "signatures/headerparsers.h"

#include <cstdlib>

using namespace redrive;
using namespace redrive::signatures;

namespace {

constexpr qint64 kNow = 1'700'000'000;
const QByteArray kKeys[] = { QByteArrayLiteral("fuzz secret one"), QByteArrayLiteral("fuzz secret two") };

SourceConfig sourceFor(quint8 control)
{
    SourceConfig source;
    source.name = QStringLiteral("fuzz");
    source.scheme = static_cast<SchemeKind>((control & 0x07) % 5);
    source.secrets = { Secret { QStringLiteral("secrets[0]"), kKeys[0] },
        Secret { QStringLiteral("secrets[1]"), kKeys[1] } };
    source.toleranceSeconds = 300;
    // Business keys from the body and from a header, on every scheme: what reaches a key column
    // never holds NUL and never passes the stored bound.
    source.keys = { BusinessKey { QStringLiteral("key"), BusinessKey::Kind::JsonPointer, "/meta/key", {} },
        BusinessKey { QStringLiteral("shop"), BusinessKey::Kind::Header, {}, "X-Shop" } };
    if (control & 0x10) {
        source.hmac.encoding = HmacOptions::Encoding::Base64;
        source.hmac.signaturePrefix = "sha256=";
    }
    const int idMode = (control >> 5) & 0x03;
    if (idMode & 1) {
        source.hmac.idHeader = "X-Id";
        source.hmac.typeHeader = "X-Type";
    }
    if (idMode & 2) {
        source.hmac.idJsonPointer = QStringLiteral("/meta/id");
        source.hmac.typeJsonPointer = QStringLiteral("/type");
    }
    return source;
}

// Appends or sets a signature that is correct for what the request carries.
void sign(const SourceConfig &source, Headers &headers, QByteArrayView body)
{
    const QByteArray &key = kKeys[1]; // the second secret: rotation is always exercised
    auto setHeader = [&headers](QByteArrayView name, QByteArray value) {
        Headers out;
        for (const auto &[n, v] : headers.fields()) {
            if (n.compare(name, Qt::CaseInsensitive) != 0)
                out.add(n, v);
        }
        out.add(name.toByteArray(), std::move(value));
        headers = out;
    };
    switch (source.scheme) {
    case SchemeKind::StandardWebhooks: {
        const auto ts = parseUnixSeconds(headers.value("webhook-timestamp"));
        if (!ts)
            return;
        const QByteArray ours = signStandardWebhooks(key, headers.value("webhook-id"), *ts, body);
        const QByteArray existing = headers.value("webhook-signature").toByteArray();
        setHeader("webhook-signature", existing.isEmpty() ? ours : existing + ' ' + ours);
        return;
    }
    case SchemeKind::Stripe: {
        StripeSignatureHeader parsed;
        const QByteArray existing = headers.value("Stripe-Signature").toByteArray();
        const auto result = signatures::detail::parseStripeHeader(existing, parsed);
        if (result == signatures::detail::StripeParse::MissingTimestamp
            || result == signatures::detail::StripeParse::MalformedTimestamp)
            return;
        const QByteArray t = QByteArray::number(parsed.timestamp);
        setHeader("Stripe-Signature", existing + ",v1=" + crypto::hmacSha256(key, { t, ".", body }).toHex());
        return;
    }
    case SchemeKind::GitHub:
        setHeader("X-Hub-Signature-256", "sha256=" + crypto::hmacSha256(key, body).toHex());
        return;
    case SchemeKind::Shopify:
        setHeader("X-Shopify-Hmac-Sha256", crypto::hmacSha256(key, body).toBase64());
        return;
    case SchemeKind::HmacSha256: {
        const QByteArray mac = crypto::hmacSha256(key, body);
        const bool base64 = source.hmac.encoding == HmacOptions::Encoding::Base64;
        setHeader("X-Signature", source.hmac.signaturePrefix + (base64 ? mac.toBase64() : mac.toHex()));
        return;
    }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const quint8 control = data[0];
    const QByteArrayView rest(data + 1, static_cast<qsizetype>(size - 1));

    Headers headers;
    qsizetype pos = 0;
    while (pos < rest.size()) {
        qsizetype end = rest.indexOf('\n', pos);
        if (end < 0)
            end = rest.size();
        const QByteArrayView line = rest.sliced(pos, end - pos);
        pos = end + 1;
        if (line.isEmpty())
            break;
        const qsizetype colon = line.indexOf(':');
        if (colon < 0)
            continue;
        QByteArrayView value = line.sliced(colon + 1);
        while (!value.isEmpty() && value.front() == ' ')
            value = value.sliced(1);
        headers.add(line.first(colon).toByteArray(), value.toByteArray());
    }
    const QByteArrayView body = pos < rest.size() ? rest.sliced(pos) : QByteArrayView();

    const SourceConfig source = sourceFor(control);
    if (control & 0x08)
        sign(source, headers, body);

    const Verification v = verify(source, headers, body, kNow);

    // Invariants every answer keeps, whatever the bytes.
    const int status = v.httpStatus();
    if (status != 200 && status != 400 && status != 401)
        std::abort();
    if (v.ok()) {
        if (v.providerEventId.isEmpty() || !v.reason.isEmpty())
            std::abort();
        if (v.secretIndex < 0 || v.secretIndex >= source.secrets.size()
            || v.secretLabel != source.secrets[v.secretIndex].label)
            std::abort();
        // Only the generic scheme without a configured id falls back to a digest, and says so.
        const bool digestId = source.scheme == SchemeKind::HmacSha256 && source.hmac.idHeader.isEmpty()
            && source.hmac.idJsonPointer.isEmpty();
        if (v.weakId != digestId || (digestId && !v.providerEventId.startsWith(QLatin1String("sha256:"))))
            std::abort();
        if (v.skewSeconds
            && (*v.skewSeconds > source.toleranceSeconds || -*v.skewSeconds > source.toleranceSeconds))
            std::abort();
        for (const EventKey &key : v.keys) {
            if (key.value.isEmpty() || key.value.contains(QChar(0))
                || key.value.size() > kMaxBusinessKeyValueLength)
                std::abort();
        }
    } else {
        if (v.reason.isEmpty() || v.detail.isEmpty() || v.secretIndex != -1 || !v.providerEventId.isEmpty())
            std::abort();
        for (const QByteArray &key : kKeys) {
            if (v.detail.contains(QLatin1String(key)))
                std::abort(); // a secret in a message
        }
    }
    return 0;
}
