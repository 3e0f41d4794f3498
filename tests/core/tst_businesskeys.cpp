// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Business keys: what verification hands back from each scheme's one JSON pass over real
// provider payloads, what it leaves out (nothing found, not a string or number, too long), and
// the `key=` filter of the shared event query.

#include "businesskey_payloads.h"
#include "query/eventfilter.h"
#include "signatures/jsonbody.h"
#include "tst_signatures_support.h"

#include <QTest>

using namespace redrive;
using namespace sigtest;

namespace {

constexpr qint64 kNow = 1'700'000'000;
const QByteArray kSecret = "business-key-secret";
const QByteArray kWhsec = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

BusinessKey bodyKey(const QString &name, const QByteArray &pointer)
{
    return BusinessKey { name, BusinessKey::Kind::JsonPointer, pointer, {} };
}

BusinessKey headerKey(const QString &name, const QByteArray &header)
{
    return BusinessKey { name, BusinessKey::Kind::Header, {}, header };
}

SourceConfig sourceWith(SchemeKind scheme, const QList<BusinessKey> &keys)
{
    SourceConfig s
        = makeSource(scheme, { scheme == SchemeKind::StandardWebhooks ? whsecKey(kWhsec) : kSecret });
    s.keys = keys;
    return s;
}

// A request for `scheme` signed with the source's secret, as the provider would send it.
Headers signedHeaders(SchemeKind scheme, const QByteArray &body, const Headers &extra = {})
{
    Headers h = extra;
    switch (scheme) {
    case SchemeKind::GitHub:
        h.add("X-GitHub-Event", "pull_request");
        h.add("X-GitHub-Delivery", "72d3162e-cc78-11e3-81ab-4c9367dc0958");
        h.add("X-Hub-Signature-256", "sha256=" + hmacHex(kSecret, { body }));
        break;
    case SchemeKind::Stripe:
        h.add("Stripe-Signature", stripeHeader(kSecret, kNow, body));
        break;
    case SchemeKind::Shopify:
        h.add("X-Shopify-Topic", "orders/create");
        h.add("X-Shopify-Webhook-Id", "b54557e4-bdd9-4b37-8a5f-bf7d70bcd043");
        h.add("X-Shopify-Hmac-Sha256", hmacBase64(kSecret, { body }));
        break;
    case SchemeKind::StandardWebhooks: {
        const QByteArray ts = QByteArray::number(kNow);
        h.add("webhook-id", "msg_2b8k");
        h.add("webhook-timestamp", ts);
        h.add("webhook-signature", "v1," + hmacBase64(whsecKey(kWhsec), { "msg_2b8k", ".", ts, ".", body }));
        break;
    }
    case SchemeKind::HmacSha256:
        h.add("X-Signature", hmacHex(kSecret, { body }));
        break;
    }
    return h;
}

} // namespace

Q_DECLARE_METATYPE(redrive::BusinessKey)
Q_DECLARE_METATYPE(redrive::EventKey)

class TstBusinessKeys final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void extractsFromEachScheme_data();
    void extractsFromEachScheme();
    void somethingThatIsNotAValueStoresNothing_data();
    void somethingThatIsNotAValueStoresNothing();
    void valuesPastTheBoundAreCountedNotStored();
    void aRejectedRequestHandsBackNoKeys();
    void aBodyThatIsNotJsonStillVerifies();
    void pointersReadInTheSamePass();
    void keyFilterParsesAndRoundTrips();
    void badKeyFilterNamesTheField_data();
    void badKeyFilterNamesTheField();
    void keyFilterAndSearchUseTheKeyTable();
};

