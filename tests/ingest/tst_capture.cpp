// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// A captured webhook must not become new events (issue 13, item 1), over loopback HTTP on SQLite
// and PostgreSQL. GitHub, Shopify and the generic scheme sign the body only: the same body and
// signature re-sent under a fresh id or another type header is a duplicate of the first event, and
// the signature fields that would make such a re-send possible are never stored. And only the
// provider may knock: a source's allowed_ips refuses other client addresses (taken from a trusted
// proxy's X-Forwarded-For, never from an untrusted peer's) before any signature work.

#include "crypto/crypto.h"
#include "ingestfixture.h"
#include "ingestharness.h"
#include "storage/ingeststore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <thread>

using namespace redrive;
using namespace redrive::test;

namespace {

const QByteArray kBody
    = "{\"id\":\"evt_captured\",\"type\":\"invoice.paid\",\"kind\":\"order.created\",\"action\":\"opened\","
      "\"customer\":{\"id\":\"cus_42\"},\"amount\":1200}";

// Two more sources: one that turns body dedupe off (a provider whose heartbeats repeat the same
// body as new events), and a generic one with a signature header of its own naming.
const QByteArray kExtraSources = R"(
[[sources]]
name = "beat"
scheme = "github"
secrets = ["It is a Secret to Everybody"]
dedupe_by_body = false

[[sources]]
name = "acme"
scheme = "hmac-sha256"
secrets = ["generic-fixture-secret"]
signature_header = "X-Acme-Mac"
id_header = "X-Event-Id"
)";

const QList<QByteArray> kSignatureFields { "x-hub-signature-256", "x-hub-signature", "x-shopify-hmac-sha256",
    "webhook-signature", "stripe-signature", "x-signature", "x-acme-mac" };

HeaderList signAcme(const QByteArray &body, const QByteArray &id)
{
    return { { "X-Acme-Mac", crypto::hmacSha256(kGenericSecret, body).toHex() }, { "X-Event-Id", id } };
}

// Stored header names, lowercased.
QList<QByteArray> headerNames(const QString &json)
{
    QList<QByteArray> names;
    for (const QJsonValue &pair : QJsonDocument::fromJson(json.toUtf8()).array())
        names.append(pair.toArray().at(0).toString().toLatin1().toLower());
    return names;
}

} // namespace

class TstCapture final : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<IngestHarness> h;

    HeaderList sign(
        const QByteArray &source, const QByteArray &body, const QByteArray &id, const QByteArray &type)
    {
        if (source == "gh" || source == "beat")
            return signGitHub(kGitHubSecret, body, id, type);
        if (source == "sh")
            return signShopify(kShopifySecret, body, id, type);
        if (source == "sw")
            return signStandardWebhooks(
                *crypto::decodeBase64(QByteArrayView(kStandardSecret).sliced(6)), id, h->nowSeconds(), body);
        if (source == "st")
            return signStripe(kStripeSecret, h->nowSeconds(), body);
        if (source == "acme")
            return signAcme(body, id);
        return signGeneric(kGenericSecret, body, id); // gen: the type comes from the body
    }

    int count(const QString &where, const QVariantList &binds = {})
    {
        return h->scalar(QStringLiteral("SELECT COUNT(*) FROM events WHERE ") + where, binds).toInt();
    }

    static QJsonObject json(const std::optional<RawResponse> &r)
    {
        return r ? QJsonDocument::fromJson(r->body).object() : QJsonObject();
    }

