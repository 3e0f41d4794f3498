// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "deliverystore.h"

#include "storage/eventstatus.h"

#include <QHash>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>

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

DeliveryStore::DeliveryStore(Db &db)
    : m_db(db)
{}

QList<Claim> DeliveryStore::claim(const QString &destination, const QString &workerId, qint64 now, qint64 leaseMs,
                                  int limit, QString *error)
{
    QList<Claim> claims;
    if (limit <= 0)
        return claims;
    Transaction tx(m_db);
    if (!tx.begin(error)) {
        ensureText(error);
        return claims;
    }
    const QString due = QString::fromLatin1(kDueCondition);
    QSqlQuery q(m_db.handle());
    const qint64 expires = now + leaseMs;
    if (m_db.isSqlite()) {
        q.prepare(QStringLiteral("UPDATE deliveries SET status = 'in_flight', lease_owner = ?, lease_expires_at = ?, "
                                 "lease_token = lease_token + 1, updated_at = ? "
                                 "WHERE id IN (SELECT d.id FROM deliveries d WHERE ")
                  + due
                  + QStringLiteral(" ORDER BY d.next_attempt_at, d.id LIMIT ?) "
                                   "RETURNING id, event_id, lease_token, attempt_count, next_attempt_at, replay_id, "
                                   "idempotency_key"));
        q.addBindValue(workerId);
        q.addBindValue(expires);
        q.addBindValue(now);
        q.addBindValue(destination);
        q.addBindValue(now);
        q.addBindValue(limit);
    } else {
        q.prepare(QStringLiteral("WITH due AS (SELECT d.id FROM deliveries d WHERE ") + due
                  + QStringLiteral(" ORDER BY d.next_attempt_at, d.id LIMIT ? FOR UPDATE OF d SKIP LOCKED) "
                                   "UPDATE deliveries SET status = 'in_flight', lease_owner = ?, lease_expires_at = ?, "
                                   "lease_token = deliveries.lease_token + 1, updated_at = ? FROM due "
                                   "WHERE deliveries.id = due.id "
                                   "RETURNING deliveries.id, deliveries.event_id, deliveries.lease_token, "
                                   "deliveries.attempt_count, deliveries.next_attempt_at, deliveries.replay_id, "
                                   "deliveries.idempotency_key"));
        q.addBindValue(destination);
        q.addBindValue(now);
        q.addBindValue(limit);
        q.addBindValue(workerId);
        q.addBindValue(expires);
        q.addBindValue(now);
    }
    if (!q.exec()) {
        fail(error, q);
        return {};
    }
    while (q.next()) {
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
        claims.append(c);
    }
    q.finish();
    if (!claims.isEmpty() && !loadBodies(claims, error))
        return {};
    if (!tx.commit(error)) {
        ensureText(error);
        return {};
    }
    std::sort(claims.begin(), claims.end(), [](const Claim &a, const Claim &b) {
        return a.scheduledAt != b.scheduledAt ? a.scheduledAt < b.scheduledAt : a.deliveryId < b.deliveryId;
    });
    return claims;
}