void TstBusinessKeys::extractsFromEachScheme_data()
{
    QTest::addColumn<SchemeKind>("scheme");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QList<BusinessKey>>("keys");
    QTest::addColumn<QList<EventKey>>("expected");

    QTest::newRow("github pull_request")
        << SchemeKind::GitHub << keytest::kGitHubPullRequest
        << QList<BusinessKey> { bodyKey(QStringLiteral("pr"), "/pull_request/number"),
               bodyKey(QStringLiteral("repo"), "/repository/full_name"),
               headerKey(QStringLiteral("delivery"), "X-GitHub-Delivery") }
        << QList<EventKey> { { QStringLiteral("pr"), QStringLiteral("2") },
               { QStringLiteral("repo"), QStringLiteral("Codertocat/Hello-World") },
               { QStringLiteral("delivery"), QStringLiteral("72d3162e-cc78-11e3-81ab-4c9367dc0958") } };
    QTest::newRow("stripe payment_intent")
        << SchemeKind::Stripe << keytest::kStripePaymentIntent
        << QList<BusinessKey> { bodyKey(QStringLiteral("order"), "/data/object/metadata/order_id"),
               bodyKey(QStringLiteral("customer"), "/data/object/customer"),
               bodyKey(QStringLiteral("email"), "/data/object/receipt_email"),
               bodyKey(QStringLiteral("amount"), "/data/object/amount") }
        << QList<EventKey> { { QStringLiteral("order"), QStringLiteral("6735") },
               { QStringLiteral("customer"), QStringLiteral("cus_NffrFeUfNV2Hib") },
               { QStringLiteral("email"), QStringLiteral("jenny.rosen@example.com") },
               { QStringLiteral("amount"), QStringLiteral("2000") } };
    QTest::newRow("shopify orders/create")
        << SchemeKind::Shopify << keytest::kShopifyOrder
        << QList<BusinessKey> { bodyKey(QStringLiteral("order"), "/order_number"),
               bodyKey(QStringLiteral("id"), "/id"), bodyKey(QStringLiteral("sku"), "/line_items/0/sku"),
               headerKey(QStringLiteral("shop"), "X-Shopify-Shop-Domain") }
        << QList<EventKey> { { QStringLiteral("order"), QStringLiteral("1234") },
               { QStringLiteral("id"), QStringLiteral("820982911946154508") }, // all 64 bits
               { QStringLiteral("sku"), QStringLiteral("IPOD2008PINK") },
               { QStringLiteral("shop"), QStringLiteral("acme.myshopify.com") } };
    QTest::newRow("standard-webhooks")
        << SchemeKind::StandardWebhooks
        << QByteArray("{\"type\":\"invoice.paid\",\"data\":{\"invoice\":\"in_42\",\"total\":12.5}}")
        << QList<BusinessKey> { bodyKey(QStringLiteral("invoice"), "/data/invoice"),
               bodyKey(QStringLiteral("total"), "/data/total") }
        << QList<EventKey> { { QStringLiteral("invoice"), QStringLiteral("in_42") },
               { QStringLiteral("total"), QStringLiteral("12.5") } };
    QTest::newRow("hmac-sha256, escaped pointer")
        << SchemeKind::HmacSha256 << QByteArray("{\"a/b\":{\"~c\":\"x-1\"},\"n\":7}")
        << QList<BusinessKey> { bodyKey(QStringLiteral("odd"), "/a~1b/~0c"),
               bodyKey(QStringLiteral("n"), "/n") }
        << QList<EventKey> { { QStringLiteral("odd"), QStringLiteral("x-1") },
               { QStringLiteral("n"), QStringLiteral("7") } };
}

void TstBusinessKeys::extractsFromEachScheme()
{
    QFETCH(SchemeKind, scheme);
    QFETCH(QByteArray, body);
    QFETCH(QList<BusinessKey>, keys);
    QFETCH(QList<EventKey>, expected);
    const SourceConfig source = sourceWith(scheme, keys);
    const Headers headers
        = signedHeaders(scheme, body, makeHeaders({ { "X-Shopify-Shop-Domain", "acme.myshopify.com" } }));
    const auto v = signatures::verify(source, headers, body, kNow);
    QVERIFY2(v.ok(), qPrintable(v.detail));
    QCOMPARE(v.keys, expected);
    QCOMPARE(v.keysTooLong, 0);
}

void TstBusinessKeys::somethingThatIsNotAValueStoresNothing_data()
{
    QTest::addColumn<QByteArray>("pointer");
    QTest::newRow("absent member") << QByteArray("/data/object/metadata/invoice_id");
    QTest::newRow("absent parent") << QByteArray("/nothing/here");
    QTest::newRow("object") << QByteArray("/data/object/metadata");
    QTest::newRow("null") << QByteArray("/data/object/description");
    QTest::newRow("boolean") << QByteArray("/livemode");
    QTest::newRow("index past the end") << QByteArray("/data/object/list/3");
    QTest::newRow("empty string") << QByteArray("/data/object/empty");
}

