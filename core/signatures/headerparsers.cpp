// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "headerparsers.h"

#include "crypto/crypto.h"

namespace redrive::signatures {

namespace detail {

StripeParse parseStripeHeader(QByteArrayView header, StripeSignatureHeader &out)
{
    out = StripeSignatureHeader {};
    bool haveTimestamp = false;
    bool badTimestamp = false;
    qsizetype pos = 0;
    while (pos <= header.size()) {
        qsizetype comma = header.indexOf(',', pos);
        if (comma < 0)
            comma = header.size();
        const QByteArrayView item = header.sliced(pos, comma - pos);
        pos = comma + 1;
        // Keys are matched exactly, as Stripe's own libraries do: " v1" is not "v1".
        const qsizetype eq = item.indexOf('=');
        const QByteArrayView key = eq < 0 ? item : item.first(eq);
        const QByteArrayView value = eq < 0 ? QByteArrayView() : item.sliced(eq + 1);
        if (key == "t") {
            // A second "t" is ambiguous about which time was signed: refuse rather than pick one.
            const auto seconds = parseUnixSeconds(value);
            if (haveTimestamp || eq < 0 || !seconds)
                badTimestamp = true;
            else
                out.timestamp = *seconds;
            haveTimestamp = true;
        } else if (key == "v1" && out.v1.size() < kMaxSignatures && value.size() == 2 * kMacSize) {
            if (auto mac = crypto::decodeHex(value))
                out.v1.append(std::move(*mac));
        }
    }
    if (badTimestamp)
        return StripeParse::MalformedTimestamp;
    if (!haveTimestamp)
        return StripeParse::MissingTimestamp;
    if (out.v1.isEmpty())
        return StripeParse::NoSignature;
    return StripeParse::Ok;
}

} // namespace detail

std::optional<StripeSignatureHeader> parseStripeSignatureHeader(QByteArrayView header)
{
    StripeSignatureHeader parsed;
    if (detail::parseStripeHeader(header, parsed) != detail::StripeParse::Ok)
        return std::nullopt;
    return parsed;
}

QList<QByteArray> parseStandardWebhooksSignatures(QByteArrayView header)
{
    QList<QByteArray> macs;
    int considered = 0;
    qsizetype pos = 0;
    while (pos < header.size() && considered < detail::kMaxSignatures) {
        qsizetype space = header.indexOf(' ', pos);
        if (space < 0)
            space = header.size();
        const QByteArrayView entry = header.sliced(pos, space - pos);
        pos = space + 1;
        if (entry.isEmpty())
            continue; // runs of spaces
        ++considered;
        const qsizetype comma = entry.indexOf(',');
        if (comma < 0 || entry.first(comma) != "v1")
            continue; // v1a (asymmetric) and future versions are not ours to check
        const QByteArrayView encoded = entry.sliced(comma + 1);
        // 32 bytes are 44 base64 characters; anything else cannot be an HMAC-SHA256.
        if (encoded.size() != 44)
            continue;
        if (auto mac = crypto::decodeBase64(encoded); mac && mac->size() == detail::kMacSize)
            macs.append(std::move(*mac));
    }
    return macs;
}

std::optional<QByteArray> parseGitHubSignature(QByteArrayView header)
{
    constexpr QByteArrayView prefix("sha256=");
    if (header.size() != prefix.size() + 2 * detail::kMacSize || !header.startsWith(prefix))
        return std::nullopt;
    return crypto::decodeHex(header.sliced(prefix.size()));
}

std::optional<qint64> parseUnixSeconds(QByteArrayView text)
{
    if (text.isEmpty() || text.size() > 12)
        return std::nullopt;
    qint64 value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return value;
}

} // namespace redrive::signatures
