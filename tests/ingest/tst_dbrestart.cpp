// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// PostgreSQL restarts under load. A private cluster (not the suite's shared server) carries a
// real redrived that four provider-like clients keep sending signed events to; a loopback sink
// takes the deliveries. Mid-load PostgreSQL is restarted with `pg_ctl restart -m fast`, later
// stopped for three seconds and started again. The receiver must answer 503 with Retry-After
// while the database is gone (never 200, never slower than the bound), the admin API must answer
// 503 database_unavailable and then 200 again, and afterwards every acknowledged event is
// stored once and delivered once, with no attempt burned by the outage.

#include "daemonprocess.h"
#include "pgreceivers.h"
#include "scriptabledestination.h"
#include "storage/database.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QScopeGuard>
#include <QSet>
#include <QSqlQuery>
#include <QTest>

using namespace redrive;
using namespace redrive::test;

namespace {
constexpr qint64 kAnswerBoundMs = 10'000; // no answer may take longer, outage or not
constexpr int kOutageMs = 3'000;
} // namespace

class TstDbRestart final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void restartsUnderLoad()
    {
        QString error;
        PrivatePgCluster pg;
        QVERIFY2(pg.start(&error), qPrintable(error));
        ScriptableDestination sink;
        QVERIFY2(sink.start(&error), qPrintable(error));
        ScriptableDestination::Response okay;
        okay.connection = ScriptableDestination::Response::Connection::KeepAlive;
        sink.setDefault(okay);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());

        ReceiverProcess r;
        r.name = QStringLiteral("a");
        QVERIFY2(writeReceiverConfig(r, dir.path(), pg.url(), sink.url().toEncoded(), {}, &error),
            qPrintable(error));
        const QByteArray token = migrateAndCreateToken(r, &error).toUtf8();
        QVERIFY2(!token.isEmpty(), qPrintable(error));
        QVERIFY2(startReceiver(r, &error), qPrintable(error));
        auto stopGuard = qScopeGuard([&] {
            if (r.process.state() != QProcess::NotRunning) {
                r.process.kill();
                r.process.waitForFinished(5'000);
            }
        });

        ProviderLoad load({ r.ingestPort }, 4, false, "restart-", 4);
        load.start();
        QVERIFY(waitForAcks(load, r, 300, 30'000) >= 0);

        // 1. pg_ctl restart -m fast while events keep coming.
        QVERIFY2(pg.restartFast(&error), qPrintable(error));
        const qint64 recoveryAfterRestart = waitForAcks(load, r, 300, 30'000);
        QVERIFY2(recoveryAfterRestart >= 0, "ingest did not recover after pg_ctl restart");
        const int after503Restart = load.answered503.load();

        // 2. A stop of a few seconds.
        QVERIFY2(pg.halt(&error), qPrintable(error));
        QElapsedTimer outage;
        outage.start();
        std::optional<RawResponse> admin;
        QTRY_VERIFY_WITH_TIMEOUT(
            (admin = adminGet(r.adminPort, "/admin/v1/whoami", token)) && admin->status == 503, kOutageMs);
        QVERIFY2(admin->body.contains("\"error\":\"database_unavailable\""), admin->body.constData());
        QVERIFY(!admin->header("Retry-After").isEmpty());
        QByteArray metrics;
        QTRY_VERIFY_WITH_TIMEOUT((metrics = adminGet(r.adminPort, "/metrics").value_or(RawResponse {}).body,
                                     metricValue(metrics, "redrive_database_up{component=\"ingest\"}") == 0),
            kOutageMs);
        const int acksBeforeOutageEnd = load.acked.load();
        while (outage.elapsed() < kOutageMs && r.process.state() == QProcess::Running)
            r.process.waitForFinished(20); // the outage lasts kOutageMs while the load keeps going
        QCOMPARE(load.acked.load(), acksBeforeOutageEnd); // nothing acknowledged while down
        QVERIFY2(load.answered503.load() > after503Restart, "no 503 while PostgreSQL was stopped");
        QVERIFY2(pg.resume(&error), qPrintable(error));
        QElapsedTimer recovery;
        recovery.start();
        QTRY_VERIFY_WITH_TIMEOUT(
            (admin = adminGet(r.adminPort, "/admin/v1/whoami", token)) && admin->status == 200, 15'000);
        const qint64 adminRecoveryMs = recovery.elapsed();
        const qint64 ingestRecoveryMs = waitForAcks(load, r, 1, 15'000) + adminRecoveryMs;
        QVERIFY(waitForAcks(load, r, 300, 30'000) >= 0);
        load.stopAndJoin();
        QVERIFY(r.process.state() == QProcess::Running);

        // The answers: 503s with Retry-After, nothing slower than the bound.
        QCOMPARE(load.missingRetryAfter.load(), 0);
        QCOMPARE(load.otherStatus.load(), 0);
        QVERIFY2(load.maxLatencyMs.load() <= kAnswerBoundMs,
            qPrintable(QStringLiteral("an answer took %1 ms").arg(load.maxLatencyMs.load())));

        // The ledger: every acknowledged id stored exactly once, and nothing else.
        const QList<QByteArray> ackedIds = load.ackedIds();
        QCOMPARE(ackedIds.size(), load.acked.load());
        const auto url = StorageUrl::parse(pg.url());
        QVERIFY(url);
        auto db = takeValue(Db::open(*url, QStringLiteral("checker"), {}), &error);
        QVERIFY2(db, qPrintable(error));
        QSqlQuery q(db->handle());
        QSet<QByteArray> stored;
        QVERIFY(q.exec(QStringLiteral("SELECT provider_event_id FROM events")));
        int rows = 0;
        while (q.next()) {
            stored.insert(q.value(0).toString().toUtf8());
            ++rows;
        }
        QCOMPARE(rows, static_cast<int>(stored.size()));
        for (const QByteArray &id : ackedIds)
            QVERIFY2(stored.contains(id), id.constData());
        // A 503 whose commit had landed is resent and answered 200 duplicate: still one row.
        QCOMPARE(rows, static_cast<int>(ackedIds.size()));

        // Every stored event delivered exactly once (or recorded outcome-unknown), and every
        // attempt row is a request the sink saw: the outage burned none.
        QTRY_VERIFY_WITH_TIMEOUT(
            (q.exec(QStringLiteral("SELECT COUNT(*) FROM deliveries WHERE status <> 'succeeded'")) && q.next()
                && q.value(0).toInt() == 0),
            60'000);
        QHash<QByteArray, int> hits;
        for (const auto &req : sink.requests())
            ++hits[req.headers.value("Idempotency-Key").toByteArray()];
        QVERIFY(q.exec(QStringLiteral("SELECT d.idempotency_key, d.attempt_count, "
                                      "(SELECT COUNT(*) FROM attempts a WHERE a.delivery_id = d.id), "
                                      "(SELECT COUNT(*) FROM attempts a WHERE a.delivery_id = d.id "
                                      "AND a.outcome_unknown <> 0) FROM deliveries d")));
        int deliveries = 0, unknown = 0, twice = 0;
        qint64 attemptRows = 0;
        while (q.next()) {
            ++deliveries;
            const QByteArray key = q.value(0).toString().toUtf8();
            const int attempts = q.value(1).toInt();
            QCOMPARE(q.value(2).toInt(), attempts);
            attemptRows += attempts;
            unknown += q.value(3).toInt() > 0 ? 1 : 0;
            if (q.value(3).toInt() == 0) {
                QVERIFY2(hits.value(key) == 1,
                    qPrintable(QStringLiteral("%1 delivered %2 times (%3 attempts)")
                                   .arg(QString::fromUtf8(key))
                                   .arg(hits.value(key))
                                   .arg(attempts)));
                QCOMPARE(attempts, 1);
            }
            twice += hits.value(key) > 1 ? 1 : 0;
        }
        QCOMPARE(deliveries, rows);
        QCOMPARE(static_cast<int>(hits.size()), rows);
        QCOMPARE(attemptRows, static_cast<qint64>(sink.requestCount()));
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM attempts WHERE category = 'lease_expired'"))
            && q.next());
        QCOMPARE(q.value(0).toInt(), 0);

        // Metrics and logs tell what happened, once per outage.
        metrics = adminGet(r.adminPort, "/metrics").value_or(RawResponse {}).body;
        for (const char *component : { "ingest", "admin", "delivery" }) {
            const QByteArray label = "{component=\"" + QByteArray(component) + "\"}";
            QCOMPARE(metricValue(metrics, "redrive_database_up" + label), 1.0);
        }
        const double ingestRefused
            = metricValue(metrics, "redrive_database_unavailable_total{component=\"ingest\"}");
        const double adminRefused
            = metricValue(metrics, "redrive_database_unavailable_total{component=\"admin\"}");
        QVERIFY(ingestRefused > 0);
        QVERIFY(adminRefused > 0);
        const int downLines = countLogLines(r.logPath, "ingest: database unreachable");
        const int upLines = countLogLines(r.logPath, "ingest: database reachable again");
        const QByteArray availability = logLinesWith(r.logPath,
            { "ingest: database", "connection re-established", "group commit of", "could not be stored" });
        QVERIFY2(downLines >= 1 && downLines <= 2, availability.constData());
        QVERIFY2(upLines == downLines, availability.constData());
        // Before the outage is known, each writer connection may log its own failed batch once
        // per outage (two outages here); after that nothing is logged per batch.
        const int lanes = int(metricValue(metrics, "redrive_ingest_writer_connections"));
        QVERIFY(lanes >= 1);
        const int batchLines = countLogLines(r.logPath, "group commit of");
        QVERIFY2(batchLines <= 2 * 2 * lanes,
            qPrintable(QStringLiteral("%1 lines for %2 connections").arg(batchLines).arg(lanes)));

        r.process.terminate();
        QVERIFY(r.process.waitForFinished(20'000));
        QCOMPARE(r.process.exitCode(), 0);
        qInfo("%d events acknowledged and delivered; %d answered 503 (%d around the restart, %d during the "
              "%d ms stop), 0 without Retry-After; %d resends answered duplicate; slowest answer %lld ms; "
              "ingest 503s counted %.0f, admin %.0f; first 300 acks after restart in %lld ms; admin 200 "
              "%lld ms and first ingest 200 %lld ms after start; %d outcome-unknown; %d sent twice",
            rows, load.answered503.load(), after503Restart, load.answered503.load() - after503Restart,
            kOutageMs, load.duplicates.load(), load.maxLatencyMs.load(), ingestRefused, adminRefused,
            recoveryAfterRestart, adminRecoveryMs, ingestRecoveryMs, unknown, twice);
    }
};

QTEST_GUILESS_MAIN(TstDbRestart)
#include "tst_dbrestart.moc"
