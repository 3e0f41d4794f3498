// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "admin/audithandlers.h"
#include "admin/jsonbody.h"
#include "admin/replayhandlers.h"
#include "admin/replaystore.h"
#include "query/replayitems.h"

#include <QJsonArray>

namespace redrive::admin {

http::Response listReplays(RequestContext &ctx)
{
    if (auto r = admitQuery(ctx, access::Action::ReadReplays,
            { QStringLiteral("status"), QStringLiteral("requested_by"), QStringLiteral("limit"),
                QStringLiteral("cursor") }))
        return *r;
    ApiError e;
    PageRequest page;
    if (!readPageRequest(ctx.query, 50, 500, &page, &e))
        return errorResponse(e);
    const int limit = page.limit;
    QList<ReplayStatus> statuses;
    for (const QString &s : ctx.query.queryItemValue(QStringLiteral("status"), QUrl::FullyDecoded)
                                .split(u',', Qt::SkipEmptyParts)) {
        const auto status = replayStatusFromString(s.trimmed());
        if (!status)
            return errorResponse(badRequest(QStringLiteral("status"),
                QStringLiteral("unknown replay status \"%1\"; use %2")
                    .arg(s.left(50), allReplayStatusNames().join(QLatin1String(", ")))));
        statuses.append(*status);
    }
    const QString requestedBy = ctx.query.queryItemValue(QStringLiteral("requested_by"), QUrl::FullyDecoded);
    if (requestedBy.size() > 200)
        return errorResponse(
            badRequest(QStringLiteral("requested_by"), QStringLiteral("is longer than 200 characters")));
    auto listed = listReplays(ctx.db, statuses, requestedBy, page.before.value_or(0), limit + 1);
    if (!listed)
        return databaseError("listing replays", listed.error());
    return jsonResponse(
        200, pageJson(std::move(*listed), limit, replayJson, [](const ReplayRow &row) { return row.id; }));
}

http::Response getReplay(RequestContext &ctx, qint64 id)
{
    if (auto r = admitQuery(ctx, access::Action::ReadReplays,
            { QStringLiteral("items_after"), QStringLiteral("items_limit") }, replayTarget(id)))
        return *r;
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
    auto read = readReplay(ctx, id, "reading a replay");
    if (auto *answer = std::get_if<http::Response>(&read))
        return std::move(*answer);
    QJsonObject out = replayJson(std::get<ReplayRow>(read));

    auto rows = fetchReplayItems(ctx.db, id, after, limit + 1);
    if (!rows)
        return databaseError("reading replay items", rows.error());
    const bool more = rows->size() > limit;
    if (more)
        rows->removeLast();
    QJsonArray items;
    qint64 last = 0;
    for (const ReplayItemRecord &i : std::as_const(*rows)) {
        last = i.deliveryId;
        items.append(i.toJson());
    }
    out.insert(QStringLiteral("items"), items);
    out.insert(QStringLiteral("items_next_after"), more ? QJsonValue(last) : QJsonValue(QJsonValue::Null));

    const auto trail = auditTrailJson(ctx.db, replayTarget(id), 200);
    if (!trail)
        return databaseError("reading audit entries", trail.error());
    out.insert(QStringLiteral("audit"), *trail);
    return jsonResponse(200, out);
}

} // namespace redrive::admin
