// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "deliverystore.h"

#include "storage/eventstatus.h"
#include "storage/multirowinsert.h"

#include <QHash>
#include <QSet>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <map>

namespace redrive::delivery {
namespace {

QVariant nullInt()
{
    return QVariant(QMetaType::fromType<qint64>());
}

QVariant nullText()
{
    return QVariant(QMetaType::fromType<QString>());
}

// A null QString binds as SQL NULL; NOT NULL text columns get '' instead.
QString notNull(const QString &s)
{
    return s.isNull() ? QStringLiteral("") : s;
}

template<typename T>
QVariant orNull(const std::optional<T> &v)
{
    if (!v)
        return QVariant(QMetaType::fromType<T>());
    return QVariant::fromValue(*v);
}

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

// The due-row condition shared by both engines. Bound values: destination, now.
const char *const kDueCondition =
    "d.destination = ? AND d.status IN ('pending', 'retrying') AND d.next_attempt_at <= ? "
    "AND NOT EXISTS (SELECT 1 FROM destination_state s WHERE s.name = d.destination AND s.paused = 1) "
    "AND (d.ordering_key IS NULL OR NOT EXISTS (SELECT 1 FROM deliveries o WHERE o.destination = d.destination "
    "AND o.ordering_key = d.ordering_key AND o.id < d.id AND o.status IN ('pending', 'in_flight', 'retrying')))";

} // namespace

// Statements prepared once per connection. A QSqlQuery keeps its prepared statement (sqlite3_stmt,
// or a server-side PREPARE on PostgreSQL) for as long as it lives.
struct DeliveryStore::Statements {
    explicit Statements(Db &connection)
        : db(connection)
        , fencedUpdate(connection,
                       QStringLiteral("WITH v (id, token, status, attempts, next_at, code, category, error, ok, unknown, "
                                      "ref, rec_at, dead) AS (VALUES"),
                       QStringLiteral("(CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS INTEGER), "
                                      "CAST(? AS BIGINT), CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS TEXT), "
                                      "CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS BIGINT), "
                                      "CAST(? AS BIGINT))"),
                       13,
                       QStringLiteral(
                           ") UPDATE deliveries SET status = v.status, attempt_count = v.attempts, "
                           "next_attempt_at = v.next_at, lease_owner = NULL, lease_expires_at = NULL, "
                           "last_status_code = v.code, last_category = v.category, last_error = v.error, "
                           "outcome_unknown = CASE WHEN v.ok = 1 THEN 0 WHEN v.unknown = 1 THEN 1 "
                           "ELSE deliveries.outcome_unknown END, "
                           "downstream_ref = CASE WHEN v.ok = 1 THEN COALESCE(v.ref, deliveries.downstream_ref) "
                           "ELSE deliveries.downstream_ref END, "
                           "succeeded_at = CASE WHEN v.ok = 1 THEN v.rec_at ELSE deliveries.succeeded_at END, "
                           "dead_at = v.dead, replay_id = NULL, updated_at = v.rec_at "
                           "FROM v WHERE deliveries.id = v.id AND deliveries.lease_token = v.token "
                           "AND deliveries.status = 'in_flight' RETURNING deliveries.id"))
        , attemptInsert(connection,
                        QStringLiteral("INSERT INTO attempts (delivery_id, number, trigger_kind, replay_id, scheduled_at, "
                                       "started_at, duration_ms, status_code, category, explanation, outcome_unknown, "
                                       "response_headers, response_excerpt, worker_id) VALUES"),
                        QStringLiteral("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"), 14, QString())
        , statusSelect(connection, QStringLiteral("SELECT event_id, status FROM deliveries WHERE event_id IN ("),
                       QStringLiteral("?"), 1, QStringLiteral(")"))
        , statusUpdate(connection, QStringLiteral("WITH v (id, status) AS (VALUES"),
                       QStringLiteral("(CAST(? AS BIGINT), CAST(? AS TEXT))"), 2,
                       QStringLiteral(") UPDATE events SET status = v.status FROM v WHERE events.id = v.id "
                                      "AND events.status <> v.status"))
        , bodySelect(connection, QStringLiteral("SELECT id, body, content_type, body_sha256 FROM events WHERE id IN ("),
                     QStringLiteral("?"), 1, QStringLiteral(")"))
    {}

    // The statement for `sql`, prepared on first use.
    QSqlQuery *get(const QString &sql, QString *error)
    {
        auto it = single.find(sql);
        if (it != single.end())
            return &it->second;
        bool ok = false;
        QSqlQuery q = db.prepare(sql, &ok, error);
        if (!ok)
            return nullptr;
        q.setForwardOnly(true);
        return &single.emplace(sql, std::move(q)).first->second;
    }

