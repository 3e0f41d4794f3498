// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "validationhandlers.h"

#include "admin/jsonbody.h"
#include "deliveryrules/deliveryplan.h"
#include "query/eventpage.h"
#include "storage/duewakeup.h"
#include "storage/eventvalidation.h"
#include "validation/schemavalidator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>

#include <limits>

namespace redrive::admin {
namespace {

struct Checked {
    bool found = false;
    bool quarantined = false; // the event was `invalid` when checked
    bool valid = false;
    int errors = 0;
    int deliveries = 0;
};

// Checks one event against the schema its source now names for its type, inside the caller's
// transaction. A quarantined event that passes (or whose type no rule names any more) leaves
// `invalid` and gets its deliveries exactly as ingest would have created them; one that still
// fails keeps its status with the new errors. Events that are not `invalid` are left alone.
Result<Checked> checkOne(RequestContext &ctx, qint64 id, qint64 nowMs)
{
    QSqlQuery q(ctx.db.handle());
    q.prepare(QStringLiteral("SELECT e.source, e.provider_event_id, e.event_type, e.body, s.status "
                             "FROM events e JOIN event_status s ON s.event_id = e.id WHERE e.id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return Failure(sqlErrorText(q));
    Checked c;
    if (!q.next())
        return c;
    c.found = true;
    IncomingEvent event;
    event.source = q.value(0).toString();
    event.providerEventId = q.value(1).toString();
    event.eventType = q.value(2).toString();
    event.body = q.value(3).toByteArray();
    c.quarantined = q.value(4).toString() == toString(EventStatus::Invalid);
    q.finish();
    if (!c.quarantined)
        return c;

    const SourceConfig *source = ctx.config.source(event.source);
    const SchemaRule *rule = source ? source->schemaFor(event.eventType) : nullptr;
    const QList<validation::ValidationError> errors
        = rule ? rule->schema->validateBody(event.body) : QList<validation::ValidationError> {};
    c.errors = static_cast<int>(errors.size());
    if (!errors.isEmpty()) {
        if (auto stored = storeValidationErrors(ctx.db, id, validation::validationErrorsJson(errors), nowMs);
            !stored)
            return Failure(stored.error());
        return c;
    }
    c.valid = true;
    const QStringList destinations = ctx.config.routeDestinations(event.source, event.eventType);
    // Claims the event first: of two revalidations at once, only one creates its deliveries.
    QSqlQuery claim(ctx.db.handle());
    claim.prepare(QStringLiteral("UPDATE event_status SET status = ? WHERE event_id = ? AND status = ?"));
    claim.addBindValue(toString(destinations.isEmpty() ? EventStatus::NoRoute : EventStatus::Pending));
    claim.addBindValue(id);
    claim.addBindValue(toString(EventStatus::Invalid));
    if (!claim.exec())
        return Failure(sqlErrorText(claim));
    if (claim.numRowsAffected() != 1) {
        c.valid = false;
        c.quarantined = false;
        return c;
    }
    if (auto cleared = clearValidationErrors(ctx.db, id); !cleared)
        return Failure(cleared.error());
    QList<DeliveryRow> rows;
    delivery::planDeliveries(ctx.config, destinations, event, id, nowMs, &rows);
    for (const DeliveryRow &row : rows) {
        QSqlQuery insert(ctx.db.handle());
        insert.prepare(QStringLiteral(
            "INSERT INTO deliveries (event_id, destination, status, attempt_count, next_attempt_at, "
            "ordering_key, idempotency_key, created_at, updated_at) VALUES (?, ?, %1, 0, ?, ?, ?, ?, ?) "
            "ON CONFLICT (event_id, destination) DO NOTHING")
                           .arg(sqlName(DeliveryStatus::Pending)));
        insert.addBindValue(row.eventId);
        insert.addBindValue(row.delivery.destination);
        insert.addBindValue(row.dueAtMs);
        insert.addBindValue(row.delivery.orderingKey ? QVariant(*row.delivery.orderingKey) : QVariant());
        insert.addBindValue(row.delivery.idempotencyKey);
        insert.addBindValue(nowMs);
        insert.addBindValue(nowMs);
        if (!insert.exec())
            return Failure(sqlErrorText(insert));
        c.deliveries += insert.numRowsAffected() > 0 ? 1 : 0;
    }
    return c;
}

QJsonObject checkedJson(qint64 id, const Checked &c)
{
    return QJsonObject { { QStringLiteral("event_id"), id }, { QStringLiteral("valid"), c.valid },
        { QStringLiteral("errors"), c.errors }, { QStringLiteral("deliveries_created"), c.deliveries } };
}

// After a commit that created deliveries: this receiver's engine now, the others by NOTIFY.
void wakeEngines(RequestContext &ctx, int deliveries)
{
    if (deliveries > 0 && ctx.wakeDelivery)
        ctx.wakeDelivery();
}

} // namespace

Result<QJsonArray> validationErrorsOf(Db &db, qint64 eventId)
{
    const auto stored = fetchValidationErrors(db, eventId);
    if (!stored)
        return Failure(stored.error());
    if (!stored->has_value())
        return QJsonArray();
    return QJsonDocument::fromJson(**stored).array();
}

http::Response revalidateEvent(RequestContext &ctx, qint64 id)
{
    const QString target = QStringLiteral("event:%1").arg(id);
    if (auto r = requirePermission(ctx, access::Action::RevalidateEvents, target))
        return *r;
    ApiError e;
    const auto reason = readOptionalReason(ctx.request.body, &e);
    if (!reason)
        return errorResponse(e);

    Transaction tx(ctx.db);
    if (auto failed = beginWrite(tx, "revalidating an event"))
        return *failed;
    const qint64 now = ctx.clock.nowMs();
    const auto checked = checkOne(ctx, id, now);
    if (!checked)
        return databaseError("revalidating an event", checked.error());
    if (!checked->found)
        return errorResponse(404, QStringLiteral("not_found"),
            QStringLiteral("event %1 does not exist").arg(id), QStringLiteral("id"));
    if (!checked->quarantined)
        return errorResponse(409, QStringLiteral("not_invalid"),
            QStringLiteral("event %1 is not quarantined (status invalid); only those are revalidated")
                .arg(id),
            QStringLiteral("id"));
    if (checked->deliveries > 0) {
        if (auto notified = notifyDeliveriesDue(ctx.db); !notified)
            return databaseError("revalidating an event", notified.error());
    }
    const QJsonObject result = checkedJson(id, *checked);
    if (auto committed
        = auditAndCommit(ctx, tx, ctx.record(QStringLiteral("event_revalidated"), target, *reason, result));
        !committed)
        return databaseError("revalidating an event", committed.error());
    wakeEngines(ctx, checked->deliveries);
    QJsonObject out = result;
    out.insert(QStringLiteral("status"),
        checked->valid ? (checked->deliveries > 0 ? QStringLiteral("pending") : QStringLiteral("no_route"))
                       : QStringLiteral("invalid"));
    const auto errors = validationErrorsOf(ctx.db, id);
    if (!errors)
        return databaseError("revalidating an event", errors.error());
    out.insert(QStringLiteral("validation_errors"), *errors);
    return jsonResponse(200, out);
}

http::Response revalidateEvents(RequestContext &ctx)
{
    if (auto r = requirePermission(ctx, access::Action::RevalidateEvents, QStringLiteral("events")))
        return *r;
    ApiError e;
    const auto body = parseJsonObject(ctx.request.body,
        { QStringLiteral("filter"), QStringLiteral("limit"), QStringLiteral("cursor"),
            QStringLiteral("reason") },
        &e);
    if (!body)
        return errorResponse(e);
    if (!body->contains(QLatin1String("filter")))
        return errorResponse(badRequest(QStringLiteral("filter"), QStringLiteral("is required")));
    auto filter = readEventFilter(body->value(QLatin1String("filter")),
        QStringLiteral("to revalidate every quarantined event use {\"status\":\"invalid\"}"), &e);
    if (!filter)
        return errorResponse(e);
    // Only quarantined events are checked again, whatever else the filter says.
    filter->statuses = { toString(EventStatus::Invalid) };
    // "limit" and "cursor" as a list endpoint reads them (the cursor is a previous next_cursor).
    QUrlQuery pageQuery;
    for (const char *key : { "limit", "cursor" }) {
        const QJsonValue v = body->value(QLatin1String(key));
        if (v.isUndefined())
            continue;
        if (!v.isString() && !v.isDouble())
            return errorResponse(
                badRequest(QLatin1String(key), QStringLiteral("must be a number or a string")));
        pageQuery.addQueryItem(
            QLatin1String(key), v.isString() ? v.toString() : QString::number(v.toInteger()));
    }
    PageRequest page;
    if (!readPageRequest(pageQuery, kMaxRevalidate, kMaxRevalidate, &page, &e))
        return errorResponse(e);
    const qint64 limit = page.limit;
    const qint64 cursor = page.before ? *page.before - 1 : std::numeric_limits<qint64>::max();
    QString reason;
    if (!readText(*body, QStringLiteral("reason"), TextRule { false, 1000, true }, &reason, &e))
        return errorResponse(e);

    Transaction tx(ctx.db);
    if (auto failed = beginWrite(tx, "revalidating events"))
        return *failed;
    auto rows = fetchEventRange(ctx.db, *filter, EventOrder::NewestFirst, cursor, 1,
        std::numeric_limits<qint64>::max(), static_cast<int>(limit) + 1, DeliveryRows::None);
    if (!rows)
        return databaseError("revalidating events", rows.error());
    const bool more = rows->size() > limit;
    if (more)
        rows->resize(static_cast<qsizetype>(limit));
    const qint64 now = ctx.clock.nowMs();
    int checkedCount = 0, valid = 0, stillInvalid = 0, deliveries = 0;
    for (const EventRow &row : std::as_const(*rows)) {
        const auto checked = checkOne(ctx, row.id, now);
        if (!checked)
            return databaseError("revalidating events", checked.error());
        if (!checked->quarantined)
            continue;
        ++checkedCount;
        valid += checked->valid ? 1 : 0;
        stillInvalid += checked->valid ? 0 : 1;
        deliveries += checked->deliveries;
    }
    if (deliveries > 0) {
        if (auto notified = notifyDeliveriesDue(ctx.db); !notified)
            return databaseError("revalidating events", notified.error());
    }
    const QJsonValue next = nextCursor(more, rows->isEmpty() ? 0 : rows->last().id);
    QJsonObject result { { QStringLiteral("checked"), checkedCount }, { QStringLiteral("valid"), valid },
        { QStringLiteral("still_invalid"), stillInvalid },
        { QStringLiteral("deliveries_created"), deliveries } };
    QJsonObject details = result;
    details.insert(QStringLiteral("filter"), body->value(QLatin1String("filter")));
    if (auto committed = auditAndCommit(ctx, tx,
            ctx.record(QStringLiteral("event_revalidated"), QStringLiteral("events"), reason, details));
        !committed)
        return databaseError("revalidating events", committed.error());
    wakeEngines(ctx, deliveries);
    result.insert(QStringLiteral("next_cursor"), next);
    return jsonResponse(200, result);
}

} // namespace redrive::admin
