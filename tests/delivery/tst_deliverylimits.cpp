// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "enginetestbase.h"

#include <QElapsedTimer>
#include <QTest>

#include <atomic>

using namespace redrive;
using namespace redrive::delivery;
using namespace redrive::test;

namespace {

// A clock that moves one millisecond on every read: time always passes between a claim and its
// send, deterministically (a ManualClock would hide a lease that expires at the first tick).
class TickingClock final : public Clock {
public:
    explicit TickingClock(qint64 startMs)
        : m_now(startMs)
    { }
    [[nodiscard]] qint64 nowMs() const override { return m_now.fetch_add(1); }

private:
    mutable std::atomic<qint64> m_now;
};

} // namespace

// The engine's limits (per-destination concurrency, global max_in_flight, token-bucket rate)
// and its graceful stop, against the scriptable destination.
class TstDeliveryLimits final : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<EngineRig> m_rig;
    EngineRig &rig() { return *m_rig; }
    DestinationConfig &shop() { return m_rig->config.destinations.first(); }

    QList<qint64> seedMany(int n)
    {
        QList<qint64> ids;
        for (int i = 0; i < n; ++i)
            ids.append(rig().seedOne());
        return ids;
    }
    bool allSucceeded(const QList<qint64> &ids)
    {
        for (qint64 id : ids) {
            if (readDelivery(*rig().db, id).status != u"succeeded")
                return false;
        }
        return true;
    }