    Db &db;
    MultiRowInsert fencedUpdate;
    MultiRowInsert attemptInsert;
    MultiRowInsert statusSelect;
    MultiRowInsert statusUpdate;
    MultiRowInsert bodySelect;
    std::map<QString, QSqlQuery> single;
};

DeliveryStore::DeliveryStore(Db &db)
    : m_db(db)
    , m_s(std::make_unique<Statements>(db))
{
    // PostgreSQL switches a prepared statement to a generic plan after a few executions, costed
    // with the statistics of that moment. A fresh database's tables look empty until autovacuum
    // analyzes them (at most once a minute), and a generic plan made then scans the whole table
    // for ever after (WHERE event_id IN (...) as a sequential scan). Planning each execution
    // with its values costs far less than that.
    if (!m_db.isSqlite())
        m_db.exec(QStringLiteral("SET plan_cache_mode = force_custom_plan"));
}

DeliveryStore::~DeliveryStore() = default;

QList<Claim> DeliveryStore::claim(const QString &destination, const QString &workerId, qint64 now, qint64 leaseMs,
                                  int limit, QString *error)
{
    if (limit <= 0)
        return {};
    QList<Claim> claims = m_db.isSqlite() ? claimSqlite(destination, workerId, now, leaseMs, limit, error)
                                          : claimPostgres(destination, workerId, now, leaseMs, limit, error);
    std::sort(claims.begin(), claims.end(), [](const Claim &a, const Claim &b) {
        return a.scheduledAt != b.scheduledAt ? a.scheduledAt < b.scheduledAt : a.deliveryId < b.deliveryId;
    });
    return claims;
}

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

} // namespace

QList<Claim> DeliveryStore::claimSqlite(const QString &destination, const QString &workerId, qint64 now,
                                        qint64 leaseMs, int limit, QString *error)
{
    QList<Claim> claims;
    Transaction tx(m_db);
    if (!tx.begin(error)) {
        ensureText(error);
        return claims;
    }
    QSqlQuery *q = m_s->get(QStringLiteral("UPDATE deliveries SET status = 'in_flight', lease_owner = ?, "
                                           "lease_expires_at = ?, lease_token = lease_token + 1, updated_at = ? "
                                           "WHERE id IN (SELECT d.id FROM deliveries d WHERE ")
                                + QString::fromLatin1(kDueCondition)
                                + QStringLiteral(" ORDER BY d.next_attempt_at, d.id LIMIT ?) "
                                                 "RETURNING id, event_id, lease_token, attempt_count, next_attempt_at, "
                                                 "replay_id, idempotency_key"),
                            error);
    if (!q)
        return {};
    const qint64 expires = now + leaseMs;
    q->bindValue(0, workerId);
    q->bindValue(1, expires);
    q->bindValue(2, now);
    q->bindValue(3, destination);
    q->bindValue(4, now);
    q->bindValue(5, limit);
    if (!q->exec()) {
        fail(error, *q);
        q->finish();
        return {};
    }
    while (q->next())
        claims.append(claimFromRow(*q, destination, now, expires));
    q->finish();
    if (!claims.isEmpty() && !loadBodies(claims, error))
        return {};
    if (!tx.commit(error)) {
        ensureText(error);
        return {};
    }
    return claims;
}

