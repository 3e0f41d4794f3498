// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Business keys through the whole ingest path on SQLite and PostgreSQL: signed provider payloads
// over loopback HTTP, keys stored with the event in its transaction (never twice for a
// duplicate), a value past the bound counted and left out, and the shared event query finding
// events by key (key filter, search by value, newest first with keyset paging).

#include "../core/businesskey_payloads.h"
#include "ingestfixture.h"
#include "ingestharness.h"
#include "query/eventdetail.h"
#include "query/eventpage.h"

#include <QTest>

#include <algorithm>
#include <limits>

using namespace redrive;
using namespace redrive::test;

namespace {

const QByteArray kKeySources = R"(
[[sources]]
name = "kst"
scheme = "stripe"
secrets = ["whsec_stripe_fixture_secret"]
keys = { order = "json:/data/object/metadata/order_id", customer = "json:/data/object/customer", email = "json:/data/object/receipt_email" }

[[sources]]
name = "ksh"
scheme = "shopify"
secrets = ["shopify-fixture-secret"]
keys = { order = "json:/order_number", id = "json:/id", shop = "header:X-Shopify-Shop-Domain" }

[[sources]]
name = "kgh"
scheme = "github"
secrets = ["It is a Secret to Everybody"]
keys = { pr = "json:/pull_request/number", repo = "json:/repository/full_name" }

[[sources]]
name = "kgen"
scheme = "hmac-sha256"
secrets = ["generic-fixture-secret"]
signature_header = "X-Signature"
signature_prefix = "sha256="
id_header = "X-Event-Id"
keys = { order = "json:/order", note = "json:/note" }
)";

// The Stripe example as another payment: its own event id and order number.
QByteArray stripePayment(const QByteArray &eventId, const QByteArray &order)
{
    QByteArray body = keytest::kStripePaymentIntent;
    body.replace("evt_3MtwBwLkdIwHu7ix28a3tqPa", eventId);
    body.replace("\"order_id\": \"6735\"", QByteArray("\"order_id\": \"" + order + '"'));
    return body;
}

} // namespace

class TstEventKeys final : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<IngestHarness> h;

    int postStripe(const QByteArray &body)
    {
        auto headers = signStripe(kStripeSecret, h->nowSeconds(), body);
        const auto r = h->post("kst", headers, body);
        return r ? r->status : 0;
    }

    QList<qint64> find(const EventFilter &filter, qint64 fromId, int limit)
    {
        QString error;
        const auto rows = fetchEventPage(*h->reader, filter, fromId, limit);
        if (!rows) {
            qWarning("query: %s", qPrintable(rows.error()));
            return { -1 };
        }
        QList<qint64> ids;
        for (const EventRow &row : *rows)
            ids.append(row.id);
        return ids;
    }

    qint64 eventId(const QString &source, const QString &providerId)
    {
        return h
            ->scalar(QStringLiteral("SELECT id FROM events WHERE source = ? AND provider_event_id = ?"),
                { source, providerId })
            .toLongLong();
    }

    QList<EventKey> keysOf(qint64 id)
    {
        QString error;
        const auto keys = fetchEventKeys(*h->reader, id);
        if (!keys)
            qWarning("keys: %s", qPrintable(keys.error()));
        return keys.value_or(QList<EventKey> {});
    }

