// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "verifier.h"

#include "crypto/crypto.h"
#include "signatures/headerparsers.h"
#include "signatures/jsonbody.h"
#include "util/jsonpointer.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringDecoder>
#include <QVarLengthArray>

#include <array>
#include <initializer_list>
#include <span>

namespace redrive::signatures {

int Verification::httpStatus() const
{
    switch (verdict) {
    case Verdict::Ok:
        return 200;
    case Verdict::MissingSignature:
    case Verdict::BadSignature:
    case Verdict::StaleTimestamp:
    case Verdict::FutureTimestamp:
        return 401;
    case Verdict::MalformedTimestamp:
    case Verdict::MissingId:
    case Verdict::MalformedBody:
        return 400;
    }
    return 400;
}

namespace {

// The largest signed time we accept, the bound of parseUnixSeconds (year 33658).
constexpr qint64 kMaxSeconds = 999'999'999'999;

QString reasonFor(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Ok:
        return {};
    case Verdict::MissingSignature:
        return QStringLiteral("missing_signature");
    case Verdict::BadSignature:
        return QStringLiteral("bad_signature");
    case Verdict::StaleTimestamp:
        return QStringLiteral("stale_timestamp");
    case Verdict::FutureTimestamp:
        return QStringLiteral("future_timestamp");
    case Verdict::MalformedTimestamp:
        return QStringLiteral("malformed_timestamp");
    case Verdict::MissingId:
        return QStringLiteral("missing_id");
    case Verdict::MalformedBody:
        return QStringLiteral("malformed_body");
    }
    return QStringLiteral("bad_signature");
}

// Keeps whatever `v` learnt so far (signed time, skew) so a rejection row can show it.
Verification fail(Verification v, Verdict verdict, QString detail)
{
    v.verdict = verdict;
    v.reason = reasonFor(verdict);
    v.detail = std::move(detail);
    return v;
}

QString name(QByteArrayView header)
{
    return QString::fromLatin1(header);
}

QString missingHeader(QByteArrayView header)
{
    return QStringLiteral("the %1 header is missing").arg(name(header));
}

// The same words whatever the number of secrets: this text is the 401 body an unauthenticated
// sender reads, and a count of two or more would tell it a secret rotation is under way.
QString noMatch(QByteArrayView header)
{
    return QStringLiteral("no signature in %1 matches a configured secret").arg(name(header));
}

// Index of the first secret whose MAC over `parts` equals one of `candidates`, or -1. Each
// comparison is constant-time over equal-length raw MACs; which secret matched is not secret.
int matchingSecret(const SourceConfig &source, std::initializer_list<QByteArrayView> parts,
    const QList<QByteArray> &candidates)
{
    for (qsizetype i = 0; i < source.secrets.size(); ++i) {
        const QByteArray mac = crypto::hmacSha256(source.secrets[i].key, parts);
        bool matched = false;
        for (const QByteArray &candidate : candidates)
            matched |= crypto::constantTimeEquals(mac, candidate);
        if (matched)
            return static_cast<int>(i);
    }
    return -1;
}

void accept(Verification &v, const SourceConfig &source, int secretIndex)
{
    v.verdict = Verdict::Ok;
    v.reason.clear();
    v.detail.clear();
    v.secretIndex = secretIndex;
    v.secretLabel = source.secrets[secretIndex].label;
}

// Records the signed time and the skew, and rejects a time outside ±tolerance.
bool withinTolerance(Verification &v, qint64 signedAt, qint64 now, int tolerance)
{
    v.signedAt = signedAt;
    v.skewSeconds = now - signedAt;
    const qint64 skew = *v.skewSeconds;
    if (skew > tolerance) {
        v = fail(std::move(v), Verdict::StaleTimestamp,
            QStringLiteral("the signed timestamp is %1 s old, beyond the %2 s tolerance")
                .arg(skew)
                .arg(tolerance));
        return false;
    }
    if (-skew > tolerance) {
        v = fail(std::move(v), Verdict::FutureTimestamp,
            QStringLiteral("the signed timestamp is %1 s in the future, beyond the %2 s tolerance")
                .arg(-skew)
                .arg(tolerance));
        return false;
    }
    return true;
}

// A header value used as an event id: present and valid UTF-8, so that it is stored exactly.
std::optional<QString> headerId(QByteArrayView value)
{
    if (value.isEmpty() || !value.isValidUtf8())
        return std::nullopt;
    // Exactly the header's characters: QString::fromUtf8 would drop a leading U+FEFF as a byte
    // order mark, and a value of only that would become an empty id.
    return QStringDecoder(QStringDecoder::Utf8, QStringDecoder::Flag::ConvertInitialBom).decode(value);
}

QString missingIdHeader(QByteArrayView header)
{
    return QStringLiteral("the %1 header is missing or not UTF-8").arg(name(header));
}

// A source's business keys. The body ones ride along the JSON pass the scheme makes anyway (one
// parse per request); collect() turns what the pass found, and the header ones, into the
// Verification's keys once the request is accepted.
class KeyPass {
public:
    explicit KeyPass(const SourceConfig &source)
    {
        for (const BusinessKey &key : source.keys) {
            if (key.kind == BusinessKey::Kind::JsonPointer)
                m_pointers.append(QByteArrayView(key.pointer));
        }
        m_scalars.resize(m_pointers.size());
    }