// One statement, no explicit transaction: lock the due rows (skipping rows another worker holds),
// take the lease, and return them with their event bodies.
QList<Claim> DeliveryStore::claimPostgres(const QString &destination, const QString &workerId, qint64 now,
                                          qint64 leaseMs, int limit, QString *error)
{
    QList<Claim> claims;
    QSqlQuery *q = m_s->get(
        QStringLiteral("WITH due AS (SELECT d.id FROM deliveries d WHERE ") + QString::fromLatin1(kDueCondition)
            + QStringLiteral(" ORDER BY d.next_attempt_at, d.id LIMIT ? FOR UPDATE OF d SKIP LOCKED), "
                             "claimed AS (UPDATE deliveries SET status = 'in_flight', lease_owner = ?, "
                             "lease_expires_at = ?, lease_token = deliveries.lease_token + 1, updated_at = ? FROM due "
                             "WHERE deliveries.id = due.id RETURNING deliveries.id, deliveries.event_id, "
                             "deliveries.lease_token, deliveries.attempt_count, deliveries.next_attempt_at, "
                             "deliveries.replay_id, deliveries.idempotency_key) "
                             "SELECT c.id, c.event_id, c.lease_token, c.attempt_count, c.next_attempt_at, c.replay_id, "
                             "c.idempotency_key, e.body, e.content_type, e.body_sha256 "
                             "FROM claimed c LEFT JOIN events e ON e.id = c.event_id"),
        error);
    if (!q) {
        ensureText(error);
        return {};
    }
    const qint64 expires = now + leaseMs;
    q->bindValue(0, destination);
    q->bindValue(1, now);
    q->bindValue(2, limit);
    q->bindValue(3, workerId);
    q->bindValue(4, expires);
    q->bindValue(5, now);
    if (!q->exec()) {
        fail(error, *q);
        q->finish();
        return {};
    }
    while (q->next()) {
        Claim c = claimFromRow(*q, destination, now, expires);
        // A missing event (impossible with the foreign key) leaves an empty digest: the integrity
        // check refuses it.
        if (!q->value(7).isNull()) {
            c.body = q->value(7).toByteArray();
            c.contentType = q->value(8).toString().toUtf8();
            c.bodySha256 = q->value(9).toString();
        }
        claims.append(c);
    }
    q->finish();
    return claims;
}

bool DeliveryStore::loadBodies(QList<Claim> &claims, QString *error)
{
    struct Body {
        QByteArray body;
        QByteArray contentType;
        QString sha;
    };
    QHash<qint64, Body> bodies;
    const bool ok = m_s->bodySelect.exec(
        static_cast<int>(claims.size()),
        [&](int row, QSqlQuery &q, int first) { q.bindValue(first, claims.at(row).eventId); },
        [&](const QSqlQuery &q) {
            bodies.insert(q.value(0).toLongLong(),
                          {q.value(1).toByteArray(), q.value(2).toString().toUtf8(), q.value(3).toString()});
        },
        error);
    if (!ok) {
        ensureText(error);
        return false;
    }
    for (Claim &c : claims) {
        const auto it = bodies.constFind(c.eventId);
        if (it == bodies.constEnd())
            continue; // cannot happen with the foreign key; the integrity check refuses an empty digest
        c.body = it->body;
        c.contentType = it->contentType;
        c.bodySha256 = it->sha;
    }
    return true;
}

