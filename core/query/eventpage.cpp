// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "eventpage.h"

#include "storage/sqlrow.h"
#include "util/clock.h"
#include "util/jsonvalues.h"

#include <QHash>
#include <QSqlQuery>

#include <limits>

namespace redrive {
namespace {

const QLatin1String kEventColumns(
    "e.id, e.received_at, e.source, e.event_type, e.provider_event_id, s.status, "
    "e.seen_count, e.weak_id, e.occurred_at, e.last_seen_at, e.origin");

EventRow readEvent(const QSqlQuery &q)
{
    EventRow row;
    readColumns(q, row.id, row.receivedAt, row.source, row.type, row.providerEventId, row.status,
        row.seenCount, row.weakId, row.occurredAt, row.lastSeenAt, row.origin);
    return row;
}

void summarise(EventRow &row)
{
    QList<DownstreamState> states;
    qint64 lastFailureAt = -1;
    for (const DeliverySummary &d : std::as_const(row.deliveries)) {
        row.attempts += d.attemptCount;
        states.append(d.downstream);
        if (row.downstreamRef.isEmpty() && !d.downstreamRef.isEmpty())
            row.downstreamRef = d.downstreamRef;
        if (d.status != DeliveryStatus::Succeeded && !d.lastCategory.isNull()
            && d.lastCategory != FailureCategory::None && d.updatedAt > lastFailureAt) {
            lastFailureAt = d.updatedAt;
            row.lastFailure = d.lastCategory;
            row.lastFailureText = d.lastError;
        }
    }
    row.downstream = summariseDownstream(states);
}

// Loads the deliveries of `rows` in one query and attaches them.
Result<> attachDeliveries(Db &db, QList<EventRow> &rows)
{
    if (rows.isEmpty())
        return ok();
    QHash<qint64, qsizetype> index;
    QVariantList ids;
    index.reserve(rows.size());
    for (qsizetype i = 0; i < rows.size(); ++i) {
        index.insert(rows[i].id, i);
        ids.append(rows[i].id);
    }
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q,
            QLatin1String("SELECT ") + QLatin1String(kDeliverySummaryColumns)
                + QLatin1String(" FROM deliveries d WHERE d.event_id IN (") + sqlPlaceholders(ids.size())
                + QLatin1String(") ORDER BY d.event_id, d.id"),
            ids);
        !ran)
        return Failure(ran.error());
    while (q.next()) {
        DeliverySummary d = readDeliverySummary(q);
        const qsizetype at = index.value(d.eventId, -1);
        if (at >= 0)
            rows[at].deliveries.append(std::move(d));
    }
    for (EventRow &row : rows)
        summarise(row);
    return ok();
}

} // namespace

Result<IdRange> eventIdRange(Db &db)
{
    // Two separate aggregates: each is a single primary-key probe on both engines.
    QSqlQuery q(db.handle());
    IdRange range;
    if (!q.exec(QStringLiteral("SELECT max(id) FROM events")) || !q.next())
        return Failure(sqlErrorText(q));
    range.maxId = q.value(0).toLongLong();
    if (!q.exec(QStringLiteral("SELECT min(id) FROM events")) || !q.next())
        return Failure(sqlErrorText(q));
    range.minId = q.value(0).toLongLong();
    return range;
}

Result<QList<EventRow>> fetchEventPage(
    Db &db, const EventFilter &filter, qint64 fromId, int limit, qint64 floorId)
{
    return fetchEventRange(
        db, filter, EventOrder::NewestFirst, fromId, floorId + 1, std::numeric_limits<qint64>::max(), limit);
}