    [[nodiscard]] bool wantsBody() const { return !m_pointers.isEmpty(); }
    [[nodiscard]] std::span<const QByteArrayView> pointers() const
    {
        return { m_pointers.data(), static_cast<std::size_t>(m_pointers.size()) };
    }
    [[nodiscard]] std::span<jsonbody::Scalar> scalars()
    {
        return { m_scalars.data(), static_cast<std::size_t>(m_scalars.size()) };
    }

    // The generic scheme's pass is a QJsonDocument: strings and numbers, as simdjson's are.
    void fill(const QJsonValue &root)
    {
        for (qsizetype i = 0; i < m_pointers.size(); ++i) {
            const auto value = resolveJsonPointer(root, QString::fromUtf8(m_pointers[i]));
            m_scalars[i].found = value.has_value();
            if (value && (value->isString() || value->isDouble()))
                m_scalars[i].text = jsonScalarText(*value);
        }
    }

    void collect(const SourceConfig &source, const Headers &headers, Verification &v) const
    {
        qsizetype body = 0;
        for (const BusinessKey &key : source.keys) {
            QString text;
            if (key.kind == BusinessKey::Kind::JsonPointer) {
                text = m_scalars[body++].text.value_or(QString());
            } else {
                const QByteArrayView value = headers.value(key.header);
                if (value.isValidUtf8())
                    text = QString::fromUtf8(value);
            }
            // A value with NUL is no value, whichever pass found it (the generic scheme's
            // QJsonDocument decodes "\u0000" where simdjson's pass already refuses it).
            if (text.isEmpty() || text.contains(QChar(0)))
                continue;
            if (text.size() > kMaxBusinessKeyValueLength) {
                ++v.keysTooLong;
                continue;
            }
            v.keys.append(EventKey { key.name, text });
        }
    }

private:
    QVarLengthArray<QByteArrayView, 8> m_pointers;
    QVarLengthArray<jsonbody::Scalar, 8> m_scalars;
};

Verification verifyStandardWebhooks(
    const SourceConfig &source, const Headers &headers, QByteArrayView body, qint64 now, KeyPass &keys)
{
    constexpr QByteArrayView kSignature("webhook-signature");
    constexpr QByteArrayView kTimestamp("webhook-timestamp");
    constexpr QByteArrayView kId("webhook-id");
    Verification v;
    const QByteArrayView signature = headers.value(kSignature);
    if (signature.isEmpty())
        return fail(v, Verdict::MissingSignature, missingHeader(kSignature));
    const QByteArrayView timestampText = headers.value(kTimestamp);
    const auto timestamp = parseUnixSeconds(timestampText);
    if (!timestamp) {
        return fail(v, Verdict::MalformedTimestamp,
            timestampText.isEmpty()
                ? missingHeader(kTimestamp)
                : QStringLiteral("webhook-timestamp must be Unix seconds (1 to 12 digits)"));
    }
    if (!withinTolerance(v, *timestamp, now, source.toleranceSeconds))
        return v;
    const QList<QByteArray> candidates = parseStandardWebhooksSignatures(signature);
    if (candidates.isEmpty())
        return fail(
            v, Verdict::BadSignature, QStringLiteral("webhook-signature holds no well-formed v1 signature"));
    // The timestamp is signed in its canonical decimal form, as the reference libraries do.
    const QByteArrayView id = headers.value(kId);
    const QByteArray canonicalTimestamp = QByteArray::number(*timestamp);
    const int index = matchingSecret(source, { id, ".", canonicalTimestamp, ".", body }, candidates);
    if (index < 0)
        return fail(v, Verdict::BadSignature, noMatch(kSignature));
    const auto eventId = headerId(id);
    if (!eventId)
        return fail(v, Verdict::MissingId, missingIdHeader(kId));
    accept(v, source, index);
    v.providerEventId = *eventId;
    const QByteArrayView typeKey("type");
    jsonbody::Member type;
    if (jsonbody::readObject(body, { &typeKey, 1 }, { &type, 1 }, keys.pointers(), keys.scalars())
        == jsonbody::Status::Ok)
        v.eventType = type.string.value_or(QString());
    v.occurredAtMs = *timestamp * 1000;
    return v;
}

Verification verifyStripe(
    const SourceConfig &source, const Headers &headers, QByteArrayView body, qint64 now, KeyPass &keys)
{
    constexpr QByteArrayView kSignature("Stripe-Signature");
    Verification v;
    const QByteArrayView signature = headers.value(kSignature);
    if (signature.isEmpty())
        return fail(v, Verdict::MissingSignature, missingHeader(kSignature));
    StripeSignatureHeader parsed;
    const detail::StripeParse parse = detail::parseStripeHeader(signature, parsed);
    if (parse == detail::StripeParse::MissingTimestamp)
        return fail(v, Verdict::MalformedTimestamp, QStringLiteral("Stripe-Signature has no t= timestamp"));
    if (parse == detail::StripeParse::MalformedTimestamp) {
        return fail(v, Verdict::MalformedTimestamp,
            QStringLiteral(
                "the t= timestamp in Stripe-Signature must appear once, as Unix seconds (1 to 12 digits)"));
    }
    // Stripe's own library only rejects timestamps older than the tolerance. Redrive also
    // rejects those more than the tolerance ahead of our clock: a future-dated signature
    // would otherwise stay replayable for longer than the window promises.
    if (!withinTolerance(v, parsed.timestamp, now, source.toleranceSeconds))
        return v;
    if (parse == detail::StripeParse::NoSignature)
        return fail(
            v, Verdict::BadSignature, QStringLiteral("Stripe-Signature holds no well-formed v1 signature"));
    const QByteArray canonicalTimestamp = QByteArray::number(parsed.timestamp);
    const int index = matchingSecret(source, { canonicalTimestamp, ".", body }, parsed.v1);
    if (index < 0)
        return fail(v, Verdict::BadSignature, noMatch(kSignature));

    const std::array<QByteArrayView, 3> fields { QByteArrayView("id"), QByteArrayView("type"),
        QByteArrayView("created") };
    std::array<jsonbody::Member, 3> members;
    if (jsonbody::readObject(body, fields, members, keys.pointers(), keys.scalars()) != jsonbody::Status::Ok)
        return fail(v, Verdict::MalformedBody, QStringLiteral("the body is not a JSON object"));
    if (!members[0].found)
        return fail(v, Verdict::MissingId, QStringLiteral("the body has no top-level \"id\""));
    const auto &eventId = members[0].string;
    if (!eventId || eventId->isEmpty())
        return fail(v, Verdict::MissingId, QStringLiteral("the body's \"id\" is not a non-empty string"));
    accept(v, source, index);
    v.providerEventId = *eventId;
    v.eventType = members[1].string.value_or(QString());
    if (const auto created = members[2].integer; created && *created >= 0 && *created <= kMaxSeconds)
        v.occurredAtMs = *created * 1000;
    return v;
}

Verification verifyGitHub(
    const SourceConfig &source, const Headers &headers, QByteArrayView body, KeyPass &keys)
{
    constexpr QByteArrayView kSignature("X-Hub-Signature-256");
    constexpr QByteArrayView kDelivery("X-GitHub-Delivery");
    Verification v;
    const QByteArrayView signature = headers.value(kSignature);
    if (signature.isEmpty()) {
        return fail(v, Verdict::MissingSignature,
            headers.contains("X-Hub-Signature") ? QStringLiteral(
                "the X-Hub-Signature-256 header is missing (legacy SHA-1 X-Hub-Signature is not accepted)")
                                                : missingHeader(kSignature));
    }
    const auto mac = parseGitHubSignature(signature);
    if (!mac)
        return fail(v, Verdict::BadSignature,
            QStringLiteral("X-Hub-Signature-256 must be \"sha256=\" and 64 hex digits"));
    const int index = matchingSecret(source, { body }, { *mac });
    if (index < 0)
        return fail(v, Verdict::BadSignature, noMatch(kSignature));
    const auto eventId = headerId(headers.value(kDelivery));
    if (!eventId)
        return fail(v, Verdict::MissingId, missingIdHeader(kDelivery));
    accept(v, source, index);
    v.providerEventId = *eventId;
    // "pull_request" + "opened" → "pull_request.opened", so routes can select actions.
    v.eventType = QString::fromUtf8(headers.value("X-GitHub-Event"));
    if (!v.eventType.isEmpty() || keys.wantsBody()) {
        const QByteArrayView actionKey("action");
        jsonbody::Member action;
        const auto status
            = jsonbody::readObject(body, { &actionKey, 1 }, { &action, 1 }, keys.pointers(), keys.scalars());
        if (status == jsonbody::Status::Ok && !v.eventType.isEmpty() && action.string
            && !action.string->isEmpty())
            v.eventType += u'.' + *action.string;
    }
    return v;
}

std::optional<qint64> parseIsoMs(QByteArrayView text)
{
    // Shopify sends nanoseconds ("2023-03-29T18:00:27.877041743Z"); anything far longer than
    // that is not a time.
    if (text.isEmpty() || text.size() > 64 || !text.isValidUtf8())
        return std::nullopt;
    QDateTime parsed = QDateTime::fromString(QString::fromUtf8(text), Qt::ISODateWithMs);
    if (!parsed.isValid())
        return std::nullopt;
    if (parsed.timeSpec() == Qt::LocalTime)
        parsed.setTimeSpec(Qt::UTC); // no offset given: read it as UTC, never the host's zone
    return parsed.toMSecsSinceEpoch();
}

Verification verifyShopify(
    const SourceConfig &source, const Headers &headers, QByteArrayView body, KeyPass &keys)
{
    constexpr QByteArrayView kSignature("X-Shopify-Hmac-Sha256");
    constexpr QByteArrayView kId("X-Shopify-Webhook-Id");
    Verification v;
    const QByteArrayView signature = headers.value(kSignature);
    if (signature.isEmpty())
        return fail(v, Verdict::MissingSignature, missingHeader(kSignature));
    const auto mac = crypto::decodeBase64(signature);
    if (!mac || mac->size() != detail::kMacSize)
        return fail(
            v, Verdict::BadSignature, QStringLiteral("X-Shopify-Hmac-Sha256 must be a base64 HMAC-SHA256"));
    const int index = matchingSecret(source, { body }, { *mac });
    if (index < 0)
        return fail(v, Verdict::BadSignature, noMatch(kSignature));
    const auto eventId = headerId(headers.value(kId));
    if (!eventId)
        return fail(v, Verdict::MissingId, missingIdHeader(kId));
    accept(v, source, index);
    v.providerEventId = *eventId;
    v.eventType = QString::fromUtf8(headers.value("X-Shopify-Topic"));
    v.occurredAtMs = parseIsoMs(headers.value("X-Shopify-Triggered-At"));
    if (keys.wantsBody()) // Shopify's own fields are all headers: the body is read for keys only
        jsonbody::readObject(body, {}, {}, keys.pointers(), keys.scalars());
    return v;
}

// The body parsed for JSON pointers, at most once per request.
class PointerBody {
public:
    explicit PointerBody(QByteArrayView body)
        : m_body(body)
    { }

