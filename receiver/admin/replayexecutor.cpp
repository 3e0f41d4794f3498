// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replayexecutor.h"

#include "admin/adminlog.h"
#include "admin/replaystore.h"
#include "audit/auditlog.h"
#include "notify/notification.h"
#include "replay/replaypolicy.h"
#include "storage/duewakeup.h"
#include "storage/eventstatus.h"
#include "storage/sqlrow.h"

#include <QJsonArray>
#include <QSqlQuery>

#include <cmath>

namespace redrive::admin {
namespace {
constexpr int kMaxBatch = 200; // items per transaction
constexpr int kMaxReplaysPerPass = 50;
constexpr qint64 kCleanupEveryMs = 60'000;

QString target(qint64 id)
{
    return QStringLiteral("replay:%1").arg(id);
}

audit::AuditRecord systemRecord(
    const QString &action, qint64 id, const QString &reason, const QJsonObject &details)
{
    return audit::AuditRecord { QLatin1String(kSystemActor), QLatin1String(kSystemRole), action, target(id),
        reason, details };
}

QJsonObject countsJson(const ItemCounts &c)
{
    return QJsonObject { { QStringLiteral("succeeded"), c.succeeded }, { QStringLiteral("failed"), c.failed },
        { QStringLiteral("skipped"), c.skipped }, { QStringLiteral("waiting"), c.waiting },
        { QStringLiteral("queued"), c.queued } };
}

Result<QList<qint64>> selectIds(Db &db, const QString &sql, const QVariantList &binds)
{
    return selectRows(db, sql, binds, [](const QSqlQuery &q) { return q.value(0).toLongLong(); });
}

// The first kMaxReplaysPerPass replays in one status, oldest first: for approved ones, each of
// which leaves that status in the pass that looks at it (started, or expired first).
Result<QList<qint64>> replaysIn(Db &db, ReplayStatus status)
{
    return selectIds(db,
        QStringLiteral("SELECT id FROM replays WHERE status = ? ORDER BY id LIMIT %1")
            .arg(kMaxReplaysPerPass),
        { toString(status) });
}

// Up to kMaxReplaysPerPass replays in one status, in id order from the first one after `cursor`,
// wrapping around to the oldest. Replays that cannot progress (their deliveries held by a paused
// destination, say) stay in their status for as long as that lasts; a window that always started
// at the oldest would show only them and starve every later replay. The caller moves the cursor
// to the last replay it looked at, so each one gets its turn within ceil(n / 50) passes.
Result<QList<qint64>> replaysInTurn(Db &db, ReplayStatus status, qint64 cursor)
{
    const QString sql
        = QStringLiteral("SELECT id FROM replays WHERE status = ? AND id %1 ? ORDER BY id LIMIT %2");
    auto after
        = selectIds(db, sql.arg(QStringLiteral(">")).arg(kMaxReplaysPerPass), { toString(status), cursor });
    if (!after)
        return after;
    const auto room = kMaxReplaysPerPass - after->size();
    if (room <= 0 || cursor <= 0)
        return after;
    auto wrapped = selectIds(db, sql.arg(QStringLiteral("<=")).arg(room), { toString(status), cursor });
    if (!wrapped)
        return wrapped;
    *after += *wrapped;
    return after;
}
} // namespace

ReplayExecutor::ReplayExecutor(
    const Config &config, const StorageUrl &url, const Clock &clock, metrics::Registry *registry)
    : m_config(config)
    , m_url(url)
    , m_clock(clock)
{
    if (registry) {
        m_queuedCounter = &registry->counter(QStringLiteral("redrive_admin_replay_items_queued_total"),
            QStringLiteral("Replay items handed to the delivery engine"));
        m_haltedCounter = &registry->counter(QStringLiteral("redrive_admin_replay_transitions_total"),
            QStringLiteral("Replay requests by transition"),
            { { QStringLiteral("to"), toString(ReplayStatus::Halted) } });
        m_completedCounter = &registry->counter(QStringLiteral("redrive_admin_replay_transitions_total"),
            QStringLiteral("Replay requests by transition"),
            { { QStringLiteral("to"), toString(ReplayStatus::Completed) } });
        m_pendingApproval = &registry->gauge(QStringLiteral("redrive_replays_pending_approval"),
            QStringLiteral("Replay requests waiting for approval by a second operator"));
    }
}

ReplayExecutor::~ReplayExecutor()
{
    stop();
}

Result<> ReplayExecutor::start()
{
    if (m_worker.running())
        return ok();
    // The connection is opened on the executor's own thread.
    const Result<> started = m_worker.start(
        1, [this](int) { return ensureDb(); },
        [this](int) {
            loop();
            m_db.reset();
        });
    if (!started)
        return Failure(QStringLiteral("replay executor: ") + started.error());
    return ok();
}

void ReplayExecutor::stop()
{
    m_worker.stop();
}

void ReplayExecutor::wake()
{
    m_worker.wake();
}

void ReplayExecutor::loop()
{
    qint64 lastLoggedMs = 0;
    for (;;) {
        if (const auto pass = runOnce(); !pass) {
            // One line a minute at most: a database outage must not flood the log.
            const qint64 now = m_clock.nowMs();
            if (now - lastLoggedMs > 60'000 || lastLoggedMs == 0) {
                qCWarning(lcReplay, "replay executor: %s", qPrintable(pass.error()));
                lastLoggedMs = now;
            }
            if (m_db && !m_db->exec(QStringLiteral("SELECT 1")))
                m_db.reset(); // reconnect on the next pass
        }
        if (!m_worker.sleepFor(std::chrono::milliseconds(m_pollIntervalMs)))
            return;
    }
}

Result<> ReplayExecutor::ensureDb()
{
    if (m_db)
        return ok();
    auto opened = Db::open(m_url, QStringLiteral("replay-executor"), OpenOptions {});
    if (!opened)
        return Failure(opened.error());
    m_db = std::move(*opened);
    return ok();
}

Result<ReplayExecutor::Pass> ReplayExecutor::runOnce()
{
    if (auto r = ensureDb(); !r)
        return Failure(r.error());
    Pass pass;
    for (auto step : { &ReplayExecutor::expire, &ReplayExecutor::startApproved, &ReplayExecutor::queueItems,
             &ReplayExecutor::settle }) {
        if (auto r = (this->*step)(pass); !r)
            return Failure(r.error());
    }
    const qint64 now = m_clock.nowMs();
    if (now - m_lastCleanupMs >= kCleanupEveryMs) {
        m_lastCleanupMs = now;
        if (auto r = deleteExpiredSelections(*m_db, now); !r)
            return Failure(r.error());
    }
    if (auto r = countPendingApproval(now); !r)
        return Failure(r.error());
    return pass;
}

Result<> ReplayExecutor::countPendingApproval(qint64 nowMs)
{
    if (!m_pendingApproval || (m_lastPendingCountMs >= 0 && nowMs - m_lastPendingCountMs < 5'000))
        return ok();
    m_lastPendingCountMs = nowMs;
    QSqlQuery q(m_db->handle());
    if (auto ran = runQuery(q,
            QStringLiteral("SELECT COUNT(*) FROM replays WHERE status = %1")
                .arg(sqlName(ReplayStatus::PendingApproval)),
            {});
        !ran)
        return Failure(ran.error());
    m_pendingApproval->set(q.next() ? q.value(0).toDouble() : 0.0);
    return ok();
}

Result<> ReplayExecutor::expire(Pass &pass)
{
    const qint64 now = m_clock.nowMs();
    const auto ids = selectIds(*m_db,
        QStringLiteral("SELECT id FROM replays WHERE status IN %1 AND "
                       "approval_expires_at IS NOT NULL AND approval_expires_at <= ? ORDER BY id LIMIT %2")
            .arg(sqlNames({ ReplayStatus::PendingApproval, ReplayStatus::Approved }))
            .arg(kMaxReplaysPerPass),
        { now });
    if (!ids)
        return Failure(ids.error());
    for (const qint64 id : *ids) {
        Transaction tx(*m_db);
        if (auto r = tx.begin(); !r)
            return r;
        const auto loaded = loadReplay(*m_db, id);
        if (!loaded)
            return Failure(loaded.error());
        const std::optional<ReplayRow> &row = *loaded;
        if (!row)
            continue;
        const auto transition
            = transitionReplay(*m_db, id, { ReplayStatus::PendingApproval, ReplayStatus::Approved },
                ReplayStatus::Expired, { { QStringLiteral("finished_at"), now } }, now,
                QStringLiteral("approval_expires_at IS NOT NULL AND approval_expires_at <= ?"), { now });
        if (!transition)
            return Failure(transition.error());
        if (!*transition)
            continue;
        const QString why = row->status == ReplayStatus::PendingApproval
            ? QStringLiteral("not approved within admin.approval_ttl")
            : QStringLiteral("approved but not started within admin.approval_ttl");
        if (auto r = audit::appendAuditEntry(*m_db,
                systemRecord(QStringLiteral("replay_expired"), id, why,
                    { { QStringLiteral("previous_status"), row->status.name() } }),
                now);
            !r)
            return Failure(r.error());
        if (auto r = tx.commit(); !r)
            return r;
        ++pass.expired;
    }
    return ok();
}

Result<> ReplayExecutor::startApproved(Pass &pass)
{
    const auto ids = replaysIn(*m_db, ReplayStatus::Approved);
    if (!ids)
        return Failure(ids.error());
    for (const qint64 id : *ids) {
        const qint64 now = m_clock.nowMs();
        Transaction tx(*m_db);
        if (auto r = tx.begin(); !r)
            return r;
        // The single point where a replay starts: only one caller can move it out of 'approved'.
        const auto transition = transitionReplay(*m_db, id, { ReplayStatus::Approved },
            ReplayStatus::Executing, { { QStringLiteral("started_at"), now } }, now,
            QStringLiteral("approval_expires_at IS NULL OR approval_expires_at > ?"), { now });
        if (!transition)
            return Failure(transition.error());
        if (!*transition)
            continue;
        const auto loaded = loadReplay(*m_db, id);
        if (!loaded)
            return Failure(loaded.error());
        // Inside the transaction that just moved it, the row cannot be missing.
        if (!*loaded)
            return Failure(QStringLiteral("replay %1 vanished as it started").arg(id));
        const ReplayRow &row = **loaded;
        const QJsonObject details { { QStringLiteral("count"), row.itemCount },
            { QStringLiteral("selection_hash"), row.selectionHash },
            { QStringLiteral("rate_per_second"), m_config.admin.replayRatePerSecond },
            { QStringLiteral("approved_by"), row.approvedBy } };
        if (auto r = audit::appendAuditEntry(
                *m_db, systemRecord(QStringLiteral("replay_executed"), id, QString(), details), now);
            !r)
            return Failure(r.error());
        if (auto r = tx.commit(); !r)
            return r;
        ++pass.started;
    }
    return ok();
}

void ReplayExecutor::refill()
{
    const double rate = m_config.admin.replayRatePerSecond;
    const double burst = std::max(1.0, rate);
    const qint64 now = m_clock.nowMs();
    if (m_lastRefillMs < 0) {
        m_tokens = burst;
    } else if (now > m_lastRefillMs) {
        m_tokens = std::min(burst, m_tokens + rate * static_cast<double>(now - m_lastRefillMs) / 1000.0);
    }
    m_lastRefillMs = std::max(m_lastRefillMs, now);
}

Result<> ReplayExecutor::queueItems(Pass &pass)
{
    const auto replays = replaysInTurn(*m_db, ReplayStatus::Executing, m_queueCursor);
    if (!replays)
        return Failure(replays.error());
    if (replays->isEmpty())
        return ok();
    refill();
    for (const qint64 replayId : *replays) {
        // The replay the tokens run out on is the last one looked at: the next pass starts
        // after it, so a big replay shares the rate with the others instead of taking it all.
        m_queueCursor = replayId;
        for (;;) {
            const int budget = static_cast<int>(std::floor(m_tokens));
            if (budget <= 0)
                return ok();
            const auto items = selectIds(*m_db,
                QStringLiteral("SELECT delivery_id FROM replay_items WHERE replay_id = ? AND state = %1 "
                               "ORDER BY delivery_id LIMIT %2")
                    .arg(sqlName(ReplayItemState::Waiting))
                    .arg(std::min(budget, kMaxBatch)),
                { replayId });
            if (!items)
                return Failure(items.error());
            if (items->isEmpty())
                break;
            const int before = pass.queued + pass.skipped;
            if (auto r = queueBatch(replayId, *items, pass); !r)
                return r;
            const int processed = pass.queued + pass.skipped - before;
            if (processed == 0)
                break; // the replay stopped executing, or another executor took these items
            m_tokens -= processed;
        }
    }
    return ok();
}

Result<> ReplayExecutor::queueBatch(qint64 replayId, const QList<qint64> &deliveryIds, Pass &pass)
{
    const qint64 now = m_clock.nowMs();
    Transaction tx(*m_db);
    if (auto r = tx.begin(); !r)
        return r;
    // Lock the replay row first: a concurrent cancel either happened (we stop) or waits for us.
    const auto executing
        = transitionReplay(*m_db, replayId, { ReplayStatus::Executing }, ReplayStatus::Executing, {}, now);
    if (!executing)
        return Failure(executing.error());
    if (!*executing)
        return ok();
    int queued = 0;
    int skipped = 0;
    QJsonArray changed; // items whose delivery is no longer what the preview showed
    for (const qint64 deliveryId : deliveryIds) {
        QSqlQuery d(m_db->handle());
        if (auto ran = runQuery(d,
                QStringLiteral(
                    "SELECT d.status, d.replay_id, d.event_id, d.outcome_unknown, ri.frozen_status, "
                    "ri.frozen_outcome_unknown FROM replay_items ri LEFT JOIN deliveries d ON d.id = "
                    "ri.delivery_id WHERE ri.replay_id = ? AND ri.delivery_id = ?"),
                { replayId, deliveryId });
            !ran)
            return ran;
        const bool exists = d.next() && !d.value(0).isNull();
        const auto current
            = exists ? Stored<DeliveryStatus>::fromName(d.value(0).toString()) : Stored<DeliveryStatus>();
        const bool blocked = !exists || current == DeliveryStatus::InFlight || !d.value(1).isNull();
        const qint64 eventId = exists ? d.value(2).toLongLong() : 0;
        // The request (and its approval, when one was owed) covered the delivery as frozen: one that
        // succeeded or became outcome-unknown since would be resent without the approval that state
        // requires. It is skipped and said so, never sent.
        const bool drifted = exists
            && replay::frozenDrift(
                   { Stored<DeliveryStatus>::fromName(d.value(4).toString()), d.value(5).toInt() != 0 },
                   replay::DeliveryState { current, d.value(3).toInt() != 0 })
                != replay::FrozenDrift::None;
        d.finish();

        ReplayItemState state = ReplayItemState::Skipped;
        QVariant skipReason;
        if (drifted) {
            skipReason = QStringLiteral("changed since the preview");
            changed.append(deliveryId);
        } else if (blocked) {
            skipReason = exists ? QStringLiteral("being delivered or replayed already")
                                : QStringLiteral("delivery no longer exists");
        } else {
            QSqlQuery u(m_db->handle());
            if (auto ran = runQuery(u,
                    QStringLiteral(
                        "UPDATE deliveries SET status = %1, next_attempt_at = ?, replay_id = ?, updated_at = ? "
                        "WHERE id = ? AND status <> %2 AND replay_id IS NULL")
                        .arg(sqlName(DeliveryStatus::Pending), sqlName(DeliveryStatus::InFlight)),
                    { now, replayId, now, deliveryId });
                !ran)
                return ran;
            if (u.numRowsAffected() == 1)
                state = ReplayItemState::Queued;
            else
                skipReason = QStringLiteral("being delivered or replayed already");
        }
        QSqlQuery item(m_db->handle());
        if (auto ran = runQuery(item,
                QStringLiteral("UPDATE replay_items SET state = ?, skip_reason = ? WHERE replay_id = ? AND "
                               "delivery_id = ? AND state = %1")
                    .arg(sqlName(ReplayItemState::Waiting)),
                { toString(state), skipReason.isNull() ? QVariant(QMetaType(QMetaType::QString)) : skipReason,
                    replayId, deliveryId });
            !ran)
            return ran;
        if (item.numRowsAffected() != 1) {
            // Another executor handled this item first: undo our delivery change with the rollback.
            tx.rollback();
            return ok();
        }
        if (state == ReplayItemState::Queued) {
            ++queued;
            if (auto r = refreshEventStatus(*m_db, eventId); !r)
                return Failure(r.error());
        } else {
            ++skipped;
        }
    }
    QSqlQuery counts(m_db->handle());
    if (auto ran = runQuery(counts,
            QStringLiteral(
                "UPDATE replays SET queued_count = queued_count + ?, skipped_count = skipped_count + ? WHERE id = ?"),
            { queued, skipped, replayId });
        !ran)
        return ran;
    if (!changed.isEmpty()) {
        if (auto r = audit::appendAuditEntry(*m_db,
                systemRecord(QStringLiteral("replay_items_skipped"), replayId,
                    QStringLiteral("changed since the preview"),
                    QJsonObject { { QStringLiteral("delivery_ids"), changed },
                        { QStringLiteral("count"), changed.size() } }),
                now);
            !r)
            return Failure(r.error());
    }
    // Wakes the delivery engines on a PostgreSQL database (any receiver's) once this commits.
    if (queued > 0) {
        if (auto r = notifyDeliveriesDue(*m_db); !r)
            return Failure(r.error());
    }
    if (auto r = tx.commit(); !r)
        return r;
    // …and this receiver's own engine in-process, which is all there is on SQLite.
    if (queued > 0 && m_onQueued)
        m_onQueued();
    pass.queued += queued;
    pass.skipped += skipped;
    if (m_queuedCounter)
        m_queuedCounter->inc(queued);
    return ok();
}

Result<> ReplayExecutor::settle(Pass &pass)
{
    const auto replays = replaysInTurn(*m_db, ReplayStatus::Executing, m_settleCursor);
    if (!replays)
        return Failure(replays.error());
    if (!replays->isEmpty())
        m_settleCursor = replays->last();
    const int haltAfter = m_config.admin.haltAfter;
    const double ratio = m_config.admin.haltFailureRatio;
    for (const qint64 id : *replays) {
        auto counted = countItems(*m_db, id);
        if (!counted)
            return Failure(counted.error());
        auto isDone = [](const ItemCounts &n) { return n.waiting == 0 && n.queued == 0; };
        auto isFailing = [&](const ItemCounts &n) {
            return n.finished() >= haltAfter && n.finished() > 1
                && static_cast<double>(n.failed) > ratio * static_cast<double>(n.finished());
        };
        if (!isDone(*counted) && !isFailing(*counted))
            continue;
        const qint64 now = m_clock.nowMs();
        Transaction tx(*m_db);
        if (auto r = tx.begin(); !r)
            return r;
        counted = countItems(*m_db, id); // again, inside the transaction
        if (!counted)
            return Failure(counted.error());
        const ItemCounts &c = *counted;
        const bool done = isDone(c);
        if (!done && !isFailing(c))
            continue;
        const ReplayStatus to = done ? ReplayStatus::Completed : ReplayStatus::Halted;
        const auto transition = transitionReplay(
            *m_db, id, { ReplayStatus::Executing }, to, { { QStringLiteral("finished_at"), now } }, now);
        if (!transition)
            return Failure(transition.error());
        if (!*transition)
            continue;
        QJsonObject details = countsJson(c);
        QString reason;
        if (!done) {
            details.insert(QStringLiteral("halt_after"), haltAfter);
            details.insert(QStringLiteral("halt_failure_ratio"), ratio);
            reason = QStringLiteral(
                "%1 of the first %2 finished attempts failed (more than %3%); %4 items stay unsent")
                         .arg(c.failed)
                         .arg(c.finished())
                         .arg(ratio * 100)
                         .arg(c.waiting);
        }
        if (!done) { // before the audit entry: appending holds the chain's lock until the commit
            const auto told = notify::enqueue(*m_db, m_config.notifications,
                notify::replayHalted(id, c.failed, c.finished(), c.waiting, reason, now), now);
            if (!told)
                return Failure(told.error());
        }
        if (auto r = audit::appendAuditEntry(*m_db,
                systemRecord(done ? QStringLiteral("replay_completed") : QStringLiteral("replay_halted"), id,
                    reason, details),
                now);
            !r)
            return Failure(r.error());
        if (auto r = tx.commit(); !r)
            return r;
        if (done) {
            ++pass.completed;
            if (m_completedCounter)
                m_completedCounter->inc();
        } else {
            ++pass.halted;
            if (m_haltedCounter)
                m_haltedCounter->inc();
        }
    }
    return ok();
}

} // namespace redrive::admin
