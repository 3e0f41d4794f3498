// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "eventhandlers.h"

#include "admin/eventviews.h"
#include "admin/jsonbody.h"
#include "audit/auditlog.h"
#include "query/eventdetail.h"
#include "query/eventfilter.h"
#include "storage/duewakeup.h"
#include "util/headers.h"

#include <QJsonDocument>
#include <QSqlQuery>

namespace redrive::admin {
namespace {
constexpr int kMaxPage = 500;
constexpr int kDefaultPage = 50;
constexpr int kMaxNoteChars = 4000;
constexpr int kDetailListLimit = 200;

std::optional<http::Response> readCursor(RequestContext &ctx, std::optional<qint64> *out)
{
    const QString cursor = ctx.query.queryItemValue(QStringLiteral("cursor"), QUrl::FullyDecoded);
    if (cursor.isEmpty())
        return std::nullopt;
    *out = decodeCursor(cursor);
    if (!*out)
        return errorResponse(badRequest(QStringLiteral("cursor"),
            QStringLiteral("malformed cursor; use the next_cursor of a previous page")));
    return std::nullopt;
}

QJsonValue nextCursor(bool more, qint64 lastId)
{
    return more ? QJsonValue(encodeCursor(lastId)) : QJsonValue(QJsonValue::Null);
}

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

QString redactedUrl(const QUrl &url)
{
    return url.adjusted(QUrl::RemoveUserInfo).toString();
}
} // namespace

http::Response listEvents(RequestContext &ctx)
{
    if (auto r = requirePermission(ctx, access::Action::ReadEvents))
        return *r;
    ApiError e;
    if (!checkQueryKeys(ctx.query,
            { QStringLiteral("status"), QStringLiteral("source"), QStringLiteral("type"),
                QStringLiteral("destination"), QStringLiteral("category"), QStringLiteral("since"),
                QStringLiteral("until"), QStringLiteral("q"), QStringLiteral("limit"),
                QStringLiteral("cursor"), QStringLiteral("key") },
            &e))
        return errorResponse(e);
    QString field, message;
    const auto filter = EventFilter::fromQuery(ctx.query, &field, &message);
    if (!filter)
        return errorResponse(badRequest(field, message));
    int limit = 0;
    if (!readLimit(ctx.query, kDefaultPage, kMaxPage, &limit, &e))
        return errorResponse(e);
    std::optional<qint64> before;
    if (auto r = readCursor(ctx, &before))
        return *r;

    SqlFragment frag = eventFilterSql(*filter);
    QString sql = QStringLiteral("SELECT %1 FROM %2 WHERE (%3)")
                      .arg(QLatin1String(kEventColumns), QLatin1String(kEventTables), frag.sql);
    if (before)
        sql += QLatin1String(" AND ") + eventIdBound(QLatin1StringView("<"), *before, &frag.binds);
    sql += QStringLiteral(" ORDER BY %1 DESC LIMIT %2").arg(frag.idColumn).arg(limit + 1);
    QSqlQuery q(ctx.db.handle());
    q.setForwardOnly(true);
    q.prepare(sql);
    for (const QVariant &b : std::as_const(frag.binds))
        q.addBindValue(b);
    if (!q.exec())
        return databaseError("listing events", sqlErrorText(q));
    QList<QJsonObject> events;
    QList<qint64> ids;
    bool more = false;
    while (q.next()) {
        if (events.size() == limit) {
            more = true;
            break;
        }
        events.append(eventJson(q));
        ids.append(q.value(0).toLongLong());
    }
    q.finish();
    QHash<qint64, QJsonArray> deliveries;
    QString error;
    if (!loadDeliveries(ctx.db, ctx.config, ids, false, &deliveries, &error))
        return databaseError("listing deliveries", error);
    QJsonArray items;
    for (QJsonObject &ev : events) {
        ev.insert(QStringLiteral("deliveries"), deliveries.value(ev.value(QLatin1String("id")).toInteger()));
        items.append(ev);
    }
    return jsonResponse(200,
        QJsonObject { { QStringLiteral("items"), items },
            { QStringLiteral("next_cursor"), nextCursor(more, ids.isEmpty() ? 0 : ids.last()) } });
}

http::Response getEvent(RequestContext &ctx, qint64 id)
{
    if (auto r = requirePermission(ctx, access::Action::ReadEvents, QStringLiteral("event:%1").arg(id)))
        return *r;
    ApiError e;
    if (!checkQueryKeys(ctx.query, {}, &e))
        return errorResponse(e);
    QSqlQuery q(ctx.db.handle());
    q.prepare(
        QStringLiteral("SELECT %1, e.content_type, e.body_sha256, e.body_size, e.headers, e.verified_by, "
                       "e.clock_skew_ms, e.legal_hold FROM %2 WHERE e.id = ?")
            .arg(QLatin1String(kEventColumns), QLatin1String(kEventTables)));
    q.addBindValue(id);
    if (!q.exec())
        return databaseError("reading an event", sqlErrorText(q));
    if (!q.next())
        return errorResponse(404, QStringLiteral("not_found"),
            QStringLiteral("event %1 does not exist").arg(id), QStringLiteral("id"));
    QJsonObject ev = eventJson(q);
    ev.insert(QStringLiteral("content_type"), q.value(10).toString());
    ev.insert(QStringLiteral("body_sha256"), q.value(11).toString());
    ev.insert(QStringLiteral("body_size"), q.value(12).toLongLong());
    // Stored headers are already redacted at ingest; redact again so a future change there (or a
    // row stored before signatures were left out) cannot leak a credential or a replayable
    // signature through this endpoint.
    const SourceConfig *source = ctx.config.source(q.value(1).toString());
    const QByteArrayView signatureHeader = source && source->scheme == SchemeKind::HmacSha256
        ? QByteArrayView(source->hmac.signatureHeader)
        : QByteArrayView();
    ev.insert(QStringLiteral("headers"),
        QJsonDocument::fromJson(
            Headers::fromJson(q.value(13).toString().toUtf8()).redacted(signatureHeader).toJson())
            .array());
    ev.insert(QStringLiteral("verified_by"), q.value(14).toString());
    ev.insert(QStringLiteral("clock_skew_ms"), jsonOrNull(q.value(15)));
    ev.insert(QStringLiteral("legal_hold"), q.value(16).toInt() != 0);
    q.finish();

    QString error;
    QHash<qint64, QJsonArray> deliveries;
    if (!loadDeliveries(ctx.db, ctx.config, { id }, true, &deliveries, &error))
        return databaseError("reading deliveries", error);
    ev.insert(QStringLiteral("deliveries"), deliveries.value(id));

    QSqlQuery n(ctx.db.handle());
    n.prepare(QStringLiteral(
        "SELECT id, author, body, created_at FROM notes WHERE event_id = ? ORDER BY id LIMIT %1")
                  .arg(kDetailListLimit));
    n.addBindValue(id);
    if (!n.exec())
        return databaseError("reading notes", sqlErrorText(n));
    QJsonArray notes;
    while (n.next()) {
        notes.append(QJsonObject { { QStringLiteral("id"), n.value(0).toLongLong() },
            { QStringLiteral("author"), n.value(1).toString() },
            { QStringLiteral("body"), n.value(2).toString() },
            { QStringLiteral("created_at"), isoOrNull(n.value(3)) } });
    }
    ev.insert(QStringLiteral("notes"), notes);

    const auto keys = fetchEventKeys(ctx.db, id, &error);
    if (!keys)
        return databaseError("reading keys", error);
    QJsonObject keyObject;
    for (const EventKey &key : *keys)
        keyObject.insert(key.name, key.value);
    ev.insert(QStringLiteral("keys"), keyObject);

    QList<audit::AuditEntry> entries;
    audit::AuditQuery aq;
    aq.target = QStringLiteral("event:%1").arg(id);
    aq.limit = kDetailListLimit;
    if (!audit::readAuditEntries(ctx.db, aq, &entries, &error))
        return databaseError("reading audit entries", error);
    QJsonArray auditItems;
    for (const auto &entry : entries)
        auditItems.append(auditEntryJson(entry));
    ev.insert(QStringLiteral("audit"), auditItems);
    return jsonResponse(200, ev);
}

http::Response addNote(RequestContext &ctx, qint64 eventId)
{
    const QString target = QStringLiteral("event:%1").arg(eventId);
    if (auto r = requirePermission(ctx, access::Action::AddNote, target))
        return *r;
    ApiError e;
    const auto body = parseJsonObject(ctx.request.body, { QStringLiteral("body") }, &e);
    if (!body)
        return errorResponse(e);
    QString text;
    if (!readText(*body, QStringLiteral("body"), TextRule { true, kMaxNoteChars, true }, &text, &e))
        return errorResponse(e);

    QString error;
    Transaction tx(ctx.db);
    if (!tx.begin(&error))
        return databaseError("adding a note", error);
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
    if (!auditAndCommit(ctx, tx, record, &error))
        return databaseError("adding a note", error);
    return jsonResponse(201,
        QJsonObject { { QStringLiteral("id"), noteId }, { QStringLiteral("event_id"), eventId },
            { QStringLiteral("author"), ctx.who.name }, { QStringLiteral("body"), text },
            { QStringLiteral("created_at"), isoUtc(now) } });
}

http::Response listDeliveries(RequestContext &ctx)
{
    if (auto r = requirePermission(ctx, access::Action::ReadEvents))
        return *r;
    ApiError e;
    if (!checkQueryKeys(ctx.query,
            { QStringLiteral("status"), QStringLiteral("destination"), QStringLiteral("category"),
                QStringLiteral("event_id"), QStringLiteral("limit"), QStringLiteral("cursor") },
            &e))
        return errorResponse(e);
    int limit = 0;
    if (!readLimit(ctx.query, kDefaultPage, kMaxPage, &limit, &e))
        return errorResponse(e);
    std::optional<qint64> before;
    if (auto r = readCursor(ctx, &before))
        return *r;
    QStringList where { QStringLiteral("1=1") };
    QVariantList binds;
    const QString statuses = ctx.query.queryItemValue(QStringLiteral("status"), QUrl::FullyDecoded);
    if (!statuses.isEmpty()) {
        QStringList marks;
        for (const QString &s : statuses.split(u',', Qt::SkipEmptyParts)) {
            if (!deliveryStatusFromString(s.trimmed()))
                return errorResponse(badRequest(QStringLiteral("status"),
                    QStringLiteral("unknown delivery status \"%1\"; use %2")
                        .arg(s.left(50), allDeliveryStatusNames().join(QLatin1String(", ")))));
            marks.append(QStringLiteral("?"));
            binds.append(s.trimmed());
        }
        where.append(QStringLiteral("d.status IN (%1)").arg(marks.join(u',')));
    }
    for (const auto &[key, column] :
        { std::pair { "destination", "d.destination" }, std::pair { "category", "d.last_category" } }) {
        const QString v = ctx.query.queryItemValue(QLatin1String(key), QUrl::FullyDecoded);
        if (v.isEmpty())
            continue;
        if (v.size() > 512)
            return errorResponse(
                badRequest(QLatin1String(key), QStringLiteral("is longer than 512 characters")));
        where.append(QStringLiteral("%1 = ?").arg(QLatin1String(column)));
        binds.append(v);
    }
    if (ctx.query.hasQueryItem(QStringLiteral("event_id"))) {
        const auto id = parsePathId(ctx.query.queryItemValue(QStringLiteral("event_id")));
        if (!id)
            return errorResponse(
                badRequest(QStringLiteral("event_id"), QStringLiteral("must be a positive integer")));
        where.append(QStringLiteral("d.event_id = ?"));
        binds.append(*id);
    }
    if (before) {
        where.append(QStringLiteral("d.id < ?"));
        binds.append(*before);
    }
    QSqlQuery q(ctx.db.handle());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT %1 FROM deliveries d WHERE %2 ORDER BY d.id DESC LIMIT %3")
                  .arg(QLatin1String(kDeliveryColumns), where.join(QLatin1String(" AND ")))
                  .arg(limit + 1));
    for (const QVariant &b : std::as_const(binds))
        q.addBindValue(b);
    if (!q.exec())
        return databaseError("listing deliveries", sqlErrorText(q));
    QJsonArray items;
    qint64 last = 0;
    bool more = false;
    while (q.next()) {
        if (items.size() == limit) {
            more = true;
            break;
        }
        items.append(deliveryJson(q, ctx.config));
        last = q.value(0).toLongLong();
    }
    return jsonResponse(200,
        QJsonObject {
            { QStringLiteral("items"), items }, { QStringLiteral("next_cursor"), nextCursor(more, last) } });
}