bool DeliveryStore::loadBodies(QList<Claim> &claims, QString *error)
{
    QStringList marks;
    for (qsizetype i = 0; i < claims.size(); ++i)
        marks.append(QStringLiteral("?"));
    QSqlQuery q(m_db.handle());
    q.prepare(QStringLiteral("SELECT id, body, content_type, body_sha256 FROM events WHERE id IN (%1)")
                  .arg(marks.join(QLatin1String(", "))));
    for (const Claim &c : claims)
        q.addBindValue(c.eventId);
    if (!q.exec())
        return fail(error, q);
    struct Body {
        QByteArray body;
        QByteArray contentType;
        QString sha;
    };
    QHash<qint64, Body> bodies;
    while (q.next())
        bodies.insert(q.value(0).toLongLong(),
                      {q.value(1).toByteArray(), q.value(2).toString().toUtf8(), q.value(3).toString()});
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

RecordResult DeliveryStore::recordInTransaction(const Claim &claim, const AttemptRecord &a, QString *error)
{
    const bool success = a.newStatus == DeliveryStatus::Succeeded;
    const bool dead = a.newStatus == DeliveryStatus::Dead;
    QSqlQuery u(m_db.handle());
    u.prepare(QStringLiteral(
        "UPDATE deliveries SET status = ?, attempt_count = ?, next_attempt_at = ?, lease_owner = NULL, "
        "lease_expires_at = NULL, last_status_code = ?, last_category = ?, last_error = ?, "
        "outcome_unknown = CASE WHEN ? = 1 THEN 0 WHEN ? = 1 THEN 1 ELSE outcome_unknown END, "
        "downstream_ref = CASE WHEN ? = 1 THEN COALESCE(?, downstream_ref) ELSE downstream_ref END, "
        "succeeded_at = CASE WHEN ? = 1 THEN ? ELSE succeeded_at END, dead_at = ?, replay_id = NULL, updated_at = ? "
        "WHERE id = ? AND lease_token = ? AND status = 'in_flight'"));
    u.addBindValue(toString(a.newStatus));
    u.addBindValue(a.number);
    u.addBindValue(a.newStatus == DeliveryStatus::Retrying || a.newStatus == DeliveryStatus::Pending
                       ? orNull(a.nextAttemptAt)
                       : nullInt());
    u.addBindValue(a.statusCode > 0 ? QVariant(a.statusCode) : QVariant(QMetaType::fromType<int>()));
    u.addBindValue(success ? nullText() : QVariant(toString(a.classification.category)));
    u.addBindValue(success ? nullText() : QVariant(a.classification.explanation));
    u.addBindValue(success ? 1 : 0);
    u.addBindValue(a.classification.outcomeUnknown ? 1 : 0);
    u.addBindValue(success ? 1 : 0);
    u.addBindValue(orNull(a.downstreamRef));
    u.addBindValue(success ? 1 : 0);
    u.addBindValue(a.recordedAt);
    u.addBindValue(dead ? QVariant(a.recordedAt) : nullInt());
    u.addBindValue(a.recordedAt);
    u.addBindValue(claim.deliveryId);
    u.addBindValue(claim.leaseToken);
    if (!u.exec()) {
        fail(error, u);
        return RecordResult::Error;
    }
    if (u.numRowsAffected() != 1)
        return RecordResult::LeaseLost;
    u.finish();

    QSqlQuery ins(m_db.handle());
    ins.prepare(QStringLiteral(
        "INSERT INTO attempts (delivery_id, number, trigger_kind, replay_id, scheduled_at, started_at, duration_ms, "
        "status_code, category, explanation, outcome_unknown, response_headers, response_excerpt, worker_id) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    ins.addBindValue(claim.deliveryId);
    ins.addBindValue(a.number);
    ins.addBindValue(toString(a.trigger));
    ins.addBindValue(orNull(a.replayId));
    ins.addBindValue(a.scheduledAt);
    ins.addBindValue(a.startedAt);
    ins.addBindValue(static_cast<int>(std::clamp<qint64>(a.durationMs, 0, 0x7fffffff)));
    ins.addBindValue(a.statusCode > 0 ? QVariant(a.statusCode) : QVariant(QMetaType::fromType<int>()));
    ins.addBindValue(toString(a.classification.category));
    ins.addBindValue(notNull(a.classification.explanation));
    ins.addBindValue(a.classification.outcomeUnknown ? 1 : 0);
    ins.addBindValue(QString::fromUtf8(a.responseHeadersJson));
    ins.addBindValue(notNull(a.responseExcerpt));
    ins.addBindValue(notNull(a.workerId));
    if (!ins.exec()) {
        fail(error, ins);
        return RecordResult::Error;
    }
    ins.finish();

    if (a.replayId) {
        // Replay execution contract (docs/architecture.md): item state and counters move with the attempt.
        QSqlQuery item(m_db.handle());
        item.prepare(QStringLiteral("UPDATE replay_items SET state = ? WHERE replay_id = ? AND delivery_id = ? "
                                    "AND state = 'queued'"));
        item.addBindValue(success ? QStringLiteral("succeeded") : QStringLiteral("failed"));
        item.addBindValue(*a.replayId);
        item.addBindValue(claim.deliveryId);
        if (!item.exec()) {
            fail(error, item);
            return RecordResult::Error;
        }
        if (item.numRowsAffected() == 1) {
            QSqlQuery counter(m_db.handle());
            counter.prepare(success ? QStringLiteral("UPDATE replays SET succeeded_count = succeeded_count + 1, "
                                                     "updated_at = ? WHERE id = ?")
                                    : QStringLiteral("UPDATE replays SET failed_count = failed_count + 1, "
                                                     "updated_at = ? WHERE id = ?"));
            counter.addBindValue(a.recordedAt);
            counter.addBindValue(*a.replayId);
            if (!counter.exec()) {
                fail(error, counter);
                return RecordResult::Error;
            }
        }
    }
    if (!refreshEventStatus(m_db, claim.eventId, error))
        return RecordResult::Error;
    return RecordResult::Recorded;
}

RecordResult DeliveryStore::record(const Claim &claim, const AttemptRecord &attempt, QString *error)
{
    Transaction tx(m_db);
    if (!tx.begin(error))
        return RecordResult::Error;
    const RecordResult r = recordInTransaction(claim, attempt, error);
    if (r != RecordResult::Recorded)
        return r; // rolled back by the guard
    if (!tx.commit(error))
        return RecordResult::Error;
    return r;
}

void DeliveryStore::recordMany(const QList<std::pair<Claim, AttemptRecord>> &items, QList<RecordResult> *results,
                               QString *error)
{
    results->clear();
    if (items.isEmpty())
        return;
    {
        Transaction tx(m_db);
        if (tx.begin(error)) {
            bool ok = true;
            for (const auto &[claim, attempt] : items) {
                const RecordResult r = recordInTransaction(claim, attempt, error);
                if (r == RecordResult::Error) {
                    ok = false;
                    break;
                }
                results->append(r);
            }
            if (ok && tx.commit(error))
                return;
        }
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
    QSqlQuery u(m_db.handle());
    u.prepare(QStringLiteral("UPDATE deliveries SET status = CASE WHEN attempt_count = 0 OR replay_id IS NOT NULL "
                             "THEN 'pending' ELSE 'retrying' END, lease_owner = NULL, lease_expires_at = NULL, "
                             "updated_at = ? WHERE id = ? AND lease_token = ? AND status = 'in_flight'"));
    u.addBindValue(now);
    u.addBindValue(claim.deliveryId);
    u.addBindValue(claim.leaseToken);
    if (!u.exec())
        return fail(error, u);
    if (u.numRowsAffected() != 1)
        return false;
    if (!refreshEventStatus(m_db, claim.eventId, error))
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
    QSqlQuery q(m_db.handle());
    q.prepare(QStringLiteral("SELECT id, event_id, destination, lease_token, attempt_count, next_attempt_at, replay_id, "
                             "lease_owner FROM deliveries WHERE status = 'in_flight' AND lease_expires_at < ? "
                             "ORDER BY lease_expires_at, id LIMIT ?")
              + (m_db.isSqlite() ? QString() : QStringLiteral(" FOR UPDATE SKIP LOCKED")));
    q.addBindValue(now);
    q.addBindValue(limit);
    if (!q.exec()) {
        fail(error, q);
        return -1;
    }
    QList<std::pair<Claim, QString>> expired;
    while (q.next()) {
        Claim c;
        c.deliveryId = q.value(0).toLongLong();
        c.eventId = q.value(1).toLongLong();
        c.destination = q.value(2).toString();
        c.leaseToken = q.value(3).toLongLong();
        c.attemptCount = q.value(4).toInt();
        c.scheduledAt = q.value(5).toLongLong();
        if (!q.value(6).isNull())
            c.replayId = q.value(6).toLongLong();
        expired.append({c, q.value(7).toString()});
    }
    q.finish();
    int rescued = 0;
    for (const auto &[c, owner] : expired) {
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
        const RecordResult r = recordInTransaction(c, a, error);
        if (r == RecordResult::Error)
            return -1;
        if (r == RecordResult::Recorded)
            ++rescued;
    }
    if (!tx.commit(error))
        return -1;
    return rescued;
}

QSet<QString> DeliveryStore::pausedDestinations(QString *error)
{
    QSet<QString> out;
    QSqlQuery q(m_db.handle());
    if (!q.exec(QStringLiteral("SELECT name FROM destination_state WHERE paused = 1"))) {
        fail(error, q);
        return out;
    }
    while (q.next())
        out.insert(q.value(0).toString());
    return out;
}

QList<DeliveryStore::Backlog> DeliveryStore::backlog(qint64 now, QString *error)
{
    QList<Backlog> out;
    QSqlQuery q(m_db.handle());
    q.prepare(QStringLiteral("SELECT destination, "
                             "SUM(CASE WHEN next_attempt_at <= ? THEN 1 ELSE 0 END), "
                             "SUM(CASE WHEN next_attempt_at > ? THEN 1 ELSE 0 END), "
                             "MIN(CASE WHEN next_attempt_at <= ? THEN next_attempt_at END) "
                             "FROM deliveries WHERE status IN ('pending', 'retrying') GROUP BY destination"));
    q.addBindValue(now);
    q.addBindValue(now);
    q.addBindValue(now);
    if (!q.exec()) {
        fail(error, q);
        return out;
    }
    while (q.next())
        out.append({q.value(0).toString(), q.value(1).toLongLong(), q.value(2).toLongLong(),
                    q.value(3).isNull() ? 0 : q.value(3).toLongLong()});
    return out;
}

} // namespace redrive::delivery
