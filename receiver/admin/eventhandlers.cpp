// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "eventhandlers.h"

#include "admin/audithandlers.h"
#include "admin/eventviews.h"
#include "admin/jsonbody.h"
#include "query/destinationstats.h"
#include "query/eventdetail.h"
#include "query/eventfilter.h"
#include "query/keysetpage.h"
#include "storage/duewakeup.h"
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
// A pause with an end resumes by itself; one longer than this is a decision, not a wait: it is
// made without an end and lifted by hand.
constexpr qint64 kMaxTimedPauseMs = 31LL * 86'400'000;

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

// Scheme, host and port only. Many destinations are capability URLs: a chat incoming webhook
// (https://hooks.slack.com/services/T…/B…/<secret>) or a token in the query is a credential, and
// GET destinations is open to every role. Whatever followed the host is one "…".
QString redactedUrl(const QUrl &url)
{
    const QString origin
        = url.adjusted(QUrl::RemoveUserInfo | QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment)
              .toString();
    const bool more = (!url.path().isEmpty() && url.path() != u"/") || url.hasQuery() || url.hasFragment();
    return origin + (more ? QStringLiteral("/…") : QStringLiteral("/"));
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
    const auto read = fetchEventDetail(
        ctx.db, id, EventDetailParts { .body = false, .auditStory = false, .notesLimit = kDetailListLimit });
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
        keyObject.insert(key.name, key.value);
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

http::Response listDestinations(RequestContext &ctx)
{
    if (auto r = admitQuery(ctx, access::Action::ReadEvents, {}))
        return *r;
    const auto pauses = fetchDestinationPauses(ctx.db);
    if (!pauses)
        return databaseError("reading destination state", pauses.error());
    using json::textOrNull;
    QHash<QString, QJsonObject> state;
    for (auto it = pauses->cbegin(); it != pauses->cend(); ++it) {
        state.insert(it.key(),
            QJsonObject { { QStringLiteral("paused"), it->paused },
                { QStringLiteral("changed_by"), textOrNull(it->changedBy) },
                { QStringLiteral("changed_at"),
                    it->changedAt ? QJsonValue(isoUtc(*it->changedAt)) : QJsonValue(QJsonValue::Null) },
                { QStringLiteral("reason"), textOrNull(it->reason) },
                { QStringLiteral("paused_until"), json::isoOrNull(it->pausedUntil) } });
    }
    QJsonArray items;
    for (const DestinationConfig &d : ctx.config.destinations) {
        QJsonObject o { { QStringLiteral("name"), d.name }, { QStringLiteral("url"), redactedUrl(d.url) },
            { QStringLiteral("risk"), toString(d.risk) }, { QStringLiteral("paused"), false },
            { QStringLiteral("changed_by"), QJsonValue::Null },
            { QStringLiteral("changed_at"), QJsonValue::Null },
            { QStringLiteral("reason"), QJsonValue::Null },
            { QStringLiteral("paused_until"), QJsonValue::Null } };
        const QJsonObject s = state.value(d.name);
        for (auto it = s.begin(); it != s.end(); ++it)
            o.insert(it.key(), it.value());
        items.append(o);
    }
    return jsonResponse(200, QJsonObject { { QStringLiteral("items"), items } });
}

http::Response setDestinationPaused(RequestContext &ctx, const QString &name, bool paused)
{
    const QString target = QStringLiteral("destination:%1").arg(name.left(200));
    if (auto r = requirePermission(ctx, access::Action::ManageDestinations, target))
        return *r;
    // {"reason"} for both; a pause may also name its end, {"until": an ISO-8601 time with a zone}.
    ApiError e;
    const auto body = parseJsonObject(ctx.request.body,
        paused ? QStringList { QStringLiteral("reason"), QStringLiteral("until") }
               : QStringList { QStringLiteral("reason") },
        &e);
    QString reason;
    if (!body || !readText(*body, QStringLiteral("reason"), TextRule {}, &reason, &e))
        return errorResponse(e);
    const qint64 now = ctx.clock.nowMs();
    std::optional<qint64> until;
    if (const QJsonValue value = body->value(QLatin1String("until"));
        !value.isUndefined() && !value.isNull()) {
        until = value.isString() ? parseTimestamp(value.toString()) : std::nullopt;
        if (!until)
            return errorResponse(badRequest(QStringLiteral("until"),
                QStringLiteral("must be an ISO-8601 time with a zone, such as 2026-12-03T06:00:00Z")));
        if (*until <= now)
            return errorResponse(
                badRequest(QStringLiteral("until"), QStringLiteral("must be in the future")));
        if (*until > now + kMaxTimedPauseMs)
            return errorResponse(badRequest(QStringLiteral("until"),
                QStringLiteral("may be at most 31 days ahead; pause without an end to pause for longer")));
    }
    if (!ctx.config.destination(name))
        return errorResponse(404, QStringLiteral("not_found"),
            QStringLiteral("no destination is named \"%1\"").arg(name.left(200)), QStringLiteral("name"));

    Transaction tx(ctx.db);
    if (auto failed = beginWrite(tx, "pausing a destination"))
        return *failed;
    QSqlQuery was(ctx.db.handle());
    was.prepare(QStringLiteral("SELECT paused FROM destination_state WHERE name = ?"));
    was.addBindValue(name);
    if (!was.exec())
        return databaseError("pausing a destination", sqlErrorText(was));
    const bool wasPaused = was.next() && was.value(0).toInt() != 0;
    was.finish();
    QSqlQuery q(ctx.db.handle());
    q.prepare(
        QStringLiteral("INSERT INTO destination_state (name, paused, changed_by, changed_at, reason, "
                       "paused_until) VALUES (?, ?, ?, ?, ?, ?) "
                       "ON CONFLICT (name) DO UPDATE SET paused = excluded.paused, changed_by = "
                       "excluded.changed_by, changed_at = excluded.changed_at, reason = excluded.reason, "
                       "paused_until = excluded.paused_until"));
    q.addBindValue(name);
    q.addBindValue(paused ? 1 : 0);
    q.addBindValue(ctx.who.name);
    q.addBindValue(now);
    q.addBindValue(reason);
    q.addBindValue(until ? QVariant(*until) : QVariant(QMetaType::fromType<qint64>()));
    if (!q.exec())
        return databaseError("pausing a destination", sqlErrorText(q));
    QJsonObject details { { QStringLiteral("was_paused"), wasPaused } };
    if (until)
        details.insert(QStringLiteral("until"), isoUtc(*until));
    const auto record
        = ctx.record(paused ? QStringLiteral("destination_paused") : QStringLiteral("destination_resumed"),
            target, reason, details);
    // A resumed destination's waiting deliveries are due now: wake every engine on the database.
    if (!paused) {
        if (auto notified = notifyDeliveriesDue(ctx.db); !notified)
            return databaseError("resuming a destination", notified.error());
    }
    if (auto committed = auditAndCommit(ctx, tx, record); !committed)
        return databaseError("pausing a destination", committed.error());
    if (!paused && ctx.wakeDelivery)
        ctx.wakeDelivery();
    return jsonResponse(200,
        QJsonObject { { QStringLiteral("name"), name }, { QStringLiteral("paused"), paused },
            { QStringLiteral("changed_by"), ctx.who.name }, { QStringLiteral("changed_at"), isoUtc(now) },
            { QStringLiteral("reason"), reason },
            { QStringLiteral("paused_until"), json::isoOrNull(until) } });
}

} // namespace redrive::admin
