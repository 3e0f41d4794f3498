// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "deliverystore.h"

#include "resultwriter.h"
#include "storage/sqlitestatement.h"
#include "storage/sqlrow.h"

#include <QHash>
#include <QSet>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <optional>

namespace redrive::delivery {
namespace {

// QtSql gives no text once it has closed a broken connection; Transaction::begin() may fail
// without text for the same reason.
Failure withText(const QString &error)
{
    return Failure(error.isEmpty() ? QStringLiteral("the database connection is closed") : error);
}

Failure fail(const QSqlQuery &q)
{
    return withText(sqlErrorText(q));
}

// The due-row condition shared by both engines. Bound values: destination, now, destination,
// probe (1 claims through an open circuit). The pause and circuit test does not depend on the
// row, so both engines evaluate it once, before reading any: a held destination's backlog is not
// scanned.
// The status lists match the partial index deliveries_claim's text, which SQLite needs to use it.
QString dueCondition()
{
    return QStringLiteral(
        "d.destination = ? AND d.status IN %1 AND d.next_attempt_at <= ? "
        "AND NOT EXISTS (SELECT 1 FROM destination_state s WHERE s.name = ? "
        "AND (s.paused = 1 OR (s.circuit_open = 1 AND ? = 0))) "
        "AND (d.ordering_key IS NULL OR NOT EXISTS (SELECT 1 FROM deliveries o WHERE o.destination = d.destination "
        "AND o.ordering_key = d.ordering_key AND o.id < d.id AND o.status IN %2))")
        .arg(sqlNames({ DeliveryStatus::Pending, DeliveryStatus::Retrying }),
            sqlNames({ DeliveryStatus::Pending, DeliveryStatus::InFlight, DeliveryStatus::Retrying }));
}

} // namespace

// Statements prepared once per connection: a QSqlQuery keeps its prepared statement (a
// sqlite3_stmt, or a server-side PREPARE on PostgreSQL) for as long as it lives.
enum class DeliveryStore::Stmt { Claim, Release, SweepSelect, Paused, Backlog, Count };

struct DeliveryStore::Statements {
    std::optional<QSqlQuery> queries[static_cast<int>(Stmt::Count)];
    SqliteStatement bodySelect; // SQLite: one event's body at a time, on the native handle
};

Result<QSqlQuery *> DeliveryStore::statement(Stmt which, const std::function<QString()> &sql)
{
    std::optional<QSqlQuery> &slot = m_s->queries[static_cast<int>(which)];
    if (!slot) {
        auto prepared = m_db.prepare(sql());
        if (!prepared)
            return withText(prepared.error());
        QSqlQuery q = std::move(*prepared);
        q.setForwardOnly(true);
        slot.emplace(std::move(q));
    }
    return &*slot;
}

DeliveryStore::DeliveryStore(Db &db, Plans plans)
    : m_db(db)
    , m_s(std::make_unique<Statements>())
    , m_writer(std::make_unique<ResultWriter>(db))
{
    // PostgreSQL switches a prepared statement to a generic plan after a few executions, costed
    // with the statistics of that moment. A fresh database's tables look empty until autovacuum
    // analyzes them (at most once a minute), and a generic plan made then scans more than it
    // should until the next ANALYZE replaces it. The engine's statements (claims, sweeps,
    // retention, incident checks) are planned at each execution with their values.
    // A recorder lane runs one statement, the batched result, plus the foreign-key check of each
    // attempt it inserts, many times a second: planned each time they cost more than they run
    // (≈ 1 ms and 0.1 ms of planning against 1.7 ms and 0.015 ms of execution), so the lanes
    // plan once. Their generic plans look rows up by primary key once the tables have
    // statistics; on a fresh, empty database the result's plan scans the in-flight leases
    // instead (as many rows as are in flight) until the first ANALYZE replaces it.
    if (!m_db.isSqlite()) {
        const QString mode = plans == Plans::Once ? QStringLiteral("force_generic_plan")
                                                  : QStringLiteral("force_custom_plan");
        static_cast<void>(m_db.exec(QStringLiteral("SET plan_cache_mode = %1").arg(mode))); // a hint only
    }
}

DeliveryStore::~DeliveryStore() = default;

namespace {

Claim claimFromRow(const QSqlQuery &q, const QString &destination, qint64 now, qint64 expires)
{
    Claim c;
    readColumns(q, c.deliveryId, c.eventId, c.leaseToken, c.attemptCount, c.scheduledAt, c.replayId,
        c.idempotencyKey);
    c.destination = destination;
    c.claimedAt = now;
    c.leaseExpiresAt = expires;
    return c;
}

void sortClaims(QList<Claim> &claims)
{
    std::sort(claims.begin(), claims.end(), [](const Claim &a, const Claim &b) {
        return a.scheduledAt != b.scheduledAt ? a.scheduledAt < b.scheduledAt : a.deliveryId < b.deliveryId;
    });
}

} // namespace

Result<QList<Claim>> DeliveryStore::claim(
    const QString &destination, const QString &workerId, qint64 now, qint64 leaseMs, int limit, bool probe)
{
    if (limit <= 0)
        return QList<Claim>();
    Result<QList<Claim>> claims = QList<Claim>();
    if (m_db.isSqlite()) {
        Transaction tx(m_db);
        if (auto r = tx.begin(); !r)
            return withText(r.error());
        claims = claimInTransaction({ destination, limit, leaseMs, probe }, workerId, now);
        if (!claims)
            return claims;
        if (auto r = tx.commit(); !r)
            return withText(r.error());
    } else {
        // PostgreSQL: one statement, atomic on its own.
        claims = claimInTransaction({ destination, limit, leaseMs, probe }, workerId, now);
        if (!claims)
            return claims;
    }
    sortClaims(*claims);
    return claims;
}

Result<QList<Claim>> DeliveryStore::claimInTransaction(
    const ClaimRequest &request, const QString &workerId, qint64 now)
{
    QList<Claim> claims;
    if (request.limit <= 0)
        return claims;
    const qint64 expires = now + request.leaseMs;
    if (m_db.isSqlite()) {
        const auto prepared = statement(Stmt::Claim, []() -> QString {
            return QStringLiteral("UPDATE deliveries SET status = %1, lease_owner = ?, "
                                  "lease_expires_at = ?, lease_token = lease_token + 1, updated_at = ? "
                                  "WHERE id IN (SELECT d.id FROM deliveries d WHERE ")
                       .arg(sqlName(DeliveryStatus::InFlight))
                + dueCondition()
                + QStringLiteral(" ORDER BY d.next_attempt_at, d.id LIMIT ?) "
                                 "RETURNING id, event_id, lease_token, attempt_count, next_attempt_at, "
                                 "replay_id, idempotency_key");
        });
        if (!prepared)
            return Failure(prepared.error());
        QSqlQuery *q = *prepared;
        q->bindValue(0, workerId);
        q->bindValue(1, expires);
        q->bindValue(2, now);
        q->bindValue(3, request.destination);
        q->bindValue(4, now);
        q->bindValue(5, request.destination);
        q->bindValue(6, request.probe ? 1 : 0);
        q->bindValue(7, request.limit);
        if (!q->exec()) {
            Failure failure = fail(*q);
            q->finish();
            return failure;
        }
        while (q->next())
            claims.append(claimFromRow(*q, request.destination, now, expires));
        q->finish();
        if (!claims.isEmpty()) {
            if (auto r = loadBodies(claims); !r)
                return Failure(r.error());
        }
        return claims;
    }
    // PostgreSQL: lock the due rows (skipping rows another worker holds), take the lease, and
    // return them with their event bodies, in one statement.
    const auto prepared = statement(Stmt::Claim, []() -> QString {
        return QStringLiteral("WITH due AS (SELECT d.id FROM deliveries d WHERE ") + dueCondition()
            + QStringLiteral(
                " ORDER BY d.next_attempt_at, d.id LIMIT ? FOR UPDATE OF d SKIP LOCKED), "
                "claimed AS (UPDATE deliveries SET status = %1, lease_owner = ?, "
                "lease_expires_at = ?, lease_token = deliveries.lease_token + 1, updated_at = ? "
                "FROM due WHERE deliveries.id = due.id RETURNING deliveries.id, "
                "deliveries.event_id, deliveries.lease_token, deliveries.attempt_count, "
                "deliveries.next_attempt_at, deliveries.replay_id, deliveries.idempotency_key) "
                "SELECT c.id, c.event_id, c.lease_token, c.attempt_count, c.next_attempt_at, "
                "c.replay_id, c.idempotency_key, e.body, e.content_type, e.body_sha256, e.source, "
                "e.redacted_paths IS NOT NULL "
                "FROM claimed c LEFT JOIN events e ON e.id = c.event_id")
                  .arg(sqlName(DeliveryStatus::InFlight));
    });
    if (!prepared)
        return Failure(prepared.error());
    QSqlQuery *q = *prepared;
    q->bindValue(0, request.destination);
    q->bindValue(1, now);
    q->bindValue(2, request.destination);
    q->bindValue(3, request.probe ? 1 : 0);
    q->bindValue(4, request.limit);
    q->bindValue(5, workerId);
    q->bindValue(6, expires);
    q->bindValue(7, now);
    if (!q->exec()) {
        Failure failure = fail(*q);
        q->finish();
        return failure;
    }
    while (q->next()) {
        Claim c = claimFromRow(*q, request.destination, now, expires);
        // A missing event (impossible with the foreign key) leaves an empty digest: the integrity
        // check refuses it.
        if (!q->value(7).isNull())
            readColumnsFrom(*q, 7, c.body, c.contentType, c.bodySha256, c.source, c.redacted);
        claims.append(c);
    }
    q->finish();
    return claims;
}

Result<TurnOutcome> DeliveryStore::recordAndClaim(const QList<std::pair<Claim, AttemptRecord>> &items,
    const QList<ClaimRequest> &requests, const QString &workerId, qint64 now)
{
    QSet<qint64> ids;
    for (const auto &item : items)
        ids.insert(item.first.deliveryId);
    if (ids.size() != items.size())
        return Failure(QStringLiteral("a delivery appears twice in one batch"));
    // Any failure returns before the commit: rolled back, nothing recorded, nothing claimed.
    Transaction tx(m_db);
    if (auto r = tx.begin(); !r)
        return withText(r.error());
    auto results = recordInTransaction(items);
    if (!results)
        return withText(results.error());
    TurnOutcome turn { std::move(*results), {} };
    for (const ClaimRequest &request : requests) {
        auto taken = claimInTransaction(request, workerId, now);
        if (!taken)
            return withText(taken.error());
        sortClaims(*taken);
        turn.claims.append(std::move(*taken));
    }
    if (auto r = tx.commit(); !r)
        return withText(r.error());
    return turn;
}

// SQLite only: the claimed events' bodies, one indexed read each on the native handle.
Result<> DeliveryStore::loadBodies(QList<Claim> &claims)
{
    SqliteStatement &q = m_s->bodySelect;
    if (!q.isValid()) {
        if (auto r = q.prepare(m_db,
                QStringLiteral("SELECT body, content_type, body_sha256, source, redacted_paths IS NOT NULL "
                               "FROM events WHERE id = ?1"));
            !r)
            return r;
    }
    for (Claim &c : claims) {
        q.bindInt64(1, c.eventId);
        const auto step = q.step();
        if (step == SqliteStatement::Step::Row) {
            c.body = q.columnBytes(0);
            c.contentType = q.columnBytes(1);
            c.bodySha256 = q.columnText(2);
            c.source = q.columnText(3);
            c.redacted = q.columnInt64(4) != 0;
        }
        // No row cannot happen with the foreign key; the integrity check refuses an empty digest.
        q.reset();
        if (step == SqliteStatement::Step::Error)
            return Failure(q.errorText());
    }
    return ok();
}

Result<QList<RecordResult>> DeliveryStore::recordInTransaction(
    const QList<std::pair<Claim, AttemptRecord>> &items)
{
    auto results = m_writer->write(items);
    if (!results)
        return withText(results.error());
    return results;
}

Result<> DeliveryStore::refreshEventStatuses(const QList<qint64> &eventIds)
{
    if (auto r = m_writer->refreshEventStatuses(eventIds); !r)
        return withText(r.error());
    return ok();
}

Result<RecordResult> DeliveryStore::record(const Claim &claim, const AttemptRecord &attempt)
{
    Transaction tx(m_db);
    if (auto r = tx.begin(); !r)
        return withText(r.error());
    const auto results = recordInTransaction({ { claim, attempt } });
    if (!results)
        return Failure(results.error()); // rolled back by the guard
    if (results->value(0) != RecordResult::Recorded)
        return results->value(0, RecordResult::LeaseLost);
    if (auto r = tx.commit(); !r)
        return withText(r.error());
    return RecordResult::Recorded;
}

RecordOutcome DeliveryStore::recordMany(const QList<std::pair<Claim, AttemptRecord>> &items)
{
    RecordOutcome outcome;
    if (items.isEmpty())
        return outcome;
    QSet<qint64> ids;
    for (const auto &item : items)
        ids.insert(item.first.deliveryId);
    if (ids.size() == items.size()) { // one statement cannot update a row twice
        const auto batch = [&]() -> Result<QList<RecordResult>> {
            Transaction tx(m_db);
            if (auto r = tx.begin(); !r)
                return Failure(r.error());
            auto results = recordInTransaction(items);
            if (!results)
                return results;
            if (auto r = tx.commit(); !r)
                return Failure(r.error());
            return results;
        }();
        if (batch) {
            outcome.results = *batch;
            return outcome;
        }
        outcome.error = batch.error();
    }
    // The batch failed as a whole (it was rolled back): record each on its own so one bad row
    // cannot hold the others back.
    for (const auto &[claim, attempt] : items) {
        const auto recorded = record(claim, attempt);
        if (!recorded)
            outcome.error = recorded.error();
        outcome.results.append(recorded.value_or(RecordResult::Error));
    }
    return outcome;
}

ReleaseOutcome DeliveryStore::releaseMany(const QList<Claim> &claims, qint64 now)
{
    ReleaseOutcome outcome;
    if (claims.isEmpty())
        return outcome;
    const auto batch = [&]() -> Result<int> {
        Transaction tx(m_db);
        if (auto r = tx.begin(); !r)
            return Failure(r.error());
        int released = 0;
        QList<qint64> events;
        for (const Claim &c : claims) {
            const auto held = releaseInTransaction(c, now);
            if (!held)
                return Failure(held.error());
            if (*held) {
                ++released;
                events.append(c.eventId);
            }
        }
        if (auto r = refreshEventStatuses(events); !r)
            return Failure(r.error());
        if (auto r = tx.commit(); !r)
            return Failure(r.error());
        return released;
    }();
    if (batch) {
        outcome.released = *batch;
        return outcome;
    }
    outcome.error = batch.error();
    // One at a time, so one bad row cannot hold the others back.
    for (const Claim &c : claims) {
        const auto released = release(c, now);
        if (!released)
            outcome.error = released.error();
        else if (*released)
            ++outcome.released;
    }
    return outcome;
}

Result<bool> DeliveryStore::releaseInTransaction(const Claim &claim, qint64 now)
{
    const auto prepared = statement(Stmt::Release, []() -> QString {
        return QStringLiteral(
            "UPDATE deliveries SET status = CASE WHEN attempt_count = 0 OR replay_id IS NOT NULL "
            "THEN %1 ELSE %2 END, lease_owner = NULL, lease_expires_at = NULL, "
            "updated_at = ? WHERE id = ? AND lease_token = ? AND status = %3")
            .arg(sqlName(DeliveryStatus::Pending), sqlName(DeliveryStatus::Retrying),
                sqlName(DeliveryStatus::InFlight));
    });
    if (!prepared)
        return Failure(prepared.error());
    QSqlQuery *u = *prepared;
    u->bindValue(0, now);
    u->bindValue(1, claim.deliveryId);
    u->bindValue(2, claim.leaseToken);
    if (!u->exec())
        return fail(*u);
    const bool held = u->numRowsAffected() == 1;
    u->finish();
    return held;
}

Result<bool> DeliveryStore::release(const Claim &claim, qint64 now)
{
    Transaction tx(m_db);
    if (auto r = tx.begin(); !r)
        return Failure(r.error());
    auto held = releaseInTransaction(claim, now);
    if (!held || !*held)
        return held;
    if (auto r = refreshEventStatuses({ claim.eventId }); !r)
        return Failure(r.error());
    if (auto r = tx.commit(); !r)
        return Failure(r.error());
    return true;
}

Result<int> DeliveryStore::sweepExpired(qint64 now, int limit, const SweepPolicy &policy)
{
    Transaction tx(m_db);
    if (auto r = tx.begin(); !r)
        return withText(r.error());
    const auto prepared = statement(Stmt::SweepSelect, [this]() -> QString {
        return QStringLiteral(
                   "SELECT id, event_id, destination, lease_token, attempt_count, next_attempt_at, "
                   "replay_id, lease_owner FROM deliveries WHERE status = %1 "
                   "AND lease_expires_at < ? ORDER BY lease_expires_at, id LIMIT ?")
                   .arg(sqlName(DeliveryStatus::InFlight))
            + (m_db.isSqlite() ? QString() : QStringLiteral(" FOR UPDATE SKIP LOCKED"));
    });
    if (!prepared)
        return Failure(prepared.error());
    QSqlQuery *q = *prepared;
    q->bindValue(0, now);
    q->bindValue(1, limit);
    if (!q->exec()) {
        Failure failure = fail(*q);
        q->finish();
        return failure;
    }
    QList<std::pair<Claim, AttemptRecord>> items;
    while (q->next()) {
        Claim c;
        QString owner;
        readColumns(*q, c.deliveryId, c.eventId, c.destination, c.leaseToken, c.attemptCount, c.scheduledAt,
            c.replayId, owner);
        AttemptRecord a;
        a.number = c.attemptCount + 1;
        a.trigger = c.replayId ? AttemptTrigger::Replay : AttemptTrigger::Automatic;
        a.replayId = c.replayId;
        a.scheduledAt = c.scheduledAt;
        a.startedAt = now;
        a.classification = leaseExpired(owner);
        a.workerId = owner;
        const SweepDecision decision = policy(c.destination, a.number, c.replayId.has_value(), now);
        a.newStatus = decision.status;
        a.nextAttemptAt = decision.nextAttemptAt;
        a.recordedAt = now;
        items.append({ c, a });
    }
    q->finish();
    const auto results = recordInTransaction(items);
    if (!results)
        return Failure(results.error());
    if (auto r = tx.commit(); !r)
        return withText(r.error());
    return static_cast<int>(std::count(results->cbegin(), results->cend(), RecordResult::Recorded));
}

Result<QSet<QString>> DeliveryStore::pausedDestinations()
{
    const auto prepared = statement(Stmt::Paused,
        []() -> QString { return QStringLiteral("SELECT name FROM destination_state WHERE paused = 1"); });
    if (!prepared)
        return Failure(prepared.error());
    QSqlQuery *q = *prepared;
    if (!q->exec()) {
        Failure failure = fail(*q);
        q->finish();
        return failure;
    }
    QSet<QString> out;
    while (q->next())
        out.insert(q->value(0).toString());
    q->finish();
    return out;
}

Result<QList<DeliveryStore::Backlog>> DeliveryStore::backlog(qint64 now)
{
    const auto prepared = statement(Stmt::Backlog, []() -> QString {
        return QStringLiteral("SELECT destination, SUM(CASE WHEN next_attempt_at <= ? THEN 1 ELSE 0 END), "
                              "SUM(CASE WHEN next_attempt_at > ? THEN 1 ELSE 0 END), "
                              "MIN(CASE WHEN next_attempt_at <= ? THEN next_attempt_at END) "
                              "FROM deliveries WHERE status IN %1 GROUP BY destination")
            .arg(sqlNames({ DeliveryStatus::Pending, DeliveryStatus::Retrying }));
    });
    if (!prepared)
        return Failure(prepared.error());
    QSqlQuery *q = *prepared;
    q->bindValue(0, now);
    q->bindValue(1, now);
    q->bindValue(2, now);
    if (!q->exec()) {
        Failure failure = fail(*q);
        q->finish();
        return failure;
    }
    QList<Backlog> out;
    while (q->next())
        out.append({ q->value(0).toString(), q->value(1).toLongLong(), q->value(2).toLongLong(),
            q->value(3).isNull() ? 0 : q->value(3).toLongLong() });
    q->finish();
    return out;
}

} // namespace redrive::delivery