    // nullopt when the body is not JSON.
    const std::optional<QJsonValue> &root()
    {
        if (!m_parsed) {
            m_parsed = true;
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(m_body.toByteArray(), &error);
            if (error.error == QJsonParseError::NoError)
                m_root = doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
        }
        return m_root;
    }

    std::optional<QString> text(const QString &pointer)
    {
        if (!root())
            return std::nullopt;
        const auto value = resolveJsonPointer(*m_root, pointer);
        return value ? jsonScalarText(*value) : std::nullopt;
    }

private:
    QByteArrayView m_body;
    bool m_parsed = false;
    std::optional<QJsonValue> m_root;
};

Verification verifyGeneric(
    const SourceConfig &source, const Headers &headers, QByteArrayView body, KeyPass &keys)
{
    const HmacOptions &options = source.hmac;
    const QByteArrayView header = options.signatureHeader.isEmpty() ? QByteArrayView("X-Signature")
                                                                    : QByteArrayView(options.signatureHeader);
    Verification v;
    QByteArrayView signature = headers.value(header);
    if (signature.isEmpty())
        return fail(v, Verdict::MissingSignature, missingHeader(header));
    if (!options.signaturePrefix.isEmpty()) {
        if (!signature.startsWith(options.signaturePrefix))
            return fail(v, Verdict::BadSignature,
                QStringLiteral("%1 does not start with the configured prefix").arg(name(header)));
        signature = signature.sliced(options.signaturePrefix.size());
    }
    const bool hex = options.encoding == HmacOptions::Encoding::Hex;
    const auto mac = hex ? crypto::decodeHex(signature) : crypto::decodeBase64(signature);
    if (!mac || mac->size() != detail::kMacSize) {
        return fail(v, Verdict::BadSignature,
            QStringLiteral("%1 must be a %2 HMAC-SHA256")
                .arg(name(header), hex ? QStringLiteral("hex") : QStringLiteral("base64")));
    }
    const int index = matchingSecret(source, { body }, { *mac });
    if (index < 0)
        return fail(v, Verdict::BadSignature, noMatch(header));

    PointerBody json(body);
    if (!options.idHeader.isEmpty()) {
        const auto eventId = headerId(headers.value(options.idHeader));
        if (!eventId)
            return fail(v, Verdict::MissingId, missingIdHeader(options.idHeader));
        v.providerEventId = *eventId;
    } else if (!options.idJsonPointer.isEmpty()) {
        if (!json.root())
            return fail(v, Verdict::MalformedBody,
                QStringLiteral("the body is not JSON, so id pointer %1 cannot apply")
                    .arg(options.idJsonPointer));
        const auto eventId = json.text(options.idJsonPointer);
        if (!eventId || eventId->isEmpty())
            return fail(v, Verdict::MissingId,
                QStringLiteral("the body has no scalar at id pointer %1").arg(options.idJsonPointer));
        v.providerEventId = *eventId;
    } else {
        // No stable id configured: the body's digest stands in, and the event says so.
        v.providerEventId = QStringLiteral("sha256:") + QString::fromLatin1(crypto::sha256Hex(body));
        v.weakId = true;
    }
    accept(v, source, index);
    if (!options.typeHeader.isEmpty())
        v.eventType = QString::fromUtf8(headers.value(options.typeHeader));
    else if (!options.typeJsonPointer.isEmpty())
        v.eventType = json.text(options.typeJsonPointer).value_or(QString());
    if (keys.wantsBody() && json.root())
        keys.fill(*json.root());
    return v;
}

} // namespace

