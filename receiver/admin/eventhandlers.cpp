// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "eventhandlers.h"

#include "admin/audithandlers.h"
#include "admin/eventviews.h"
#include "admin/jsonbody.h"
#include "query/eventdetail.h"
#include "query/eventfilter.h"
#include "query/keysetpage.h"
#include "util/headers.h"
#include "util/jsonvalues.h"

#include <QJsonDocument>
#include <QSqlQuery>

#include <limits>

namespace redrive::admin {
namespace {
constexpr int kMaxPage = 500;
constexpr int kDefaultPage = 50;
constexpr int kMaxNoteChars = 4000;
constexpr int kDetailListLimit = 200;

bool eventExists(Db &db, qint64 id, bool *exists, QString *error)
{
    QSqlQuery q(db.handle());
    q.prepare(QStringLiteral("SELECT 1 FROM events WHERE id = ?"));
    q.addBindValue(id);
    if (!q.exec()) {
        *error = sqlErrorText(q);
        return false;
    }
    *exists = q.next();
    return true;
}

} // namespace

http::Response listEvents(RequestContext &ctx)
{
    if (auto r = admitQuery(ctx, access::Action::ReadEvents,
            { QStringLiteral("status"), QStringLiteral("source"), QStringLiteral("type"),
                QStringLiteral("destination"), QStringLiteral("category"), QStringLiteral("since"),
                QStringLiteral("until"), QStringLiteral("q"), QStringLiteral("limit"),
                QStringLiteral("cursor"), QStringLiteral("key"), QStringLiteral("origin") }))
        return *r;
    ApiError e;
    QString field, message;
    const auto filter = EventFilter::fromQuery(ctx.query, &field, &message);
    if (!filter)
        return errorResponse(badRequest(field, message));
    PageRequest page;
    if (!readPageRequest(ctx.query, kDefaultPage, kMaxPage, &page, &e))
        return errorResponse(e);
    const int limit = page.limit;

    auto rows = fetchEventRange(ctx.db, *filter, EventOrder::NewestFirst,
        page.before ? *page.before - 1 : std::numeric_limits<qint64>::max(), 1,
        std::numeric_limits<qint64>::max(), limit + 1, DeliveryRows::None);
    if (!rows)
        return databaseError("listing events", rows.error());
    const bool more = trimKeysetPage(*rows, limit);
    QList<qint64> ids;
    for (const EventRow &row : std::as_const(*rows))
        ids.append(row.id);
    const auto deliveries = fetchDeliveriesOfEvents(ctx.db, ids, WithAttempts::No);
    if (!deliveries)
        return databaseError("listing deliveries", deliveries.error());
    QHash<qint64, QJsonArray> byEvent;
    for (const DeliveryRecord &d : *deliveries)
        byEvent[d.summary.eventId].append(deliveryJson(d, ctx.config));
    QJsonArray items;
    for (const EventRow &row : std::as_const(*rows)) {
        QJsonObject ev = eventRowJson(row);
        ev.insert(QStringLiteral("deliveries"), byEvent.value(row.id));
        items.append(ev);
    }
    return jsonResponse(200,
        QJsonObject { { QStringLiteral("items"), items },
            { QStringLiteral("next_cursor"), nextCursor(more, ids.isEmpty() ? 0 : ids.last()) } });
}

http::Response getEvent(RequestContext &ctx, qint64 id)
{
    if (auto r = admitQuery(ctx, access::Action::ReadEvents, {}, QStringLiteral("event:%1").arg(id)))
        return *r;
    const auto read = fetchEventDetail(ctx.db, id,
        EventDetailParts {
            .body = EventDetailParts::Body::None, .auditStory = false, .notesLimit = kDetailListLimit });
    if (!read)
        return databaseError("reading an event", read.error());
    const std::optional<EventDetail> &detail = *read;
    if (!detail)
        return errorResponse(404, QStringLiteral("not_found"),
            QStringLiteral("event %1 does not exist").arg(id), QStringLiteral("id"));
    QJsonObject ev = eventRowJson(detail->row);
    ev.insert(QStringLiteral("content_type"), detail->contentType);
    ev.insert(QStringLiteral("body_sha256"), detail->bodySha256);
    ev.insert(QStringLiteral("body_size"), detail->bodySize);
    // Headers are stored redacted at ingest and redacted again on read; a generic source's own
    // signature header is left out too, so a future change there (or a row stored before
    // signatures were left out) cannot leak a credential or a replayable signature here.
    const SourceConfig *source = ctx.config.source(detail->row.source);
    const QByteArrayView signatureHeader = source && source->scheme == SchemeKind::HmacSha256
        ? QByteArrayView(source->hmac.signatureHeader)
        : QByteArrayView();
    ev.insert(QStringLiteral("headers"),
        QJsonDocument::fromJson(Headers::fromJson(detail->headersJson).redacted(signatureHeader).toJson())
            .array());
    ev.insert(QStringLiteral("verified_by"), detail->verifiedBy);
    ev.insert(QStringLiteral("clock_skew_ms"),
        detail->clockSkewMs ? QJsonValue(*detail->clockSkewMs) : QJsonValue(QJsonValue::Null));
    ev.insert(QStringLiteral("legal_hold"), detail->legalHold);
    // Privacy by role: which values of the body nobody but a destination (and a reveal) sees.
    ev.insert(QStringLiteral("body_redacted"), !detail->redactedPaths.isEmpty());
    ev.insert(QStringLiteral("redacted_paths"), QJsonArray::fromStringList(detail->redactedPaths));

    QJsonArray deliveries;
    for (const DeliveryRecord &d : detail->deliveries) {
        QJsonObject o = deliveryJson(d, ctx.config);
        o.insert(QStringLiteral("attempts"), attemptsJson(d.attempts));
        deliveries.append(o);
    }
    ev.insert(QStringLiteral("deliveries"), deliveries);
    ev.insert(QStringLiteral("notes"), notesJson(detail->notes));
    QJsonObject keyObject;
    for (const EventKey &key : detail->keys)
        keyObject.insert(key.name, key.value); // "[redacted]" for a key read from a redacted value
    ev.insert(QStringLiteral("keys"), keyObject);
    // A quarantined event's schema errors ([] for every other event).
    ev.insert(QStringLiteral("validation_errors"),
        QJsonDocument::fromJson(validation::validationErrorsJson(detail->validationErrors)).array());

    const auto trail = auditTrailJson(ctx.db, QStringLiteral("event:%1").arg(id), kDetailListLimit);
    if (!trail)
        return databaseError("reading audit entries", trail.error());
    ev.insert(QStringLiteral("audit"), *trail);
    return jsonResponse(200, ev);
}

http::Response addNote(RequestContext &ctx, qint64 eventId)
{
    const QString target = QStringLiteral("event:%1").arg(eventId);
    if (auto r = requirePermission(ctx, access::Action::AddNote, target))
        return *r;
    ApiError e;
    const auto body
        = readTextBody(ctx.request.body, QStringLiteral("body"), TextRule { true, kMaxNoteChars, true }, &e);
    if (!body)
        return errorResponse(e);
    const QString &text = *body;

    QString error;
    Transaction tx(ctx.db);
    if (auto failed = beginWrite(tx, "adding a note"))
        return *failed;
    bool exists = false;
    if (!eventExists(ctx.db, eventId, &exists, &error))
        return databaseError("adding a note", error);
    if (!exists)
        return errorResponse(404, QStringLiteral("not_found"),
            QStringLiteral("event %1 does not exist").arg(eventId), QStringLiteral("id"));
    const qint64 now = ctx.clock.nowMs();
    QSqlQuery q(ctx.db.handle());
    q.prepare(QStringLiteral("INSERT INTO notes (event_id, author, body, created_at) VALUES (?, ?, ?, ?)"));
    q.addBindValue(eventId);
    q.addBindValue(ctx.who.name);
    q.addBindValue(text);
    q.addBindValue(now);
    if (!q.exec())
        return databaseError("adding a note", sqlErrorText(q));
    const qint64 noteId = q.lastInsertId().toLongLong();
    const auto record = ctx.record(QStringLiteral("note_added"), target, QString(),
        QJsonObject { { QStringLiteral("note_id"), noteId }, { QStringLiteral("body"), text } });
    if (auto committed = auditAndCommit(ctx, tx, record); !committed)
        return databaseError("adding a note", committed.error());
    return jsonResponse(201,
        QJsonObject { { QStringLiteral("id"), noteId }, { QStringLiteral("event_id"), eventId },
            { QStringLiteral("author"), ctx.who.name }, { QStringLiteral("body"), text },
            { QStringLiteral("created_at"), isoUtc(now) } });
}

http::Response listDeliveries(RequestContext &ctx)
{
    if (auto r = admitQuery(ctx, access::Action::ReadEvents,
            { QStringLiteral("status"), QStringLiteral("destination"), QStringLiteral("category"),
                QStringLiteral("event_id"), QStringLiteral("limit"), QStringLiteral("cursor") }))
        return *r;
    ApiError e;
    PageRequest page;
    if (!readPageRequest(ctx.query, kDefaultPage, kMaxPage, &page, &e))
        return errorResponse(e);
    const int limit = page.limit;
    DeliveryFilter filter;
    const QString statuses = ctx.query.queryItemValue(QStringLiteral("status"), QUrl::FullyDecoded);
    for (const QString &s : statuses.split(u',', Qt::SkipEmptyParts)) {
        const auto status = deliveryStatusFromString(s.trimmed());
        if (!status)
            return errorResponse(badRequest(QStringLiteral("status"),
                QStringLiteral("unknown delivery status \"%1\"; use %2")
                    .arg(s.left(50), allDeliveryStatusNames().join(QLatin1String(", ")))));
        filter.statuses.append(*status);
    }
    for (const auto &[key, field] : { std::pair { "destination", &DeliveryFilter::destination },
             std::pair { "category", &DeliveryFilter::category } }) {
        const QString v = ctx.query.queryItemValue(QLatin1String(key), QUrl::FullyDecoded);
        if (v.size() > 512)
            return errorResponse(
                badRequest(QLatin1String(key), QStringLiteral("is longer than 512 characters")));
        filter.*field = v;
    }
    if (ctx.query.hasQueryItem(QStringLiteral("event_id"))) {
        filter.eventId = parsePathId(ctx.query.queryItemValue(QStringLiteral("event_id")));
        if (!filter.eventId)
            return errorResponse(
                badRequest(QStringLiteral("event_id"), QStringLiteral("must be a positive integer")));
    }
    auto rows = fetchDeliveryPage(ctx.db, filter, page.before, limit + 1);
    if (!rows)
        return databaseError("listing deliveries", rows.error());
    return jsonResponse(200,
        pageJson(
            std::move(*rows), limit, [&](const DeliveryRecord &d) { return deliveryJson(d, ctx.config); },
            [](const DeliveryRecord &d) { return d.summary.id; }));
}

http::Response getDelivery(RequestContext &ctx, qint64 id)
{
    if (auto r = admitQuery(ctx, access::Action::ReadEvents, {}, QStringLiteral("delivery:%1").arg(id)))
        return *r;
    const auto read = fetchDelivery(ctx.db, id);
    if (!read)
        return databaseError("reading a delivery", read.error());
    const std::optional<DeliveryRecord> &d = *read;
    if (!d)
        return errorResponse(404, QStringLiteral("not_found"),
            QStringLiteral("delivery %1 does not exist").arg(id), QStringLiteral("id"));
    QJsonObject o = deliveryJson(*d, ctx.config);
    o.insert(QStringLiteral("attempts"), attemptsJson(d->attempts));
    return jsonResponse(200, o);
}

} // namespace redrive::admin
