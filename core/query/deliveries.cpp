// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "deliveries.h"

#include "storage/sqlrow.h"
#include "util/clock.h"
#include "util/jsonvalues.h"

#include <QHash>
#include <QSqlQuery>

namespace redrive {
namespace {

// Keeps an IN (...) list under every engine's bound-parameter limit.
constexpr qsizetype kChunk = 500;

using json::isoOrNull;
using json::numberOrNull;

const QLatin1String kRecordColumns(", d.idempotency_key, d.last_status_code, d.replay_id, "
                                   "d.succeeded_at, d.dead_at, d.created_at, r.resolution, r.reason, "
                                   "r.ticket, r.actor, r.role, r.resolved_at");

DeliveryRecord readRecord(const QSqlQuery &q)
{
    DeliveryRecord rec;
    rec.summary = readDeliverySummary(q);
    std::optional<qint64> resolvedAt;
    DeliveryResolution r;
    readColumnsFrom(q, kDeliverySummaryColumnCount, rec.idempotencyKey, rec.lastStatusCode, rec.replayId,
        rec.succeededAt, rec.deadAt, rec.createdAt, r.resolution, r.reason, r.ticket, r.actor, r.role,
        resolvedAt);
    if (resolvedAt) {
        r.resolvedAt = *resolvedAt;
        rec.resolution = std::move(r);
    }
    rec.lastError = rec.summary.lastError;
    return rec;
}

QString recordSelect()
{
    return QLatin1String("SELECT ") + QLatin1String(kDeliverySummaryColumns) + kRecordColumns
        + QLatin1String(" FROM deliveries d LEFT JOIN delivery_resolutions r ON r.delivery_id = d.id");
}

// Attaches every delivery's attempts, by number.
Result<> attachAttempts(Db &db, QList<DeliveryRecord> &records)
{
    QHash<qint64, qsizetype> index;
    QVariantList ids;
    for (qsizetype i = 0; i < records.size(); ++i) {
        index.insert(records[i].summary.id, i);
        ids.append(records[i].summary.id);
    }
    for (qsizetype start = 0; start < ids.size(); start += kChunk) {
        const QVariantList chunk = ids.mid(start, kChunk);
        QSqlQuery q(db.handle());
        if (auto ran = runQuery(q,
                QLatin1String(
                    "SELECT delivery_id, id, number, trigger_kind, replay_id, scheduled_at, started_at, "
                    "duration_ms, status_code, category, explanation, outcome_unknown, response_excerpt "
                    "FROM attempts WHERE delivery_id IN (")
                    + sqlPlaceholders(chunk.size()) + QLatin1String(") ORDER BY delivery_id, number"),
                chunk);
            !ran)
            return Failure(ran.error());
        while (q.next()) {
            const qsizetype at = index.value(q.value(0).toLongLong(), -1);
            if (at < 0)
                continue;
            AttemptRecord a;
            readColumnsFrom(q, 1, a.id, a.number, a.trigger, a.replayId, a.scheduledAt, a.startedAt,
                a.durationMs, a.statusCode, a.category, a.explanation, a.outcomeUnknown, a.responseExcerpt);
            records[at].attempts.append(std::move(a));
        }
    }
    return ok();
}

} // namespace

DeliverySummary readDeliverySummary(const QSqlQuery &q, int first)
{
    DeliverySummary d;
    readColumnsFrom(q, first, d.id, d.eventId, d.destination, d.status, d.attemptCount, d.lastCategory,
        d.outcomeUnknown, d.downstreamRef, d.nextAttemptAt, d.updatedAt, d.lastError);
    d.downstream = downstreamState(d.status, d.outcomeUnknown, d.downstreamRef);
    return d;
}

Result<QList<DeliveryRecord>> fetchDeliveriesOfEvents(
    Db &db, const QList<qint64> &eventIds, WithAttempts withAttempts)
{
    QList<DeliveryRecord> records;
    for (qsizetype start = 0; start < eventIds.size(); start += kChunk) {
        QVariantList chunk;
        for (qint64 id : eventIds.mid(start, kChunk))
            chunk.append(id);
        QSqlQuery q(db.handle());
        if (auto ran = runQuery(q,
                recordSelect() + QLatin1String(" WHERE d.event_id IN (") + sqlPlaceholders(chunk.size())
                    + QLatin1String(") ORDER BY d.event_id, d.id"),
                chunk);
            !ran)
            return Failure(ran.error());
        while (q.next())
            records.append(readRecord(q));
    }
    if (withAttempts == WithAttempts::Yes) {
        if (auto attached = attachAttempts(db, records); !attached)
            return Failure(attached.error());
    }
    return records;
}

Result<QList<DeliveryRecord>> fetchDeliveryPage(
    Db &db, const DeliveryFilter &filter, std::optional<qint64> beforeId, int limit)
{
    QStringList where { QStringLiteral("1=1") };
    QVariantList binds;
    if (!filter.statuses.isEmpty()) {
        for (DeliveryStatus s : filter.statuses)
            binds.append(toString(s));
        where.append(QLatin1String("d.status IN (") + sqlPlaceholders(filter.statuses.size()) + u')');
    }
    if (!filter.destination.isEmpty()) {
        where.append(QStringLiteral("d.destination = ?"));
        binds.append(filter.destination);
    }
    if (!filter.category.isEmpty()) {
        where.append(QStringLiteral("d.last_category = ?"));
        binds.append(filter.category);
    }
    if (filter.eventId) {
        where.append(QStringLiteral("d.event_id = ?"));
        binds.append(*filter.eventId);
    }
    if (beforeId) {
        where.append(QStringLiteral("d.id < ?"));
        binds.append(*beforeId);
    }
    binds.append(limit);
    return selectRows(db,
        recordSelect() + QLatin1String(" WHERE ") + where.join(QLatin1String(" AND "))
            + QLatin1String(" ORDER BY d.id DESC LIMIT ?"),
        binds, readRecord);
}

Result<std::optional<DeliveryRecord>> fetchDelivery(Db &db, qint64 deliveryId)
{
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q, recordSelect() + QLatin1String(" WHERE d.id = ?"), { deliveryId }); !ran)
        return Failure(ran.error());
    if (!q.next())
        return std::nullopt;
    QList<DeliveryRecord> records { readRecord(q) };
    q.finish();
    if (auto attached = attachAttempts(db, records); !attached)
        return Failure(attached.error());
    return records.takeFirst();
}

QJsonObject attemptJson(const AttemptRecord &a)
{
    return QJsonObject {
        { QStringLiteral("number"), a.number },
        { QStringLiteral("trigger"), a.trigger.name() },
        { QStringLiteral("replay_id"), numberOrNull(a.replayId) },
        { QStringLiteral("scheduled_at"), isoOrNull(a.scheduledAt) },
        { QStringLiteral("started_at"), isoUtc(a.startedAt) },
        { QStringLiteral("duration_ms"), a.durationMs },
        { QStringLiteral("status_code"),
            a.statusCode ? QJsonValue(*a.statusCode) : QJsonValue(QJsonValue::Null) },
        { QStringLiteral("category"), a.category.name() },
        { QStringLiteral("explanation"), a.explanation },
        { QStringLiteral("outcome_unknown"), a.outcomeUnknown },
        { QStringLiteral("response_excerpt"), a.responseExcerpt },
    };
}

} // namespace redrive
