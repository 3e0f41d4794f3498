// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// POST /hooks/{source} end to end over loopback HTTP, on SQLite and PostgreSQL: every scheme
// signed like its provider signs, what is stored (byte-exact body, digest, redacted headers,
// verifier label, skew, deliveries), duplicates, rejections and their table, edge refusals,
// back-pressure, and the probe endpoints.

#include "crypto/crypto.h"
#include "ingestfixture.h"
#include "ingestharness.h"
#include "storage/ingeststore.h"

#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <thread>
#include <unistd.h>

using namespace redrive;
using namespace redrive::test;

namespace {

using Field = std::pair<QByteArray, QByteArray>;

const QByteArray kBody = QByteArray("{\"id\":\"evt_") + "%1"
    + "\",\"type\":\"invoice.paid\",\"action\":\"opened\","
      "\"kind\":\"order.created\",\"created\":1700000000,"
      "\"customer\":{\"id\":\"cus_42\"},\"note\":\"caf\xc3\xa9 \\u00e9\"}";

QByteArray bodyFor(const QByteArray &tag)
{
    QByteArray b = kBody;
    b.replace("%1", tag);
    return b;
}

} // namespace

class TstIngest final : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<IngestHarness> h;

    bool makeHarness(const IngestHarness::Options &options = {})
    {
        h.reset();
        QString error;
        h = IngestHarness::create(options, &error);
        if (!h)
            qWarning("harness: %s", qPrintable(error));
        return h != nullptr;
    }

    // A correctly signed request for `source`, signed `skew` seconds before the harness clock.
    HeaderList sign(const QByteArray &source, const QByteArray &body, const QByteArray &id, qint64 skew = 7)
    {
        const qint64 ts = h->nowSeconds() - skew;
        if (source == "gh")
            return signGitHub(kGitHubSecret, body, id, "issues");
        if (source == "sw")
            return signStandardWebhooks(
                *crypto::decodeBase64(QByteArrayView(kStandardSecret).sliced(6)), id, ts, body);
        if (source == "st")
            return signStripe(kStripeSecret, ts, body);
        if (source == "sh")
            return signShopify(kShopifySecret, body, id, "orders/create");
        if (source == "gen")
            return signGeneric(kGenericSecret, body, id);
        return signGeneric(kGenericSecret, body); // weak
    }

    int count(const QString &table, const QString &where = {}, const QVariantList &binds = {})
    {
        return h
            ->scalar(QStringLiteral("SELECT COUNT(*) FROM %1%2")
                         .arg(table, where.isEmpty() ? QString() : QStringLiteral(" WHERE ") + where),
                binds)
            .toInt();
    }

