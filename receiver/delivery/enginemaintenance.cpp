// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
//
// The engine's housekeeping: lease sweeps, retention, backlog metrics, re-opening a broken
// connection, the recorder lanes, and the graceful stop.
#include "engineprivate.h"
#include "notify/notification.h"
#include "retention.h"
#include "storage/incidentcheck.h"
#include "timedpause.h"

namespace redrive::delivery {

// A connection that keeps failing (PostgreSQL restarted, network cut) is replaced; QtSql does
// not reconnect by itself. Claims in flight keep their leases and are recorded afterwards.
void DeliveryEngine::Private::reopenIfBroken(Steady::time_point now)
{
    if ((dbFailures < 3 && db->handle().isOpen()) || now < nextReopen)
        return;
    nextReopen = now + std::chrono::seconds(2);
    QString error;
    auto fresh = takeValue(Db::open(storage, QStringLiteral("delivery"), {}), &error);
    if (!fresh) {
        availability.reportDown(error); // logged once per outage; nothing is claimed meanwhile
        availability.countUnavailable();
        return;
    }
    store.reset();
    db = std::move(fresh);
    store = std::make_unique<DeliveryStore>(*db);
    dbFailures = 0;
    sweepHeldUntil = now + kSweepGraceAfterReopen;
    qCInfo(lcDelivery, "database connection re-opened");
}

void DeliveryEngine::Private::drain()
{
    // Claims still queued were never sent: give them back now. Let running attempts finish
    // until the grace deadline, then interrupt the rest.
    dispatcher->dropQueued();
    Steady::time_point graceDeadline;
    {
        auto lock = inbox->worker.lock();
        graceDeadline = inbox->graceDeadline;
    }
    bool cancelled = false;
    const auto hardDeadline = std::max(graceDeadline, Steady::now()) + std::chrono::seconds(3);
    while (inFlight > 0 && Steady::now() < hardDeadline) {
        QList<Finished> batch;
        {
            auto lock = inbox->worker.lock();
            inbox->worker.waitUntil(
                lock, cancelled ? hardDeadline : graceDeadline, [&] { return !inbox->finished.isEmpty(); });
            batch.swap(inbox->finished);
        }
        recordFinished(batch);
        if (!cancelled && Steady::now() >= graceDeadline && inFlight > 0) {
            http->cancelAll();
            cancelled = true;
        }
    }
    if (inFlight > 0)
        qCWarning(lcDelivery, "%d attempts did not finish at shutdown; their leases will expire", inFlight);
    // The lanes record what they were given, then report it.
    for (auto &lane : lanes)
        lane->stop();
    lanes.clear();
    QList<Recorded> recorded;
    {
        auto lock = inbox->worker.lock();
        recorded.swap(inbox->recorded);
    }
    takeRecorded(recorded);
}

void DeliveryEngine::Private::startLanes()
{
    if (db->isSqlite())
        return; // one writer at a time: lanes would only wait for each other
    for (int i = 1; i < kRecordLanes; ++i) {
        auto lane = std::make_unique<RecorderLane>(storage, QStringLiteral("delivery-lane-%1").arg(i),
            [box = inbox](RecorderLane::Items items, QList<RecordResult> results, QString error) {
                box->push(Recorded { std::move(items), std::move(results), std::move(error) });
            });
        if (const auto started = lane->start(); !started) {
            qCWarning(lcDelivery, "recording on one connection only: %s", qPrintable(started.error()));
            return;
        }
        lanes.push_back(std::move(lane));
    }
}

Result<> DeliveryEngine::Private::storeNotification(const notify::Notification &notification)
{
    if (!notify::anyWants(config.notifications, notification.kind))
        return ok();
    const auto stored = notify::enqueue(*db, config.notifications, notification, clock.nowMs());
    if (!stored)
        return Failure(stored.error());
    if (*stored > 0)
        inbox->wakeUp(); // seen by this thread after the commit
    return ok();
}

void DeliveryEngine::Private::checkIncidents(Steady::time_point now)
{
    if (now < nextIncidentCheck && !(incidentsDue && now >= lastIncidentCheck + kIncidentMinInterval))
        return;
    lastIncidentCheck = now;
    nextIncidentCheck = now + std::chrono::milliseconds(config.incidents.checkIntervalMs);
    incidentsDue = false;
    // One notification per incident opening (or growth step), never one per dead letter, stored
    // with the opening.
    const auto result = redrive::checkIncidents(
        *db, clock.nowMs(), config.incidents.growThreshold, [&](const OpenedIncident &i) {
            return storeNotification(
                notify::incidentOpened(i.id, i.destination, i.category, i.count, i.grew, clock.nowMs()));
        });
    noteDb(result.has_value());
    if (!result) {
        incidentsDue = true; // try again after the minimum interval
        if (dbFailures <= 3)
            qCWarning(lcDelivery, "incident check failed: %s", qPrintable(result.error()));
        return;
    }
    for (const OpenedIncident &i : result->opened)
        qCInfo(lcDelivery, "incident %lld opened: %lld dead letters for %s, category %s", i.id, i.count,
            qPrintable(i.destination),
            qPrintable(i.category.isEmpty() ? QStringLiteral("(none)") : i.category));
    metrics.incidentsOpen(result->open);
}

// Retention: one bounded batch of expired events and one of incidents closed before the same
// cutoff per turn; while either batch comes back full, the next turn runs again at once.
void DeliveryEngine::Private::purgeExpired(Steady::time_point now)
{
    nextRetention = now + kRetentionInterval;
    retentionBacklog = false;
    const qint64 cutoff = clock.nowMs() - qint64(config.storage.retentionDays) * 86'400'000;
    const auto purgedEvents = purgeExpiredEvents(*db, cutoff, kRetentionBatch);
    noteDb(purgedEvents.has_value());
    if (!purgedEvents) {
        if (dbFailures <= 3)
            qCWarning(lcDelivery, "retention failed: %s", qPrintable(purgedEvents.error()));
        return;
    }
    const int purged = *purgedEvents;
    if (purged > 0) {
        metrics.purged(purged);
        std::lock_guard lock(countersMutex);
        counters.purged += static_cast<quint64>(purged);
    }
    const auto incidents = purgeClosedIncidents(*db, cutoff, kRetentionBatch);
    noteDb(incidents.has_value());
    if (!incidents) {
        if (dbFailures <= 3)
            qCWarning(lcDelivery, "retention of closed incidents failed: %s", qPrintable(incidents.error()));
        return;
    }
    if (*incidents > 0)
        qCInfo(lcDelivery, "retention removed %d closed incidents", *incidents);
    retentionBacklog = purged == kRetentionBatch || *incidents == kRetentionBatch;
}

void DeliveryEngine::Private::resumeEndedPauses(Steady::time_point now)
{
    nextPauseCheck = now + kPauseCheckInterval;
    const auto ended = delivery::resumeEndedPauses(*db, clock.nowMs());
    noteDb(ended.has_value());
    if (!ended) {
        if (dbFailures <= 3)
            qCWarning(lcDelivery, "lifting ended pauses failed: %s", qPrintable(ended.error()));
        return;
    }
    for (const EndedPause &p : *ended)
        qCInfo(lcDelivery, "destination %s resumed: its pause until %s ended", qPrintable(p.destination),
            qPrintable(isoUtc(p.untilMs)));
}

void DeliveryEngine::Private::maintenance(Steady::time_point now)
{
    reopenIfBroken(now);
    if (!db->handle().isOpen())
        return; // still broken: no sweep, retention or backlog on a closed handle
    if (now >= nextSweep && now >= sweepHeldUntil) {
        nextSweep = now + std::chrono::milliseconds(std::max(100, config.delivery.sweepIntervalMs));
        const SweepPolicy policy
            = [this](const QString &destination, int attemptNumber, bool replay, qint64 at) {
                  const auto it = destinations.constFind(destination);
                  const int maxAttempts = it == destinations.constEnd() ? 1 : it->config->maxAttempts;
                  // The lost attempt already waited a whole lease: retry at once, within the budget
                  // (an open circuit holds instead of dead-lettering).
                  if (replay || (attemptNumber >= maxAttempts && !circuitOpen(destination)))
                      return SweepDecision { DeliveryStatus::Dead, std::nullopt };
                  return SweepDecision { DeliveryStatus::Retrying, at };
              };
        const auto swept = store->sweepExpired(clock.nowMs(), kSweepBatch, policy);
        noteDb(swept.has_value());
        const int rescued = swept.value_or(0);
        if (!swept) {
            if (dbFailures <= 3)
                qCWarning(lcDelivery, "lease sweep failed: %s", qPrintable(swept.error()));
        } else if (rescued > 0) {
            metrics.leasesRescued(rescued);
            incidentsDue = true; // a rescued replay attempt may have been dead-lettered
            qCInfo(lcDelivery, "rescued %d deliveries whose lease expired", rescued);
            std::lock_guard lock(countersMutex);
            counters.rescued += static_cast<quint64>(rescued);
        }
    }
    if (retentionBacklog || now >= nextRetention)
        purgeExpired(now);
    checkIncidents(now);
    if (now >= nextPauseCheck) {
        resumeEndedPauses(now);
        refreshCircuits();
    }
    if (now >= nextBacklog) {
        nextBacklog = now + kBacklogInterval;
        const qint64 at = clock.nowMs();
        // A failed read reports every destination's backlog as empty until the next one.
        const auto rows = store->backlog(at).value_or(QList<DeliveryStore::Backlog>());
        QSet<QString> seen;
        for (const auto &row : rows) {
            seen.insert(row.destination);
            metrics.backlog(row.destination, row.due + row.waiting,
                row.oldestDueAt > 0 ? static_cast<double>(at - row.oldestDueAt) / 1000.0 : 0.0);
        }
        for (const QString &name : std::as_const(order)) {
            if (!seen.contains(name))
                metrics.backlog(name, 0, 0);
        }
    }
}

} // namespace redrive::delivery
