// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "admin/eventviews.h"
#include "admin/jsonbody.h"
#include "admin/replayhandlers.h"
#include "admin/replaystore.h"
#include "audit/auditlog.h"
#include "query/eventfilter.h"

#include <QJsonArray>
#include <QSqlQuery>

namespace redrive::admin {
namespace {
QString target(qint64 id)
{
    return QStringLiteral("replay:%1").arg(id);
}

http::Response notFound(qint64 id)
{
    return errorResponse(404, QStringLiteral("not_found"), QStringLiteral("replay %1 does not exist").arg(id),
        QStringLiteral("id"));
}
} // namespace

http::Response listReplays(RequestContext &ctx)
{
    if (auto r = requirePermission(ctx, access::Action::ReadReplays))
        return *r;
    ApiError e;
    if (!checkQueryKeys(ctx.query,
            { QStringLiteral("status"), QStringLiteral("requested_by"), QStringLiteral("limit"),
                QStringLiteral("cursor") },
            &e))
        return errorResponse(e);
    int limit = 0;
    if (!readLimit(ctx.query, 50, 500, &limit, &e))
        return errorResponse(e);
    QStringList statuses;
    for (const QString &s : ctx.query.queryItemValue(QStringLiteral("status"), QUrl::FullyDecoded)
                                .split(u',', Qt::SkipEmptyParts)) {
        if (!replayStatusFromString(s.trimmed()))
            return errorResponse(badRequest(QStringLiteral("status"),
                QStringLiteral("unknown replay status \"%1\"; use %2")
                    .arg(s.left(50), allReplayStatusNames().join(QLatin1String(", ")))));
        statuses.append(s.trimmed());
    }
    const QString requestedBy = ctx.query.queryItemValue(QStringLiteral("requested_by"), QUrl::FullyDecoded);
    if (requestedBy.size() > 200)
        return errorResponse(
            badRequest(QStringLiteral("requested_by"), QStringLiteral("is longer than 200 characters")));
    qint64 before = 0;
    const QString cursor = ctx.query.queryItemValue(QStringLiteral("cursor"), QUrl::FullyDecoded);
    if (!cursor.isEmpty()) {
        const auto id = decodeCursor(cursor);
        if (!id)
            return errorResponse(badRequest(QStringLiteral("cursor"),
                QStringLiteral("malformed cursor; use the next_cursor of a previous page")));
        before = *id;
    }
    QList<ReplayRow> rows;
    QString error;
    if (!listReplays(ctx.db, statuses, requestedBy, before, limit + 1, &rows, &error))
        return databaseError("listing replays", error);
    const bool more = rows.size() > limit;
    if (more)
        rows.removeLast();
    QJsonArray items;
    for (const auto &row : rows)
        items.append(replayJson(row));
    return jsonResponse(200,
        QJsonObject { { QStringLiteral("items"), items },
            { QStringLiteral("next_cursor"),
                more ? QJsonValue(encodeCursor(rows.last().id)) : QJsonValue(QJsonValue::Null) } });
}

http::Response getReplay(RequestContext &ctx, qint64 id)
{
    if (auto r = requirePermission(ctx, access::Action::ReadReplays, target(id)))
        return *r;
    ApiError e;
    if (!checkQueryKeys(ctx.query, { QStringLiteral("items_after"), QStringLiteral("items_limit") }, &e))
        return errorResponse(e);
    qint64 after = 0;
    if (ctx.query.hasQueryItem(QStringLiteral("items_after"))) {
        const auto v = parsePathId(ctx.query.queryItemValue(QStringLiteral("items_after")));
        if (!v)
            return errorResponse(
                badRequest(QStringLiteral("items_after"), QStringLiteral("must be a delivery id")));
        after = *v;
    }
    int limit = 500;
    if (ctx.query.hasQueryItem(QStringLiteral("items_limit"))) {
        bool ok = false;
        limit = ctx.query.queryItemValue(QStringLiteral("items_limit")).toInt(&ok);
        if (!ok || limit < 1 || limit > 1000)
            return errorResponse(badRequest(
                QStringLiteral("items_limit"), QStringLiteral("must be an integer from 1 to 1000")));
    }
    QString error;
    const auto row = loadReplay(ctx.db, id, &error);
    if (!row)
        return error.isEmpty() ? notFound(id) : databaseError("reading a replay", error);
    QJsonObject out = replayJson(*row);

    QSqlQuery q(ctx.db.handle());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral(
        "SELECT ri.delivery_id, ri.frozen_status, ri.state, d.status, d.event_id, d.destination, "
        "ri.frozen_outcome_unknown, ri.skip_reason, d.outcome_unknown "
        "FROM replay_items ri LEFT JOIN deliveries d ON d.id = ri.delivery_id "
        "WHERE ri.replay_id = ? AND ri.delivery_id > ? ORDER BY ri.delivery_id LIMIT %1")
                  .arg(limit + 1));
    q.addBindValue(id);
    q.addBindValue(after);
    if (!q.exec())
        return databaseError("reading replay items", sqlErrorText(q));
    QJsonArray items;
    qint64 last = 0;
    bool more = false;
    while (q.next()) {
        if (items.size() == limit) {
            more = true;
            break;
        }
        last = q.value(0).toLongLong();
        items.append(QJsonObject { { QStringLiteral("delivery_id"), last },
            { QStringLiteral("frozen_status"), q.value(1).toString() },
            { QStringLiteral("state"), q.value(2).toString() },
            { QStringLiteral("current_status"), jsonOrNull(q.value(3)) },
            { QStringLiteral("event_id"),
                q.value(4).isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(q.value(4).toLongLong()) },
            { QStringLiteral("destination"), jsonOrNull(q.value(5)) },
            { QStringLiteral("frozen_outcome_unknown"), q.value(6).toInt() != 0 },
            { QStringLiteral("skip_reason"), jsonOrNull(q.value(7)) },
            { QStringLiteral("outcome_unknown"),
                q.value(8).isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(q.value(8).toInt() != 0) } });
    }
    q.finish();
    out.insert(QStringLiteral("items"), items);
    out.insert(QStringLiteral("items_next_after"), more ? QJsonValue(last) : QJsonValue(QJsonValue::Null));

    QList<audit::AuditEntry> entries;
    audit::AuditQuery aq;
    aq.target = target(id);
    aq.limit = 200;
    if (!audit::readAuditEntries(ctx.db, aq, &entries, &error))
        return databaseError("reading audit entries", error);
    QJsonArray trail;
    for (const auto &entry : entries)
        trail.append(auditEntryApiJson(entry));
    out.insert(QStringLiteral("audit"), trail);
    return jsonResponse(200, out);
}

} // namespace redrive::admin