private Q_SLOTS:
    void init()
    {
        m_rig = std::make_unique<EngineRig>();
        QString error;
        QVERIFY2(rig().prepare(&error), qPrintable(error));
    }
    void cleanup()
    {
        if (m_rig && m_rig->engine)
            m_rig->engine->stop(2'000);
        m_rig.reset();
    }

    void concurrencyCaps_data()
    {
        QTest::addColumn<int>("concurrency");
        QTest::addColumn<int>("maxInFlight");
        QTest::addColumn<int>("expected");
        QTest::newRow("destination concurrency 2") << 2 << 256 << 2;
        QTest::newRow("global max_in_flight 3") << 8 << 3 << 3;
    }
    void concurrencyCaps()
    {
        QFETCH(int, concurrency);
        QFETCH(int, maxInFlight);
        QFETCH(int, expected);
        shop().concurrency = concurrency;
        rig().config.delivery.maxInFlight = maxInFlight;
        ScriptableDestination::Response slow = ScriptableDestination::status(200);
        slow.delayAfterReadMs = 150;
        rig().destination.setDefault(slow);
        const QList<qint64> ids = seedMany(9);
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        rig().engine->wake();
        QVERIFY(waitUntil([&] { return allSucceeded(ids); }, 30'000));
        QCOMPARE(rig().destination.maxConcurrent(), expected); // reached, never exceeded
    }

    void rateLimitSpacesRequests()
    {
        shop().ratePerSecond = 5; // burst of 5, then one every 200 ms
        const QList<qint64> ids = seedMany(10);
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        rig().engine->wake();
        QVERIFY(waitUntil([&] { return allSucceeded(ids); }, 30'000));
        const auto requests = rig().destination.requests();
        QCOMPARE(requests.size(), 10);
        const qint64 span = requests.last().arrivedMs - requests.first().arrivedMs;
        QVERIFY2(span >= 900, qPrintable(QStringLiteral("10 requests at 5/s took only %1 ms").arg(span)));
    }

    // stop(grace): an attempt that was sent and is still waiting when the grace period ends is
    // interrupted and recorded as outcome unknown, then retried by whoever runs next.
    void stopInterruptsSentAttemptAsOutcomeUnknown()
    {
        ScriptableDestination::Response hang;
        hang.hang = true;
        rig().destination.enqueue(hang);
        shop().timeoutMs = 30'000;
        const qint64 id = rig().seedOne();
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        rig().engine->wake();
        QVERIFY(rig().destination.waitForRequests(1, 10'000));
        QElapsedTimer timer;
        timer.start();
        rig().engine->stop(200);
        QVERIFY2(timer.elapsed() < 5'000, qPrintable(QString::number(timer.elapsed())));
        const DeliveryRow row = readDelivery(*rig().db, id);
        QCOMPARE(row.status, QStringLiteral("retrying"));
        QVERIFY(row.outcomeUnknown);
        QVERIFY(row.leaseOwner.isEmpty());
        const auto attempts = readAttempts(*rig().db, id);
        QCOMPARE(attempts.size(), 1);
        QCOMPARE(attempts[0].category, QStringLiteral("network"));
        QVERIFY2(attempts[0].explanation.contains(QStringLiteral("shutdown interrupted")),
            qPrintable(attempts[0].explanation));
        QVERIFY(attempts[0].outcomeUnknown);
    }

    // PostgreSQL restarted or the connection was cut: the engine opens a new connection and
    // carries on.
    // (A SQLite connection cannot be cut from outside, so this exists for PostgreSQL only.)
    void reconnectsAfterConnectionLoss_postgresOnly()
    {
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        const qint64 first = rig().seedOne();
        rig().engine->wake();
        QVERIFY(rig().waitForStatus(first, QStringLiteral("succeeded")));
        QVERIFY(succeeded(
            rig().db->exec(QStringLiteral("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                          "WHERE datname = current_database() AND pid <> pg_backend_pid()")),
            &error));
        const qint64 second = rig().seedOne();
        rig().engine->wake();
        QVERIFY(rig().waitForStatus(second, QStringLiteral("succeeded"), 30'000));
        QCOMPARE(rig().destination.requestCount(), 2);
    }

    // delivery.lease no longer than timeout_ms + the 5 s send margin: the engine must still give
    // each claim a lease the send can fit in. (It used to lease exactly timeout + 5 s, which the
    // dispatcher then refused at send time: every claim given back unsent, in a loop, with lease
    // tokens climbing and nothing delivered.)
    void shortLeaseStillDelivers_data()
    {
        QTest::addColumn<int>("leaseMs");
        QTest::newRow("lease below timeout") << 500;
        QTest::newRow("lease = timeout + 5 s") << 7'000;
    }
    void shortLeaseStillDelivers()
    {
        QFETCH(int, leaseMs);
        shop().timeoutMs = 2'000;
        rig().config.delivery.leaseMs = leaseMs;
        const QList<qint64> ids = seedMany(3);
        TickingClock clock(rig().clock.nowMs());
        rig().engine
            = std::make_unique<DeliveryEngine>(rig().config, rig().tdb->url(), clock, rig().registry);
        const auto started = rig().engine->start();
        QVERIFY2(started, qPrintable(started.error()));
        rig().engine->wake();
        const bool delivered = waitUntil([&] { return allSucceeded(ids); }, 15'000);
        const DeliveryRow row = readDelivery(*rig().db, ids.first());
        rig().engine->stop(2'000); // before `clock` goes out of scope
        rig().engine.reset();
        QVERIFY2(delivered,
            qPrintable(QStringLiteral("status %1 after %2 claims").arg(row.status).arg(row.leaseToken)));
        QCOMPARE(rig().destination.requestCount(), 3);
        for (qint64 id : ids)
            QCOMPARE(rig().attemptCount(id), 1);
    }

    // Metrics exposed for the daemon's /metrics.
    void metricsArePublished()
    {
        rig().destination.setDefault(ScriptableDestination::status(200));
        const QList<qint64> ids = seedMany(3);
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        rig().engine->wake();
        QVERIFY(waitUntil([&] { return allSucceeded(ids); }, 10'000));
        // Counters move right after the commit that the rows show.
        QVERIFY(waitUntil(
            [&] {
                return rig().registry.renderPrometheus().contains(
                    "redrive_deliveries_delivered_total{destination=\"shop\"} 3");
            },
            10'000));
        const QByteArray text = rig().registry.renderPrometheus();
        QVERIFY(text.contains("redrive_delivery_in_flight{destination=\"shop\"} 0"));
        QVERIFY(text.contains("redrive_delivery_attempt_duration_seconds_count{destination=\"shop\"} 3"));
        QVERIFY(text.contains("redrive_delivery_oldest_pending_age_seconds{destination=\"shop\"}"));
    }
};

REDRIVE_STORAGE_TEST_MAIN(TstDeliveryLimits)
#include "tst_deliverylimits.moc"
