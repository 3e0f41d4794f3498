// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "tst_signatures_support.h"

#include <QTest>

using namespace redrive;
using namespace redrive::signatures;
using namespace sigtest;

// Each scheme's known-answer vector and its near misses, the timestamp window, rotation, and
// what a rejection says (and never says).
class TstSignatures : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void schemes_data();
    void schemes();
    void timestampWindow_data();
    void timestampWindow();
    void malformedTimestamps_data();
    void malformedTimestamps();
    void rotationRecordsTheMatchingSecret();
    void rejectionSaysNothingOfTheSecretCount_data();
    void rejectionSaysNothingOfTheSecretCount();
    void signStandardWebhooksMatchesThePublishedVector();
    void statusAndReasonFollowTheVerdict_data();
    void statusAndReasonFollowTheVerdict();

private:
    static void addColumns();
};

namespace {

constexpr qint64 kNoTime = -1;

void row(const char *name, const SourceConfig &source, const Request &request, Verdict verdict,
    const QString &id = {}, const QString &type = {}, int secretIndex = -1, qint64 occurredAtMs = kNoTime,
    bool weak = false)
{
    QTest::newRow(name) << source << request << static_cast<int>(verdict) << id << type << secretIndex
                        << occurredAtMs << weak;
}

Request swRequest(const QByteArray &body = kSwBody, const QByteArray &signature = kSwSignature)
{
    return { makeHeaders({ { "webhook-id", kSwId }, { "webhook-timestamp", QByteArray::number(kSwTimestamp) },
                 { "webhook-signature", signature } }),
        body, kSwTimestamp };
}

Request with(Request r, QByteArrayView header, std::optional<QByteArray> value)
{
    r.headers = withHeader(r.headers, header, std::move(value));
    return r;
}

void addStandardWebhooksRows()
{
    const auto key = whsecKey(kSwSecret);
    const auto sw = makeSource(SchemeKind::StandardWebhooks, { key });
    const QString id = QString::fromLatin1(kSwId);
    const qint64 at = kSwTimestamp * 1000;
    row("sw: published vector", sw, swRequest(), Verdict::Ok, id, {}, 0, at);
    row("sw: one body byte changed", sw, swRequest(changeByte(kSwBody, 10)), Verdict::BadSignature);
    row("sw: one signature character changed", sw, swRequest(kSwBody, changeChar(kSwSignature, 6)),
        Verdict::BadSignature);
    row("sw: wrong secret",
        makeSource(SchemeKind::StandardWebhooks, { whsecKey("whsec_dGhlIHdyb25nIHNlY3JldCEh") }), swRequest(),
        Verdict::BadSignature);
    row("sw: key used without base64 decoding", makeSource(SchemeKind::StandardWebhooks, { kSwSecret }),
        swRequest(), Verdict::BadSignature);
    row("sw: different id than signed", sw, with(swRequest(), "webhook-id", QByteArray("msg_other")),
        Verdict::BadSignature);
    row("sw: missing signature header", sw, with(swRequest(), "webhook-signature", std::nullopt),
        Verdict::MissingSignature);
    row("sw: empty signature header", sw, with(swRequest(), "webhook-signature", QByteArray()),
        Verdict::MissingSignature);
    row("sw: missing signature wins over a bad timestamp", sw,
        with(with(swRequest(), "webhook-signature", std::nullopt), "webhook-timestamp", QByteArray("soon")),
        Verdict::MissingSignature);
    row("sw: missing timestamp header", sw, with(swRequest(), "webhook-timestamp", std::nullopt),
        Verdict::MalformedTimestamp);
    row("sw: missing id, signature over the real id", sw, with(swRequest(), "webhook-id", std::nullopt),
        Verdict::BadSignature);
    row("sw: missing id, signature over an empty id", sw,
        with(swRequest(kSwBody, signStandardWebhooks(key, "", kSwTimestamp, kSwBody)), "webhook-id",
            std::nullopt),
        Verdict::MissingId);
    row("sw: only a v1a signature", sw, swRequest(kSwBody, "v1a," + kSwSignature.sliced(3)),
        Verdict::BadSignature);
    row("sw: v2 label on the right MAC", sw, swRequest(kSwBody, "v2," + kSwSignature.sliced(3)),
        Verdict::BadSignature);
    row("sw: undecodable signature", sw, swRequest(kSwBody, "v1,not*base64"), Verdict::BadSignature);
    row("sw: the valid one among several", sw,
        swRequest(kSwBody, "v1a,AAAA v1," + changeChar(kSwSignature, 6).sliced(3) + "  " + kSwSignature),
        Verdict::Ok, id, {}, 0, at);
    QByteArray crowded;
    for (int i = 0; i < 32; ++i)
        crowded += "v2,AAAA ";
    row("sw: a valid signature past the 32-entry bound is ignored", sw,
        swRequest(kSwBody, crowded + kSwSignature), Verdict::BadSignature);
    row("sw: leading zero timestamp signs its canonical form", sw,
        with(swRequest(), "webhook-timestamp", "0" + QByteArray::number(kSwTimestamp)), Verdict::Ok, id, {},
        0, at);

    const QByteArray typed = QByteArrayLiteral("{\"data\":{\"type\":\"nested\"},\"type\":\"invoice.paid\"}");
    row("sw: type from the body", sw, swRequest(typed, signStandardWebhooks(key, kSwId, kSwTimestamp, typed)),
        Verdict::Ok, id, QStringLiteral("invoice.paid"), 0, at);
    const QByteArray notJson = QByteArrayLiteral("plain text body");
    row("sw: a body that is not JSON has no type", sw,
        swRequest(notJson, signStandardWebhooks(key, kSwId, kSwTimestamp, notJson)), Verdict::Ok, id, {}, 0,
        at);
}

Request stripeRequest(const QByteArray &header = kStripeHeader, const QByteArray &body = kStripeBody)
{
    return { makeHeaders({ { "Stripe-Signature", header } }), body, kStripeTimestamp };
}

void addStripeRows()
{
    const auto stripe = makeSource(SchemeKind::Stripe, { kStripeSecret });
    const QString id = QStringLiteral("evt_1NG8Du2eZvKYlo2CUI79vXWy");
    const QString type = QStringLiteral("customer.created");
    const qint64 at = kStripeTimestamp * 1000;
    row("stripe: header from the stripe package", stripe, stripeRequest(), Verdict::Ok, id, type, 0, at);
    row("stripe: one body byte changed", stripe, stripeRequest(kStripeHeader, changeByte(kStripeBody, 30)),
        Verdict::BadSignature);
    row("stripe: one signature character changed", stripe, stripeRequest(changeChar(kStripeHeader, 20)),
        Verdict::BadSignature);
    row("stripe: wrong secret", makeSource(SchemeKind::Stripe, { "whsec_somebodyElsesSecret0000000000" }),
        stripeRequest(), Verdict::BadSignature);
    row("stripe: key base64-decoded instead of used whole",
        makeSource(SchemeKind::Stripe, { whsecKey(kStripeSecret) }), stripeRequest(), Verdict::BadSignature);
    row("stripe: key without its whsec_ prefix", makeSource(SchemeKind::Stripe, { kStripeSecret.sliced(6) }),
        stripeRequest(), Verdict::BadSignature);
    row("stripe: missing header", stripe, with(stripeRequest(), "Stripe-Signature", std::nullopt),
        Verdict::MissingSignature);
    row("stripe: no t=", stripe, stripeRequest(kStripeHeader.sliced(13)), Verdict::MalformedTimestamp);
    row("stripe: two t=", stripe, stripeRequest("t=1686089970," + kStripeHeader),
        Verdict::MalformedTimestamp);
    row("stripe: only v0", stripe, stripeRequest("t=1686089970,v0=" + kStripeHeader.sliced(16)),
        Verdict::BadSignature);
    row("stripe: truncated v1", stripe, stripeRequest(kStripeHeader.chopped(2)), Verdict::BadSignature);
    row("stripe: space after the comma is not a v1 key", stripe,
        stripeRequest("t=1686089970, v1=" + kStripeHeader.sliced(16)), Verdict::BadSignature);
    row("stripe: several v1, one matching", stripe,
        stripeRequest("t=1686089970,v1=" + kStripeOldV1 + ",v0=ab," + kStripeHeader.sliced(13)), Verdict::Ok,
        id, type, 0, at);
    row("stripe: old and new signatures, old secret first",
        makeSource(SchemeKind::Stripe, { kStripeOldSecret, kStripeSecret }),
        stripeRequest(kStripeHeader + ",v1=" + kStripeOldV1), Verdict::Ok, id, type, 0, at);
    row("stripe: old-only signature while rotating",
        makeSource(SchemeKind::Stripe, { kStripeSecret, kStripeOldSecret }),
        stripeRequest("t=1686089970,v1=" + kStripeOldV1), Verdict::Ok, id, type, 1, at);
    row("stripe: old-only signature after the old secret is removed", stripe,
        stripeRequest("t=1686089970,v1=" + kStripeOldV1), Verdict::BadSignature);

    const auto signedBody = [](const QByteArray &body) {
        return stripeRequest(stripeHeader(kStripeSecret, kStripeTimestamp, body), body);
    };
    row("stripe: body not JSON", stripe, signedBody("id=evt_1"), Verdict::MalformedBody);
    row("stripe: body truncated JSON", stripe, signedBody(kStripeBody.chopped(1)), Verdict::MalformedBody);
    row("stripe: body without id", stripe, signedBody("{\"type\":\"x\",\"data\":{\"id\":\"nested\"}}"),
        Verdict::MissingId);
    row("stripe: numeric id", stripe, signedBody("{\"id\":12}"), Verdict::MissingId);
    row("stripe: no created, no occurred time", stripe, signedBody("{\"id\":\"evt_2\"}"), Verdict::Ok,
        QStringLiteral("evt_2"), {}, 0);
}

Request githubRequest(const QByteArray &body = kGhBody, const QByteArray &signature = kGhSignature)
{
    return { makeHeaders({ { "X-GitHub-Event", "push" },
                 { "X-GitHub-Delivery", "72d3162e-cc78-11e3-81ab-4c9367dc0958" },
                 { "X-Hub-Signature-256", signature }, { "User-Agent", "GitHub-Hookshot/044aadd" } }),
        body, kSwTimestamp };
}

void addGitHubRows()
{
    const auto gh = makeSource(SchemeKind::GitHub, { kGhSecret });
    const QString id = QStringLiteral("72d3162e-cc78-11e3-81ab-4c9367dc0958");
    row("github: documented example", gh, githubRequest(), Verdict::Ok, id, QStringLiteral("push"), 0);
    row("github: one body byte changed", gh, githubRequest(changeByte(kGhBody, 0)), Verdict::BadSignature);
    row("github: one signature character changed", gh, githubRequest(kGhBody, changeChar(kGhSignature, 7)),
        Verdict::BadSignature);
    row("github: wrong secret", makeSource(SchemeKind::GitHub, { "It's a Secret to Nobody" }),
        githubRequest(), Verdict::BadSignature);
    row("github: upper-case algorithm", gh, githubRequest(kGhBody, "SHA256=" + kGhSignature.sliced(7)),
        Verdict::BadSignature);
    row("github: bare hex", gh, githubRequest(kGhBody, kGhSignature.sliced(7)), Verdict::BadSignature);
    row("github: missing signature", gh, with(githubRequest(), "X-Hub-Signature-256", std::nullopt),
        Verdict::MissingSignature);
    row("github: only the legacy SHA-1 header", gh,
        with(with(githubRequest(), "X-Hub-Signature-256", std::nullopt), "X-Hub-Signature",
            QByteArray("sha1=0")),
        Verdict::MissingSignature);
    row("github: missing delivery id", gh, with(githubRequest(), "X-GitHub-Delivery", std::nullopt),
        Verdict::MissingId);
    row("github: rotation, second secret matches",
        makeSource(SchemeKind::GitHub, { "new secret", kGhSecret }), githubRequest(), Verdict::Ok, id,
        QStringLiteral("push"), 1);
    const QByteArray pr
        = QByteArrayLiteral("{\"action\":\"opened\",\"number\":1,\"pull_request\":{\"action\":\"x\"}}");
    row("github: event and action", gh,
        with(githubRequest(pr, "sha256=" + hmacHex(kGhSecret, { pr })), "X-GitHub-Event",
            QByteArray("pull_request")),
        Verdict::Ok, id, QStringLiteral("pull_request.opened"), 0);
}

Request shopifyRequest(const QByteArray &body = kShopifyBody, const QByteArray &signature = kShopifySignature)
{
    return { makeHeaders({ { "X-Shopify-Topic", "orders/create" }, { "X-Shopify-Hmac-Sha256", signature },
                 { "X-Shopify-Webhook-Id", "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043" },
                 { "X-Shopify-Triggered-At", "2023-03-29T18:00:27.877041743Z" } }),
        body, kSwTimestamp };
}

void addShopifyRows()
{
    const auto shop = makeSource(SchemeKind::Shopify, { kShopifySecret });
    const QString id = QStringLiteral("b54557e4-bdd9-4b37-8a5f-bf7d70bcd043");
    const QString topic = QStringLiteral("orders/create");
    row("shopify: node:crypto vector", shop, shopifyRequest(), Verdict::Ok, id, topic, 0, 1680112827877);
    row("shopify: one body byte changed", shop, shopifyRequest(changeByte(kShopifyBody, 5)),
        Verdict::BadSignature);
    row("shopify: one signature character changed", shop,
        shopifyRequest(kShopifyBody, changeChar(kShopifySignature, 2)), Verdict::BadSignature);
    row("shopify: wrong secret", makeSource(SchemeKind::Shopify, { "shpss_other" }), shopifyRequest(),
        Verdict::BadSignature);
    row("shopify: hex instead of base64", shop,
        shopifyRequest(kShopifyBody, crypto::decodeBase64(kShopifySignature).value_or(QByteArray()).toHex()),
        Verdict::BadSignature);
    row("shopify: missing signature", shop, with(shopifyRequest(), "X-Shopify-Hmac-Sha256", std::nullopt),
        Verdict::MissingSignature);
    row("shopify: missing webhook id", shop, with(shopifyRequest(), "X-Shopify-Webhook-Id", std::nullopt),
        Verdict::MissingId);
    row("shopify: unparseable trigger time", shop,
        with(shopifyRequest(), "X-Shopify-Triggered-At", QByteArray("yesterday")), Verdict::Ok, id, topic, 0);
    row("shopify: trigger time with an offset", shop,
        with(shopifyRequest(), "X-Shopify-Triggered-At", QByteArray("2023-03-29T20:00:27+02:00")),
        Verdict::Ok, id, topic, 0, 1680112827000);
}

void addGenericRows()
{
    const QByteArray key = QByteArrayLiteral("generic secret");
    const QByteArray body = QByteArrayLiteral("{\"meta\":{\"id\":12345},\"kind\":\"order.paid\"}");
    auto hexSource = makeSource(SchemeKind::HmacSha256, { key });
    hexSource.hmac.signaturePrefix = "sha256=";
    hexSource.hmac.idHeader = "X-Event-Id";
    hexSource.hmac.typeHeader = "X-Event-Type";
    const QByteArray hexSig = "sha256=" + hmacHex(key, { body });
    const Request hexRequest {
        makeHeaders({ { "X-Signature", hexSig }, { "X-Event-Id", "ev-1" }, { "X-Event-Type", "t.1" } }), body,
        0
    };
    row("hmac: hex, prefix, id and type headers", hexSource, hexRequest, Verdict::Ok, QStringLiteral("ev-1"),
        QStringLiteral("t.1"), 0);
    row("hmac: prefix missing", hexSource, with(hexRequest, "X-Signature", hexSig.sliced(7)),
        Verdict::BadSignature);
    row("hmac: one body byte changed", hexSource, Request { hexRequest.headers, changeByte(body, 3), 0 },
        Verdict::BadSignature);
    row("hmac: one signature character changed", hexSource,
        with(hexRequest, "X-Signature", changeChar(hexSig, 9)), Verdict::BadSignature);
    row("hmac: id header missing", hexSource, with(hexRequest, "X-Event-Id", std::nullopt),
        Verdict::MissingId);
    // The id is exactly the header's characters: a leading U+FEFF is kept, never dropped as a
    // byte order mark (a header of only U+FEFF once became an empty id that verified).
    row("hmac: id header of only U+FEFF", hexSource,
        with(hexRequest, "X-Event-Id", QByteArray("\xef\xbb\xbf")), Verdict::Ok, QString(QChar(0xFEFF)),
        QStringLiteral("t.1"), 0);
    row("hmac: signature header missing", hexSource, with(hexRequest, "X-Signature", std::nullopt),
        Verdict::MissingSignature);

    auto b64Source = makeSource(SchemeKind::HmacSha256, { "old", key });
    b64Source.hmac.signatureHeader = "X-Webhook-Signature";
    b64Source.hmac.encoding = HmacOptions::Encoding::Base64;
    b64Source.hmac.idJsonPointer = QStringLiteral("/meta/id");
    b64Source.hmac.typeJsonPointer = QStringLiteral("/kind");
    const Request b64Request { makeHeaders({ { "X-Webhook-Signature", hmacBase64(key, { body }) } }), body,
        0 };
    row("hmac: base64, JSON pointers, second secret", b64Source, b64Request, Verdict::Ok,
        QStringLiteral("12345"), QStringLiteral("order.paid"), 1);
    row("hmac: hex where base64 is configured", b64Source,
        with(b64Request, "X-Webhook-Signature", hmacHex(key, { body })), Verdict::BadSignature);
    const QByteArray noId = QByteArrayLiteral("{\"meta\":{},\"kind\":\"x\"}");
    row("hmac: id pointer finds nothing", b64Source,
        Request { makeHeaders({ { "X-Webhook-Signature", hmacBase64(key, { noId }) } }), noId, 0 },
        Verdict::MissingId);
    const QByteArray text = QByteArrayLiteral("not json");
    row("hmac: id pointer into a body that is not JSON", b64Source,
        Request { makeHeaders({ { "X-Webhook-Signature", hmacBase64(key, { text }) } }), text, 0 },
        Verdict::MalformedBody);

    const auto weakSource = makeSource(SchemeKind::HmacSha256, { key });
    row("hmac: no id configured gives a weak digest id", weakSource,
        Request { makeHeaders({ { "x-signature", hmacHex(key, { body }) } }), body, 0 }, Verdict::Ok,
        QStringLiteral("sha256:") + QString::fromLatin1(crypto::sha256Hex(body)), {}, 0, kNoTime, true);
    row("hmac: weak id over an empty body", weakSource,
        Request { makeHeaders({ { "X-Signature", hmacHex(key, { "" }) } }), {}, 0 }, Verdict::Ok,
        QStringLiteral("sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"), {}, 0,
        kNoTime, true);
}

// The secret in every form a mistake could print it, and the signature header's value.
QList<QByteArray> forbiddenInDetail(const SourceConfig &source, const Headers &headers)
{
    QList<QByteArray> out;
    for (const Secret &secret : source.secrets)
        out << secret.key << secret.key.toHex() << secret.key.toBase64();
    for (const auto &[name, value] : headers.fields()) {
        const QByteArray lower = name.toLower();
        if (lower.contains("signature") || lower.contains("hmac"))
            out << value;
    }
    return out;
}

} // namespace