void TstBusinessKeys::somethingThatIsNotAValueStoresNothing()
{
    QFETCH(QByteArray, pointer);
    QByteArray body = keytest::kStripePaymentIntent;
    body.replace("\"status\": \"succeeded\"", "\"status\": \"succeeded\", \"list\": [1], \"empty\": \"\"");
    const SourceConfig source = sourceWith(SchemeKind::Stripe,
        { bodyKey(QStringLiteral("k"), pointer),
            bodyKey(QStringLiteral("order"), "/data/object/metadata/order_id") });
    const auto v = signatures::verify(source, signedHeaders(SchemeKind::Stripe, body), body, kNow);
    QVERIFY2(v.ok(), qPrintable(v.detail)); // a key that finds nothing is never an error
    QCOMPARE(v.keys, (QList<EventKey> { { QStringLiteral("order"), QStringLiteral("6735") } }));
    QCOMPARE(v.keysTooLong, 0);
}

void TstBusinessKeys::valuesPastTheBoundAreCountedNotStored()
{
    const QString atBound(kMaxBusinessKeyValueLength, u'a');
    const QString pastBound(kMaxBusinessKeyValueLength + 1, u'b');
    const QByteArray body = "{\"fits\":\"" + atBound.toUtf8() + "\",\"long\":\"" + pastBound.toUtf8() + "\"}";
    const SourceConfig source = sourceWith(SchemeKind::HmacSha256,
        { bodyKey(QStringLiteral("fits"), "/fits"), bodyKey(QStringLiteral("long"), "/long"),
            headerKey(QStringLiteral("h"), "X-Long") });
    const Headers headers = signedHeaders(SchemeKind::HmacSha256, body,
        makeHeaders({ { "X-Long", QByteArray(kMaxBusinessKeyValueLength + 5, 'h') } }));
    const auto v = signatures::verify(source, headers, body, kNow);
    QVERIFY2(v.ok(), qPrintable(v.detail));
    QCOMPARE(v.keys, (QList<EventKey> { { QStringLiteral("fits"), atBound } }));
    QCOMPARE(v.keysTooLong, 2);
}

void TstBusinessKeys::aRejectedRequestHandsBackNoKeys()
{
    const QByteArray body = keytest::kStripePaymentIntent;
    const SourceConfig source = sourceWith(
        SchemeKind::Stripe, { bodyKey(QStringLiteral("order"), "/data/object/metadata/order_id") });
    const QByteArray tampered = QByteArray(body).replace("6735", "6736");
    const auto v = signatures::verify(source, signedHeaders(SchemeKind::Stripe, body), tampered, kNow);
    QVERIFY(!v.ok());
    QVERIFY(v.keys.isEmpty());
}

void TstBusinessKeys::aBodyThatIsNotJsonStillVerifies()
{
    // GitHub may send form-encoded payloads: the event is kept, its body keys are just absent.
    const QByteArray body = "payload=%7B%22number%22%3A2%7D";
    const SourceConfig source = sourceWith(SchemeKind::GitHub,
        { bodyKey(QStringLiteral("pr"), "/number"),
            headerKey(QStringLiteral("delivery"), "X-GitHub-Delivery") });
    const auto v = signatures::verify(source, signedHeaders(SchemeKind::GitHub, body), body, kNow);
    QVERIFY2(v.ok(), qPrintable(v.detail));
    QCOMPARE(v.keys.size(), 1);
    QCOMPARE(v.keys[0].name, QStringLiteral("delivery"));
}

