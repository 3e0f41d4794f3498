// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "admin/jsonbody.h"
#include "admin/replayhandlers.h"
#include "admin/replaystore.h"
#include "query/eventfilter.h"
#include "replay/replaypolicy.h"

#include <QJsonArray>
#include <QMap>
#include <QSet>

namespace redrive::admin {
namespace {
QString exclusionSummary(const replay::Selection &s)
{
    QMap<QString, int> byReason;
    for (const auto &x : s.excluded)
        ++byReason[x.reason];
    QStringList parts;
    for (auto it = byReason.begin(); it != byReason.end(); ++it)
        parts.append(QStringLiteral("%1 %2").arg(it.value()).arg(QString(it.key()).replace(u'_', u' ')));
    return parts.join(QLatin1String(", "));
}

} // namespace

http::Response previewReplay(RequestContext &ctx)
{
    if (auto r = requirePermission(ctx, access::Action::RequestReplay))
        return *r;
    ApiError e;
    const auto body
        = parseJsonObject(ctx.request.body, { QStringLiteral("delivery_ids"), QStringLiteral("filter") }, &e);
    if (!body)
        return errorResponse(e);
    const bool byIds = body->contains(QLatin1String("delivery_ids"));
    const bool byFilter = body->contains(QLatin1String("filter"));
    if (byIds == byFilter)
        return errorResponse(badRequest(byIds ? QStringLiteral("filter") : QStringLiteral("delivery_ids"),
            QStringLiteral("give either delivery_ids or filter (exactly one)")));
    const int maxSelection = ctx.config.admin.maxSelection;
    replay::FreezeError freezeError;
    std::optional<replay::Selection> selection;
    if (byIds) {
        QList<qint64> ids;
        if (!readDeliveryIds(
                body->value(QLatin1String("delivery_ids")), maxSelection, QStringLiteral("replay"), &ids, &e))
            return errorResponse(e);
        selection = replay::freezeDeliveries(ctx.db, ctx.config, ids, maxSelection, &freezeError);
    } else {
        const auto filter = readEventFilter(body->value(QLatin1String("filter")),
            QStringLiteral("to replay specific deliveries use delivery_ids"), &e);
        if (!filter)
            return errorResponse(e);
        selection = replay::freezeFilter(ctx.db, ctx.config, *filter, maxSelection, &freezeError);
    }
    const QString field = byIds ? QStringLiteral("delivery_ids") : QStringLiteral("filter");
    if (!selection) {
        switch (freezeError.kind) {
        case replay::FreezeFailure::TooLarge:
            return errorResponse(422, QStringLiteral("selection_too_large"), freezeError.message, field);
        case replay::FreezeFailure::UnknownDelivery:
            return errorResponse(404, QStringLiteral("not_found"), freezeError.message, field);
        case replay::FreezeFailure::Database:
            break;
        }
        return databaseError("freezing a selection", freezeError.message);
    }
    if (selection->items.isEmpty()) {
        const QString why = selection->excludedCount == 0
            ? QStringLiteral("no delivery matches")
            : QStringLiteral("none of the %1 matched deliveries can be replayed now (%2)")
                  .arg(selection->excludedCount)
                  .arg(exclusionSummary(*selection));
        return errorResponse(422, QStringLiteral("nothing_to_replay"), why, field);
    }
    const replay::SelectionSummary summary = replay::summarise(selection->items);
    const qint64 now = ctx.clock.nowMs();
    if (const auto saved
        = saveSelection(ctx.db, *selection, summary, ctx.who.name, now, ctx.config.admin.selectionTtlMs);
        !saved)
        return databaseError("saving a selection", saved.error());

    QJsonObject out = summary.toJson();
    out.insert(QStringLiteral("selection_hash"), selection->hash);
    out.insert(QStringLiteral("expires_at"), isoUtc(now + ctx.config.admin.selectionTtlMs));
    QJsonArray ids;
    for (const auto &item : selection->items)
        ids.append(item.deliveryId);
    out.insert(QStringLiteral("delivery_ids"), ids);
    QJsonArray excluded;
    for (const auto &x : selection->excluded) {
        excluded.append(QJsonObject { { QStringLiteral("delivery_id"), x.deliveryId },
            { QStringLiteral("event_id"), x.eventId }, { QStringLiteral("destination"), x.destination },
            { QStringLiteral("status"), x.status.name() }, { QStringLiteral("reason"), x.reason } });
    }
    out.insert(QStringLiteral("excluded"), excluded);
    out.insert(QStringLiteral("excluded_count"), selection->excludedCount);
    out.insert(QStringLiteral("excluded_count_capped"), selection->excludedCountCapped);
    return jsonResponse(200, out);
}

} // namespace redrive::admin