private Q_SLOTS:
    void init()
    {
        QString error;
        h = IngestHarness::create({}, &error, kExtraSources);
        QVERIFY2(h, qPrintable(error));
    }
    void cleanup() { h.reset(); }

    void replayUnderFreshIdIsADuplicate_data()
    {
        QTest::addColumn<QByteArray>("source");
        QTest::addColumn<int>("deliveries");
        QTest::newRow("github") << QByteArray("gh") << 2;
        QTest::newRow("shopify") << QByteArray("sh") << 1;
        QTest::newRow("generic hmac, id header") << QByteArray("gen") << 1;
        QTest::newRow("generic hmac, own signature header") << QByteArray("acme") << 0;
    }

    void replayUnderFreshIdIsADuplicate()
    {
        QFETCH(QByteArray, source);
        QFETCH(int, deliveries);
        const auto first = h->post(source, sign(source, kBody, "delivery-1", "issues"), kBody);
        QVERIFY(first);
        QCOMPARE(first->status, 200);
        const qint64 id = json(first).value(QLatin1String("id")).toInteger();
        QVERIFY(id > 0);
        QCOMPARE(json(first).value(QLatin1String("duplicate")).toBool(), false);

        // The captured body and signature, re-sent under a fresh id and another type header.
        const auto again = h->post(source, sign(source, kBody, "delivery-2-forged", "push"), kBody);
        QVERIFY(again);
        QCOMPARE(again->status, 200);
        QCOMPARE(json(again).value(QLatin1String("duplicate")).toBool(), true);
        QCOMPARE(json(again).value(QLatin1String("id")).toInteger(), id);

        QCOMPARE(count(QStringLiteral("source = ?"), { QString::fromLatin1(source) }), 1);
        QCOMPARE(h->scalar(QStringLiteral("SELECT seen_count FROM events WHERE id = ?"), { id }).toInt(), 2);
        QCOMPARE(
            h->scalar(QStringLiteral("SELECT provider_event_id FROM events WHERE id = ?"), { id }).toString(),
            QStringLiteral("delivery-1"));
        QCOMPARE(
            h->scalar(QStringLiteral("SELECT COUNT(*) FROM deliveries WHERE event_id = ?"), { id }).toInt(),
            deliveries);
        QCOMPARE(h->metric("redrive_ingest_duplicates_total{source=\"" + source + "\"}"), 1.0);

        // The original id stays a duplicate too.
        const auto original = h->post(source, sign(source, kBody, "delivery-1", "issues"), kBody);
        QVERIFY(original);
        QCOMPARE(json(original).value(QLatin1String("id")).toInteger(), id);
        QCOMPARE(h->scalar(QStringLiteral("SELECT seen_count FROM events WHERE id = ?"), { id }).toInt(), 3);
    }

    // Concurrent re-sends land in one writer batch: the unique key still admits exactly one.
    void concurrentReplaysAreOneEvent()
    {
        constexpr int kSenders = 12;
        std::vector<std::optional<RawResponse>> answers(kSenders);
        std::vector<std::thread> senders;
        for (int i = 0; i < kSenders; ++i) {
            const HeaderList headers = sign("gh", kBody, "storm-" + QByteArray::number(i), "issues");
            senders.emplace_back(
                [&, i, headers] { answers[std::size_t(i)] = h->post("gh", headers, kBody); });
        }
        for (auto &t : senders)
            t.join();
        QSet<qint64> ids;
        int fresh = 0;
        for (const auto &a : answers) {
            QVERIFY(a);
            QCOMPARE(a->status, 200);
            ids.insert(json(a).value(QLatin1String("id")).toInteger());
            fresh += json(a).value(QLatin1String("duplicate")).toBool() ? 0 : 1;
        }
        QCOMPARE(ids.size(), 1);
        QCOMPARE(fresh, 1);
        QCOMPARE(count(QStringLiteral("source = 'gh'")), 1);
        QCOMPARE(
            h->scalar(QStringLiteral("SELECT seen_count FROM events WHERE source = 'gh'")).toInt(), kSenders);
        QCOMPARE(h->scalar(QStringLiteral("SELECT COUNT(*) FROM deliveries")).toInt(), 2);
    }

    // The store on its own, every batch path (SQLite runs both rows the same way): rows of one
    // batch that share a body, and later batches repeating it, all count on the first event.
    void storeDedupesOnTheBodyInEveryBatchPath_data()
    {
        QTest::addColumn<int>("path");
        QTest::newRow("native") << int(IngestStore::PostgresBatches::Native);
        QTest::newRow("multi-row statements") << int(IngestStore::PostgresBatches::MultiRow);
    }
    void storeDedupesOnTheBodyInEveryBatchPath()
    {
        QFETCH(int, path);
        auto db = h->database->open(QStringLiteral("store"));
        QVERIFY(db);
        IngestStore store(*db, IngestStore::PostgresBatches(path));
        QString error;
        const auto prepared = store.prepare();
        QVERIFY2(prepared, qPrintable(prepared.error()));
        auto event = [](const QString &id, const QByteArray &body, bool byBody) {
            IncomingEvent e = makeIncomingEvent(id, QStringLiteral("gh"));
            e.body = body;
            e.bodySha256Hex = crypto::sha256Hex(body);
            e.dedupeByBody = byBody;
            return e;
        };
        auto upsert = [&](const QList<UpsertRow> &rows, QList<UpsertResult> *results) {
            auto upserted = withTransaction(*db, [&] { return store.upsertEvents(rows); });
            if (!upserted) {
                error = upserted.error();
                return false;
            }
            *results = std::move(*upserted);
            return true;
        };
        const QString pending = QStringLiteral("pending");
        const IncomingEvent a = event(QStringLiteral("a"), kBody, true),
                            b = event(QStringLiteral("b"), kBody, true);
        QList<UpsertResult> results;
        QVERIFY2(upsert({ UpsertRow { &a, pending, 1 }, UpsertRow { &b, pending, 2 } }, &results),
            qPrintable(error));
        QCOMPARE(results.size(), 2);
        QVERIFY(results[0].eventId > 0);
        QCOMPARE(results[0].seenCount, 1); // new
        QCOMPARE(results[1].eventId, results[0].eventId);
        QVERIFY(results[1].seenCount > 2); // a duplicate: seen more often than this batch carried it
        const qint64 first = results[0].eventId;

        const IncomingEvent c = event(QStringLiteral("c"), kBody, true),
                            d = event(QStringLiteral("d"), kBody, false),
                            again = event(QStringLiteral("a"), "{\"other\":1}", true);
        QVERIFY2(upsert({ UpsertRow { &c, pending, 1 }, UpsertRow { &d, pending, 1 },
                            UpsertRow { &again, pending, 1 } },
                     &results),
            qPrintable(error));
        QCOMPARE(results[0].eventId, first);
        QCOMPARE(results[0].seenCount, 4);
        QVERIFY(results[1].eventId != first); // no body key: a new event
        QCOMPARE(results[1].seenCount, 1);
        QCOMPARE(results[2].eventId, first); // the id decides first
        QCOMPARE(results[2].seenCount, 5);
        QCOMPARE(count(QStringLiteral("source = 'gh'")), 2);
        QCOMPARE(h->scalar(QStringLiteral("SELECT COUNT(*) FROM event_status")).toInt(), 2);
    }

    // Standard Webhooks signs the id: the same body under two ids is two signed events.
    void schemesThatSignTheIdKeepBothEvents()
    {
        QCOMPARE(h->post("sw", sign("sw", kBody, "msg_1", {}), kBody)->status, 200);
        const auto second = h->post("sw", sign("sw", kBody, "msg_2", {}), kBody);
        QCOMPARE(second->status, 200);
        QCOMPARE(json(second).value(QLatin1String("duplicate")).toBool(), false);
        QCOMPARE(count(QStringLiteral("source = 'sw'")), 2);
        QCOMPARE(count(QStringLiteral("source = 'sw' AND dedupe_sha256 IS NULL")), 2);
    }

    void dedupeByBodyCanBeTurnedOff()
    {
        QVERIFY(!h->config->source(u"beat")->dedupeByBody);
        QVERIFY(h->config->source(u"gh")->dedupeByBody);
        const QByteArray beat = "{\"ping\":true}";
        const auto a = h->post("beat", sign("beat", beat, "beat-1", "ping"), beat);
        const auto b = h->post("beat", sign("beat", beat, "beat-2", "ping"), beat);
        QVERIFY(a && b);
        QCOMPARE(a->status, 200);
        QCOMPARE(b->status, 200);
        QCOMPARE(json(b).value(QLatin1String("duplicate")).toBool(), false);
        QVERIFY(json(a).value(QLatin1String("id")) != json(b).value(QLatin1String("id")));
        QCOMPARE(count(QStringLiteral("source = 'beat'")), 2);
        // The same id is still a duplicate.
        QCOMPARE(json(h->post("beat", sign("beat", beat, "beat-2", "ping"), beat))
                     .value(QLatin1String("duplicate"))
                     .toBool(),
            true);
    }

    void signatureHeadersAreNotStored_data()
    {
        QTest::addColumn<QByteArray>("source");
        QTest::newRow("github") << QByteArray("gh");
        QTest::newRow("shopify") << QByteArray("sh");
        QTest::newRow("standard-webhooks") << QByteArray("sw");
        QTest::newRow("stripe") << QByteArray("st");
        QTest::newRow("generic hmac") << QByteArray("gen");
        QTest::newRow("generic hmac, own header") << QByteArray("acme");
    }

    void signatureHeadersAreNotStored()
    {
        QFETCH(QByteArray, source);
        const QByteArray body = QByteArray(kBody).replace("evt_captured", QByteArray("evt_" + source));
        HeaderList headers = sign(source, body, "stored-1", "issues");
        headers.append(std::pair<QByteArray, QByteArray>(
            "X-Hub-Signature", "sha1=0123456789abcdef0123456789abcdef01234567")); // legacy
        headers.append(std::pair<QByteArray, QByteArray>("X-Request-Trace", "trace-7"));
        const auto r = h->post(source, headers, body);
        QVERIFY(r);
        QCOMPARE(r->status, 200);
        const qint64 id = json(r).value(QLatin1String("id")).toInteger();
        const QVariantMap row
            = h->row(QStringLiteral("SELECT headers, verified_by FROM events WHERE id = ?"), { id });
        const QList<QByteArray> names = headerNames(row.value(QStringLiteral("headers")).toString());
        QVERIFY2(
            names.contains("x-request-trace"), qPrintable(row.value(QStringLiteral("headers")).toString()));
        for (const QByteArray &field : kSignatureFields)
            QVERIFY2(!names.contains(field), field.constData());
        // What verified the event is still recorded.
        QVERIFY(!row.value(QStringLiteral("verified_by")).toString().isEmpty());
    }

    // Sources for the allowlist tests: "v4" takes 127.0.0.2 and 10.0.0.0/8, "v6" takes only ::1,
    // "none" takes an IPv6 documentation range that no loopback client is in.
    static std::unique_ptr<IngestHarness> allowlistHarness(
        const QByteArray &listen, const QByteArray &serverToml = {})
    {
        IngestHarness::Options options;
        options.listen = listen;
        options.serverToml = serverToml;
        QString error;
        auto harness = IngestHarness::create(options, &error, R"(
[[sources]]
name = "v4"
scheme = "github"
secrets = ["It is a Secret to Everybody"]
allowed_ips = ["10.0.0.0/8", "127.0.0.2"]

[[sources]]
name = "v6"
scheme = "github"
secrets = ["It is a Secret to Everybody"]
allowed_ips = ["2001:db8::/32", "::1/128"]

[[sources]]
name = "none"
scheme = "github"
secrets = ["It is a Secret to Everybody"]
allowed_ips = ["2001:db8::/32"]
)");
        if (!harness)
            qWarning("%s", qPrintable(error));
        return harness;
    }

    int rejections(const QString &reason)
    {
        return h->scalar(QStringLiteral("SELECT COUNT(*) FROM rejections WHERE reason = ?"), { reason })
            .toInt();
    }

    void allowedIpsRefuseOtherClientsBeforeVerifying()
    {
        h = allowlistHarness("127.0.0.1:0");
        QVERIFY(h);
        const HeaderList signedHeaders = signGitHub(kGitHubSecret, kBody, "from-2", "issues");
        const auto allowed = h->postFrom("127.0.0.2", "127.0.0.1", "v4", signedHeaders, kBody);
        QVERIFY(allowed);
        QCOMPARE(allowed->status, 200);
        QCOMPARE(
            h->scalar(QStringLiteral("SELECT remote_addr FROM events WHERE provider_event_id = 'from-2'"))
                .toString(),
            QStringLiteral("127.0.0.2"));

        // A correctly signed request from another address is refused all the same.
        const auto refused = h->postFrom(
            "127.0.0.3", "127.0.0.1", "v4", signGitHub(kGitHubSecret, kBody, "from-3", "issues"), kBody);
        QVERIFY(refused);
        QCOMPARE(refused->status, 403);
        QCOMPARE(json(refused).value(QLatin1String("error")).toString(), QStringLiteral("ip_not_allowed"));
        QTRY_COMPARE(rejections(QStringLiteral("ip_not_allowed")), 1);
        const QVariantMap row
            = h->row(QStringLiteral(
                         "SELECT source, status_code, remote_addr, detail FROM rejections WHERE reason = ?"),
                { QStringLiteral("ip_not_allowed") });
        QCOMPARE(row.value(QStringLiteral("source")).toString(), QStringLiteral("v4"));
        QCOMPARE(row.value(QStringLiteral("status_code")).toInt(), 403);
        QCOMPARE(row.value(QStringLiteral("remote_addr")).toString(), QStringLiteral("127.0.0.3"));
        QVERIFY(row.value(QStringLiteral("detail")).toString().contains(QLatin1String("127.0.0.3")));
        QCOMPARE(h->metric("redrive_ingest_rejected_total{reason=\"ip_not_allowed\"}"), 1.0);
        QCOMPARE(count(QStringLiteral("provider_event_id = 'from-3'")), 0);

        // Before any signature work: a bad signature from a refused address is ip_not_allowed,
        // not bad_signature, and the answer comes on the header block alone (the announced body is
        // never sent). redrive_ingest_requests_total counts requests that reach verification.
        RawConnection c;
        QVERIFY(c.connectFrom("127.0.0.3", "127.0.0.1", h->port()));
        QVERIFY(c.send("POST /hooks/v4 HTTP/1.1\r\nHost: x\r\nX-Hub-Signature-256: sha256=00\r\n"
                       "X-GitHub-Delivery: d\r\nX-GitHub-Event: push\r\nContent-Length: 4096\r\n\r\n"));
        const auto early = c.readResponse(5'000);
        QVERIFY2(early, qPrintable(c.lastError()));
        QCOMPARE(early->status, 403);
        QTRY_COMPARE(rejections(QStringLiteral("ip_not_allowed")), 2);
        QCOMPARE(rejections(QStringLiteral("bad_signature")), 0);
        QCOMPARE(h->metric("redrive_ingest_requests_total{source=\"v4\"}"), 1.0); // the allowed one only

        // 127.0.0.1 is in no range of v4; a source without allowed_ips takes any address.
        const auto local = h->post("v4", signGitHub(kGitHubSecret, kBody, "from-1", "issues"), kBody);
        QVERIFY(local);
        QCOMPARE(local->status, 403);
        const auto open = h->postFrom(
            "127.0.0.3", "127.0.0.1", "gh", signGitHub(kGitHubSecret, kBody, "open-3", "issues"), kBody);
        QVERIFY(open);
        QCOMPARE(open->status, 200);
    }

    void allowedIpsMatchIpv6()
    {
        h = allowlistHarness("[::1]:0");
        QVERIFY(h);
        const auto allowed
            = h->postFrom("::1", "::1", "v6", signGitHub(kGitHubSecret, kBody, "six", "issues"), kBody);
        QVERIFY(allowed);
        QCOMPARE(allowed->status, 200);
        const auto refused
            = h->postFrom("::1", "::1", "none", signGitHub(kGitHubSecret, kBody, "six-no", "issues"), kBody);
        QVERIFY(refused);
        QCOMPARE(refused->status, 403);
        QTRY_COMPARE(rejections(QStringLiteral("ip_not_allowed")), 1);
        QCOMPARE(h->scalar(QStringLiteral("SELECT remote_addr FROM rejections")).toString(),
            QStringLiteral("::1"));
        // An IPv6 peer is in no IPv4 range.
        const auto v4Only
            = h->postFrom("::1", "::1", "v4", signGitHub(kGitHubSecret, kBody, "six-v4", "issues"), kBody);
        QVERIFY(v4Only);
        QCOMPARE(v4Only->status, 403);
    }

    // 127.0.0.1 plays the trusted proxy; 127.0.0.2 and 127.0.0.3 are clients that are not.
    void trustedProxyForwardsTheClient()
    {
        h = allowlistHarness("127.0.0.1:0", "trusted_proxies = [\"127.0.0.1/32\", \"192.0.2.0/24\"]");
        QVERIFY(h);
        // Each request its own body: github sources dedupe by body.
        auto bodyOf = [](const QByteArray &id) -> QByteArray { return "{\"delivery\":\"" + id + "\"}"; };
        auto via = [&](const QByteArray &id, const QList<QByteArray> &forwarded) {
            HeaderList headers = signGitHub(kGitHubSecret, bodyOf(id), id, "issues");
            for (const QByteArray &value : forwarded)
                headers.append({ QByteArrayLiteral("X-Forwarded-For"), value });
            return headers;
        };
        // The right-most untrusted entry is the client; what a client wrote further left is not.
        const auto allowed = h->postFrom("127.0.0.1", "127.0.0.1", "v4",
            via("fwd-allowed", { "198.51.100.7, 10.1.2.3", "192.0.2.9" }), bodyOf("fwd-allowed"));
        QVERIFY(allowed);
        QCOMPARE(allowed->status, 200);
        QCOMPARE(h->scalar(QStringLiteral(
                               "SELECT remote_addr FROM events WHERE provider_event_id = 'fwd-allowed'"))
                     .toString(),
            QStringLiteral("10.1.2.3"));

        // A client that puts an allowed address first gains nothing.
        const auto refused = h->postFrom("127.0.0.1", "127.0.0.1", "v4",
            via("fwd-refused", { "10.1.2.3, 198.51.100.7" }), bodyOf("fwd-refused"));
        QVERIFY(refused);
        QCOMPARE(refused->status, 403);
        QTRY_COMPARE(rejections(QStringLiteral("ip_not_allowed")), 1);
        QVariantMap row = h->row(QStringLiteral("SELECT remote_addr, detail FROM rejections"));
        QCOMPARE(row.value(QStringLiteral("remote_addr")).toString(), QStringLiteral("198.51.100.7"));
        QVERIFY2(row.value(QStringLiteral("detail"))
                     .toString()
                     .contains(QLatin1String("via trusted proxy 127.0.0.1")),
            qPrintable(row.value(QStringLiteral("detail")).toString()));

        // A forged X-Forwarded-For from an untrusted peer is ignored: 127.0.0.3 is judged itself...
        const auto forged
            = h->postFrom("127.0.0.3", "127.0.0.1", "v4", via("forged", { "127.0.0.2" }), bodyOf("forged"));
        QVERIFY(forged);
        QCOMPARE(forged->status, 403);
        QTRY_COMPARE(rejections(QStringLiteral("ip_not_allowed")), 2);
        QCOMPARE(h->scalar(QStringLiteral("SELECT remote_addr FROM rejections ORDER BY id DESC")).toString(),
            QStringLiteral("127.0.0.3"));
        // ... and 127.0.0.2 stays itself whatever it claims, also in what the event records.
        const auto honest = h->postFrom(
            "127.0.0.2", "127.0.0.1", "v4", via("honest", { "198.51.100.7" }), bodyOf("honest"));
        QVERIFY(honest);
        QCOMPARE(honest->status, 200);
        QCOMPARE(
            h->scalar(QStringLiteral("SELECT remote_addr FROM events WHERE provider_event_id = 'honest'"))
                .toString(),
            QStringLiteral("127.0.0.2"));

        // An unreadable entry is judged by the proxy that handed it on (127.0.0.1: not allowed).
        const auto garbled = h->postFrom("127.0.0.1", "127.0.0.1", "v4",
            via("garbled", { "10.1.2.3, not-an-address" }), bodyOf("garbled"));
        QVERIFY(garbled);
        QCOMPARE(garbled->status, 403);
        QTRY_COMPARE(rejections(QStringLiteral("ip_not_allowed")), 3);
        QCOMPARE(h->scalar(QStringLiteral("SELECT remote_addr FROM rejections ORDER BY id DESC")).toString(),
            QStringLiteral("127.0.0.1"));

        // Other rejections behind the proxy record the client too.
        HeaderList badSignature = via("bad", { "10.9.9.9" });
        badSignature[0].second = "sha256=00";
        const auto bad = h->postFrom("127.0.0.1", "127.0.0.1", "v4", badSignature, bodyOf("bad"));
        QVERIFY(bad);
        QCOMPARE(bad->status, 401);
        QTRY_COMPARE(rejections(QStringLiteral("bad_signature")), 1);
        QCOMPARE(
            h->scalar(QStringLiteral("SELECT remote_addr FROM rejections WHERE reason = 'bad_signature'"))
                .toString(),
            QStringLiteral("10.9.9.9"));
    }

    // A request refused for want of an id still carries a valid signature: not stored either.
    void rejectedRequestsKeepNoSignature()
    {
        const QByteArray body = "{\"no\":\"delivery id\"}";
        HeaderList headers = signGitHub(kGitHubSecret, body, "x", "push");
        headers.removeIf([](const auto &f) { return f.first == "X-GitHub-Delivery"; });
        const auto r = h->post("gh", headers, body);
        QVERIFY(r);
        QCOMPARE(r->status, 400);
        QTRY_COMPARE(
            h->scalar(QStringLiteral("SELECT COUNT(*) FROM rejections WHERE reason = 'missing_id'")).toInt(),
            1);
        const QList<QByteArray> names = headerNames(
            h->scalar(QStringLiteral("SELECT headers FROM rejections WHERE reason = 'missing_id'"))
                .toString());
        QVERIFY(names.contains("x-github-event"));
        QVERIFY(!names.contains("x-hub-signature-256"));
    }
};

QTEST_GUILESS_MAIN(TstCapture)
#include "tst_capture.moc"