void TstSignatures::addColumns()
{
    QTest::addColumn<SourceConfig>("source");
    QTest::addColumn<Request>("request");
    QTest::addColumn<int>("verdict");
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("type");
    QTest::addColumn<int>("secretIndex");
    QTest::addColumn<qint64>("occurredAtMs");
    QTest::addColumn<bool>("weak");
}

void TstSignatures::schemes_data()
{
    addColumns();
    addStandardWebhooksRows();
    addStripeRows();
    addGitHubRows();
    addShopifyRows();
    addGenericRows();
}

void TstSignatures::schemes()
{
    QFETCH(SourceConfig, source);
    QFETCH(Request, request);
    QFETCH(int, verdict);
    QFETCH(QString, id);
    QFETCH(QString, type);
    QFETCH(int, secretIndex);
    QFETCH(qint64, occurredAtMs);
    QFETCH(bool, weak);

    const Verification v = verify(source, request.headers, request.body, request.now);
    QCOMPARE(static_cast<int>(v.verdict), verdict);
    if (v.ok()) {
        QVERIFY(v.reason.isEmpty());
        QCOMPARE(v.providerEventId, id);
        QCOMPARE(v.eventType, type);
        QCOMPARE(v.secretIndex, secretIndex);
        QCOMPARE(v.secretLabel, source.secrets[secretIndex].label);
        QCOMPARE(v.weakId, weak);
        QCOMPARE(v.occurredAtMs.value_or(kNoTime), occurredAtMs);
    } else {
        QVERIFY(!v.reason.isEmpty());
        QVERIFY(!v.detail.isEmpty());
        QCOMPARE(v.secretIndex, -1);
        QVERIFY(v.secretLabel.isEmpty());
        QVERIFY(v.providerEventId.isEmpty());
        const QByteArray detail = v.detail.toUtf8();
        for (const QByteArray &secret : forbiddenInDetail(source, request.headers)) {
            if (secret.size() >= 8)
                QVERIFY2(!detail.contains(secret), detail.constData());
        }
    }
}