bool DeliveryStore::recordInTransaction(const QList<std::pair<Claim, AttemptRecord>> &items,
                                        QList<RecordResult> *results, QString *error)
{
    results->clear();
    if (items.isEmpty())
        return true;
    const int count = static_cast<int>(items.size());

    // 1. The fenced updates: only rows still held with this claim's token change.
    QSet<qint64> recorded;
    bool ok = m_s->fencedUpdate.exec(
        count,
        [&](int row, QSqlQuery &u, int i) {
            const auto &[claim, a] = items.at(row);
            const bool success = a.newStatus == DeliveryStatus::Succeeded;
            const bool dead = a.newStatus == DeliveryStatus::Dead;
            u.bindValue(i++, claim.deliveryId);
            u.bindValue(i++, claim.leaseToken);
            u.bindValue(i++, toString(a.newStatus));
            u.bindValue(i++, a.number);
            u.bindValue(i++, a.newStatus == DeliveryStatus::Retrying || a.newStatus == DeliveryStatus::Pending
                                 ? orNull(a.nextAttemptAt)
                                 : nullInt());
            u.bindValue(i++, a.statusCode > 0 ? QVariant(a.statusCode) : QVariant(QMetaType::fromType<int>()));
            u.bindValue(i++, success ? nullText() : QVariant(toString(a.classification.category)));
            u.bindValue(i++, success ? nullText() : QVariant(a.classification.explanation));
            u.bindValue(i++, success ? 1 : 0);
            u.bindValue(i++, a.classification.outcomeUnknown ? 1 : 0);
            u.bindValue(i++, orNull(a.downstreamRef));
            u.bindValue(i++, a.recordedAt);
            u.bindValue(i++, dead ? QVariant(a.recordedAt) : nullInt());
        },
        [&](const QSqlQuery &u) { recorded.insert(u.value(0).toLongLong()); }, error);
    if (!ok) {
        ensureText(error);
        return false;
    }
    QList<int> rows; // items whose result is recorded
    for (int i = 0; i < count; ++i) {
        const bool held = recorded.contains(items.at(i).first.deliveryId);
        results->append(held ? RecordResult::Recorded : RecordResult::LeaseLost);
        if (held)
            rows.append(i);
    }
    if (rows.isEmpty())
        return true;

    // 2. One attempt row per recorded result.
    ok = m_s->attemptInsert.exec(
        static_cast<int>(rows.size()),
        [&](int row, QSqlQuery &ins, int i) {
            const auto &[claim, a] = items.at(rows.at(row));
            ins.bindValue(i++, claim.deliveryId);
            ins.bindValue(i++, a.number);
            ins.bindValue(i++, toString(a.trigger));
            ins.bindValue(i++, orNull(a.replayId));
            ins.bindValue(i++, a.scheduledAt);
            ins.bindValue(i++, a.startedAt);
            ins.bindValue(i++, static_cast<int>(std::clamp<qint64>(a.durationMs, 0, 0x7fffffff)));
            ins.bindValue(i++, a.statusCode > 0 ? QVariant(a.statusCode) : QVariant(QMetaType::fromType<int>()));
            ins.bindValue(i++, toString(a.classification.category));
            ins.bindValue(i++, notNull(a.classification.explanation));
            ins.bindValue(i++, a.classification.outcomeUnknown ? 1 : 0);
            ins.bindValue(i++, QString::fromUtf8(a.responseHeadersJson));
            ins.bindValue(i++, notNull(a.responseExcerpt));
            ins.bindValue(i++, notNull(a.workerId));
        },
        {}, error);
    if (!ok) {
        ensureText(error);
        return false;
    }

    // 3. Replay execution contract (docs/architecture.md): item state and counters move with the attempt.
    for (int i : std::as_const(rows)) {
        const auto &[claim, a] = items.at(i);
        if (!a.replayId)
            continue;
        const bool success = a.newStatus == DeliveryStatus::Succeeded;
        QSqlQuery *item = m_s->get(QStringLiteral("UPDATE replay_items SET state = ? WHERE replay_id = ? "
                                                  "AND delivery_id = ? AND state = 'queued'"),
                                   error);
        if (!item)
            return false;
        item->bindValue(0, success ? QStringLiteral("succeeded") : QStringLiteral("failed"));
        item->bindValue(1, *a.replayId);
        item->bindValue(2, claim.deliveryId);
        if (!item->exec())
            return fail(error, *item);
        const bool moved = item->numRowsAffected() == 1;
        item->finish();
        if (!moved)
            continue;
        QSqlQuery *counter = m_s->get(success ? QStringLiteral("UPDATE replays SET succeeded_count = succeeded_count + 1, "
                                                               "updated_at = ? WHERE id = ?")
                                              : QStringLiteral("UPDATE replays SET failed_count = failed_count + 1, "
                                                               "updated_at = ? WHERE id = ?"),
                                      error);
        if (!counter)
            return false;
        counter->bindValue(0, a.recordedAt);
        counter->bindValue(1, *a.replayId);
        if (!counter->exec())
            return fail(error, *counter);
        counter->finish();
    }

    // 4. The events' statuses, once per event.
    QList<qint64> events;
    QSet<qint64> seen;
    for (int i : std::as_const(rows)) {
        const qint64 id = items.at(i).first.eventId;
        if (!seen.contains(id)) {
            seen.insert(id);
            events.append(id);
        }
    }
    return refreshEventStatuses(events, error);
}

// refreshEventStatus() for many events: one read of their deliveries, one conditional update.
bool DeliveryStore::refreshEventStatuses(const QList<qint64> &eventIds, QString *error)
{
    QHash<qint64, QList<DeliveryStatus>> statuses;
    bool ok = m_s->statusSelect.exec(
        static_cast<int>(eventIds.size()),
        [&](int row, QSqlQuery &q, int first) { q.bindValue(first, eventIds.at(row)); },
        [&](const QSqlQuery &q) {
            if (auto s = deliveryStatusFromString(q.value(1).toString()))
                statuses[q.value(0).toLongLong()].append(*s);
        },
        error);
    if (ok) {
        ok = m_s->statusUpdate.exec(
            static_cast<int>(eventIds.size()),
            [&](int row, QSqlQuery &q, int first) {
                const qint64 id = eventIds.at(row);
                q.bindValue(first, id);
                q.bindValue(first + 1, toString(summariseEventStatus(statuses.value(id))));
            },
            {}, error);
    }
    if (!ok)
        ensureText(error);
    return ok;
}

RecordResult DeliveryStore::record(const Claim &claim, const AttemptRecord &attempt, QString *error)
{
    Transaction tx(m_db);
    if (!tx.begin(error)) {
        ensureText(error);
        return RecordResult::Error;
    }
    QList<RecordResult> results;
    if (!recordInTransaction({{claim, attempt}}, &results, error))
        return RecordResult::Error; // rolled back by the guard
    if (results.value(0) != RecordResult::Recorded)
        return results.value(0, RecordResult::LeaseLost);
    if (!tx.commit(error)) {
        ensureText(error);
        return RecordResult::Error;
    }
    return RecordResult::Recorded;
}

