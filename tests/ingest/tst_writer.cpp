// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// The group-commit writer on SQLite and PostgreSQL: batching, dedupe inside one batch, a
// poisoned item that must not fail its neighbours, drain on stop, commit notifications and
// reconnection after the database dropped the connection.

#include "ingest/groupcommitwriter.h"
#include "ingestfixture.h"
#include "testdb.h"

#include <QFileInfo>
#include <QSqlQuery>
#include <QTest>

#include <ctime>
#include <mutex>

using namespace redrive;
using namespace redrive::test;
using ingest::GroupCommitWriter;
using ingest::IngestOutcome;

namespace {

IncomingEvent makeEvent(const QString &id, const QString &source = QStringLiteral("gh"))
{
    return makeIncomingEvent(id, source);
}

// Collects outcomes from the writer thread.
struct Outcomes {
    std::mutex mutex;
    QMap<QString, IngestOutcome> byKey;
    int size()
    {
        std::lock_guard lock(mutex);
        return static_cast<int>(byKey.size());
    }
    IngestOutcome get(const QString &key)
    {
        std::lock_guard lock(mutex);
        return byKey.value(key);
    }
    ingest::Completion recorder(const QString &key)
    {
        return [this, key](const IngestOutcome &o) {
            std::lock_guard lock(mutex);
            byKey.insert(key, o);
        };
    }
};

} // namespace

class TstWriter final : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TestDatabase> m_db;
    std::unique_ptr<Db> m_reader;
    std::shared_ptr<const Config> m_config;
    std::unique_ptr<metrics::Registry> m_registry;
    std::unique_ptr<GroupCommitWriter> m_writer;
    ManualClock m_clock;

    std::unique_ptr<GroupCommitWriter> makeWriter(
        std::function<void(const ingest::CommitSummary &)> onCommitted = {}, int connections = 1,
        int batchMax = 64)
    {
        GroupCommitWriter::Options w;
        w.url = m_db->url();
        w.batchMax = batchMax;
        w.connections = connections;
        w.queueCapacity = 10'000;
        w.instance.instanceId = QStringLiteral("writer-test");
        auto writer = std::make_unique<GroupCommitWriter>(m_config, w, *m_registry, m_clock);
        if (onCommitted)
            writer->setOnCommitted(std::move(onCommitted));
        if (const auto started = writer->start(); !started) {
            qWarning("writer: %s", qPrintable(started.error()));
            return nullptr;
        }
        return writer;
    }

    qint64 scalar(const QString &sql)
    {
        QSqlQuery q(m_reader->handle());
        if (!q.exec(sql) || !q.next())
            return -1;
        return q.value(0).toLongLong();
    }

    double metric(const QByteArray &series)
    {
        const QByteArray prefix = series + ' ';
        for (const QByteArray &line : m_registry->renderPrometheus().split('\n')) {
            if (line.startsWith(prefix))
                return line.sliced(prefix.size()).toDouble();
        }
        return -1;
    }