http::Response getDelivery(RequestContext &ctx, qint64 id)
{
    if (auto r = requirePermission(ctx, access::Action::ReadEvents, QStringLiteral("delivery:%1").arg(id)))
        return *r;
    ApiError e;
    if (!checkQueryKeys(ctx.query, {}, &e))
        return errorResponse(e);
    QSqlQuery q(ctx.db.handle());
    q.prepare(
        QStringLiteral("SELECT %1 FROM deliveries d WHERE d.id = ?").arg(QLatin1String(kDeliveryColumns)));
    q.addBindValue(id);
    if (!q.exec())
        return databaseError("reading a delivery", sqlErrorText(q));
    if (!q.next())
        return errorResponse(404, QStringLiteral("not_found"),
            QStringLiteral("delivery %1 does not exist").arg(id), QStringLiteral("id"));
    QJsonObject d = deliveryJson(q, ctx.config);
    q.finish();
    QHash<qint64, QJsonArray> attempts;
    QString error;
    if (!loadAttempts(ctx.db, { id }, &attempts, &error))
        return databaseError("reading attempts", error);
    d.insert(QStringLiteral("attempts"), attempts.value(id));
    return jsonResponse(200, d);
}

http::Response listDestinations(RequestContext &ctx)
{
    if (auto r = requirePermission(ctx, access::Action::ReadEvents))
        return *r;
    ApiError e;
    if (!checkQueryKeys(ctx.query, {}, &e))
        return errorResponse(e);
    QSqlQuery q(ctx.db.handle());
    if (!q.exec(QStringLiteral("SELECT name, paused, changed_by, changed_at, reason FROM destination_state")))
        return databaseError("reading destination state", sqlErrorText(q));
    QHash<QString, QJsonObject> state;
    while (q.next()) {
        state.insert(q.value(0).toString(),
            QJsonObject { { QStringLiteral("paused"), q.value(1).toInt() != 0 },
                { QStringLiteral("changed_by"), jsonOrNull(q.value(2)) },
                { QStringLiteral("changed_at"), isoOrNull(q.value(3)) },
                { QStringLiteral("reason"), jsonOrNull(q.value(4)) } });
    }
    QJsonArray items;
    for (const DestinationConfig &d : ctx.config.destinations) {
        QJsonObject o { { QStringLiteral("name"), d.name }, { QStringLiteral("url"), redactedUrl(d.url) },
            { QStringLiteral("risk"), toString(d.risk) }, { QStringLiteral("paused"), false },
            { QStringLiteral("changed_by"), QJsonValue::Null },
            { QStringLiteral("changed_at"), QJsonValue::Null },
            { QStringLiteral("reason"), QJsonValue::Null } };
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
    ApiError e;
    const auto body = parseJsonObject(ctx.request.body, { QStringLiteral("reason") }, &e);
    if (!body)
        return errorResponse(e);
    QString reason;
    if (!readText(*body, QStringLiteral("reason"), TextRule {}, &reason, &e))
        return errorResponse(e);
    if (!ctx.config.destination(name))
        return errorResponse(404, QStringLiteral("not_found"),
            QStringLiteral("no destination is named \"%1\"").arg(name.left(200)), QStringLiteral("name"));

    QString error;
    Transaction tx(ctx.db);
    if (!tx.begin(&error))
        return databaseError("pausing a destination", error);
    QSqlQuery was(ctx.db.handle());
    was.prepare(QStringLiteral("SELECT paused FROM destination_state WHERE name = ?"));
    was.addBindValue(name);
    if (!was.exec())
        return databaseError("pausing a destination", sqlErrorText(was));
    const bool wasPaused = was.next() && was.value(0).toInt() != 0;
    was.finish();
    const qint64 now = ctx.clock.nowMs();
    QSqlQuery q(ctx.db.handle());
    q.prepare(QStringLiteral(
        "INSERT INTO destination_state (name, paused, changed_by, changed_at, reason) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (name) DO UPDATE SET paused = excluded.paused, changed_by = excluded.changed_by, "
        "changed_at = excluded.changed_at, reason = excluded.reason"));
    q.addBindValue(name);
    q.addBindValue(paused ? 1 : 0);
    q.addBindValue(ctx.who.name);
    q.addBindValue(now);
    q.addBindValue(reason);
    if (!q.exec())
        return databaseError("pausing a destination", sqlErrorText(q));
    const auto record
        = ctx.record(paused ? QStringLiteral("destination_paused") : QStringLiteral("destination_resumed"),
            target, reason, QJsonObject { { QStringLiteral("was_paused"), wasPaused } });
    // A resumed destination's waiting deliveries are due now: wake every engine on the database.
    if (!paused && !notifyDeliveriesDue(ctx.db, &error))
        return databaseError("resuming a destination", error);
    if (!auditAndCommit(ctx, tx, record, &error))
        return databaseError("pausing a destination", error);
    if (!paused && ctx.wakeDelivery)
        ctx.wakeDelivery();
    return jsonResponse(200,
        QJsonObject { { QStringLiteral("name"), name }, { QStringLiteral("paused"), paused },
            { QStringLiteral("changed_by"), ctx.who.name }, { QStringLiteral("changed_at"), isoUtc(now) },
            { QStringLiteral("reason"), reason } });
}

} // namespace redrive::admin
