// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// The executor side of the replay execution contract, driven pass by pass on a ManualClock; the
// delivery engine's side is simulated with AdminFixture::finishReplayItem.
#include "admin/replayexecutor.h"
#include "adminfixture.h"
#include "storage/duewakeup.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <QTest>

#include <atomic>
#include <cmath>

using namespace redrive;
using namespace redrive::test;

class TstReplayExecutor : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cleanup();
    void queuesAtABoundedRate();
    void queueingFollowsTheContract();
    void haltsWhenTheFirstAttemptsFail();
    void keepsGoingAtTheThreshold();
    void completesWithOutcomeCounts();
    void skipsVanishedInFlightAndForeignDeliveries();
    void skipsItemsChangedSinceThePreview();
    void cancelStopsQueueing();
    void approvedButNeverStartedExpires();
    void runsOnItsOwnThread();
    void queuedItemsWakeTheDeliveryEngines();
    void heldReplaysDoNotStarveLaterOnes();

private:
    void setUp(double rate, int haltAfter = 10, double ratio = 0.5);
    qint64 lowRiskReplay(int count, QList<qint64> *ids = nullptr);
    std::unique_ptr<AdminFixture> f;
    std::unique_ptr<admin::ReplayExecutor> exec;
    QString support;
};

void TstReplayExecutor::cleanup()
{
    exec.reset();
    f.reset();
}

void TstReplayExecutor::setUp(double rate, int haltAfter, double ratio)
{
    QString error;
    f = AdminFixture::create(&error, [&](Config &c) {
        c.admin.replayRatePerSecond = rate;
        c.admin.haltAfter = haltAfter;
        c.admin.haltFailureRatio = ratio;
    });
    QVERIFY2(f, qPrintable(error));
    QVERIFY2(f->startApi(&error), qPrintable(error));
    support = f->token(QStringLiteral("sue"), Role::Support);
    exec = std::make_unique<admin::ReplayExecutor>(f->config, f->database().url(), f->clock);
}

qint64 TstReplayExecutor::lowRiskReplay(int count, QList<qint64> *ids)
{
    QList<qint64> list;
    for (int i = 0; i < count; ++i)
        list.append(f->seedDelivery(QStringLiteral("crm"), DeliveryStatus::Dead));
    if (ids)
        *ids = list;
    return f->requestReplay(support, list, QStringLiteral("crm was down"));
}

void TstReplayExecutor::queuesAtABoundedRate()
{
    setUp(5);
    const qint64 id = lowRiskReplay(23);
    QVERIFY(id > 0);
    const qint64 t0 = f->clock.nowMs();
    auto pass = exec->runOnce();
    QVERIFY(pass);
    QCOMPARE(pass->started, 1);
    QCOMPARE(pass->queued, 5); // one second's burst
    QCOMPARE(exec->runOnce()->queued, 0); // no time passed, no tokens
    f->clock.advanceMs(1000);
    QCOMPARE(exec->runOnce()->queued, 5);
    f->clock.advanceMs(400);
    QCOMPARE(exec->runOnce()->queued, 2);
    // From here on, never more than burst + rate × elapsed.
    int total = 12;
    for (int step = 0; step < 100 && total < 23; ++step) {
        f->clock.advanceMs(150);
        total += exec->runOnce()->queued;
        const double elapsed = static_cast<double>(f->clock.nowMs() - t0) / 1000.0;
        QVERIFY2(total <= 5 + std::floor(5 * elapsed + 1e-9),
            qPrintable(QStringLiteral("%1 queued after %2 s").arg(total).arg(elapsed)));
    }
    QCOMPARE(total, 23);
    QCOMPARE(f->count(QStringLiteral("replay_items"),
                 QStringLiteral("replay_id = %1 AND state = 'queued'").arg(id)),
        23);
    // 23 items at 5/s with a burst of 5 need at least (23 - 5) / 5 = 3.6 s.
    QVERIFY(f->clock.nowMs() - t0 >= 3600);
}

