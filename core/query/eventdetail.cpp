// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "eventdetail.h"

#include "util/headers.h"

#include <QHash>
#include <QSqlQuery>

namespace redrive {
namespace {

std::optional<qint64> optLong(const QVariant &v)
{
    return v.isNull() ? std::nullopt : std::optional<qint64>(v.toLongLong());
}

} // namespace

QStringList auditTargetsFor(qint64 eventId, const QList<qint64> &deliveryIds)
{
    QStringList targets { QStringLiteral("event:%1").arg(eventId) };
    for (qint64 id : deliveryIds)
        targets.append(QStringLiteral("delivery:%1").arg(id));
    return targets;
}

std::optional<QList<EventKey>> fetchEventKeys(Db &db, qint64 eventId, QString *error)
{
    QSqlQuery q(db.handle());
    q.setForwardOnly(true);
    if (!runQuery(q, QStringLiteral("SELECT name, value FROM event_keys WHERE event_id = ? ORDER BY name"),
            { eventId }, error))
        return std::nullopt;
    QList<EventKey> keys;
    while (q.next())
        keys.append(EventKey { q.value(0).toString(), q.value(1).toString() });
    return keys;
}

std::optional<EventDetail> fetchEventDetail(Db &db, qint64 eventId, QString *error)
{
    QString localError;
    if (!error)
        error = &localError;
    error->clear();
    EventDetail detail;
    {
        auto rows = fetchEventsByIds(db, { eventId }, error);
        if (!rows || rows->isEmpty())
            return std::nullopt;
        detail.row = rows->takeFirst();
    }
    QSqlQuery q(db.handle());
    if (!runQuery(q,
            QStringLiteral(
                "SELECT weak_id, occurred_at, last_seen_at, content_type, body, body_sha256, body_size, "
                "headers, verified_by, clock_skew_ms, remote_addr, legal_hold FROM events WHERE id = ?"),
            { eventId }, error)
        || !q.next())
        return std::nullopt;
    detail.weakId = q.value(0).toInt() != 0;
    detail.occurredAt = optLong(q.value(1));
    detail.lastSeenAt = q.value(2).toLongLong();
    detail.contentType = q.value(3).toString();
    detail.body = q.value(4).toByteArray();
    detail.bodySha256 = q.value(5).toString();
    detail.bodySize = q.value(6).toLongLong();
    // Re-redacted on read (signature fields left out, credentials masked), so neither the console
    // nor an evidence bundle shows a replayable signature from a row stored before migration 5.
    detail.headersJson = Headers::fromJson(q.value(7).toString().toUtf8()).redacted().toJson();
    detail.verifiedBy = q.value(8).toString();
    detail.clockSkewMs = optLong(q.value(9));
    detail.remoteAddr = q.value(10).toString();
    detail.legalHold = q.value(11).toInt() != 0;
    q.finish();

    QHash<qint64, qsizetype> byId;
    QList<qint64> deliveryIds;
    for (const DeliverySummary &s : std::as_const(detail.row.deliveries)) {
        DeliveryRecord rec;
        rec.summary = s;
        byId.insert(s.id, detail.deliveries.size());
        deliveryIds.append(s.id);
        detail.deliveries.append(rec);
    }
    if (!runQuery(q,
            QStringLiteral(
                "SELECT id, idempotency_key, last_status_code, last_error, succeeded_at, dead_at, created_at "
                "FROM deliveries WHERE event_id = ?"),
            { eventId }, error))
        return std::nullopt;
    while (q.next()) {
        const qsizetype at = byId.value(q.value(0).toLongLong(), -1);
        if (at < 0)
            continue;
        DeliveryRecord &rec = detail.deliveries[at];
        rec.idempotencyKey = q.value(1).toString();
        if (!q.value(2).isNull())
            rec.lastStatusCode = q.value(2).toInt();
        rec.lastError = q.value(3).toString();
        rec.succeededAt = optLong(q.value(4));
        rec.deadAt = optLong(q.value(5));
        rec.createdAt = q.value(6).toLongLong();
    }
    q.finish();

    if (!runQuery(q,
            QStringLiteral(
                "SELECT a.delivery_id, a.id, a.number, a.trigger_kind, a.replay_id, a.scheduled_at, "
                "a.started_at, a.duration_ms, a.status_code, a.category, a.explanation, a.outcome_unknown, "
                "a.response_excerpt FROM attempts a JOIN deliveries d ON d.id = a.delivery_id "
                "WHERE d.event_id = ? ORDER BY a.delivery_id, a.number"),
            { eventId }, error))
        return std::nullopt;
    while (q.next()) {
        const qsizetype at = byId.value(q.value(0).toLongLong(), -1);
        if (at < 0)
            continue;
        AttemptRecord a;
        a.id = q.value(1).toLongLong();
        a.number = q.value(2).toInt();
        a.trigger = q.value(3).toString();
        a.replayId = optLong(q.value(4));
        a.scheduledAt = optLong(q.value(5));
        a.startedAt = q.value(6).toLongLong();
        a.durationMs = q.value(7).toInt();
        if (!q.value(8).isNull())
            a.statusCode = q.value(8).toInt();
        a.category = q.value(9).toString();
        a.explanation = q.value(10).toString();
        a.outcomeUnknown = q.value(11).toInt() != 0;
        a.responseExcerpt = q.value(12).toString();
        detail.deliveries[at].attempts.append(std::move(a));
    }
    q.finish();

    if (!runQuery(q,
            QStringLiteral("SELECT id, author, body, created_at FROM notes WHERE event_id = ? ORDER BY id"),
            { eventId }, error))
        return std::nullopt;
    while (q.next())
        detail.notes.append({ q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(),
            q.value(3).toLongLong() });
    q.finish();

    auto keys = fetchEventKeys(db, eventId, error);
    if (!keys)
        return std::nullopt;
    detail.keys = std::move(*keys);

    QStringList targets = auditTargetsFor(eventId, deliveryIds);
    // Replays that included one of these deliveries are part of this event's story too.
    if (!deliveryIds.isEmpty()) {
        QVariantList ids;
        for (qint64 id : std::as_const(deliveryIds))
            ids.append(id);
        if (!runQuery(q,
                QLatin1String("SELECT DISTINCT replay_id FROM replay_items WHERE delivery_id IN (")
                    + sqlPlaceholders(ids.size()) + u')',
                ids, error))
            return std::nullopt;
        while (q.next())
            targets.append(QStringLiteral("replay:%1").arg(q.value(0).toLongLong()));
        q.finish();
    }
    QVariantList binds;
    for (const QString &t : targets)
        binds.append(t);
    if (!runQuery(q,
            QLatin1String("SELECT seq, at, actor, role, action, target, reason, details FROM audit_log "
                          "WHERE target IN (")
                + sqlPlaceholders(binds.size()) + QLatin1String(") ORDER BY seq"),
            binds, error))
        return std::nullopt;
    while (q.next())
        detail.audit.append(
            { q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toString(), q.value(3).toString(),
                q.value(4).toString(), q.value(5).toString(), q.value(6).toString(), q.value(7).toString() });
    return detail;
}

} // namespace redrive