void TstSignatures::timestampWindow_data()
{
    QTest::addColumn<SchemeKind>("scheme");
    QTest::addColumn<qint64>("offset"); // signed time minus now
    QTest::addColumn<int>("verdict");
    const std::pair<const char *, SchemeKind> schemes[]
        = { { "sw", SchemeKind::StandardWebhooks }, { "stripe", SchemeKind::Stripe } };
    for (const auto &[name, kind] : schemes) {
        QTest::addRow("%s now-301", name)
            << kind << qint64(-301) << static_cast<int>(Verdict::StaleTimestamp);
        QTest::addRow("%s now-300", name) << kind << qint64(-300) << static_cast<int>(Verdict::Ok);
        QTest::addRow("%s now", name) << kind << qint64(0) << static_cast<int>(Verdict::Ok);
        QTest::addRow("%s now+300", name) << kind << qint64(300) << static_cast<int>(Verdict::Ok);
        QTest::addRow("%s now+301", name)
            << kind << qint64(301) << static_cast<int>(Verdict::FutureTimestamp);
        QTest::addRow("%s a day late", name)
            << kind << qint64(-86'400) << static_cast<int>(Verdict::StaleTimestamp);
    }
}

void TstSignatures::timestampWindow()
{
    QFETCH(SchemeKind, scheme);
    QFETCH(qint64, offset);
    QFETCH(int, verdict);
    const qint64 now = 1'700'000'000;
    const qint64 signedAt = now + offset;
    const QByteArray body = QByteArrayLiteral("{\"id\":\"evt_window\",\"type\":\"t\"}");
    Verification v;
    if (scheme == SchemeKind::StandardWebhooks) {
        const QByteArray key = QByteArrayLiteral("0123456789abcdef0123");
        const Headers headers = makeHeaders(
            { { "webhook-id", "msg_window" }, { "webhook-timestamp", QByteArray::number(signedAt) },
                { "webhook-signature", signStandardWebhooks(key, "msg_window", signedAt, body) } });
        v = verify(makeSource(scheme, { key }), headers, body, now);
    } else {
        const Headers headers
            = makeHeaders({ { "Stripe-Signature", stripeHeader(kStripeSecret, signedAt, body) } });
        v = verify(makeSource(scheme, { kStripeSecret }), headers, body, now);
    }
    QCOMPARE(static_cast<int>(v.verdict), verdict);
    // The signed time and the skew are recorded whatever the verdict, for the rejection row.
    QCOMPARE(v.signedAt.value_or(-1), signedAt);
    QCOMPARE(v.skewSeconds.value_or(-1), -offset);
}

void TstSignatures::malformedTimestamps_data()
{
    QTest::addColumn<SchemeKind>("scheme");
    QTest::addColumn<QByteArray>("timestamp");
    const std::pair<const char *, SchemeKind> schemes[]
        = { { "sw", SchemeKind::StandardWebhooks }, { "stripe", SchemeKind::Stripe } };
    const std::pair<const char *, QByteArray> values[] = {
        { "non-numeric", "soon" },
        { "negative", "-1700000000" },
        { "plus sign", "+1700000000" },
        { "20 digits", "17000000000000000000" },
        { "13 digits", "1700000000000" },
        { "leading space", " 1700000000" },
        { "trailing space", "1700000000 " },
        { "fraction", "1700000000.5" },
        { "exponent", "17e8" },
        { "hex", "0x6553f100" },
        { "empty", "" },
        { "NUL inside",
            QByteArray("1700\0"
                       "00000",
                10) },
    };
    for (const auto &[scheme, kind] : schemes) {
        for (const auto &[name, value] : values)
            QTest::addRow("%s %s", scheme, name) << kind << value;
    }
}

void TstSignatures::malformedTimestamps()
{
    QFETCH(SchemeKind, scheme);
    QFETCH(QByteArray, timestamp);
    const QByteArray body = QByteArrayLiteral("{\"id\":\"evt\"}");
    Verification v;
    if (scheme == SchemeKind::StandardWebhooks) {
        const QByteArray key = QByteArrayLiteral("key");
        const Headers headers = makeHeaders({ { "webhook-id", "msg" }, { "webhook-timestamp", timestamp },
            { "webhook-signature", signStandardWebhooks(key, "msg", 1'700'000'000, body) } });
        v = verify(makeSource(scheme, { key }), headers, body, 1'700'000'000);
    } else {
        const QByteArray good = stripeHeader(kStripeSecret, 1'700'000'000, body);
        const Headers headers
            = makeHeaders({ { "Stripe-Signature", "t=" + timestamp + good.sliced(good.indexOf(',')) } });
        v = verify(makeSource(scheme, { kStripeSecret }), headers, body, 1'700'000'000);
    }
    QVERIFY2(v.verdict == Verdict::MalformedTimestamp, qPrintable(v.reason));
    QCOMPARE(v.httpStatus(), 400);
    QCOMPARE(v.reason, QStringLiteral("malformed_timestamp"));
    QVERIFY(!v.signedAt);
}

void TstSignatures::rotationRecordsTheMatchingSecret()
{
    // Old and new secrets signed in one header, as a sender does during rotation.
    const QByteArray oldKey = QByteArrayLiteral("old key bytes 0123456789");
    const QByteArray newKey = QByteArrayLiteral("new key bytes 9876543210");
    const QByteArray body = QByteArrayLiteral("{\"type\":\"rotated\"}");
    const qint64 now = 1'700'000'000;
    const qint64 signedAt = now - 42;
    const QByteArray both = signStandardWebhooks(newKey, "msg_rot", signedAt, body) + ' '
        + signStandardWebhooks(oldKey, "msg_rot", signedAt, body);
    const QByteArray oldOnly = signStandardWebhooks(oldKey, "msg_rot", signedAt, body);
    auto headersWith = [&](const QByteArray &signature) {
        return makeHeaders({ { "webhook-id", "msg_rot" },
            { "webhook-timestamp", QByteArray::number(signedAt) }, { "webhook-signature", signature } });
    };

    SourceConfig source = makeSource(SchemeKind::StandardWebhooks, { newKey, oldKey });
    source.secrets[0].label = QStringLiteral("env:NEW_SECRET");
    source.secrets[1].label = QStringLiteral("file:/run/secrets/old");

    Verification v = verify(source, headersWith(both), body, now);
    QVERIFY(v.ok());
    QCOMPARE(v.secretIndex, 0);
    QCOMPARE(v.secretLabel, QStringLiteral("env:NEW_SECRET"));
    QCOMPARE(v.skewSeconds.value_or(0), qint64(42));
    QCOMPARE(v.signedAt.value_or(0), signedAt);
    QCOMPARE(v.eventType, QStringLiteral("rotated"));

    v = verify(source, headersWith(oldOnly), body, now);
    QVERIFY(v.ok());
    QCOMPARE(v.secretIndex, 1);
    QCOMPARE(v.secretLabel, QStringLiteral("file:/run/secrets/old"));

    // Rotation finished: the old secret is gone, and what only it signed is refused.
    source.secrets.removeLast();
    v = verify(source, headersWith(oldOnly), body, now);
    QVERIFY(v.verdict == Verdict::BadSignature);
    QVERIFY(!v.detail.contains(QStringLiteral("old")));
    v = verify(source, headersWith(both), body, now);
    QVERIFY(v.ok());
    QCOMPARE(v.secretIndex, 0);
}

void TstSignatures::rejectionSaysNothingOfTheSecretCount_data()
{
    QTest::addColumn<SchemeKind>("scheme");
    QTest::addColumn<Request>("request");
    // Each request is signed with a key the source does not have.
    const QByteArray stranger = QByteArrayLiteral("a key nobody configured");
    const QByteArray body = QByteArrayLiteral("{\"id\":\"evt_1\",\"type\":\"x\"}");
    const qint64 now = 1'700'000'000;
    const QByteArray ts = QByteArray::number(now);
    QTest::newRow("standard-webhooks")
        << SchemeKind::StandardWebhooks
        << Request { makeHeaders({ { "webhook-id", "msg_1" }, { "webhook-timestamp", ts },
                         { "webhook-signature", signStandardWebhooks(stranger, "msg_1", now, body) } }),
               body, now };
    QTest::newRow("stripe") << SchemeKind::Stripe
                            << Request { makeHeaders(
                                             { { "Stripe-Signature", stripeHeader(stranger, now, body) } }),
                                   body, now };
    QTest::newRow("github") << SchemeKind::GitHub
                            << Request {
                                   makeHeaders({ { "X-GitHub-Delivery", "d-1" },
                                       { "X-Hub-Signature-256", "sha256=" + hmacHex(stranger, { body }) } }),
                                   body, now
                               };
    QTest::newRow("shopify") << SchemeKind::Shopify
                             << Request { makeHeaders({ { "X-Shopify-Webhook-Id", "w-1" },
                                              { "X-Shopify-Hmac-Sha256", hmacBase64(stranger, { body }) } }),
                                    body, now };
    QTest::newRow("hmac-sha256") << SchemeKind::HmacSha256
                                 << Request { makeHeaders({ { "X-Signature", hmacHex(stranger, { body }) } }),
                                        body, now };
}

// The rejection's text is the 401 body: an unauthenticated sender must not learn from it how many
// secrets a source has (a second or third one means a rotation is under way).
void TstSignatures::rejectionSaysNothingOfTheSecretCount()
{
    QFETCH(SchemeKind, scheme);
    QFETCH(Request, request);
    const SourceConfig one = makeSource(scheme, { QByteArrayLiteral("current") });
    const SourceConfig three = makeSource(
        scheme, { QByteArrayLiteral("current"), QByteArrayLiteral("next"), QByteArrayLiteral("previous") });
    const Verification a = verify(one, request.headers, request.body, request.now);
    const Verification b = verify(three, request.headers, request.body, request.now);
    QVERIFY(a.verdict == Verdict::BadSignature);
    QCOMPARE(a.httpStatus(), 401);
    QVERIFY(b.verdict == a.verdict);
    QCOMPARE(b.httpStatus(), a.httpStatus());
    QCOMPARE(b.reason, a.reason);
    QCOMPARE(b.detail, a.detail);
    QVERIFY(!a.detail.isEmpty());
    QVERIFY2(!a.detail.contains(u'1') && !b.detail.contains(u'3'), qPrintable(b.detail));
}

void TstSignatures::signStandardWebhooksMatchesThePublishedVector()
{
    QCOMPARE(signStandardWebhooks(whsecKey(kSwSecret), kSwId, kSwTimestamp, kSwBody), kSwSignature);
    QVERIFY(signStandardWebhooks(whsecKey(kSwSecret), kSwId, kSwTimestamp + 1, kSwBody) != kSwSignature);
}

void TstSignatures::statusAndReasonFollowTheVerdict_data()
{
    QTest::addColumn<int>("verdict");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("reason");
    QTest::newRow("missing signature")
        << static_cast<int>(Verdict::MissingSignature) << 401 << QStringLiteral("missing_signature");
    QTest::newRow("bad signature") << static_cast<int>(Verdict::BadSignature) << 401
                                   << QStringLiteral("bad_signature");
    QTest::newRow("stale") << static_cast<int>(Verdict::StaleTimestamp) << 401
                           << QStringLiteral("stale_timestamp");
    QTest::newRow("future") << static_cast<int>(Verdict::FutureTimestamp) << 401
                            << QStringLiteral("future_timestamp");
    QTest::newRow("malformed timestamp")
        << static_cast<int>(Verdict::MalformedTimestamp) << 400 << QStringLiteral("malformed_timestamp");
    QTest::newRow("missing id") << static_cast<int>(Verdict::MissingId) << 400
                                << QStringLiteral("missing_id");
    QTest::newRow("malformed body") << static_cast<int>(Verdict::MalformedBody) << 400
                                    << QStringLiteral("malformed_body");
    QTest::newRow("ok") << static_cast<int>(Verdict::Ok) << 200 << QStringLiteral("");
}

void TstSignatures::statusAndReasonFollowTheVerdict()
{
    QFETCH(int, verdict);
    QFETCH(int, status);
    QFETCH(QString, reason);
    Verification v;
    v.verdict = static_cast<Verdict>(verdict);
    QCOMPARE(v.httpStatus(), status);
    QCOMPARE(v.ok(), status == 200);
    // The reason verify() reports is the same category, seen through a real request per verdict.
    const auto source = makeSource(SchemeKind::Stripe, { kStripeSecret });
    const qint64 now = 1'700'000'000;
    const QByteArray body = QByteArrayLiteral("{\"id\":\"evt\"}");
    Headers headers;
    QByteArray requestBody = body;
    switch (v.verdict) {
    case Verdict::Ok:
        headers = makeHeaders({ { "Stripe-Signature", stripeHeader(kStripeSecret, now, body) } });
        break;
    case Verdict::MissingSignature:
        break;
    case Verdict::BadSignature:
        headers = makeHeaders({ { "Stripe-Signature", stripeHeader("x", now, body) } });
        break;
    case Verdict::StaleTimestamp:
        headers = makeHeaders({ { "Stripe-Signature", stripeHeader(kStripeSecret, now - 999, body) } });
        break;
    case Verdict::FutureTimestamp:
        headers = makeHeaders({ { "Stripe-Signature", stripeHeader(kStripeSecret, now + 999, body) } });
        break;
    case Verdict::MalformedTimestamp:
        headers = makeHeaders({ { "Stripe-Signature", "t=x,v1=00" } });
        break;
    case Verdict::MissingId:
        requestBody = "{}";
        headers = makeHeaders({ { "Stripe-Signature", stripeHeader(kStripeSecret, now, requestBody) } });
        break;
    case Verdict::MalformedBody:
        requestBody = "{";
        headers = makeHeaders({ { "Stripe-Signature", stripeHeader(kStripeSecret, now, requestBody) } });
        break;
    }
    const Verification seen = verify(source, headers, requestBody, now);
    QCOMPARE(static_cast<int>(seen.verdict), verdict);
    QCOMPARE(seen.reason, reason);
    QCOMPARE(seen.httpStatus(), status);
}

QTEST_GUILESS_MAIN(TstSignatures)
#include "tst_signatures.moc"
