// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "deliverystore.h"

#include "resultwriter.h"
#include "storage/sqlitestatement.h"

#include <QHash>
#include <QSet>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <optional>

namespace redrive::delivery {
namespace {

bool fail(QString *error, const QSqlQuery &q)
{
    if (error) {
        *error = sqlErrorText(q);
        if (error->isEmpty()) // QtSql gives no text once it has closed a broken connection
            *error = QStringLiteral("the database connection is closed");
    }
    return false;
}

// Transaction::begin() may fail without text for the same reason.
void ensureText(QString *error)
{
    if (error && error->isEmpty())
        *error = QStringLiteral("the database connection is closed");
}

// The due-row condition shared by both engines. Bound values: destination, now, destination.
// The pause test does not depend on the row, so both engines evaluate it once, before reading
// any: a paused destination's backlog is not scanned.
const char *const kDueCondition
    = "d.destination = ? AND d.status IN ('pending', 'retrying') AND d.next_attempt_at <= ? "
      "AND NOT EXISTS (SELECT 1 FROM destination_state s WHERE s.name = ? AND s.paused = 1) "
      "AND (d.ordering_key IS NULL OR NOT EXISTS (SELECT 1 FROM deliveries o WHERE o.destination = d.destination "
      "AND o.ordering_key = d.ordering_key AND o.id < d.id AND o.status IN ('pending', 'in_flight', 'retrying')))";

} // namespace

// Statements prepared once per connection: a QSqlQuery keeps its prepared statement (a
// sqlite3_stmt, or a server-side PREPARE on PostgreSQL) for as long as it lives.
enum class DeliveryStore::Stmt { Claim, Release, SweepSelect, Paused, Backlog, Count };

struct DeliveryStore::Statements {
    std::optional<QSqlQuery> queries[static_cast<int>(Stmt::Count)];
    SqliteStatement bodySelect; // SQLite: one event's body at a time, on the native handle
};

QSqlQuery *DeliveryStore::statement(Stmt which, const std::function<QString()> &sql, QString *error)
{
    std::optional<QSqlQuery> &slot = m_s->queries[static_cast<int>(which)];
    if (!slot) {
        auto prepared = m_db.prepare(sql());
        if (!succeeded(prepared, error)) {
            ensureText(error);
            return nullptr;
        }
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
    c.deliveryId = q.value(0).toLongLong();
    c.eventId = q.value(1).toLongLong();
    c.leaseToken = q.value(2).toLongLong();
    c.attemptCount = q.value(3).toInt();
    c.scheduledAt = q.value(4).toLongLong();
    if (!q.value(5).isNull())
        c.replayId = q.value(5).toLongLong();
    c.idempotencyKey = q.value(6).toString().toUtf8();
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

QList<Claim> DeliveryStore::claim(const QString &destination, const QString &workerId, qint64 now,
    qint64 leaseMs, int limit, QString *error)
{
    QList<Claim> claims;
    if (limit <= 0)
        return claims;
    if (m_db.isSqlite()) {
        Transaction tx(m_db);
        if (!succeeded(tx.begin(), error)) {
            ensureText(error);
            return {};
        }
        if (!claimInTransaction({ destination, limit, leaseMs }, workerId, now, &claims, error))
            return {};
        if (!succeeded(tx.commit(), error)) {
            ensureText(error);
            return {};
        }
    } else if (!claimInTransaction({ destination, limit, leaseMs }, workerId, now, &claims, error)) {
        // PostgreSQL: one statement, atomic on its own.
        return {};
    }
    sortClaims(claims);
    return claims;
}

bool DeliveryStore::claimInTransaction(
    const ClaimRequest &request, const QString &workerId, qint64 now, QList<Claim> *claims, QString *error)
{
    if (request.limit <= 0)
        return true;
    const qint64 expires = now + request.leaseMs;
    if (m_db.isSqlite()) {
        QSqlQuery *q = statement(
            Stmt::Claim,
            []() -> QString {
                return QStringLiteral("UPDATE deliveries SET status = 'in_flight', lease_owner = ?, "
                                      "lease_expires_at = ?, lease_token = lease_token + 1, updated_at = ? "
                                      "WHERE id IN (SELECT d.id FROM deliveries d WHERE ")
                    + QString::fromLatin1(kDueCondition)
                    + QStringLiteral(" ORDER BY d.next_attempt_at, d.id LIMIT ?) "
                                     "RETURNING id, event_id, lease_token, attempt_count, next_attempt_at, "
                                     "replay_id, idempotency_key");
            },
            error);
        if (!q)
            return false;
        q->bindValue(0, workerId);
        q->bindValue(1, expires);
        q->bindValue(2, now);
        q->bindValue(3, request.destination);
        q->bindValue(4, now);
        q->bindValue(5, request.destination);
        q->bindValue(6, request.limit);
        if (!q->exec()) {
            fail(error, *q);
            q->finish();
            return false;
        }
        QList<Claim> taken;
        while (q->next())
            taken.append(claimFromRow(*q, request.destination, now, expires));
        q->finish();
        if (!taken.isEmpty() && !loadBodies(taken, error))
            return false;
        claims->append(taken);
        return true;
    }
    // PostgreSQL: lock the due rows (skipping rows another worker holds), take the lease, and
    // return them with their event bodies, in one statement.
    QSqlQuery *q = statement(
        Stmt::Claim,
        []() -> QString {
            return QStringLiteral("WITH due AS (SELECT d.id FROM deliveries d WHERE ")
                + QString::fromLatin1(kDueCondition)
                + QStringLiteral(
                    " ORDER BY d.next_attempt_at, d.id LIMIT ? FOR UPDATE OF d SKIP LOCKED), "
                    "claimed AS (UPDATE deliveries SET status = 'in_flight', lease_owner = ?, "
                    "lease_expires_at = ?, lease_token = deliveries.lease_token + 1, updated_at = ? "
                    "FROM due WHERE deliveries.id = due.id RETURNING deliveries.id, "
                    "deliveries.event_id, deliveries.lease_token, deliveries.attempt_count, "
                    "deliveries.next_attempt_at, deliveries.replay_id, deliveries.idempotency_key) "
                    "SELECT c.id, c.event_id, c.lease_token, c.attempt_count, c.next_attempt_at, "
                    "c.replay_id, c.idempotency_key, e.body, e.content_type, e.body_sha256 "
                    "FROM claimed c LEFT JOIN events e ON e.id = c.event_id");
        },
        error);
    if (!q)
        return false;
    q->bindValue(0, request.destination);
    q->bindValue(1, now);
    q->bindValue(2, request.destination);
    q->bindValue(3, request.limit);
    q->bindValue(4, workerId);
    q->bindValue(5, expires);
    q->bindValue(6, now);
    if (!q->exec()) {
        fail(error, *q);
        q->finish();
        return false;
    }
    while (q->next()) {
        Claim c = claimFromRow(*q, request.destination, now, expires);
        // A missing event (impossible with the foreign key) leaves an empty digest: the integrity
        // check refuses it.
        if (!q->value(7).isNull()) {
            c.body = q->value(7).toByteArray();
            c.contentType = q->value(8).toString().toUtf8();
            c.bodySha256 = q->value(9).toString();
        }
        claims->append(c);
    }
    q->finish();
    return true;
}

bool DeliveryStore::recordAndClaim(const QList<std::pair<Claim, AttemptRecord>> &items,
    QList<RecordResult> *results, const QList<ClaimRequest> &requests, const QString &workerId, qint64 now,
    QList<QList<Claim>> *claims, QString *error)
{
    results->clear();
    claims->clear();
    QSet<qint64> ids;
    for (const auto &item : items)
        ids.insert(item.first.deliveryId);
    if (ids.size() != items.size()) {
        if (error)
            *error = QStringLiteral("a delivery appears twice in one batch");
        return false;
    }
    Transaction tx(m_db);
    bool ok = succeeded(tx.begin(), error) && recordInTransaction(items, results, error);
    for (qsizetype i = 0; ok && i < requests.size(); ++i) {
        QList<Claim> taken;
        ok = claimInTransaction(requests.at(i), workerId, now, &taken, error);
        sortClaims(taken);
        claims->append(taken);
    }
    if (ok)
        ok = succeeded(tx.commit(), error);
    if (!ok) { // rolled back: nothing recorded, nothing claimed
        ensureText(error);
        results->clear();
        claims->clear();
    }
    return ok;
}

// SQLite only: the claimed events' bodies, one indexed read each on the native handle.
bool DeliveryStore::loadBodies(QList<Claim> &claims, QString *error)
{
    SqliteStatement &q = m_s->bodySelect;
    if (!q.isValid()
        && !succeeded(q.prepare(m_db,
                          QStringLiteral("SELECT body, content_type, body_sha256 FROM events WHERE id = ?1")),
            error))
        return false;
    for (Claim &c : claims) {
        q.bindInt64(1, c.eventId);
        const auto step = q.step();
        if (step == SqliteStatement::Step::Row) {
            c.body = q.columnBytes(0);
            c.contentType = q.columnBytes(1);
            c.bodySha256 = q.columnText(2);
        }
        // No row cannot happen with the foreign key; the integrity check refuses an empty digest.
        q.reset();
        if (step == SqliteStatement::Step::Error) {
            if (error)
                *error = q.errorText();
            return false;
        }
    }
    return true;
}

bool DeliveryStore::recordInTransaction(
    const QList<std::pair<Claim, AttemptRecord>> &items, QList<RecordResult> *results, QString *error)
{
    if (m_writer->write(items, results, error))
        return true;
    ensureText(error);
    return false;
}

bool DeliveryStore::refreshEventStatuses(const QList<qint64> &eventIds, QString *error)
{
    if (m_writer->refreshEventStatuses(eventIds, error))
        return true;
    ensureText(error);
    return false;
}

RecordResult DeliveryStore::record(const Claim &claim, const AttemptRecord &attempt, QString *error)
{
    Transaction tx(m_db);
    if (!succeeded(tx.begin(), error)) {
        ensureText(error);
        return RecordResult::Error;
    }
    QList<RecordResult> results;
    if (!recordInTransaction({ { claim, attempt } }, &results, error))
        return RecordResult::Error; // rolled back by the guard
    if (results.value(0) != RecordResult::Recorded)
        return results.value(0, RecordResult::LeaseLost);
    if (!succeeded(tx.commit(), error)) {
        ensureText(error);
        return RecordResult::Error;
    }
    return RecordResult::Recorded;
}

void DeliveryStore::recordMany(
    const QList<std::pair<Claim, AttemptRecord>> &items, QList<RecordResult> *results, QString *error)
{
    results->clear();
    if (items.isEmpty())
        return;
    QSet<qint64> ids;
    for (const auto &item : items)
        ids.insert(item.first.deliveryId);
    if (ids.size() == items.size()) { // one statement cannot update a row twice
        Transaction tx(m_db);
        if (succeeded(tx.begin(), error) && recordInTransaction(items, results, error)
            && succeeded(tx.commit(), error))
            return;
    }
    // The batch failed as a whole (it was rolled back): record each on its own so one bad row
    // cannot hold the others back.
    results->clear();
    for (const auto &[claim, attempt] : items)
        results->append(record(claim, attempt, error));
}

int DeliveryStore::releaseMany(const QList<Claim> &claims, qint64 now, QString *error)
{
    if (claims.isEmpty())
        return 0;
    {
        Transaction tx(m_db);
        bool ok = succeeded(tx.begin(), error);
        int released = 0;
        QList<qint64> events;
        for (qsizetype i = 0; ok && i < claims.size(); ++i) {
            int held = 0;
            ok = releaseInTransaction(claims.at(i), now, &held, error);
            released += held;
            if (held)
                events.append(claims.at(i).eventId);
        }
        if (ok)
            ok = refreshEventStatuses(events, error) && succeeded(tx.commit(), error);
        if (ok)
            return released;
    }
    int released = 0; // one at a time, so one bad row cannot hold the others back
    for (const Claim &c : claims)
        released += release(c, now, error) ? 1 : 0;
    return released;
}

bool DeliveryStore::releaseInTransaction(const Claim &claim, qint64 now, int *held, QString *error)
{
    QSqlQuery *u = statement(
        Stmt::Release,
        []() -> QString {
            return QStringLiteral(
                "UPDATE deliveries SET status = CASE WHEN attempt_count = 0 OR replay_id IS NOT NULL "
                "THEN 'pending' ELSE 'retrying' END, lease_owner = NULL, lease_expires_at = NULL, "
                "updated_at = ? WHERE id = ? AND lease_token = ? AND status = 'in_flight'");
        },
        error);
    if (!u)
        return false;
    u->bindValue(0, now);
    u->bindValue(1, claim.deliveryId);
    u->bindValue(2, claim.leaseToken);
    if (!u->exec())
        return fail(error, *u);
    *held = u->numRowsAffected() == 1 ? 1 : 0;
    u->finish();
    return true;
}

bool DeliveryStore::release(const Claim &claim, qint64 now, QString *error)
{
    Transaction tx(m_db);
    if (!succeeded(tx.begin(), error))
        return false;
    int held = 0;
    if (!releaseInTransaction(claim, now, &held, error) || !held)
        return false;
    if (!refreshEventStatuses({ claim.eventId }, error))
        return false;
    return succeeded(tx.commit(), error);
}

int DeliveryStore::sweepExpired(qint64 now, int limit, const SweepPolicy &policy, QString *error)
{
    Transaction tx(m_db);
    if (!succeeded(tx.begin(), error)) {
        ensureText(error);
        return -1;
    }
    QSqlQuery *q = statement(
        Stmt::SweepSelect,
        [this]() -> QString {
            return QStringLiteral(
                       "SELECT id, event_id, destination, lease_token, attempt_count, next_attempt_at, "
                       "replay_id, lease_owner FROM deliveries WHERE status = 'in_flight' "
                       "AND lease_expires_at < ? ORDER BY lease_expires_at, id LIMIT ?")
                + (m_db.isSqlite() ? QString() : QStringLiteral(" FOR UPDATE SKIP LOCKED"));
        },
        error);
    if (!q)
        return -1;
    q->bindValue(0, now);
    q->bindValue(1, limit);
    if (!q->exec()) {
        fail(error, *q);
        q->finish();
        return -1;
    }
    QList<std::pair<Claim, AttemptRecord>> items;
    while (q->next()) {
        Claim c;
        c.deliveryId = q->value(0).toLongLong();
        c.eventId = q->value(1).toLongLong();
        c.destination = q->value(2).toString();
        c.leaseToken = q->value(3).toLongLong();
        c.attemptCount = q->value(4).toInt();
        c.scheduledAt = q->value(5).toLongLong();
        if (!q->value(6).isNull())
            c.replayId = q->value(6).toLongLong();
        const QString owner = q->value(7).toString();
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
    QList<RecordResult> results;
    if (!recordInTransaction(items, &results, error))
        return -1;
    if (!succeeded(tx.commit(), error)) {
        ensureText(error);
        return -1;
    }
    return static_cast<int>(std::count(results.cbegin(), results.cend(), RecordResult::Recorded));
}

QSet<QString> DeliveryStore::pausedDestinations(QString *error)
{
    QSet<QString> out;
    QSqlQuery *q = statement(
        Stmt::Paused,
        []() -> QString { return QStringLiteral("SELECT name FROM destination_state WHERE paused = 1"); },
        error);
    if (!q)
        return out;
    if (!q->exec()) {
        fail(error, *q);
        q->finish();
        return out;
    }
    while (q->next())
        out.insert(q->value(0).toString());
    q->finish();
    return out;
}

QList<DeliveryStore::Backlog> DeliveryStore::backlog(qint64 now, QString *error)
{
    QList<Backlog> out;
    QSqlQuery *q = statement(
        Stmt::Backlog,
        []() -> QString {
            return QStringLiteral(
                "SELECT destination, SUM(CASE WHEN next_attempt_at <= ? THEN 1 ELSE 0 END), "
                "SUM(CASE WHEN next_attempt_at > ? THEN 1 ELSE 0 END), "
                "MIN(CASE WHEN next_attempt_at <= ? THEN next_attempt_at END) "
                "FROM deliveries WHERE status IN ('pending', 'retrying') GROUP BY destination");
        },
        error);
    if (!q)
        return out;
    q->bindValue(0, now);
    q->bindValue(1, now);
    q->bindValue(2, now);
    if (!q->exec()) {
        fail(error, *q);
        q->finish();
        return out;
    }
    while (q->next())
        out.append({ q->value(0).toString(), q->value(1).toLongLong(), q->value(2).toLongLong(),
            q->value(3).isNull() ? 0 : q->value(3).toLongLong() });
    q->finish();
    return out;
}

} // namespace redrive::delivery
