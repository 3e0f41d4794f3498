// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// A provider retrying hard: 1,000 concurrent deliveries of ONE event over 100 connections. The
// database's unique key, not a check-then-insert, must leave exactly one event (seen 1,000
// times), one set of deliveries, and a 2xx for every request. Both engines.

#include "ingestfixture.h"
#include "ingestharness.h"

#include <QTest>

#include <latch>
#include <thread>

using namespace redrive;
using namespace redrive::test;

class TstDuplicateStorm final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void oneEventIdOverHundredConnections()
    {
        QString error;
        auto h = IngestHarness::create({}, &error);
        QVERIFY2(h, qPrintable(error));

        constexpr int kConnections = 100;
        constexpr int kPerConnection = 10;
        const QByteArray body
            = "{\"action\":\"created\",\"customer\":{\"id\":\"cus_storm\"},\"amount\":4200}";
        const QByteArray request
            = buildRequest("POST", "/hooks/gh", signGitHub(kGitHubSecret, body, "storm-1", "charge"), body);

        struct Result {
            int ok = 0;
            int fresh = 0;
            int failures = 0;
            QSet<QByteArray> ids;
        };
        std::vector<Result> results(kConnections);
        std::latch ready(kConnections + 1);
        std::vector<std::thread> threads;
        for (int c = 0; c < kConnections; ++c) {
            threads.emplace_back([&, c] {
                Result &mine = results[static_cast<std::size_t>(c)];
                RawConnection conn;
                const bool connected = conn.connect(h->port());
                ready.arrive_and_wait(); // all connections open, then everyone fires at once
                if (!connected) {
                    mine.failures = kPerConnection;
                    return;
                }
                for (int i = 0; i < kPerConnection; ++i) {
                    auto r = conn.send(request) ? conn.readResponse(30'000) : std::nullopt;
                    if (!r || r->status / 100 != 2) {
                        ++mine.failures;
                        continue;
                    }
                    ++mine.ok;
                    mine.fresh += r->body.contains("\"duplicate\":false") ? 1 : 0;
                    mine.ids.insert(r->body.left(r->body.indexOf(',')));
                }
            });
        }
        ready.arrive_and_wait();
        for (auto &t : threads)
            t.join();

        int ok = 0, fresh = 0, failures = 0;
        QSet<QByteArray> ids;
        for (const auto &r : results) {
            ok += r.ok;
            fresh += r.fresh;
            failures += r.failures;
            ids.unite(r.ids);
        }
        QCOMPARE(failures, 0);
        QCOMPARE(ok, kConnections * kPerConnection);
        QCOMPARE(fresh, 1);
        QCOMPARE(ids.size(), 1); // every answer names the same event
        QCOMPARE(h->scalar(QStringLiteral("SELECT COUNT(*) FROM events")).toInt(), 1);
        QCOMPARE(h->scalar(QStringLiteral("SELECT seen_count FROM events")).toInt(),
            kConnections * kPerConnection);
        // One summary row, written once with the event (a duplicate never writes another).
        QCOMPARE(h->scalar(QStringLiteral("SELECT COUNT(*) FROM event_status")).toInt(), 1);
        QCOMPARE(h->scalar(QStringLiteral("SELECT status FROM event_status")).toString(),
            QStringLiteral("pending"));
        QCOMPARE(
            h->scalar(QStringLiteral("SELECT COUNT(*) FROM deliveries")).toInt(), 2); // gh → crm, erp: once
        QCOMPARE(
            h->scalar(QStringLiteral("SELECT COUNT(DISTINCT idempotency_key) FROM deliveries")).toInt(), 2);
        QCOMPARE(h->metric("redrive_ingest_received_total{source=\"gh\"}"), 1000.0);
        QCOMPARE(h->metric("redrive_ingest_duplicates_total{source=\"gh\"}"), 999.0);
        qInfo("batches: %.0f for %.0f requests", h->metric("redrive_ingest_batch_size_count"),
            h->metric("redrive_ingest_batch_size_sum"));
    }
};

QTEST_GUILESS_MAIN(TstDuplicateStorm)
#include "tst_duplicatestorm.moc"
