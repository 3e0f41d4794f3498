// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
//
// The circuit breaker end to end: a destination failing for three minutes holds its deliveries
// (no dead letters, attempts bounded by the probes) with a breaker and dead-letters them without
// one; a successful probe closes the circuit and the backlog drains; a circuit another receiver
// opened holds here too. On both engines, with a manual clock stepped one probe interval at a time.
#include "delivery/circuitbreaker.h"
#include "enginetestbase.h"
#include "storage/circuitstore.h"

#include <QTest>

using namespace redrive;
using namespace redrive::delivery;
using namespace redrive::test;

namespace {

constexpr qint64 kProbeEveryMs = 30'000;
constexpr int kDeliveries = 3;
constexpr int kFailures = 2;
constexpr int kOutageSteps = 6; // 6 × 30 s: three minutes

} // namespace

class TstCircuitBreaker final : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<EngineRig> m_rig;
    QList<qint64> m_ids;

    EngineRig &rig() { return *m_rig; }
    DestinationConfig &shop() { return m_rig->config.destinations.first(); }

    qint64 count(const QString &sql) { return scalar(*rig().db, sql); }
    qint64 attempts() { return count(QStringLiteral("SELECT COUNT(*) FROM attempts")); }
    qint64 deliveriesIn(const char *status)
    {
        return count(
            QStringLiteral("SELECT COUNT(*) FROM deliveries WHERE status = '%1'").arg(QLatin1String(status)));
    }
    // Every due delivery has been attempted or given back: nothing in flight, none due now.
    bool settled()
    {
        return deliveriesIn("in_flight") == 0
            && count(QStringLiteral("SELECT COUNT(*) FROM deliveries WHERE status IN ('pending', 'retrying') "
                                    "AND next_attempt_at <= %1")
                         .arg(rig().clock.nowMs()))
            == 0;
    }
    bool metricSays(const QByteArray &line)
    {
        return waitUntil([&] { return rig().registry.renderPrometheus().contains(line); }, 10'000);
    }

    // Three deliveries to a destination answering 503, max_attempts = 3, 10 s between attempts.
    void startOutage(bool breaker)
    {
        shop().maxAttempts = 3;
        shop().retryScheduleMs = { 10'000, 10'000 };
        shop().concurrency = 1;
        if (breaker)
            shop().circuit = CircuitConfig { kFailures, 60'000, kProbeEveryMs };
        rig().config.delivery.jitter = 0;
        rig().destination.setDefault(ScriptableDestination::status(503, "down for maintenance"));
        for (int i = 0; i < kDeliveries; ++i)
            m_ids.append(rig().seedOne());
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        rig().engine->wake();
    }

private Q_SLOTS:
    void init()
    {
        m_rig = std::make_unique<EngineRig>();
        m_ids.clear();
        QString error;
        QVERIFY2(rig().prepare(&error), qPrintable(error));
    }
    void cleanup()
    {
        if (m_rig && m_rig->engine)
            m_rig->engine->stop(2'000);
        m_rig.reset();
    }

    // The count that opens a circuit: `failures` in a row, within `within`; a success ends the row.
    void breakerCountsFailuresInARowWithinTheWindow()
    {
        CircuitBreaker b(CircuitConfig { 3, 60'000, 30'000 });
        QVERIFY(!b.failed(0));
        QVERIFY(!b.failed(10'000));
        b.succeeded();
        QVERIFY(!b.failed(20'000));
        QVERIFY(!b.failed(30'000));
        QVERIFY(b.failed(40'000)); // three in a row within a minute
        CircuitBreaker slow(CircuitConfig { 3, 60'000, 30'000 });
        QVERIFY(!slow.failed(0));
        QVERIFY(!slow.failed(40'000));
        QVERIFY(!slow.failed(70'000)); // three in a row, but 70 s apart
        QVERIFY(slow.failed(90'000)); // the newest three: 40 s .. 90 s
    }

    void anOutageWithABreakerLeavesNoDeadLetter()
    {
        startOutage(true);
        // The second failure opens the circuit: audited once, as the receiver itself.
        QVERIFY(waitUntil(
            [&] {
                return count(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'circuit_opened'"))
                    == 1;
            },
            10'000));
        QVERIFY(waitUntil([&] { return deliveriesIn("in_flight") == 0; }, 10'000));
        QVERIFY(metricSays("redrive_destination_circuit_open{destination=\"shop\"} 1"));
        QCOMPARE(
            count(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'circuit_opened' AND actor = "
                                 "'redrive' AND role = 'system' AND target = 'destination:shop'")),
            1);
        QCOMPARE(count(QStringLiteral(
                     "SELECT COUNT(*) FROM destination_state WHERE name = 'shop' AND circuit_open = 1 "
                     "AND circuit_next_probe_at = %1")
                           .arg(rig().clock.nowMs() + kProbeEveryMs)),
            1);
        const qint64 atOpening = attempts();
        // The failures that opened it, and at most the one attempt already in flight then.
        QVERIFY2(atOpening >= kFailures && atOpening <= kFailures + shop().concurrency,
            qPrintable(QString::number(atOpening)));

        // Three minutes of outage, one probe interval at a time: one probe each, held afterwards.
        const qint64 t0 = rig().clock.nowMs();
        for (int step = 1; step <= kOutageSteps; ++step) {
            rig().clock.setMs(t0 + step * kProbeEveryMs);
            rig().engine->wake();
            QVERIFY2(
                waitUntil(
                    [&] { return attempts() == atOpening + step && deliveriesIn("in_flight") == 0; }, 10'000),
                qPrintable(QStringLiteral("probe %1: %2 attempts").arg(step).arg(attempts())));
        }
        // No extra attempt since (a due backlog is waiting, held), no dead letter, the circuit still open.
        QVERIFY(count(QStringLiteral(
                    "SELECT COUNT(*) FROM deliveries WHERE status = 'retrying' AND next_attempt_at <= %1")
                          .arg(rig().clock.nowMs()))
            > 0);
        QCOMPARE(attempts(), atOpening + kOutageSteps);
        QCOMPARE(deliveriesIn("dead"), 0);
        QCOMPARE(deliveriesIn("retrying"), kDeliveries);
        // Past max_attempts while open: held, and the attempt says so.
        QVERIFY(count(QStringLiteral("SELECT COUNT(*) FROM attempts WHERE number >= 3 AND explanation LIKE "
                                     "'%the circuit is open: held, not a dead letter%'"))
            > 0);
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'circuit_opened'")), 1);

        // The destination is back: the next probe succeeds, the circuit closes, the backlog drains.
        rig().destination.setDefault(ScriptableDestination::status(200, "ok"));
        rig().clock.setMs(t0 + (kOutageSteps + 1) * kProbeEveryMs);
        rig().engine->wake();
        QVERIFY(waitUntil([&] { return deliveriesIn("succeeded") == kDeliveries; }, 10'000));
        QCOMPARE(
            count(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'circuit_closed' AND actor = "
                                 "'redrive' AND reason = 'a probe succeeded'")),
            1);
        QCOMPARE(count(QStringLiteral(
                     "SELECT COUNT(*) FROM destination_state WHERE name = 'shop' AND circuit_open = 0 "
                     "AND circuit_next_probe_at IS NULL")),
            1);
        QCOMPARE(attempts(), atOpening + kOutageSteps + kDeliveries);
        QVERIFY(metricSays("redrive_destination_circuit_open{destination=\"shop\"} 0"));
    }

    void anOutageWithoutABreakerDeadLetters()
    {
        startOutage(false);
        const qint64 t0 = rig().clock.nowMs();
        for (int step = 0; step <= kOutageSteps; ++step) {
            rig().clock.setMs(t0 + step * kProbeEveryMs);
            rig().engine->wake();
            QVERIFY2(waitUntil([&] { return settled(); }, 10'000),
                qPrintable(QStringLiteral("step %1").arg(step)));
        }
        QVERIFY(deliveriesIn("dead") >= 1);
        QCOMPARE(deliveriesIn("dead"), kDeliveries); // 3 attempts each, well within three minutes
        QCOMPARE(attempts(), 3 * kDeliveries);
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action LIKE 'circuit_%'")), 0);
        QVERIFY(metricSays("redrive_destination_circuit_open{destination=\"shop\"} 0"));
    }

    // One state per destination: a circuit opened by another receiver on the database holds here
    // (read back within a second), and closing it there releases the backlog here.
    void aCircuitOpenedElsewhereHoldsHere()
    {
        shop().circuit = CircuitConfig { 5, 60'000, 3'600'000 };
        const qint64 now = rig().clock.nowMs();
        QVERIFY(markCircuitOpen(*rig().db, QStringLiteral("shop"),
            QStringLiteral("opened by another receiver"), now, now + 3'600'000)
                    .value_or(false));
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        const qint64 held = rig().seedOne();
        rig().engine->wake();
        QVERIFY(metricSays("redrive_destination_circuit_open{destination=\"shop\"} 1"));
        QVERIFY(metricSays("redrive_delivery_backlog{destination=\"shop\"} 1"));
        QCOMPARE(rig().engine->counters().claimed, 0u);
        QCOMPARE(readDelivery(*rig().db, held).status, QStringLiteral("pending"));
        QVERIFY(closeCircuit(*rig().db, QStringLiteral("shop"), QStringLiteral("closed elsewhere"), now)
                    .value_or(false));
        QVERIFY(rig().waitForStatus(held, QStringLiteral("succeeded")));
        QVERIFY(metricSays("redrive_destination_circuit_open{destination=\"shop\"} 0"));
    }
};

QTEST_GUILESS_MAIN(TstCircuitBreaker)
#include "tst_circuitbreaker.moc"