private Q_SLOTS:
    void init()
    {
        QString error;
        h = IngestHarness::create({}, &error, kKeySources);
        QVERIFY2(h, qPrintable(error));
    }
    void cleanup() { h.reset(); }

    void keysAreStoredWithTheEvent()
    {
        QCOMPARE(postStripe(keytest::kStripePaymentIntent), 200);
        const qint64 stripe = eventId(QStringLiteral("kst"), QStringLiteral("evt_3MtwBwLkdIwHu7ix28a3tqPa"));
        QVERIFY(stripe > 0);
        QCOMPARE(keysOf(stripe),
            (QList<EventKey> { { QStringLiteral("customer"), QStringLiteral("cus_NffrFeUfNV2Hib") },
                { QStringLiteral("email"), QStringLiteral("jenny.rosen@example.com") },
                { QStringLiteral("order"), QStringLiteral("6735") } }));

        HeaderList shopify = signShopify(kShopifySecret, keytest::kShopifyOrder, "sh-1", "orders/create");
        shopify.append(std::pair { QByteArray("X-Shopify-Shop-Domain"), QByteArray("acme.myshopify.com") });
        const auto r = h->post("ksh", shopify, keytest::kShopifyOrder);
        QVERIFY(r);
        QCOMPARE(r->status, 200);
        QCOMPARE(keysOf(eventId(QStringLiteral("ksh"), QStringLiteral("sh-1"))),
            (QList<EventKey> { { QStringLiteral("id"), QStringLiteral("820982911946154508") },
                { QStringLiteral("order"), QStringLiteral("1234") },
                { QStringLiteral("shop"), QStringLiteral("acme.myshopify.com") } }));

        const auto gh
            = h->post("kgh", signGitHub(kGitHubSecret, keytest::kGitHubPullRequest, "gh-1", "pull_request"),
                keytest::kGitHubPullRequest);
        QVERIFY(gh);
        QCOMPARE(gh->status, 200);
        QCOMPARE(keysOf(eventId(QStringLiteral("kgh"), QStringLiteral("gh-1"))),
            (QList<EventKey> { { QStringLiteral("pr"), QStringLiteral("2") },
                { QStringLiteral("repo"), QStringLiteral("Codertocat/Hello-World") } }));
    }

    void aDuplicateAddsNoKeys()
    {
        QCOMPARE(postStripe(keytest::kStripePaymentIntent), 200);
        QCOMPARE(postStripe(keytest::kStripePaymentIntent), 200);
        QCOMPARE(h->scalar(QStringLiteral("SELECT seen_count FROM events")).toInt(), 2);
        h->writer->stop(); // a stopping writer indexes what is pending
        QCOMPARE(h->scalar(QStringLiteral("SELECT COUNT(*) FROM event_keys")).toInt(), 3);
        QCOMPARE(h->scalar(QStringLiteral("SELECT COUNT(*) FROM event_keys_pending")).toInt(), 0);
    }

    void aPointerThatFindsNothingStoresNothing()
    {
        QByteArray body = stripePayment("evt_nometa", "x");
        body.replace("\"metadata\": { \"order_id\": \"x\" },", "");
        QCOMPARE(postStripe(body), 200);
        const QList<EventKey> keys = keysOf(eventId(QStringLiteral("kst"), QStringLiteral("evt_nometa")));
        QCOMPARE(keys.size(), 2);
        QVERIFY(std::none_of(keys.begin(), keys.end(), [](const EventKey &k) { return k.name == u"order"; }));
    }

    void aValuePastTheBoundIsCountedNotStored()
    {
        const QByteArray longOrder(kMaxBusinessKeyValueLength + 1, '9');
        QCOMPARE(postStripe(stripePayment("evt_long", longOrder)), 200); // the event itself is kept
        const qint64 id = eventId(QStringLiteral("kst"), QStringLiteral("evt_long"));
        QVERIFY(id > 0);
        QCOMPARE(keysOf(id).size(), 2);
        QCOMPARE(h->metric("redrive_ingest_key_values_too_long_total{source=\"kst\"}"), 1.0);
    }

    // The generic scheme reads keys with QJsonDocument, which decodes "\u0000" into the value:
    // such a value is no key, as on every other scheme's path, and the event is stored with its
    // other keys (a NUL used to fail the key insert and answer the signed event 503 forever).
    void aGenericSchemeKeyWithNulIsNoKey()
    {
        const QByteArray body = "{\"order\":\"o-1\\u0000x\",\"note\":\"fine\"}";
        const auto r = h->post("kgen", signGeneric(kGenericSecret, body, "gen-nul-1"), body);
        QVERIFY(r);
        QCOMPARE(r->status, 200);
        const QList<EventKey> keys = keysOf(eventId(QStringLiteral("kgen"), QStringLiteral("gen-nul-1")));
        QCOMPARE(keys.size(), 1);
        QCOMPARE(keys.value(0).name, QStringLiteral("note"));
        QCOMPARE(keys.value(0).value, QStringLiteral("fine"));
    }

    void searchFindsByKeyNewestFirstWithPaging()
    {
        QList<qint64> orders;
        for (int i = 0; i < 5; ++i) {
            const QByteArray providerId = "evt_page_" + QByteArray::number(i);
            QCOMPARE(postStripe(stripePayment(providerId, i % 2 == 0 ? "1042" : "1043")), 200);
            if (i % 2 == 0)
                orders.prepend(eventId(QStringLiteral("kst"), QString::fromLatin1(providerId)));
        }
        // Found from the commit on, whether the keys are still pending (the writer indexes them
        // in batches) or in the index (a stopping writer indexes what is pending).
        for (const bool indexed : { false, true }) {
            if (indexed) {
                h->writer->stop();
                QCOMPARE(h->scalar(QStringLiteral("SELECT COUNT(*) FROM event_keys_pending")).toInt(), 0);
                QCOMPARE(h->scalar(QStringLiteral("SELECT COUNT(*) FROM event_keys")).toInt(), 15);
                QCOMPARE(h->metric("redrive_ingest_keys_indexed_total"),
                    h->reader->isSqlite() ? 15.0 : 0.0); // PostgreSQL indexes at once
            }
            findsOrders(orders);
            if (QTest::currentTestFailed())
                return;
        }
    }

private:
    void findsOrders(const QList<qint64> &orders)
    {
        EventFilter byKey;
        byKey.keyName = QStringLiteral("order");
        byKey.keyValue = QStringLiteral("1042");
        constexpr qint64 top = std::numeric_limits<qint64>::max();
        QCOMPARE(find(byKey, top, 10), orders);
        const QList<qint64> first = find(byKey, top, 2);
        QCOMPARE(first, orders.mid(0, 2));
        QCOMPARE(find(byKey, first.last() - 1, 2), orders.mid(2, 1));

        EventFilter byValue;
        byValue.search = QStringLiteral("1042");
        QCOMPARE(find(byValue, top, 10), orders);
        EventFilter byNamedValue;
        byNamedValue.search = QStringLiteral("order:1043");
        QCOMPARE(find(byNamedValue, top, 10).size(), 2);
        EventFilter wrongName;
        wrongName.search = QStringLiteral("customer:1042");
        QVERIFY(find(wrongName, top, 10).isEmpty());

        QString error;
        const auto detail = fetchEventDetail(*h->reader, orders.first());
        QVERIFY2(detail && *detail, qPrintable(detail.error()));
        QVERIFY((*detail)->keys.contains(EventKey { QStringLiteral("order"), QStringLiteral("1042") }));
    }
};

QTEST_GUILESS_MAIN(TstEventKeys)
#include "tst_eventkeys.moc"