void TstBusinessKeys::pointersReadInTheSamePass()
{
    const QByteArrayView fields[] = { "id", "type" };
    signatures::jsonbody::Member members[2];
    const QByteArrayView pointers[] = { "/data/object/metadata/order_id", "/data/object/amount", "/nope" };
    signatures::jsonbody::Scalar scalars[3];
    QCOMPARE(
        signatures::jsonbody::readObject(keytest::kStripePaymentIntent, fields, members, pointers, scalars),
        signatures::jsonbody::Status::Ok);
    QCOMPARE(members[0].string, std::optional<QString>(QStringLiteral("evt_3MtwBwLkdIwHu7ix28a3tqPa")));
    QCOMPARE(scalars[0].text, std::optional<QString>(QStringLiteral("6735")));
    QCOMPARE(scalars[1].text, std::optional<QString>(QStringLiteral("2000")));
    QVERIFY(!scalars[2].found);
    QVERIFY(!scalars[2].text);
    // A body that is not JSON finds nothing, including what an earlier body found.
    QCOMPARE(signatures::jsonbody::readObject("{not json", fields, members, pointers, scalars),
        signatures::jsonbody::Status::NotJson);
    QVERIFY(!scalars[0].found);
}

void TstBusinessKeys::keyFilterParsesAndRoundTrips()
{
    QString field, message;
    const auto f = EventFilter::fromQuery(
        QUrlQuery(QStringLiteral("key=order:10%3A42&source=stripe")), &field, &message);
    QVERIFY2(f, qPrintable(field + u' ' + message));
    QCOMPARE(f->keyName, QStringLiteral("order"));
    QCOMPARE(f->keyValue, QStringLiteral("10:42")); // the value may hold ':' itself
    QVERIFY(!f->isEmpty());
    const auto again = EventFilter::fromQuery(f->toQuery(), &field, &message);
    QVERIFY(again);
    QCOMPARE(*again, *f);
}

void TstBusinessKeys::badKeyFilterNamesTheField_data()
{
    QTest::addColumn<QString>("query");
    QTest::newRow("no colon") << QStringLiteral("key=1042");
    QTest::newRow("no name") << QStringLiteral("key=:1042");
    QTest::newRow("no value") << QStringLiteral("key=order:");
    QTest::newRow("long name") << QStringLiteral("key=%1:1").arg(QString(65, u'n'));
}

void TstBusinessKeys::badKeyFilterNamesTheField()
{
    QFETCH(QString, query);
    QString field, message;
    QVERIFY(!EventFilter::fromQuery(QUrlQuery(query), &field, &message));
    QCOMPARE(field, QStringLiteral("key"));
    QVERIFY(!message.isEmpty());
}

void TstBusinessKeys::keyFilterAndSearchUseTheKeyTable()
{
    EventFilter byKey;
    byKey.keyName = QStringLiteral("order");
    byKey.keyValue = QStringLiteral("1042");
    const SqlFragment k = eventFilterSql(byKey, Dialect::Sqlite);
    QVERIFY(k.sql.contains(QLatin1String("event_keys WHERE name = ? AND value = ?")));
    // Keys not yet moved into the index are read from their pending rows in the same lookup.
    QVERIFY(k.sql.contains(
        QLatin1String("event_keys_pending p, json_each(p.keys) j WHERE j.key = ? AND j.value = ?")));
    QCOMPARE(k.binds,
        (QVariantList { QStringLiteral("order"), QStringLiteral("1042"), QStringLiteral("order"),
            QStringLiteral("1042") }));
    const SqlFragment pg = eventFilterSql(byKey, Dialect::Postgres); // PostgreSQL has nothing pending
    QVERIFY(!pg.sql.contains(QLatin1String("event_keys_pending")));
    QCOMPARE(pg.binds, (QVariantList { QStringLiteral("order"), QStringLiteral("1042") }));

    EventFilter plain;
    plain.search = QStringLiteral("cus_1");
    const SqlFragment p = eventFilterSql(plain, Dialect::Sqlite);
    QVERIFY(p.sql.contains(QLatin1String("event_keys WHERE value = ?")));
    QVERIFY(!p.sql.contains(QLatin1String("name = ?")));

    EventFilter named;
    named.search = QStringLiteral("order:1042");
    const SqlFragment n = eventFilterSql(named, Dialect::Sqlite);
    QVERIFY(n.sql.contains(QLatin1String("event_keys WHERE name = ? AND value = ?")));
    QVERIFY(n.binds.contains(QStringLiteral("order")));
    QVERIFY(n.binds.contains(QStringLiteral("1042")));
}

QTEST_GUILESS_MAIN(TstBusinessKeys)
#include "tst_businesskeys.moc"