Result<QList<EventRow>> fetchEventRange(Db &db, const EventFilter &filter, EventOrder order, qint64 fromId,
    qint64 floorId, qint64 ceilingId, int limit, DeliveryRows deliveries)
{
    const SqlFragment where = eventFilterSql(filter, db.dialect());
    const bool newest = order == EventOrder::NewestFirst;
    QVariantList binds = where.binds;
    const QLatin1StringView towards(newest ? "<=" : ">=");
    const QLatin1StringView away(newest ? ">=" : "<=");
    // Two statements: the bounds append their values to `binds` in the order they appear.
    QString range
        = eventIdBound(towards, newest ? std::min(fromId, ceilingId) : std::max(fromId, floorId), &binds);
    range += QLatin1String(" AND ") + eventIdBound(away, newest ? floorId : ceilingId, &binds);
    binds << limit;
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q,
            QLatin1String("SELECT ") + kEventColumns + QLatin1String(" FROM ") + QLatin1String(kEventTables)
                + QLatin1String(" WHERE (") + where.sql + QLatin1String(") AND ") + range
                + QLatin1String(" ORDER BY ") + where.idColumn
                + (newest ? QLatin1String(" DESC LIMIT ?") : QLatin1String(" ASC LIMIT ?")),
            binds);
        !ran)
        return Failure(ran.error());
    QList<EventRow> rows;
    rows.reserve(limit);
    while (q.next())
        rows.append(readEvent(q));
    q.finish();
    if (deliveries == DeliveryRows::Summaries) {
        if (auto attached = attachDeliveries(db, rows); !attached)
            return Failure(attached.error());
    }
    return rows;
}

Result<QList<EventRow>> fetchEventsByIds(Db &db, const QList<qint64> &ids)
{
    QList<EventRow> rows;
    if (ids.isEmpty())
        return rows;
    QSqlQuery q(db.handle());
    QVariantList binds;
    for (qint64 id : ids)
        binds.append(id);
    if (auto ran = runQuery(q,
            QLatin1String("SELECT ") + kEventColumns + QLatin1String(" FROM ") + QLatin1String(kEventTables)
                + QLatin1String(" WHERE e.id IN (") + sqlPlaceholders(ids.size()) + u')',
            binds);
        !ran)
        return Failure(ran.error());
    QHash<qint64, EventRow> found;
    while (q.next()) {
        EventRow row = readEvent(q);
        const qint64 id = row.id;
        found.emplace(id, std::move(row));
    }
    q.finish();
    for (qint64 id : ids) {
        if (found.contains(id))
            rows.append(found.take(id));
    }
    if (auto attached = attachDeliveries(db, rows); !attached)
        return Failure(attached.error());
    return rows;
}

Result<PageIndex> fetchPageIndex(
    Db &db, const EventFilter &filter, qint64 topId, int pageSize, EventOrder order)
{
    const bool newest = order == EventOrder::NewestFirst;
    PageIndex index;
    index.pageSize = pageSize;
    const SqlFragment where = eventFilterSql(filter, db.dialect());
    // Numbering the matching ids newest first and keeping every pageSize-th is one index walk
    // on either engine, and only count/pageSize rows cross the driver. The oldest match is kept
    // too: its row number is the count.
    QVariantList bound;
    const QString matching = QLatin1String("FROM ") + QLatin1String(kEventTables) + QLatin1String(" WHERE (")
        + where.sql + QLatin1String(") AND ") + eventIdBound(QLatin1StringView("<="), topId, &bound);
    QSqlQuery q(db.handle());
    QVariantList binds = where.binds + bound;
    binds << pageSize;
    binds += where.binds + bound;
    if (auto ran = runQuery(q,
            QLatin1String("SELECT id, rn FROM (SELECT e.id AS id, row_number() OVER (ORDER BY ")
                + where.idColumn + u' ' + (newest ? QLatin1String("DESC") : QLatin1String("ASC"))
                + QLatin1String(") AS rn ") + matching
                + QLatin1String(") numbered WHERE (rn - 1) % ? = 0 OR id = (SELECT ")
                + (newest ? QLatin1String("min") : QLatin1String("max")) + u'(' + where.idColumn
                + QLatin1String(") ") + matching + QLatin1String(") ORDER BY rn"),
            binds);
        !ran)
        return Failure(ran.error());
    while (q.next()) {
        const qint64 id = q.value(0).toLongLong();
        const qint64 rn = q.value(1).toLongLong();
        if ((rn - 1) % pageSize == 0)
            index.boundaries.append(id);
        index.count = std::max(index.count, rn);
    }
    return index;
}

