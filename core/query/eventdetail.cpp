// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "eventdetail.h"

#include "eventfilter.h"
#include "storage/eventvalidation.h"
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

Result<QList<EventKey>> fetchEventKeys(Db &db, qint64 eventId)
{
    QSqlQuery q(db.handle());
    q.setForwardOnly(true);
    // SQLite: indexed or still pending, in one statement (one snapshot), so a key moving between
    // the two tables meanwhile is seen exactly once.
    const bool sqlite = db.isSqlite();
    QString sql = QStringLiteral("SELECT name, value FROM event_keys WHERE event_id = ?");
    if (sqlite)
        sql += QLatin1String(" UNION ALL SELECT j.key, j.value FROM ") + QLatin1String(kPendingKeysSource)
            + QLatin1String(" WHERE p.event_id = ?");
    sql += QLatin1String(" ORDER BY 1");
    if (auto ran = runQuery(q, sql, sqlite ? QVariantList { eventId, eventId } : QVariantList { eventId });
        !ran)
        return Failure(ran.error());
    QList<EventKey> keys;
    while (q.next())
        keys.append(EventKey { q.value(0).toString(), q.value(1).toString() });
    return keys;
}

Result<QList<NoteRecord>> fetchEventNotes(Db &db, qint64 eventId, int limit)
{
    QSqlQuery q(db.handle());
    q.setForwardOnly(true);
    QVariantList binds { eventId };
    QString sql
        = QStringLiteral("SELECT id, author, body, created_at FROM notes WHERE event_id = ? ORDER BY id");
    if (limit > 0) {
        sql += QLatin1String(" LIMIT ?");
        binds.append(limit);
    }
    if (auto ran = runQuery(q, sql, binds); !ran)
        return Failure(ran.error());
    QList<NoteRecord> notes;
    while (q.next())
        notes.append({ q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(),
            q.value(3).toLongLong() });
    return notes;
}

Result<std::optional<EventDetail>> fetchEventDetail(Db &db, qint64 eventId, const EventDetailParts &parts)
{
    EventDetail detail;
    {
        auto rows = fetchEventsByIds(db, { eventId });
        if (!rows)
            return Failure(rows.error());
        if (rows->isEmpty())
            return std::nullopt;
        detail.row = rows->takeFirst();
    }
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q,
            QLatin1String("SELECT content_type, body_sha256, body_size, headers, verified_by, clock_skew_ms, "
                          "remote_addr, legal_hold")
                + (parts.body ? QLatin1String(", body") : QLatin1String())
                + QLatin1String(" FROM events WHERE id = ?"),
            { eventId });
        !ran)
        return Failure(ran.error());
    if (!q.next())
        return std::nullopt;
    detail.contentType = q.value(0).toString();
    detail.bodySha256 = q.value(1).toString();
    detail.bodySize = q.value(2).toLongLong();
    // Re-redacted on read (signature fields left out, credentials masked), so neither the console
    // nor an evidence bundle shows a replayable signature from a row stored before migration 5.
    detail.headersJson = Headers::fromJson(q.value(3).toString().toUtf8()).redacted().toJson();
    detail.verifiedBy = q.value(4).toString();
    detail.clockSkewMs = optLong(q.value(5));
    detail.remoteAddr = q.value(6).toString();
    detail.legalHold = q.value(7).toInt() != 0;
    if (parts.body)
        detail.body = q.value(8).toByteArray();
    q.finish();

    auto deliveries = fetchDeliveriesOfEvents(db, { eventId }, WithAttempts::Yes);
    if (!deliveries)
        return Failure(deliveries.error());
    detail.deliveries = std::move(*deliveries);
    QList<qint64> deliveryIds;
    for (const DeliveryRecord &rec : std::as_const(detail.deliveries))
        deliveryIds.append(rec.summary.id);

    auto notes = fetchEventNotes(db, eventId, parts.notesLimit);
    if (!notes)
        return Failure(notes.error());
    detail.notes = std::move(*notes);

    auto keys = fetchEventKeys(db, eventId);
    if (!keys)
        return Failure(keys.error());
    detail.keys = std::move(*keys);
    auto validation = fetchValidationErrors(db, eventId);
    if (!validation)
        return Failure(validation.error());
    if (validation->has_value())
        detail.validationErrors = validation::validationErrorsFromJson(**validation);
    if (!parts.auditStory)
        return detail;

    QStringList targets = auditTargetsFor(eventId, deliveryIds);
    // Replays that included one of these deliveries are part of this event's story too.
    if (!deliveryIds.isEmpty()) {
        QVariantList ids;
        for (qint64 id : std::as_const(deliveryIds))
            ids.append(id);
        if (auto ran = runQuery(q,
                QLatin1String("SELECT DISTINCT replay_id FROM replay_items WHERE delivery_id IN (")
                    + sqlPlaceholders(ids.size()) + u')',
                ids);
            !ran)
            return Failure(ran.error());
        while (q.next())
            targets.append(QStringLiteral("replay:%1").arg(q.value(0).toLongLong()));
        q.finish();
    }
    QVariantList binds;
    for (const QString &t : targets)
        binds.append(t);
    if (auto ran = runQuery(q,
            QLatin1String("SELECT seq, at, actor, role, action, target, reason, details FROM audit_log "
                          "WHERE target IN (")
                + sqlPlaceholders(binds.size()) + QLatin1String(") ORDER BY seq"),
            binds);
        !ran)
        return Failure(ran.error());
    while (q.next())
        detail.audit.append(
            { q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toString(), q.value(3).toString(),
                q.value(4).toString(), q.value(5).toString(), q.value(6).toString(), q.value(7).toString() });
    return detail;
}

} // namespace redrive