private Q_SLOTS:
    void init() { QVERIFY(makeHarness()); }
    void cleanup() { h.reset(); }

    void acceptsEachScheme_data()
    {
        QTest::addColumn<QByteArray>("source");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QStringList>("destinations");
        QTest::addColumn<bool>("skewRecorded");
        QTest::addColumn<bool>("weak");
        QTest::addColumn<QString>("verifiedBy");
        QTest::addColumn<qint64>("occurredAt");

        QTest::newRow("github (second, rotated-in secret)")
            << QByteArray("gh") << QStringLiteral("issues.opened")
            << QStringList { QStringLiteral("crm"), QStringLiteral("erp") } << false << false
            << QStringLiteral("sources[0].secrets[1]") << qint64(-1);
        QTest::newRow("standard-webhooks")
            << QByteArray("sw") << QStringLiteral("invoice.paid") << QStringList { QStringLiteral("crm") }
            << true << false << QStringLiteral("sources[1].secrets[0]") << qint64(-2);
        QTest::newRow("stripe (no route)")
            << QByteArray("st") << QStringLiteral("invoice.paid") << QStringList {} << true << false
            << QStringLiteral("sources[2].secrets[0]") << qint64(1'700'000'000'000);
        QTest::newRow("shopify") << QByteArray("sh") << QStringLiteral("orders/create")
                                 << QStringList { QStringLiteral("erp") } << false << false
                                 << QStringLiteral("sources[3].secrets[0]") << qint64(1'767'323'045'678);
        QTest::newRow("hmac-sha256 with id header")
            << QByteArray("gen") << QStringLiteral("order.created") << QStringList { QStringLiteral("crm") }
            << false << false << QStringLiteral("sources[4].secrets[0]") << qint64(-1);
        QTest::newRow("hmac-sha256 weak id") << QByteArray("weak") << QString() << QStringList {} << false
                                             << true << QStringLiteral("sources[5].secrets[0]") << qint64(-1);
    }

    void acceptsEachScheme()
    {
        QFETCH(QByteArray, source);
        QFETCH(QString, type);
        QFETCH(QStringList, destinations);
        QFETCH(bool, skewRecorded);
        QFETCH(bool, weak);
        QFETCH(QString, verifiedBy);
        QFETCH(qint64, occurredAt);

        const QByteArray tag = source + "-1";
        const QByteArray body = bodyFor(tag);
        const QByteArray headerId
            = QByteArray(source == "st" ? "evt_" : "id-") + tag; // stripe's id is in the body
        HeaderList headers = sign(source, body, headerId);
        headers.append(Field { "Authorization", "Bearer very-secret-token" });
        headers.append(Field { "Cookie", "session=abc123" });
        headers.append(Field { "X-Trace", "trace-1" });

        auto r = h->post(source, headers, body);
        QVERIFY(r);
        QCOMPARE(r->status, 200);
        const QVariantMap event = h->row(
            QStringLiteral("SELECT e.*, s.status FROM events e JOIN event_status s ON s.event_id = e.id "
                           "WHERE e.source = ?"),
            { QString::fromLatin1(source) });
        QVERIFY(!event.isEmpty());
        const qint64 id = event.value(QStringLiteral("id")).toLongLong();
        QCOMPARE(r->body, "{\"id\":" + QByteArray::number(id) + ",\"duplicate\":false}");

        const QString expectedId = weak
            ? QStringLiteral("sha256:") + QString::fromLatin1(crypto::sha256Hex(body))
            : QString::fromLatin1(headerId);
        QCOMPARE(event.value(QStringLiteral("provider_event_id")).toString(), expectedId);
        QCOMPARE(event.value(QStringLiteral("weak_id")).toInt(), weak ? 1 : 0);
        QCOMPARE(event.value(QStringLiteral("event_type")).toString(), type);
        QCOMPARE(event.value(QStringLiteral("body")).toByteArray(), body);
        QCOMPARE(event.value(QStringLiteral("body_sha256")).toString(),
            QString::fromLatin1(crypto::sha256Hex(body)));
        QCOMPARE(event.value(QStringLiteral("body_size")).toInt(), body.size());
        QCOMPARE(event.value(QStringLiteral("content_type")).toString(), QStringLiteral("application/json"));
        QCOMPARE(event.value(QStringLiteral("verified_by")).toString(), verifiedBy);
        QCOMPARE(event.value(QStringLiteral("remote_addr")).toString(), QStringLiteral("127.0.0.1"));
        QCOMPARE(event.value(QStringLiteral("seen_count")).toInt(), 1);
        QCOMPARE(event.value(QStringLiteral("received_at")).toLongLong(), h->clock.nowMs());
        QCOMPARE(event.value(QStringLiteral("status")).toString(),
            destinations.isEmpty() ? QStringLiteral("no_route") : QStringLiteral("pending"));
        if (skewRecorded)
            QCOMPARE(event.value(QStringLiteral("clock_skew_ms")).toLongLong(), 7'000);
        else
            QVERIFY(event.value(QStringLiteral("clock_skew_ms")).isNull());
        if (occurredAt == -1)
            QVERIFY(event.value(QStringLiteral("occurred_at")).isNull());
        else if (occurredAt == -2) // the signed time
            QCOMPARE(event.value(QStringLiteral("occurred_at")).toLongLong(), (h->nowSeconds() - 7) * 1000);
        else
            QCOMPARE(event.value(QStringLiteral("occurred_at")).toLongLong(), occurredAt);

        const Headers stored = Headers::fromJson(event.value(QStringLiteral("headers")).toString().toUtf8());
        QCOMPARE(stored.value("Authorization"), QByteArrayView("[redacted]"));
        QCOMPARE(stored.value("Cookie"), QByteArrayView("[redacted]"));
        QCOMPARE(stored.value("X-Trace"), QByteArrayView("trace-1"));
        QVERIFY(
            !event.value(QStringLiteral("headers")).toString().contains(QLatin1String("very-secret-token")));

        QCOMPARE(
            count(QStringLiteral("deliveries"), QStringLiteral("event_id = ?"), { id }), destinations.size());
        for (const QString &destination : destinations) {
            const QVariantMap d
                = h->row(QStringLiteral("SELECT * FROM deliveries WHERE event_id = ? AND destination = ?"),
                    { id, destination });
            QCOMPARE(d.value(QStringLiteral("status")).toString(), QStringLiteral("pending"));
            QCOMPARE(d.value(QStringLiteral("attempt_count")).toInt(), 0);
            QCOMPARE(d.value(QStringLiteral("next_attempt_at")).toLongLong(), h->clock.nowMs());
            QCOMPARE(d.value(QStringLiteral("idempotency_key")).toString(),
                deliveryIdempotencyKey(QString::fromLatin1(source), expectedId, destination));
            if (destination == u"crm")
                QCOMPARE(d.value(QStringLiteral("ordering_key")).toString(), QStringLiteral("cus_42"));
            else
                QVERIFY(d.value(QStringLiteral("ordering_key")).isNull());
        }

        // The same event again: acknowledged as a duplicate, counted, never processed again.
        h->clock.advanceMs(1'500);
        r = h->post(source, sign(source, body, headerId), body);
        QVERIFY(r);
        QCOMPARE(r->status, 200);
        QCOMPARE(r->body, "{\"id\":" + QByteArray::number(id) + ",\"duplicate\":true}");
        QCOMPARE(count(QStringLiteral("events")), 1);
        QCOMPARE(h->scalar(QStringLiteral("SELECT seen_count FROM events WHERE id = ?"), { id }).toInt(), 2);
        QCOMPARE(
            h->scalar(QStringLiteral("SELECT last_seen_at FROM events WHERE id = ?"), { id }).toLongLong(),
            h->clock.nowMs());
        QCOMPARE(count(QStringLiteral("deliveries")), destinations.size());
        QCOMPARE(h->metric("redrive_ingest_received_total{source=\"" + source + "\"}"), 2.0);
        QCOMPARE(h->metric("redrive_ingest_duplicates_total{source=\"" + source + "\"}"), 1.0);
    }

    void rejectedRequests_data()
    {
        QTest::addColumn<QByteArray>("source");
        QTest::addColumn<int>("mutation");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("reason");

        // 0 wrong secret, 1 body changed by one byte, 2 signature header removed,
        // 3 timestamp 301 s old, 4 timestamp 301 s ahead, 5 id header removed
        QTest::newRow("github wrong secret")
            << QByteArray("gh") << 0 << 401 << QStringLiteral("bad_signature");
        QTest::newRow("github body tampered")
            << QByteArray("gh") << 1 << 401 << QStringLiteral("bad_signature");
        QTest::newRow("github no signature")
            << QByteArray("gh") << 2 << 401 << QStringLiteral("missing_signature");
        QTest::newRow("github no delivery id")
            << QByteArray("gh") << 5 << 400 << QStringLiteral("missing_id");
        QTest::newRow("standard stale") << QByteArray("sw") << 3 << 401 << QStringLiteral("stale_timestamp");
        QTest::newRow("standard future")
            << QByteArray("sw") << 4 << 401 << QStringLiteral("future_timestamp");
        QTest::newRow("stripe tampered") << QByteArray("st") << 1 << 401 << QStringLiteral("bad_signature");
        QTest::newRow("shopify wrong secret")
            << QByteArray("sh") << 0 << 401 << QStringLiteral("bad_signature");
    }

    void rejectedRequests()
    {
        QFETCH(QByteArray, source);
        QFETCH(int, mutation);
        QFETCH(int, status);
        QFETCH(QString, reason);

        QByteArray body = bodyFor("bad");
        HeaderList headers;
        switch (mutation) {
        case 0:
            headers = source == "gh" ? signGitHub("wrong secret", body, "id-bad", "issues")
                                     : signShopify("wrong secret", body, "id-bad", "orders/create");
            break;
        case 3:
            headers = sign(source, body, "id-bad", 301);
            break;
        case 4:
            headers = sign(source, body, "id-bad", -301);
            break;
        default:
            headers = sign(source, body, "id-bad");
        }
        if (mutation == 1)
            body[body.size() - 2] = 'X';
        if (mutation == 2 || mutation == 5) {
            const QByteArray drop = mutation == 2 ? "X-Hub-Signature-256" : "X-GitHub-Delivery";
            headers.removeIf([&](const auto &f) { return f.first == drop; });
        }
        headers.append(Field { "Authorization", "Bearer very-secret-token" });
        auto r = h->post(source, headers, body);
        QVERIFY(r);
        QCOMPARE(r->status, status);
        const QByteArray expectedStart = "{\"error\":\"" + reason.toUtf8() + "\",\"message\":\"";
        QVERIFY2(r->body.startsWith(expectedStart), r->body.constData());
        QCOMPARE(count(QStringLiteral("events")), 0);
        QTRY_COMPARE(count(QStringLiteral("rejections")), 1);
        const QVariantMap row = h->row(QStringLiteral("SELECT * FROM rejections"));
        QCOMPARE(row.value(QStringLiteral("source")).toString(), QString::fromLatin1(source));
        QCOMPARE(row.value(QStringLiteral("reason")).toString(), reason);
        QCOMPARE(row.value(QStringLiteral("status_code")).toInt(), status);
        QCOMPARE(row.value(QStringLiteral("remote_addr")).toString(), QStringLiteral("127.0.0.1"));
        QVERIFY(!row.value(QStringLiteral("detail")).toString().isEmpty());
        const QString storedHeaders = row.value(QStringLiteral("headers")).toString();
        QVERIFY(storedHeaders.contains(QLatin1String("[redacted]")));
        QVERIFY(!storedHeaders.contains(QLatin1String("very-secret-token")));
        QCOMPARE(h->metric("redrive_ingest_rejected_total{reason=\"" + reason.toUtf8() + "\"}"), 1.0);
    }

    void unknownSourceWrongMethodWrongPath()
    {
        auto r = h->post("nope", {}, "{}");
        QVERIFY(r);
        QCOMPARE(r->status, 404);
        QVERIFY(r->body.contains("unknown_source"));
        QTRY_COMPARE(count(QStringLiteral("rejections"),
                         QStringLiteral("reason = 'unknown_source' AND source = 'nope'")),
            1);

        r = roundTrip(h->port(), buildRequest("GET", "/hooks/gh", {}, {}));
        QVERIFY(r);
        QCOMPARE(r->status, 405);
        QCOMPARE(r->header("Allow"), QByteArray("POST"));
        r = roundTrip(h->port(), buildRequest("PUT", "/hooks/gh", {}, "{}"));
        QVERIFY(r);
        QCOMPARE(r->status, 405);
        r = roundTrip(h->port(), buildRequest("POST", "/healthz", {}, "{}"));
        QVERIFY(r);
        QCOMPARE(r->status, 405);
        QCOMPARE(r->header("Allow"), QByteArray("GET"));
        for (const char *path : { "/", "/hooks/", "/hooks/gh/extra", "/admin/v1/events" }) {
            r = roundTrip(h->port(), buildRequest("POST", path, {}, "{}"));
            QVERIFY(r);
            QCOMPARE(r->status, 404);
        }
        QCOMPARE(count(QStringLiteral("events")), 0);
    }

    void invalidUtf8BodyStoredByteExact()
    {
        const QByteArray body("\xff\xfe{\"bad\":\"\xc3\x28\"}\x00\x01tail", 22);
        auto r = h->post("gh", signGitHub(kGitHubSecret, body, "utf8-1", "push"), body);
        QVERIFY(r);
        QCOMPARE(r->status, 200);
        QCOMPARE(h->scalar(QStringLiteral("SELECT body FROM events WHERE provider_event_id = 'utf8-1'"))
                     .toByteArray(),
            body);
        QCOMPARE(h->scalar(QStringLiteral("SELECT event_type FROM events WHERE provider_event_id = 'utf8-1'"))
                     .toString(),
            QStringLiteral("push"));
    }

    void emptyBodyIsStoredAsEmpty()
    {
        auto r = h->post("gh", signGitHub(kGitHubSecret, QByteArray(), "empty-1", "ping"), QByteArray());
        QVERIFY(r);
        QCOMPARE(r->status, 200);
        const QVariantMap e = h->row(QStringLiteral(
            "SELECT body, body_size, body_sha256 FROM events WHERE provider_event_id = 'empty-1'"));
        QVERIFY(!e.value(QStringLiteral("body")).isNull());
        QCOMPARE(e.value(QStringLiteral("body")).toByteArray(), QByteArray());
        QCOMPARE(e.value(QStringLiteral("body_size")).toInt(), 0);
        QCOMPARE(e.value(QStringLiteral("body_sha256")).toString(),
            QString::fromLatin1(crypto::sha256Hex(QByteArray())));
    }

    // A sender that dies mid-body leaves nothing behind: no event, no rejection row.
    void truncatedBodyLeavesNoRow()
    {
        const QByteArray body = bodyFor("cut");
        {
            RawConnection c;
            QVERIFY(c.connect(h->port()));
            const QByteArray full
                = buildRequest("POST", "/hooks/gh", signGitHub(kGitHubSecret, body, "cut-1", "push"), body);
            QVERIFY(c.send(full.first(full.size() - 10)));
        }
        // The same connection slot is free again and a complete request goes through.
        auto r = h->post("gh", signGitHub(kGitHubSecret, body, "cut-2", "push"), body);
        QVERIFY(r);
        QCOMPARE(r->status, 200);
        QCOMPARE(count(QStringLiteral("events")), 1);
        QCOMPARE(count(QStringLiteral("events"), QStringLiteral("provider_event_id = 'cut-1'")), 0);
        QCOMPARE(count(QStringLiteral("rejections")), 0);
    }

    void oversizedBodyAndHeaders()
    {
        const QByteArray big(70'000, 'a'); // the fixture's limit is 65,536
        auto r = h->post("gh", signGitHub(kGitHubSecret, big, "big-1", "push"), big);
        QVERIFY(r);
        QCOMPARE(r->status, 413);
        r = h->post("gh", { { "X-Huge", QByteArray(20'000, 'h') } }, "{}");
        QVERIFY(r);
        QCOMPARE(r->status, 431);
        QTRY_COMPARE(count(QStringLiteral("rejections")), 2);
        QCOMPARE(count(QStringLiteral("rejections"),
                     QStringLiteral("reason = 'too_large' AND status_code = 413 AND source = 'gh'")),
            1);
        QCOMPARE(count(QStringLiteral("rejections"),
                     QStringLiteral("reason = 'headers_too_large' AND status_code = 431")),
            1);
        QCOMPARE(count(QStringLiteral("events")), 0);
    }

    void overlongIdRefused()
    {
        const QByteArray body = bodyFor("long");
        auto r = h->post("gh", signGitHub(kGitHubSecret, body, QByteArray(2'000, 'i'), "push"), body);
        QVERIFY(r);
        QCOMPARE(r->status, 400);
        QVERIFY(r->body.contains("invalid_id"));
        QCOMPARE(count(QStringLiteral("events")), 0);
    }

    // A full write queue answers 503 with Retry-After instead of queueing without bound; what
    // was queued is still committed and acknowledged.
    void queueFullAnswers503()
    {
        QVERIFY(makeHarness({ .queueCapacity = 2 }));
        h->writer->setPaused(true);
        std::vector<std::thread> waiting;
        std::vector<std::optional<RawResponse>> answers(2);
        for (int i = 0; i < 2; ++i) {
            const QByteArray body = bodyFor("q" + QByteArray::number(i));
            const HeaderList headers = signGitHub(kGitHubSecret, body, "q-" + QByteArray::number(i), "push");
            waiting.emplace_back([this, body, headers, &answers, i] {
                answers[static_cast<std::size_t>(i)] = h->post("gh", headers, body);
            });
        }
        QTRY_COMPARE(h->writer->queueDepth(), 2);
        const QByteArray body = bodyFor("q-over");
        auto r = h->post("gh", signGitHub(kGitHubSecret, body, "q-over", "push"), body);
        QVERIFY(r);
        QCOMPARE(r->status, 503);
        QCOMPARE(r->header("Retry-After"), QByteArray("1"));
        QVERIFY(r->body.contains("queue_full"));
        QCOMPARE(h->metric("redrive_ingest_unavailable_total{reason=\"queue_full\"}"), 1.0);
        QCOMPARE(h->metric("redrive_ingest_queue_depth"), 2.0);
        h->writer->setPaused(false);
        for (auto &t : waiting)
            t.join();
        for (const auto &a : answers) {
            QVERIFY(a);
            QCOMPARE(a->status, 200);
        }
        QCOMPARE(count(QStringLiteral("events")), 2);
    }

    void rejectionsTableIsBounded()
    {
        QVERIFY(makeHarness({ .rejectionsKeep = 10 }));
        for (int i = 0; i < 35; ++i) {
            auto r = h->post("gh", signGitHub("wrong", "{}", "x", "push"), "{}");
            QVERIFY(r);
            QCOMPARE(r->status, 401);
        }
        QTRY_COMPARE(h->metric("redrive_ingest_rejections_stored_total"), 35.0);
        QTRY_COMPARE(count(QStringLiteral("rejections")), 10);
        // The newest ones are kept.
        QCOMPARE(h->scalar(QStringLiteral("SELECT MIN(id) FROM rejections")).toLongLong(),
            h->scalar(QStringLiteral("SELECT MAX(id) FROM rejections")).toLongLong() - 9);
    }

    // Bad traffic flooding in cannot crowd out good events: the rejection queue is bounded and
    // a batch takes only a few rejections.
    void rejectionFloodDoesNotStarveGoodEvents()
    {
        QVERIFY(makeHarness({ .rejectionQueueCapacity = 20 }));
        std::atomic<int> bad401 { 0 };
        std::atomic<bool> stop { false };
        std::vector<std::thread> flood;
        for (int t = 0; t < 3; ++t) {
            flood.emplace_back([this, &bad401, &stop] {
                RawConnection c;
                if (!c.connect(h->port()))
                    return;
                const QByteArray req
                    = buildRequest("POST", "/hooks/gh", signGitHub("wrong", "{}", "x", "push"), "{}");
                while (!stop.load()) {
                    if (!c.send(req))
                        return;
                    auto r = c.readResponse();
                    if (!r)
                        return;
                    if (r->status == 401)
                        bad401.fetch_add(1);
                }
            });
        }
        QTRY_VERIFY(bad401.load() > 200);
        int good = 0;
        for (int i = 0; i < 100; ++i) {
            const QByteArray body = bodyFor("good" + QByteArray::number(i));
            auto r = h->post(
                "gh", signGitHub(kGitHubSecret, body, "good-" + QByteArray::number(i), "push"), body);
            good += r && r->status == 200 ? 1 : 0;
        }
        stop = true;
        for (auto &t : flood)
            t.join();
        QCOMPARE(good, 100);
        QCOMPARE(count(QStringLiteral("events")), 100);
        // Every rejection was either recorded or dropped and counted; none vanished.
        QTRY_COMPARE(h->metric("redrive_ingest_rejections_stored_total")
                + h->metric("redrive_ingest_rejections_dropped_total"),
            static_cast<double>(bad401.load()));
        QVERIFY(h->metric("redrive_ingest_rejections_stored_total") > 0);
    }

    // A NUL from anyone cannot break a group commit. Percent-decoded paths with control
    // characters are refused at the edge (400 invalid_path), and what still reaches a rejection
    // row with a NUL (the path of a body refused as too large) is made safe before binding: on
    // PostgreSQL a NUL used to cut the statement, roll back the batch, and send every event of it
    // through one commit each.
    void hostilePathsFloodWithoutFailingGroupCommits()
    {
        QVERIFY(makeHarness({ .rejectionQueueCapacity = 200 }));
        std::atomic<int> refused { 0 };
        std::atomic<int> invalidPath { 0 };
        std::atomic<bool> stop { false };
        std::vector<std::thread> flood;
        // Stops and joins the flood however this function returns.
        const auto joinFlood = qScopeGuard([&] {
            stop = true;
            for (auto &t : flood)
                t.join();
        });
        for (int t = 0; t < 2; ++t) {
            flood.emplace_back([this, t, &refused, &invalidPath, &stop] {
                const QByteArray nulPath = buildRequest("GET", "/hooks/%00", {}, {});
                const QByteArray ctlPath = buildRequest("POST", "/hooks/gh%0d%0aX:%201", {}, "{}");
                // Announced larger than max_body_bytes: refused when the header arrives, with the
                // decoded path (and its NUL) in the edge rejection.
                const QByteArray huge
                    = "POST /hooks/%00 HTTP/1.1\r\nHost: x\r\nContent-Length: 999999\r\n\r\n";
                int i = 0;
                while (!stop.load()) {
                    const int kind = (i++ + t) % 3;
                    auto r = roundTrip(h->port(), kind == 0 ? nulPath : kind == 1 ? ctlPath : huge, 5000);
                    if (!r || r->status < 400)
                        continue;
                    refused.fetch_add(1);
                    if (r->status == 400 && r->body.contains("invalid_path"))
                        invalidPath.fetch_add(1);
                }
            });
        }
        QTRY_VERIFY(refused.load() > 150);
        int good = 0;
        for (int i = 0; i < 100; ++i) {
            const QByteArray body = bodyFor("nul" + QByteArray::number(i));
            auto r = h->post(
                "gh", signGitHub(kGitHubSecret, body, "nul-" + QByteArray::number(i), "push"), body);
            good += r && r->status == 200 ? 1 : 0;
        }
        stop = true;
        for (auto &t : flood)
            t.join();
        flood.clear();
        QCOMPARE(good, 100);
        QCOMPARE(count(QStringLiteral("events")), 100);
        QTRY_COMPARE(h->metric("redrive_ingest_rejections_stored_total")
                + h->metric("redrive_ingest_rejections_dropped_total"),
            static_cast<double>(refused.load()));
        // Not one batch failed: no event went through the one-at-a-time retry.
        QCOMPARE(h->metric("redrive_ingest_commit_failures_total"), 0.0);
        QCOMPARE(h->metric("redrive_ingest_store_failures_total"), 0.0);
        QCOMPARE(h->metric("redrive_ingest_rejected_total{reason=\"invalid_path\"}"),
            static_cast<double>(invalidPath.load()));
        QVERIFY(count(QStringLiteral("rejections"), QStringLiteral("reason = 'invalid_path'")) > 0);
        const QString detail = h->scalar(QStringLiteral("SELECT detail FROM rejections WHERE reason = "
                                                        "'invalid_path' ORDER BY id LIMIT 1"))
                                   .toString();
        QVERIFY2(detail.contains(QLatin1String("/hooks/%00")) || detail.contains(QLatin1String("%0D%0A")),
            qPrintable(detail));
        // The too-large ones keep their (repaired) source: U+FFFD where the NUL was.
        QVERIFY(count(QStringLiteral("rejections"), QStringLiteral("reason = 'too_large' AND source = ?"),
                    { QString(QChar(QChar::ReplacementCharacter)) })
            > 0);
    }

    // Ordering keys are what a sender wrote: cut, cleaned, and empty means none, on every path
    // the writer takes (a 3,000-character key used to exceed PostgreSQL's B-tree row limit and a
    // NUL to break the insert: a signed event answered 503 forever).
    void orderingKeysAreCutCleanedAndEmptyIsNone_data()
    {
        QTest::addColumn<QByteArray>("customerId");
        QTest::addColumn<QVariant>("expected");
        QTest::newRow("3000 characters")
            << QByteArray("\"") + QByteArray(3000, 'k') + "\"" << QVariant(QString(256, u'k'));
        QTest::newRow("NUL") << QByteArray("\"a\\u0000b\"")
                             << QVariant(QStringLiteral("a") + QChar(QChar::ReplacementCharacter) + u'b');
        QTest::newRow("empty") << QByteArray("\"\"") << QVariant();
        QTest::newRow("number") << QByteArray("42") << QVariant(QStringLiteral("42"));
    }

    void orderingKeysAreCutCleanedAndEmptyIsNone()
    {
        QFETCH(QByteArray, customerId);
        QFETCH(QVariant, expected);
        const QByteArray body = "{\"id\":\"ok\",\"customer\":{\"id\":" + customerId + "}}";
        auto r = h->post("gh", signGitHub(kGitHubSecret, body, "ordering-1", "push"), body);
        QVERIFY(r);
        QCOMPARE(r->status, 200);
        const QVariant stored
            = h->scalar(QStringLiteral("SELECT ordering_key FROM deliveries WHERE destination = 'crm'"));
        if (expected.isValid())
            QCOMPARE(stored.toString(), expected.toString());
        else
            QVERIFY2(stored.isNull(), qPrintable(stored.toString()));
    }

    // A full disk: SQLite on an 8 MiB tmpfs that fills up. Ingest answers 503 with Retry-After,
    // never 200 for an event it could not store, leaves no partial row, and recovers by itself
    // when space returns. Mounting needs root, which CI has.
    void diskFullAnswers503AndRecovers_sqliteOnly()
    {
        if (::geteuid() != 0) {
            if (qEnvironmentVariable("CI") == u"true")
                QFAIL("CI runs the suite as root so this test can mount a tmpfs");
            QSKIP("mounting a size-limited tmpfs needs root");
        }
        QTemporaryDir mountPoint;
        QVERIFY(mountPoint.isValid());
        auto run = [](const QString &program, const QStringList &arguments) {
            QProcess p;
            p.start(program, arguments);
            return p.waitForFinished(30'000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
        };
        QVERIFY(run(QStringLiteral("mount"),
            { QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"), QStringLiteral("size=8m"),
                QStringLiteral("tmpfs"), mountPoint.path() }));
        const QString mounted = mountPoint.path();
        const auto unmount = qScopeGuard([this, &run, mounted] {
            h.reset(); // close the database before the filesystem goes
            run(QStringLiteral("umount"), { QStringLiteral("-l"), mounted });
        });
        const QByteArray tmpdir = qgetenv("TMPDIR");
        qputenv("TMPDIR", mounted.toUtf8()); // the harness's SQLite file lives on the tmpfs
        const bool made = makeHarness();
        qputenv("TMPDIR", tmpdir);
        QVERIFY(made);

        // Fill what is left, so the next pages SQLite needs find no room.
        const QString fillerPath = mounted + QStringLiteral("/filler");
        {
            QFile filler(fillerPath);
            QVERIFY(filler.open(QIODevice::WriteOnly));
            const QByteArray chunk(64 * 1024, 'f');
            for (int i = 0; i < 200 && filler.write(chunk) == chunk.size(); ++i) { }
            filler.flush();
        }
        const QByteArray pad(20'000, 'p');
        int accepted = 0;
        int refused = 0;
        QList<QByteArray> acceptedIds;
        for (int i = 0; i < 200 && refused < 5; ++i) {
            const QByteArray id = "full-" + QByteArray::number(i);
            const QByteArray body = "{\"id\":\"" + id + "\",\"pad\":\"" + pad + "\"}";
            auto r = h->post("gh", signGitHub(kGitHubSecret, body, id, "push"), body);
            QVERIFY(r);
            if (r->status == 200) {
                ++accepted;
                acceptedIds.append(id);
                continue;
            }
            QCOMPARE(r->status, 503);
            QVERIFY(!r->header("Retry-After").isEmpty());
            ++refused;
        }
        QVERIFY2(refused >= 5, "the full disk was never noticed");
        qInfo(
            "disk full: %d event(s) stored before the disk filled, then %d answered 503", accepted, refused);
        // Exactly the acknowledged events are stored, each with its deliveries and status.
        QCOMPARE(count(QStringLiteral("events")), accepted);
        for (const QByteArray &id : std::as_const(acceptedIds))
            QCOMPARE(count(QStringLiteral("deliveries d JOIN events e ON e.id = d.event_id"),
                         QStringLiteral("e.provider_event_id = ?"), { QString::fromLatin1(id) }),
                2);
        QCOMPARE(count(QStringLiteral("event_status")), accepted);

        // Space returns: the next event is stored without a restart.
        QVERIFY(QFile::remove(fillerPath));
        bool recovered = false;
        for (int i = 0; i < 50 && !recovered; ++i) {
            const QByteArray id = "after-" + QByteArray::number(i);
            const QByteArray body = "{\"id\":\"" + id + "\"}";
            auto r = h->post("gh", signGitHub(kGitHubSecret, body, id, "push"), body);
            QVERIFY(r);
            recovered = r->status == 200;
            if (!recovered)
                QTest::qWait(100); // the sender's retry: Retry-After says when, this test is quicker
        }
        QVERIFY2(recovered, "ingest did not recover after space returned");
        QCOMPARE(count(QStringLiteral("events")), accepted + 1);
    }

    void probesAndMetrics()
    {
        auto r = roundTrip(h->port(), buildRequest("GET", "/healthz", {}, {}));
        QVERIFY(r);
        QCOMPARE(r->status, 200);
        r = roundTrip(h->port(), buildRequest("GET", "/readyz", {}, {}));
        QVERIFY(r);
        QCOMPARE(r->status, 200);
        QCOMPARE(r->body, QByteArray("{\"status\":\"ready\",\"writer\":\"running\",\"database\":\"ok\"}"));

        const QByteArray body = bodyFor("m1");
        QCOMPARE(h->post("gh", signGitHub(kGitHubSecret, body, "m-1", "push"), body)->status, 200);
        // The internet-facing listener does not serve metrics (the admin listener does).
        r = roundTrip(h->port(), buildRequest("GET", "/metrics", {}, {}));
        QVERIFY(r);
        QCOMPARE(r->status, 404);
        QVERIFY(!r->body.contains("redrive_"));
        const QByteArray text = h->registry.renderPrometheus();
        for (const char *series : { "redrive_ingest_received_total{source=\"gh\"} 1",
                 "redrive_ingest_requests_total{source=\"gh\"} 1",
                 "redrive_ingest_duplicates_total{source=\"gh\"} 0", "redrive_ingest_commit_seconds_count ",
                 "redrive_ingest_batch_size_count ", "redrive_ingest_queue_depth 0",
                 "redrive_ingest_rejected_total{reason=\"bad_signature\"} 0",
                 "redrive_ingest_ack_seconds_bucket{le=\"+Inf\"} 1",
                 "redrive_storage_power_loss_durable 1" }) {
            QVERIFY2(text.contains(series), series);
        }

        h->writer->stop();
        r = roundTrip(h->port(), buildRequest("GET", "/readyz", {}, {}));
        QVERIFY(r);
        QCOMPARE(r->status, 503);
        QVERIFY(r->body.contains("\"writer\":\"stopped\""));
        // After the writer stopped, webhooks are refused with 503, never acknowledged.
        r = h->post("gh", signGitHub(kGitHubSecret, body, "m-2", "push"), body);
        QVERIFY(r);
        QCOMPARE(r->status, 503);
        QCOMPARE(r->header("Retry-After"), QByteArray("5"));
    }

    void receiverInstanceRecorded()
    {
        const QVariantMap row
            = h->row(QStringLiteral("SELECT * FROM receiver_instances WHERE instance_id = 'test-instance'"));
        QVERIFY(!row.isEmpty());
        QVERIFY(row.value(QStringLiteral("power_loss_durable")).toInt() == 1);
        const QString durability = row.value(QStringLiteral("durability")).toString();
        if (h->database->backend() == Backend::Sqlite)
            QCOMPARE(durability, QStringLiteral("sqlite journal_mode=wal synchronous=FULL"));
        else
            QCOMPARE(durability, QStringLiteral("postgresql synchronous_commit=on"));
    }
};

REDRIVE_STORAGE_TEST_MAIN(TstIngest)
#include "tst_ingest.moc"