void TstReplayExecutor::queueingFollowsTheContract()
{
    setUp(1000);
    QList<qint64> ids;
    const qint64 id = lowRiskReplay(2, &ids);
    auto key = [&] {
        QSqlQuery k(f->db().handle());
        k.exec(QStringLiteral("SELECT idempotency_key FROM deliveries WHERE id = %1").arg(ids[0]));
        return k.next() ? k.value(0).toString() : QString();
    };
    const QString keyBefore = key();
    QVERIFY(!keyBefore.isEmpty());
    f->clock.advanceMs(5);
    QVERIFY(exec->runOnce());
    QSqlQuery q(f->db().handle());
    QVERIFY(q.exec(QStringLiteral("SELECT status, next_attempt_at, replay_id FROM deliveries WHERE id = %1")
                       .arg(ids[0])));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("pending"));
    QCOMPARE(q.value(1).toLongLong(), f->clock.nowMs());
    QCOMPARE(q.value(2).toLongLong(), id);
    QCOMPARE(key(), keyBefore); // the same idempotency key goes out again
    q.finish();
    // No new events or deliveries: a replay re-sends what exists.
    QCOMPARE(f->count(QStringLiteral("deliveries")), 2);
    QCOMPARE(f->count(QStringLiteral("events")), 2);
    // The event's status follows its delivery.
    QCOMPARE(f->count(QStringLiteral("event_status"), QStringLiteral("status = 'pending'")), 2);
    QCOMPARE(f->replayStatus(id), QStringLiteral("executing"));
    QCOMPARE(f->count(QStringLiteral("audit_log"),
                 QStringLiteral("action = 'replay_executed' AND actor = 'redrive' AND role = 'system'")),
        1);
}