void DeliveryStore::recordMany(const QList<std::pair<Claim, AttemptRecord>> &items, QList<RecordResult> *results,
                               QString *error)
{
    results->clear();
    if (items.isEmpty())
        return;
    QSet<qint64> ids;
    for (const auto &item : items)
        ids.insert(item.first.deliveryId);
    if (ids.size() == items.size()) { // one statement cannot update a row twice
        Transaction tx(m_db);
        if (tx.begin(error) && recordInTransaction(items, results, error) && tx.commit(error))
            return;
    }
    // The batch failed as a whole (it was rolled back): record each on its own so one bad row
    // cannot hold the others back.
    results->clear();
    for (const auto &[claim, attempt] : items)
        results->append(record(claim, attempt, error));
}

bool DeliveryStore::release(const Claim &claim, qint64 now, QString *error)
{
    Transaction tx(m_db);
    if (!tx.begin(error))
        return false;
    QSqlQuery *u = m_s->get(QStringLiteral("UPDATE deliveries SET status = CASE WHEN attempt_count = 0 OR replay_id IS "
                                           "NOT NULL THEN 'pending' ELSE 'retrying' END, lease_owner = NULL, "
                                           "lease_expires_at = NULL, updated_at = ? WHERE id = ? AND lease_token = ? "
                                           "AND status = 'in_flight'"),
                            error);
    if (!u)
        return false;
    u->bindValue(0, now);
    u->bindValue(1, claim.deliveryId);
    u->bindValue(2, claim.leaseToken);
    if (!u->exec())
        return fail(error, *u);
    const bool held = u->numRowsAffected() == 1;
    u->finish();
    if (!held)
        return false;
    if (!refreshEventStatuses({claim.eventId}, error))
        return false;
    return tx.commit(error);
}

int DeliveryStore::sweepExpired(qint64 now, int limit, const SweepPolicy &policy, QString *error)
{
    Transaction tx(m_db);
    if (!tx.begin(error)) {
        ensureText(error);
        return -1;
    }
    QSqlQuery *q = m_s->get(QStringLiteral("SELECT id, event_id, destination, lease_token, attempt_count, "
                                           "next_attempt_at, replay_id, lease_owner FROM deliveries "
                                           "WHERE status = 'in_flight' AND lease_expires_at < ? "
                                           "ORDER BY lease_expires_at, id LIMIT ?")
                                + (m_db.isSqlite() ? QString() : QStringLiteral(" FOR UPDATE SKIP LOCKED")),
                            error);
    if (!q) {
        ensureText(error);
        return -1;
    }
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
        items.append({c, a});
    }
    q->finish();
    QList<RecordResult> results;
    if (!recordInTransaction(items, &results, error))
        return -1;
    if (!tx.commit(error)) {
        ensureText(error);
        return -1;
    }
    return static_cast<int>(std::count(results.cbegin(), results.cend(), RecordResult::Recorded));
}

QSet<QString> DeliveryStore::pausedDestinations(QString *error)
{
    QSet<QString> out;
    QSqlQuery *q = m_s->get(QStringLiteral("SELECT name FROM destination_state WHERE paused = 1"), error);
    if (!q) {
        ensureText(error);
        return out;
    }
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
    QSqlQuery *q = m_s->get(QStringLiteral("SELECT destination, "
                                           "SUM(CASE WHEN next_attempt_at <= ? THEN 1 ELSE 0 END), "
                                           "SUM(CASE WHEN next_attempt_at > ? THEN 1 ELSE 0 END), "
                                           "MIN(CASE WHEN next_attempt_at <= ? THEN next_attempt_at END) "
                                           "FROM deliveries WHERE status IN ('pending', 'retrying') "
                                           "GROUP BY destination"),
                            error);
    if (!q) {
        ensureText(error);
        return out;
    }
    q->bindValue(0, now);
    q->bindValue(1, now);
    q->bindValue(2, now);
    if (!q->exec()) {
        fail(error, *q);
        q->finish();
        return out;
    }
    while (q->next())
        out.append({q->value(0).toString(), q->value(1).toLongLong(), q->value(2).toLongLong(),
                    q->value(3).isNull() ? 0 : q->value(3).toLongLong()});
    q->finish();
    return out;
}

} // namespace redrive::delivery