Result<qint64> countEventsAbove(Db &db, const EventFilter &filter, qint64 topId, qint64 cap)
{
    const SqlFragment where = eventFilterSql(filter, db.dialect());
    // The inner LIMIT bounds the work when a flood arrives while the console looks away.
    QVariantList binds = where.binds;
    const QString above = eventIdBound(QLatin1StringView(">"), topId, &binds);
    binds << cap;
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q,
            QLatin1String("SELECT count(*) FROM (SELECT e.id FROM ") + QLatin1String(kEventTables)
                + QLatin1String(" WHERE (") + where.sql + QLatin1String(") AND ") + above
                + QLatin1String(" ORDER BY ") + where.idColumn + QLatin1String(" LIMIT ?) newer"),
            binds);
        !ran)
        return Failure(ran.error());
    if (!q.next())
        return Failure(sqlErrorText(q));
    return q.value(0).toLongLong();
}

Result<NewEventsBaseline> newEventsBaseline(Db &db, const EventFilter &filter, qint64 topId, qint64 windowMs)
{
    NewEventsBaseline out;
    if (topId <= 0)
        return out;
    QSqlQuery q(db.handle());
    // Walks the primary key down from the top and stops at the first event old enough: the work
    // is the events received within the window, whatever the table's size.
    if (auto ran = runQuery(q,
            QStringLiteral("SELECT id FROM events WHERE id <= ? AND received_at < "
                           "(SELECT received_at FROM events WHERE id <= ? ORDER BY id DESC LIMIT 1) - ? "
                           "ORDER BY id DESC LIMIT 1"),
            { topId, topId, windowMs });
        !ran)
        return Failure(ran.error());
    out.lowWaterId = q.next() ? q.value(0).toLongLong() : 0;
    q.finish();
    if (out.lowWaterId >= topId)
        return out;
    const auto above = countEventsAbove(db, filter, out.lowWaterId, std::numeric_limits<qint64>::max());
    if (!above)
        return Failure(above.error());
    const auto overTop = countEventsAbove(db, filter, topId, std::numeric_limits<qint64>::max());
    if (!overTop)
        return Failure(overTop.error());
    out.known = *above - *overTop;
    return out;
}

Result<NewEventsCount> countNewEvents(Db &db, const EventFilter &filter, const NewEventsBaseline &baseline,
    qint64 shownAbove, qint64 headTopId, qint64 cap)
{
    const qint64 seen = baseline.known + shownAbove;
    const auto above = countEventsAbove(db, filter, baseline.lowWaterId, seen + cap);
    if (!above)
        return Failure(above.error());
    const auto overTop = countEventsAbove(db, filter, headTopId, cap);
    if (!overTop)
        return Failure(overTop.error());
    NewEventsCount out;
    out.total = std::max<qint64>(0, *above - seen);
    out.late = std::max<qint64>(0, out.total - *overTop);
    return out;
}

QJsonObject eventRowJson(const EventRow &row)
{
    return QJsonObject {
        { QStringLiteral("id"), row.id },
        { QStringLiteral("source"), row.source },
        { QStringLiteral("provider_event_id"), row.providerEventId },
        { QStringLiteral("weak_id"), row.weakId },
        { QStringLiteral("type"), row.type },
        { QStringLiteral("status"), row.status.name() },
        { QStringLiteral("received_at"), isoUtc(row.receivedAt) },
        { QStringLiteral("occurred_at"), json::isoOrNull(row.occurredAt) },
        { QStringLiteral("last_seen_at"), isoUtc(row.lastSeenAt) },
        { QStringLiteral("seen_count"), row.seenCount },
        { QStringLiteral("origin"), row.origin },
    };
}

} // namespace redrive