private Q_SLOTS:
    void init()
    {
        QString error;
        m_db = TestDatabase::create(&error);
        QVERIFY2(m_db, qPrintable(error));
        ConfigError configError;
        auto config
            = parseConfig(ingestConfigToml(m_db->urlString()), QStringLiteral("writer test"), &configError);
        QVERIFY2(config, qPrintable(configError.toString()));
        m_config = std::make_shared<const Config>(std::move(*config));
        m_registry = std::make_unique<metrics::Registry>();
        m_reader = m_db->open();
        QVERIFY(m_reader);
    }

    void cleanup()
    {
        m_writer.reset();
        m_reader.reset();
        m_db.reset();
    }

    // Requests queued while a commit runs share the next transaction.
    void concurrentRequestsShareTransactions()
    {
        m_writer = makeWriter();
        QVERIFY(m_writer);
        Outcomes outcomes;
        m_writer->setPaused(true);
        for (int i = 0; i < 100; ++i) {
            const QString id = QStringLiteral("b-%1").arg(i);
            QVERIFY(
                m_writer->submit(makeEvent(id), outcomes.recorder(id)) == GroupCommitWriter::Submit::Queued);
        }
        QCOMPARE(m_writer->queueDepth(), 100);
        m_writer->setPaused(false);
        QTRY_COMPARE(outcomes.size(), 100);
        QCOMPARE(metric("redrive_ingest_batch_size_sum"), 100.0);
        QCOMPARE(metric("redrive_ingest_batch_size_count"), 2.0); // batch_max 64: 64 + 36
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM events")), 100);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM deliveries")), 200); // gh routes to crm and erp
        QCOMPARE(m_writer->queueDepth(), 0);
    }

    // Several writer connections (PostgreSQL; SQLite keeps one): batches that carry the same
    // events in opposite orders commit at the same time. Each event is stored once, exactly one
    // request per event is answered as new, every other one as a duplicate of the same row, and
    // no batch fails — rows go to the database sorted by their unique key, so concurrent
    // batches wait for each other instead of deadlocking (a deadlock shows as a failed commit).
    void severalConnectionsStoreConcurrentDuplicatesOnce()
    {
        constexpr int kConnections = 4;
        constexpr int kIds = 16;
        constexpr int kBatches = 24;
        m_writer = makeWriter({}, kConnections, kIds);
        QVERIFY(m_writer);
        const int expected = m_db->url().dialect == Dialect::Sqlite ? 1 : kConnections;
        QCOMPARE(m_writer->connections(), expected);
        QCOMPARE(metric("redrive_ingest_writer_connections"), double(expected));
        Outcomes outcomes;
        m_writer->setPaused(true);
        for (int b = 0; b < kBatches; ++b) {
            for (int i = 0; i < kIds; ++i) {
                // Even batches ascending, odd ones descending, each rotated: every pair of
                // neighbouring batches meets its shared ids in a different order.
                const int n = ((b % 2 == 0 ? i : kIds - 1 - i) + b) % kIds;
                const QString request = QStringLiteral("%1/%2").arg(b).arg(i);
                QVERIFY(m_writer->submit(makeEvent(QStringLiteral("c-%1").arg(n)), outcomes.recorder(request))
                    == GroupCommitWriter::Submit::Queued);
            }
        }
        m_writer->setPaused(false);
        QTRY_COMPARE_WITH_TIMEOUT(outcomes.size(), kBatches * kIds, 30'000); // a deadlock costs a second each
        QHash<qint64, int> fresh;
        for (int b = 0; b < kBatches; ++b) {
            for (int i = 0; i < kIds; ++i) {
                const auto o = outcomes.get(QStringLiteral("%1/%2").arg(b).arg(i));
                QVERIFY(o.ok);
                QVERIFY(o.eventId > 0);
                fresh[o.eventId] += o.duplicate ? 0 : 1;
            }
        }
        QCOMPARE(fresh.size(), kIds); // every request for one id names the same row
        for (auto it = fresh.cbegin(); it != fresh.cend(); ++it)
            QCOMPARE(it.value(), 1);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM events")), kIds);
        QCOMPARE(scalar(QStringLiteral("SELECT MIN(seen_count) FROM events")), kBatches);
        QCOMPARE(scalar(QStringLiteral("SELECT MAX(seen_count) FROM events")), kBatches);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM event_status")), kIds);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM deliveries")), 2 * kIds);
        QCOMPARE(metric("redrive_ingest_commit_failures_total"), 0.0);
        QCOMPARE(metric("redrive_ingest_batch_size_sum"), double(kBatches * kIds));
        qInfo("%.0f commits on %d connection(s)", metric("redrive_ingest_batch_size_count"), expected);
    }

    // An idle writer sleeps on every lane: lanes other than the first (which sends the
    // heartbeat) once spun on a wait deadline in the past, burning a core each.
    void idleLanesSleep()
    {
        GroupCommitWriter::Options w;
        w.url = m_db->url();
        w.connections = 4;
        w.heartbeatIntervalMs = 100;
        w.instance.instanceId = QStringLiteral("writer-test");
        m_writer = std::make_unique<GroupCommitWriter>(m_config, w, *m_registry, m_clock);
        const auto started = m_writer->start();
        QVERIFY2(started, qPrintable(started.error()));
        QTest::qWait(300); // past the first heartbeat deadline on every lane
        const std::clock_t before = std::clock();
        QTest::qWait(1000); // idle: nothing submitted
        const double cpuSeconds = double(std::clock() - before) / CLOCKS_PER_SEC;
        QVERIFY2(cpuSeconds < 0.25, qPrintable(QStringLiteral("%1 s of CPU while idle").arg(cpuSeconds)));
    }

    void duplicatesInsideOneBatchAreCountedOnce()
    {
        m_writer = makeWriter();
        QVERIFY(m_writer);
        Outcomes outcomes;
        m_writer->setPaused(true);
        for (int i = 0; i < 5; ++i)
            QVERIFY(m_writer->submit(makeEvent(QStringLiteral("same")), outcomes.recorder(QString::number(i)))
                == GroupCommitWriter::Submit::Queued);
        m_writer->setPaused(false);
        QTRY_COMPARE(outcomes.size(), 5);
        int fresh = 0;
        for (int i = 0; i < 5; ++i) {
            const auto o = outcomes.get(QString::number(i));
            QVERIFY(o.ok);
            fresh += o.duplicate ? 0 : 1;
            QCOMPARE(o.eventId, outcomes.get(QStringLiteral("0")).eventId);
        }
        QCOMPARE(fresh, 1);
        QVERIFY(!outcomes.get(QStringLiteral("0")).duplicate); // the first in queue order wins
        QCOMPARE(scalar(QStringLiteral("SELECT seen_count FROM events")), 5);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM deliveries")), 2);
    }

    // One event that the database refuses (here: no source, a NOT NULL column) fails its
    // batch; the writer then commits every other event on its own and answers only the
    // poisoned one with a failure.
    void poisonedItemDoesNotFailItsNeighbours()
    {
        m_writer = makeWriter();
        QVERIFY(m_writer);
        Outcomes outcomes;
        m_writer->setPaused(true);
        QVERIFY(
            m_writer->submit(makeEvent(QStringLiteral("good-1")), outcomes.recorder(QStringLiteral("good-1")))
            == GroupCommitWriter::Submit::Queued);
        QVERIFY(m_writer->submit(makeEvent(QStringLiteral("poison"), QString()),
                    outcomes.recorder(QStringLiteral("poison")))
            == GroupCommitWriter::Submit::Queued);
        QVERIFY(
            m_writer->submit(makeEvent(QStringLiteral("good-2")), outcomes.recorder(QStringLiteral("good-2")))
            == GroupCommitWriter::Submit::Queued);
        QVERIFY(
            m_writer->submit(makeEvent(QStringLiteral("good-1")), outcomes.recorder(QStringLiteral("dup")))
            == GroupCommitWriter::Submit::Queued);
        m_writer->setPaused(false);
        QTRY_COMPARE(outcomes.size(), 4);
        QVERIFY(outcomes.get(QStringLiteral("good-1")).ok);
        QVERIFY(!outcomes.get(QStringLiteral("good-1")).duplicate);
        QVERIFY(outcomes.get(QStringLiteral("good-2")).ok);
        QVERIFY(outcomes.get(QStringLiteral("dup")).ok);
        QVERIFY(outcomes.get(QStringLiteral("dup")).duplicate);
        QVERIFY(!outcomes.get(QStringLiteral("poison")).ok);
        QVERIFY(outcomes.get(QStringLiteral("poison")).failure == IngestOutcome::Failure::StoreFailed);
        QCOMPARE(metric("redrive_ingest_commit_failures_total"), 1.0);
        QCOMPARE(metric("redrive_ingest_store_failures_total"), 1.0);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM events")), 2);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM deliveries")), 4);
        QCOMPARE(
            scalar(QStringLiteral("SELECT seen_count FROM events WHERE provider_event_id = 'good-1'")), 2);
        QVERIFY(m_writer->databaseHealthy());
    }

    void stopCommitsEverythingQueued()
    {
        m_writer = makeWriter();
        QVERIFY(m_writer);
        Outcomes outcomes;
        m_writer->setPaused(true); // stop() drains even a paused writer
        for (int i = 0; i < 50; ++i) {
            const QString id = QStringLiteral("s-%1").arg(i);
            QVERIFY(
                m_writer->submit(makeEvent(id), outcomes.recorder(id)) == GroupCommitWriter::Submit::Queued);
        }
        m_writer->stop();
        QCOMPARE(outcomes.size(), 50); // every completion ran before stop() returned
        for (int i = 0; i < 50; ++i)
            QVERIFY(outcomes.get(QStringLiteral("s-%1").arg(i)).ok);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM events")), 50);
        IncomingEvent late = makeEvent(QStringLiteral("late"));
        ingest::Completion done = outcomes.recorder(QStringLiteral("late"));
        QVERIFY(m_writer->submit(std::move(late), std::move(done)) == GroupCommitWriter::Submit::Stopped);
        QVERIFY(done); // not moved from: the caller can still answer through it
        QVERIFY(!m_writer->isRunning());
    }

    void onCommittedReportsWhatWasCreated()
    {
        std::mutex mutex;
        ingest::CommitSummary total;
        m_writer = makeWriter([&](const ingest::CommitSummary &s) {
            std::lock_guard lock(mutex);
            total.events += s.events;
            total.newEvents += s.newEvents;
            total.duplicates += s.duplicates;
            total.newDeliveries += s.newDeliveries;
        });
        QVERIFY(m_writer);
        Outcomes outcomes;
        const QStringList ids { QStringLiteral("c-1"), QStringLiteral("c-2"), QStringLiteral("c-3"),
            QStringLiteral("c-1") };
        for (qsizetype i = 0; i < ids.size(); ++i)
            QVERIFY(m_writer->submit(makeEvent(ids[i]), outcomes.recorder(QString::number(i)))
                == GroupCommitWriter::Submit::Queued);
        QTRY_VERIFY([&] {
            std::lock_guard lock(mutex);
            return total.events == 4;
        }());
        std::lock_guard lock(mutex);
        QCOMPARE(total.newEvents, 3);
        QCOMPARE(total.duplicates, 1);
        QCOMPARE(total.newDeliveries, 6);
    }

    void rejectionsAreStored()
    {
        m_writer = makeWriter();
        QVERIFY(m_writer);
        RejectionRecord r;
        r.reason = QStringLiteral("too_large"); // no source: the edge knew none
        r.statusCode = 413;
        r.receivedAtMs = 1;
        QVERIFY(m_writer->submitRejection(std::move(r)));
        QTRY_COMPARE(scalar(QStringLiteral(
                         "SELECT COUNT(*) FROM rejections WHERE source = '' AND reason = 'too_large'")),
            1);
    }

    // The writer runs with wal_autocheckpoint=0; the background checkpointer copies the WAL
    // into the database file, so the file grows while nothing else writes to it.
    void walIsCheckpointedInTheBackground_sqliteOnly()
    {
        m_writer = makeWriter();
        QVERIFY(m_writer);
        const QString path = m_db->url().sqlitePath;
        const qint64 before = QFileInfo(path).size();
        Outcomes outcomes;
        for (int i = 0; i < 500; ++i) {
            const QString id = QStringLiteral("w-%1").arg(i);
            QVERIFY(
                m_writer->submit(makeEvent(id), outcomes.recorder(id)) == GroupCommitWriter::Submit::Queued);
        }
        QTRY_COMPARE(outcomes.size(), 500);
        QTRY_VERIFY(QFileInfo(path).size() > before + 200 * 1024);
    }

    // PostgreSQL may drop a connection (restart, failover, idle kill). The writer notices on
    // the failed commit, reconnects and still stores the batch.
    // (A SQLite connection cannot be killed from outside, so this exists for PostgreSQL only.)
    void reconnectsAfterTheConnectionWasKilled_postgresOnly()
    {
        m_writer = makeWriter();
        QVERIFY(m_writer);
        Outcomes outcomes;
        QVERIFY(
            m_writer->submit(makeEvent(QStringLiteral("before")), outcomes.recorder(QStringLiteral("before")))
            == GroupCommitWriter::Submit::Queued);
        QTRY_COMPARE(outcomes.size(), 1);
        QSqlQuery kill(m_reader->handle());
        QVERIFY(kill.exec(QStringLiteral("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                         "WHERE datname = current_database() AND pid <> pg_backend_pid()")));
        QVERIFY(
            m_writer->submit(makeEvent(QStringLiteral("after")), outcomes.recorder(QStringLiteral("after")))
            == GroupCommitWriter::Submit::Queued);
        QTRY_COMPARE(outcomes.size(), 2);
        QVERIFY(outcomes.get(QStringLiteral("after")).ok);
        QCOMPARE(scalar(QStringLiteral("SELECT COUNT(*) FROM events")), 2);
        QVERIFY(m_writer->databaseHealthy());
    }
};

REDRIVE_STORAGE_TEST_MAIN(TstWriter)
#include "tst_writer.moc"