Verification verify(
    const SourceConfig &source, const Headers &headers, QByteArrayView body, qint64 nowSeconds)
{
    if (source.secrets.isEmpty())
        return fail({}, Verdict::BadSignature,
            QStringLiteral("source %1 has no secrets configured").arg(source.name));
    KeyPass keys(source);
    const auto scheme = [&]() -> Verification {
        switch (source.scheme) {
        case SchemeKind::StandardWebhooks:
            return verifyStandardWebhooks(source, headers, body, nowSeconds, keys);
        case SchemeKind::Stripe:
            return verifyStripe(source, headers, body, nowSeconds, keys);
        case SchemeKind::GitHub:
            return verifyGitHub(source, headers, body, keys);
        case SchemeKind::Shopify:
            return verifyShopify(source, headers, body, keys);
        case SchemeKind::HmacSha256:
            return verifyGeneric(source, headers, body, keys);
        }
        return fail({}, Verdict::BadSignature, QStringLiteral("unknown signature scheme"));
    };
    Verification v = scheme();
    if (v.ok())
        keys.collect(source, headers, v);
    return v;
}

QByteArray signStandardWebhooks(
    QByteArrayView key, QByteArrayView messageId, qint64 timestamp, QByteArrayView body)
{
    const QByteArray ts = QByteArray::number(timestamp);
    return QByteArrayLiteral("v1,") + crypto::hmacSha256(key, { messageId, ".", ts, ".", body }).toBase64();
}

std::optional<QString> topLevelJsonString(QByteArrayView json, QByteArrayView key)
{
    jsonbody::Member member;
    if (jsonbody::readObject(json, { &key, 1 }, { &member, 1 }) != jsonbody::Status::Ok)
        return std::nullopt;
    return member.string;
}

std::optional<qint64> topLevelJsonInteger(QByteArrayView json, QByteArrayView key)
{
    jsonbody::Member member;
    if (jsonbody::readObject(json, { &key, 1 }, { &member, 1 }) != jsonbody::Status::Ok)
        return std::nullopt;
    return member.integer;
}

} // namespace redrive::signatures
