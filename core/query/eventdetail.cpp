// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "eventdetail.h"

#include "eventfilter.h"
#include "storage/eventvalidation.h"
#include "storage/sqlrow.h"
#include "util/headers.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>

namespace redrive {

QStringList auditTargetsFor(qint64 eventId, const QList<qint64> &deliveryIds)
{
    QStringList targets { QStringLiteral("event:%1").arg(eventId) };
    for (qint64 id : deliveryIds)
        targets.append(QStringLiteral("delivery:%1").arg(id));
    return targets;
}

Result<QList<EventKey>> fetchEventKeys(Db &db, qint64 eventId)
{
    // SQLite: indexed or still pending, in one statement (one snapshot), so a key moving between
    // the two tables meanwhile is seen exactly once.
    const bool sqlite = db.isSqlite();
    QString sql = QStringLiteral("SELECT name, value FROM event_keys WHERE event_id = ?");
    if (sqlite)
        sql += QLatin1String(" UNION ALL SELECT j.key, j.value FROM ") + QLatin1String(kPendingKeysSource)
            + QLatin1String(" WHERE p.event_id = ?");
    sql += QLatin1String(" ORDER BY 1");
    return selectRows(db, sql, sqlite ? QVariantList { eventId, eventId } : QVariantList { eventId },
        [](const QSqlQuery &q) {
            EventKey key;
            readColumns(q, key.name, key.value);
            return key;
        });
}

Result<QList<NoteRecord>> fetchEventNotes(Db &db, qint64 eventId, int limit)
{
    QVariantList binds { eventId };
    QString sql
        = QStringLiteral("SELECT id, author, body, created_at FROM notes WHERE event_id = ? ORDER BY id");
    if (limit > 0) {
        sql += QLatin1String(" LIMIT ?");
        binds.append(limit);
    }
    return selectRows(db, sql, binds, [](const QSqlQuery &q) {
        NoteRecord note;
        readColumns(q, note.id, note.author, note.body, note.createdAt);
        return note;
    });
}

Result<QList<qint64>> fetchReplaysOfDeliveries(Db &db, const QList<qint64> &deliveryIds)
{
    if (deliveryIds.isEmpty())
        return QList<qint64>();
    QVariantList ids;
    for (qint64 id : deliveryIds)
        ids.append(id);
    return selectRows(db,
        QLatin1String("SELECT DISTINCT replay_id FROM replay_items WHERE delivery_id IN (")
            + sqlPlaceholders(ids.size()) + u')',
        ids, [](const QSqlQuery &q) { return q.value(0).toLongLong(); });
}

Result<std::optional<EventDetail>> fetchEventDetail(Db &db, qint64 eventId, const EventDetailParts &parts)
{
    EventRow row;
    {
        auto rows = fetchEventsByIds(db, { eventId });
        if (!rows)
            return Failure(rows.error());
        if (rows->isEmpty())
            return std::nullopt;
        row = rows->takeFirst();
    }
    // The events columns a console role may read (every one but body); the body comes from the
    // event_payloads view unless the original is asked for.
    auto stored = selectRow(db,
        QLatin1String("SELECT content_type, body_sha256, body_size, headers, verified_by, clock_skew_ms, "
                      "remote_addr, legal_hold, redacted_paths, redacted_keys FROM events WHERE id = ?"),
        { eventId }, [](const QSqlQuery &q) {
            EventDetail d;
            QByteArray storedHeaders;
            QByteArray paths;
            QByteArray keys;
            readColumns(q, d.contentType, d.bodySha256, d.bodySize, storedHeaders, d.verifiedBy,
                d.clockSkewMs, d.remoteAddr, d.legalHold, paths, keys);
            // Re-redacted on read (signature fields left out, credentials masked), so neither the
            // console nor an evidence bundle shows a replayable signature from a row stored before
            // migration 5.
            d.headersJson = Headers::fromJson(storedHeaders).redacted().toJson();
            const QJsonArray pathArray = QJsonDocument::fromJson(paths).array();
            for (const auto &v : pathArray)
                d.redactedPaths.append(v.toString());
            const QJsonArray keyArray = QJsonDocument::fromJson(keys).array();
            for (const auto &v : keyArray)
                d.redactedKeys.append(v.toString());
            return d;
        });
    if (!stored)
        return Failure(stored.error());
    if (!*stored)
        return std::nullopt;
    if (parts.body != EventDetailParts::Body::None) {
        const bool original = parts.body == EventDetailParts::Body::Original;
        auto body = selectRow(db,
            original ? QStringLiteral("SELECT body FROM events WHERE id = ?")
                     : QStringLiteral("SELECT body FROM event_payloads WHERE event_id = ?"),
            { eventId }, [](const QSqlQuery &q) { return q.value(0).toByteArray(); });
        if (!body)
            return Failure(body.error());
        if (*body)
            (*stored)->body = std::move(**body);
        (*stored)->bodyIsRedactedCopy = !original && !(*stored)->redactedPaths.isEmpty();
    }
    EventDetail detail = std::move(**stored);
    detail.row = std::move(row);

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
    // A key read from a redacted value stays searchable (event_keys holds it) but is never shown.
    if (parts.body != EventDetailParts::Body::Original) {
        for (EventKey &key : detail.keys) {
            if (detail.redactedKeys.contains(key.name))
                key.value = QString(kRedactedText);
        }
    }
    auto validation = fetchValidationErrors(db, eventId);
    if (!validation)
        return Failure(validation.error());
    if (validation->has_value())
        detail.validationErrors = validation::validationErrorsFromJson(**validation);
    if (!parts.auditStory)
        return detail;

    QStringList targets = auditTargetsFor(eventId, deliveryIds);
    // Replays that included one of these deliveries are part of this event's story too.
    const auto replayIds = fetchReplaysOfDeliveries(db, deliveryIds);
    if (!replayIds)
        return Failure(replayIds.error());
    for (qint64 id : *replayIds)
        targets.append(QStringLiteral("replay:%1").arg(id));
    QVariantList binds;
    for (const QString &t : targets)
        binds.append(t);
    auto audit = selectRows(db,
        QLatin1String("SELECT seq, at, actor, role, action, target, reason, details FROM audit_log "
                      "WHERE target IN (")
            + sqlPlaceholders(binds.size()) + QLatin1String(") ORDER BY seq"),
        binds, [](const QSqlQuery &q) {
            EventAuditEntry e;
            readColumns(q, e.seq, e.at, e.actor, e.role, e.action, e.target, e.reason, e.details);
            return e;
        });
    if (!audit)
        return Failure(audit.error());
    detail.audit = std::move(*audit);
    return detail;
}

} // namespace redrive