void TstReplayExecutor::haltsWhenTheFirstAttemptsFail()
{
    setUp(4, /*haltAfter=*/4, /*ratio=*/0.5);
    QList<qint64> ids;
    const qint64 id = lowRiskReplay(10, &ids);
    QCOMPARE(exec->runOnce()->queued, 4);
    f->finishReplayItem(id, ids[0], false);
    f->finishReplayItem(id, ids[1], true);
    f->finishReplayItem(id, ids[2], false);
    QCOMPARE(exec->runOnce()->halted, 0); // only 3 finished: not judged yet
    f->finishReplayItem(id, ids[3], false);
    const auto pass = exec->runOnce();
    QVERIFY(pass);
    QCOMPARE(pass->halted, 1);
    QCOMPARE(f->replayStatus(id), QStringLiteral("halted"));
    QSqlQuery q(f->db().handle());
    QVERIFY(q.exec(QStringLiteral(
        "SELECT reason, details FROM audit_log WHERE action = 'replay_halted' AND target = 'replay:%1'")
                       .arg(id)));
    QVERIFY(q.next());
    QVERIFY2(
        q.value(0).toString().contains(QLatin1String("3 of the first 4")), qPrintable(q.value(0).toString()));
    const QJsonObject details = QJsonDocument::fromJson(q.value(1).toString().toUtf8()).object();
    QCOMPARE(details.value(QLatin1String("failed")).toInt(), 3);
    QCOMPARE(details.value(QLatin1String("succeeded")).toInt(), 1);
    QCOMPARE(details.value(QLatin1String("waiting")).toInt(), 6);
    const QString reason = q.value(0).toString();
    q.finish();
    // The API states why it stopped and how far it got, in the replay and in the list.
    const auto api = f->call("GET", "replays/" + QByteArray::number(id), support);
    QCOMPARE(api.json.value(QLatin1String("halt_reason")).toString(), reason);
    QCOMPARE(api.json.value(QLatin1String("sent")).toInt(), 4);
    const auto list = f->call("GET", "replays?status=halted", support);
    const QJsonObject listed = list.json.value(QLatin1String("items")).toArray().at(0).toObject();
    QCOMPARE(listed.value(QLatin1String("id")).toInteger(), id);
    QCOMPARE(listed.value(QLatin1String("halt_reason")).toString(), reason);
    // Waiting items stay unsent, even as time passes.
    f->clock.advanceMs(60'000);
    QCOMPARE(exec->runOnce()->queued, 0);
    QCOMPARE(f->count(QStringLiteral("replay_items"),
                 QStringLiteral("replay_id = %1 AND state = 'waiting'").arg(id)),
        6);
    QCOMPARE(f->count(QStringLiteral("deliveries"), QStringLiteral("replay_id IS NOT NULL")), 0);
    QCOMPARE(f->count(QStringLiteral("audit_log"), QStringLiteral("action = 'replay_halted'")), 1);
}

void TstReplayExecutor::keepsGoingAtTheThreshold()
{
    setUp(4, 4, 0.5);
    QList<qint64> ids;
    const qint64 id = lowRiskReplay(6, &ids);
    QCOMPARE(exec->runOnce()->queued, 4);
    f->finishReplayItem(id, ids[0], false);
    f->finishReplayItem(id, ids[1], false);
    f->finishReplayItem(id, ids[2], true);
    f->finishReplayItem(id, ids[3], true);
    f->clock.advanceMs(1000);
    const auto pass = exec->runOnce();
    QCOMPARE(pass->halted, 0); // 2 of 4 is not more than half
    QCOMPARE(pass->queued, 2);
    QCOMPARE(f->replayStatus(id), QStringLiteral("executing"));
}

void TstReplayExecutor::completesWithOutcomeCounts()
{
    setUp(100);
    QList<qint64> ids;
    const qint64 id = lowRiskReplay(3, &ids);
    QCOMPARE(exec->runOnce()->queued, 3);
    f->finishReplayItem(id, ids[0], true);
    f->finishReplayItem(id, ids[1], true);
    QCOMPARE(exec->runOnce()->completed, 0); // one still queued
    f->finishReplayItem(id, ids[2], false);
    QCOMPARE(exec->runOnce()->completed, 1);
    QCOMPARE(f->replayStatus(id), QStringLiteral("completed"));
    QSqlQuery q(f->db().handle());
    QVERIFY(q.exec(QStringLiteral(
        "SELECT details FROM audit_log WHERE action = 'replay_completed' AND target = 'replay:%1'")
                       .arg(id)));
    QVERIFY(q.next());
    const QJsonObject details = QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object();
    QCOMPARE(details.value(QLatin1String("succeeded")).toInt(), 2);
    QCOMPARE(details.value(QLatin1String("failed")).toInt(), 1);
    QCOMPARE(details.value(QLatin1String("skipped")).toInt(), 0);
    q.finish();
    const auto api = f->call("GET", "replays/" + QByteArray::number(id), support);
    QCOMPARE(api.json.value(QLatin1String("succeeded")).toInt(), 2);
    QCOMPARE(api.json.value(QLatin1String("failed")).toInt(), 1);
    QVERIFY(!api.json.value(QLatin1String("finished_at")).isNull());
    QCOMPARE(api.json.value(QLatin1String("sent")).toInt(), 3);
    QVERIFY(api.json.value(QLatin1String("halt_reason")).isNull());
    QCOMPARE(exec->runOnce()->completed, 0); // audited once
}

void TstReplayExecutor::skipsVanishedInFlightAndForeignDeliveries()
{
    setUp(100);
    QList<qint64> ids;
    const qint64 id = lowRiskReplay(4, &ids);
    // Between request and execution: one delivery is claimed by a worker, one is deleted by
    // retention, one is queued by an (older) replay.
    f->setDeliveryStatus(ids[0], DeliveryStatus::InFlight);
    QVERIFY(f->db().exec(QStringLiteral("DELETE FROM deliveries WHERE id = %1").arg(ids[1])));
    QVERIFY(f->db().exec(QStringLiteral("UPDATE deliveries SET replay_id = 999 WHERE id = %1").arg(ids[2])));
    const auto pass = exec->runOnce();
    QCOMPARE(pass->queued, 1);
    QCOMPARE(pass->skipped, 3);
    QCOMPARE(f->count(QStringLiteral("deliveries"),
                 QStringLiteral("id = %1 AND status = 'in_flight' AND replay_id IS NULL").arg(ids[0])),
        1);
    QCOMPARE(
        f->count(QStringLiteral("deliveries"), QStringLiteral("id = %1 AND replay_id = 999").arg(ids[2])), 1);
    f->finishReplayItem(id, ids[3], true);
    QCOMPARE(exec->runOnce()->completed, 1);
    QCOMPARE(f->count(QStringLiteral("audit_log"),
                 QStringLiteral("action = 'replay_completed' AND details LIKE '%\"skipped\":3%'")),
        1);
}

// An approval-free replay of retrying deliveries: between the preview and the execution one
// succeeded and one became outcome-unknown. Resending either would need an approval nobody gave,
// so both are skipped with the reason, counted and audited; the unchanged one is queued.
void TstReplayExecutor::skipsItemsChangedSinceThePreview()
{
    setUp(100);
    QList<qint64> list;
    for (int i = 0; i < 3; ++i)
        list.append(f->seedDelivery(QStringLiteral("crm"), DeliveryStatus::Retrying));
    const qint64 id = f->requestReplay(support, list, QStringLiteral("crm was slow"));
    QVERIFY(id > 0);
    QCOMPARE(f->replayStatus(id), QStringLiteral("approved")); // no approval was owed
    f->setDeliveryStatus(list[0], DeliveryStatus::Succeeded);
    QVERIFY(
        f->db().exec(QStringLiteral("UPDATE deliveries SET outcome_unknown = 1 WHERE id = %1").arg(list[1])));
    const auto pass = exec->runOnce();
    QVERIFY(pass);
    QCOMPARE(pass->queued, 1);
    QCOMPARE(pass->skipped, 2);
    QCOMPARE(f->count(QStringLiteral("replay_items"),
                 QStringLiteral(
                     "replay_id = %1 AND state = 'skipped' AND skip_reason = 'changed since the preview'")
                     .arg(id)),
        2);
    QCOMPARE(f->count(QStringLiteral("deliveries"),
                 QStringLiteral("id = %1 AND status = 'succeeded' AND replay_id IS NULL").arg(list[0])),
        1);
    QCOMPARE(f->count(QStringLiteral("deliveries"),
                 QStringLiteral("id = %1 AND status = 'retrying' AND replay_id IS NULL").arg(list[1])),
        1);
    QCOMPARE(f->count(QStringLiteral("deliveries"),
                 QStringLiteral("id = %1 AND status = 'pending' AND replay_id = %2").arg(list[2]).arg(id)),
        1);
    QCOMPARE(f->count(QStringLiteral("replays"), QStringLiteral("id = %1 AND skipped_count = 2").arg(id)), 1);
    QCOMPARE(
        f->count(QStringLiteral("audit_log"),
            QStringLiteral("action = 'replay_items_skipped' AND target = 'replay:%1' AND reason = 'changed "
                           "since the preview' AND details LIKE '%\"count\":2%'")
                .arg(id)),
        1);
    // The receiver says why, item by item.
    const auto read = f->call("GET", "replays/" + QByteArray::number(id), support);
    QCOMPARE(read.status, 200);
    int said = 0;
    for (const QJsonValue &v : read.json.value(QLatin1String("items")).toArray()) {
        if (v.toObject().value(QLatin1String("skip_reason")).toString() == u"changed since the preview")
            ++said;
    }
    QCOMPARE(said, 2);
}

void TstReplayExecutor::cancelStopsQueueing()
{
    setUp(2);
    const qint64 id = lowRiskReplay(6);
    QCOMPARE(exec->runOnce()->queued, 2);
    const auto r = f->call("POST", "replays/" + QByteArray::number(id) + "/cancel", support,
        QJsonObject { { QStringLiteral("reason"), QStringLiteral("wrong batch") } });
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(QLatin1String("status")).toString(), QStringLiteral("cancelled"));
    f->clock.advanceMs(10'000);
    QCOMPARE(exec->runOnce()->queued, 0);
    QCOMPARE(f->count(QStringLiteral("replay_items"),
                 QStringLiteral("replay_id = %1 AND state = 'waiting'").arg(id)),
        4);
    QSqlQuery q(f->db().handle());
    QVERIFY(q.exec(QStringLiteral("SELECT details FROM audit_log WHERE action = 'replay_cancelled'"))
        && q.next());
    const QJsonObject details = QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object();
    QCOMPARE(details.value(QLatin1String("unsent")).toInt(), 4);
    QCOMPARE(details.value(QLatin1String("already_queued")).toInt(), 2);
    QCOMPARE(details.value(QLatin1String("previous_status")).toString(), QStringLiteral("executing"));
}

void TstReplayExecutor::approvedButNeverStartedExpires()
{
    setUp(100);
    const qint64 id = lowRiskReplay(1);
    QCOMPARE(f->replayStatus(id), QStringLiteral("approved"));
    f->clock.advanceMs(f->config.admin.approvalTtlMs + 1);
    const auto pass = exec->runOnce();
    QCOMPARE(pass->expired, 1);
    QCOMPARE(pass->started, 0);
    QCOMPARE(f->replayStatus(id), QStringLiteral("expired"));
    QCOMPARE(f->count(QStringLiteral("deliveries"), QStringLiteral("replay_id IS NOT NULL")), 0);
    QCOMPARE(f->count(QStringLiteral("audit_log"),
                 QStringLiteral("action = 'replay_expired' AND target = 'replay:%1'").arg(id)),
        1);
}

void TstReplayExecutor::runsOnItsOwnThread()
{
    setUp(1000);
    exec.reset();
    admin::ReplayExecutor threaded(f->config, f->database().url(), f->clock);
    threaded.setPollIntervalMs(20);
    const auto started = threaded.start();
    QVERIFY2(started, qPrintable(started.error()));
    const qint64 id = lowRiskReplay(3);
    threaded.wake();
    QTRY_COMPARE_WITH_TIMEOUT(f->count(QStringLiteral("replay_items"),
                                  QStringLiteral("replay_id = %1 AND state = 'queued'").arg(id)),
        3, 10'000);
    threaded.stop();
}

// A pass that queued deliveries wakes this receiver's engine in-process after its commit and, on
// PostgreSQL, every engine on the database through a NOTIFY in the same transaction (a listener
// on its own connection stands in for another receiver's engine). A pass that queued nothing
// wakes nobody.
void TstReplayExecutor::queuedItemsWakeTheDeliveryEngines()
{
    setUp(1000);
    std::atomic<int> woken { 0 };
    exec->setOnQueued([&woken] { woken.fetch_add(1); });
    std::unique_ptr<DueListener> listener;
    if (f->database().url().dialect == Dialect::Postgres) {
        listener = std::make_unique<DueListener>(f->database().url(), [] {});
        const auto listening = listener->start();
        QVERIFY2(listening, qPrintable(listening.error()));
        QTRY_VERIFY_WITH_TIMEOUT(listener->listening(), 10'000);
    }
    QCOMPARE(exec->runOnce()->queued, 0);
    QCOMPARE(woken.load(), 0);

    const qint64 id = lowRiskReplay(3);
    QVERIFY(id > 0);
    f->clock.advanceMs(5);
    QCOMPARE(exec->runOnce()->queued, 3);
    QVERIFY(woken.load() >= 1);
    if (listener) {
        QTRY_VERIFY_WITH_TIMEOUT(listener->wakeups() >= 1, 10'000);
        QCOMPARE(listener->connections(), quint64 { 1 });
    }
}

// More replays than one pass looks at, all held by a paused destination (their items are handed
// to the engine, which does not send them while the pause lasts): a later replay to another
// destination still gets its turn within a bounded number of passes and completes. The held
// ones stay executing, their items queued, nothing skipped.
void TstReplayExecutor::heldReplaysDoNotStarveLaterOnes()
{
    setUp(100'000);
    const QString admin = f->token(QStringLiteral("root"), Role::Admin);
    QCOMPARE(f->call("POST", "destinations/crm/pause", admin,
                  QJsonObject { { QStringLiteral("reason"), QStringLiteral("crm maintenance") } })
                 .status,
        200);
    constexpr int kHeld = 60; // a pass looks at 50 replays
    for (int i = 0; i < kHeld; ++i)
        QVERIFY(lowRiskReplay(1) > 0);
    const QList<qint64> billingDelivery { f->seedDelivery(QStringLiteral("billing"), DeliveryStatus::Dead) };
    const qint64 billing = f->requestReplay(support, billingDelivery, QStringLiteral("billing was down"));
    QVERIFY(billing > 0);

    auto billingQueued = [&] {
        return f->count(QStringLiteral("replay_items"),
            QStringLiteral("replay_id = %1 AND state = 'queued'").arg(billing));
    };
    int passes = 0;
    for (; passes < 10 && billingQueued() == 0; ++passes)
        QVERIFY(exec->runOnce());
    QCOMPARE(billingQueued(), 1);
    QVERIFY2(passes <= 3, qPrintable(QStringLiteral("queued after %1 passes").arg(passes)));

    // The engine delivers it (billing is not paused); the executor settles it.
    f->finishReplayItem(billing, billingDelivery.first(), true);
    for (passes = 0; passes < 10 && f->replayStatus(billing) != u"completed"; ++passes)
        QVERIFY(exec->runOnce());
    QCOMPARE(f->replayStatus(billing), QStringLiteral("completed"));
    QVERIFY2(passes <= 3, qPrintable(QStringLiteral("completed after %1 passes").arg(passes)));

    QCOMPARE(f->count(QStringLiteral("replays"), QStringLiteral("status = 'executing'")), kHeld);
    QCOMPARE(f->count(QStringLiteral("replay_items"), QStringLiteral("state = 'queued'")), kHeld);
    QCOMPARE(f->count(QStringLiteral("replay_items"), QStringLiteral("state = 'skipped'")), 0);
}

QTEST_GUILESS_MAIN(TstReplayExecutor)
#include "tst_replayexecutor.moc"
