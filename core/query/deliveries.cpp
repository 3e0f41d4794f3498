// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "deliveries.h"

#include "util/clock.h"
#include "util/jsonvalues.h"

#include <QHash>
#include <QSqlQuery>

namespace redrive {
namespace {

// Keeps an IN (...) list under every engine's bound-parameter limit.
constexpr qsizetype kChunk = 500;

std::optional<qint64> optLong(const QVariant &v)
{
    return v.isNull() ? std::nullopt : std::optional<qint64>(v.toLongLong());
}

std::optional<int> optInt(const QVariant &v)
{
    return v.isNull() ? std::nullopt : std::optional<int>(v.toInt());
}

using json::isoOrNull;
using json::numberOrNull;

const QLatin1String kRecordColumns(", d.idempotency_key, d.last_status_code, d.replay_id, "
                                   "d.succeeded_at, d.dead_at, d.created_at");

DeliveryRecord readRecord(const QSqlQuery &q)
{
    constexpr int at = kDeliverySummaryColumnCount;
    DeliveryRecord rec;
    rec.summary = readDeliverySummary(q);
    rec.idempotencyKey = q.value(at).toString();
    rec.lastStatusCode = optInt(q.value(at + 1));
    rec.lastError = rec.summary.lastError;
    rec.replayId = optLong(q.value(at + 2));
    rec.succeededAt = optLong(q.value(at + 3));
    rec.deadAt = optLong(q.value(at + 4));
    rec.createdAt = q.value(at + 5).toLongLong();
    return rec;
}

QString recordSelect()
{
    return QLatin1String("SELECT ") + QLatin1String(kDeliverySummaryColumns) + kRecordColumns
        + QLatin1String(" FROM deliveries d");
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
        q.setForwardOnly(true);
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
            a.id = q.value(1).toLongLong();
            a.number = q.value(2).toInt();
            a.trigger = Stored<AttemptTrigger>::fromName(q.value(3).toString());
            a.replayId = optLong(q.value(4));
            a.scheduledAt = optLong(q.value(5));
            a.startedAt = q.value(6).toLongLong();
            a.durationMs = q.value(7).toInt();
            a.statusCode = optInt(q.value(8));
            a.category = Stored<FailureCategory>::fromName(q.value(9).toString());
            a.explanation = q.value(10).toString();
            a.outcomeUnknown = q.value(11).toInt() != 0;
            a.responseExcerpt = q.value(12).toString();
            records[at].attempts.append(std::move(a));
        }
    }
    return ok();
}

} // namespace

DeliverySummary readDeliverySummary(const QSqlQuery &q, int first)
{
    DeliverySummary d;
    d.id = q.value(first).toLongLong();
    d.eventId = q.value(first + 1).toLongLong();
    d.destination = q.value(first + 2).toString();
    d.status = Stored<DeliveryStatus>::fromName(q.value(first + 3).toString());
    d.attemptCount = q.value(first + 4).toInt();
    d.lastCategory = Stored<FailureCategory>::fromName(q.value(first + 5).toString());
    d.outcomeUnknown = q.value(first + 6).toInt() != 0;
    d.downstreamRef = q.value(first + 7).toString();
    d.nextAttemptAt = optLong(q.value(first + 8));
    d.updatedAt = q.value(first + 9).toLongLong();
    d.lastError = q.value(first + 10).toString();
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
        q.setForwardOnly(true);
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
    QSqlQuery q(db.handle());
    q.setForwardOnly(true);
    if (auto ran = runQuery(q,
            recordSelect() + QLatin1String(" WHERE ") + where.join(QLatin1String(" AND "))
                + QLatin1String(" ORDER BY d.id DESC LIMIT ?"),
            binds);
        !ran)
        return Failure(ran.error());
    QList<DeliveryRecord> records;
    while (q.next())
        records.append(readRecord(q));
    return records;
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
