// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "resolvehandlers.h"

#include "admin/jsonbody.h"
#include "replay/resolution.h"
#include "storage/incidentcheck.h"

#include <QJsonArray>
#include <QMap>
#include <QUrl>

namespace redrive::admin {
namespace {
constexpr int kMaxReasonChars = 1000;
constexpr int kMaxTicketChars = 200;
constexpr int kMaxListed = 100; // skipped deliveries listed, and ids named in the audit entry

struct ResolveBody {
    bool byIds = false;
    QList<qint64> ids;
    EventFilter filter;
    bool dryRun = false;
    std::optional<Resolution> resolution;
    QString reason;
    QString ticket;
};

std::optional<ResolveBody> readBody(RequestContext &ctx, ApiError *e)
{
    const auto body = parseJsonObject(ctx.request.body,
        { QStringLiteral("delivery_ids"), QStringLiteral("filter"), QStringLiteral("resolution"),
            QStringLiteral("reason"), QStringLiteral("ticket"), QStringLiteral("dry_run") },
        e);
    if (!body)
        return std::nullopt;
    ResolveBody out;
    out.byIds = body->contains(QLatin1String("delivery_ids"));
    if (out.byIds == body->contains(QLatin1String("filter"))) {
        *e = badRequest(out.byIds ? QStringLiteral("filter") : QStringLiteral("delivery_ids"),
            QStringLiteral("give either delivery_ids or filter (exactly one)"));
        return std::nullopt;
    }
    if (out.byIds) {
        if (!readDeliveryIds(body->value(QLatin1String("delivery_ids")), ctx.config.admin.maxSelection,
                QStringLiteral("resolve request"), &out.ids, e))
            return std::nullopt;
    } else {
        auto filter = readEventFilter(body->value(QLatin1String("filter")),
            QStringLiteral("to resolve specific deliveries use delivery_ids"), e);
        if (!filter)
            return std::nullopt;
        out.filter = std::move(*filter);
    }
    const QJsonValue dryRun = body->value(QLatin1String("dry_run"));
    if (!dryRun.isUndefined() && !dryRun.isBool()) {
        *e = badRequest(QStringLiteral("dry_run"), QStringLiteral("must be true or false"));
        return std::nullopt;
    }
    out.dryRun = dryRun.toBool(false);
    // A dry run only asks which deliveries; the rest is checked when given, required otherwise.
    const QJsonValue resolution = body->value(QLatin1String("resolution"));
    if (resolution.isUndefined() && !out.dryRun) {
        *e = badRequest(QStringLiteral("resolution"),
            QStringLiteral("is required: %1").arg(allResolutionNames().join(QLatin1String(" or "))));
        return std::nullopt;
    }
    if (!resolution.isUndefined()) {
        out.resolution = resolution.isString() ? resolutionFromString(resolution.toString()) : std::nullopt;
        if (!out.resolution) {
            *e = badRequest(QStringLiteral("resolution"),
                QStringLiteral("must be %1").arg(allResolutionNames().join(QLatin1String(" or "))));
            return std::nullopt;
        }
    }
    if (!readText(
            *body, QStringLiteral("reason"), TextRule { !out.dryRun, kMaxReasonChars, true }, &out.reason, e))
        return std::nullopt;
    if (!readText(
            *body, QStringLiteral("ticket"), TextRule { false, kMaxTicketChars, false }, &out.ticket, e))
        return std::nullopt;
    return out;
}

QJsonObject skippedJson(const replay::ResolveCandidate &c)
{
    return QJsonObject { { QStringLiteral("delivery_id"), c.deliveryId },
        { QStringLiteral("event_id"), c.eventId }, { QStringLiteral("destination"), c.destination },
        { QStringLiteral("status"), c.status.name() }, { QStringLiteral("reason"), c.refusal() } };
}

QString refusalSummary(const QList<replay::ResolveCandidate> &skipped)
{
    QMap<QString, int> byReason;
    for (const auto &c : skipped)
        ++byReason[c.refusal()];
    QStringList parts;
    for (auto it = byReason.begin(); it != byReason.end(); ++it)
        parts.append(QStringLiteral("%1 %2").arg(it.value()).arg(QString(it.key()).replace(u'_', u' ')));
    return parts.join(QLatin1String(", "));
}

QJsonArray idsJson(const QList<qint64> &ids, qsizetype limit)
{
    QJsonArray out;
    for (qsizetype i = 0; i < ids.size() && i < limit; ++i)
        out.append(ids[i]);
    return out;
}
} // namespace

http::Response resolveDeliveries(RequestContext &ctx)
{
    if (auto r = requirePermission(ctx, access::Action::ResolveDeliveries, QStringLiteral("deliveries")))
        return *r;
    ApiError e;
    const auto body = readBody(ctx, &e);
    if (!body)
        return errorResponse(e);
    const QString field = body->byIds ? QStringLiteral("delivery_ids") : QStringLiteral("filter");
    const int maxSelection = ctx.config.admin.maxSelection;

    Transaction tx(ctx.db);
    if (auto failed = beginWrite(tx, "resolving deliveries"))
        return *failed;
    QList<replay::ResolveCandidate> candidates;
    if (body->byIds) {
        QList<qint64> missing;
        auto found = replay::resolveCandidatesById(ctx.db, body->ids, &missing);
        if (!found)
            return databaseError("resolving deliveries", found.error());
        if (!missing.isEmpty())
            return errorResponse(404, QStringLiteral("not_found"),
                QStringLiteral("delivery %1 does not exist").arg(missing.first()), field);
        candidates = std::move(*found);
    } else {
        auto found = replay::deadDeliveriesMatching(ctx.db, body->filter, maxSelection + 1);
        if (!found)
            return databaseError("resolving deliveries", found.error());
        if (found->size() > maxSelection)
            return errorResponse(422, QStringLiteral("selection_too_large"),
                QStringLiteral(
                    "the filter matches more than %1 dead deliveries (admin.max_selection); narrow it "
                    "(since/until, destination, type) or resolve in several batches")
                    .arg(maxSelection),
                field);
        candidates = std::move(*found);
    }
    QList<qint64> resolvable;
    QList<replay::ResolveCandidate> skipped;
    for (const auto &c : std::as_const(candidates)) {
        if (c.refusal().isEmpty())
            resolvable.append(c.deliveryId);
        else
            skipped.append(c);
    }
    if (resolvable.isEmpty()) {
        const QString why = skipped.isEmpty()
            ? QStringLiteral("no dead delivery matches")
            : QStringLiteral("none of the %1 deliveries is a dead letter that can be resolved (%2)")
                  .arg(skipped.size())
                  .arg(refusalSummary(skipped));
        return errorResponse(422, QStringLiteral("nothing_to_resolve"), why, field);
    }
    QJsonArray skippedList;
    for (qsizetype i = 0; i < skipped.size() && i < kMaxListed; ++i)
        skippedList.append(skippedJson(skipped[i]));

    if (body->dryRun) {
        return jsonResponse(200,
            QJsonObject { { QStringLiteral("dry_run"), true }, { QStringLiteral("count"), resolvable.size() },
                { QStringLiteral("delivery_ids"), idsJson(resolvable, resolvable.size()) },
                { QStringLiteral("skipped"), skippedList },
                { QStringLiteral("skipped_count"), skipped.size() } });
    }

    const qint64 now = ctx.clock.nowMs();
    DeliveryResolution record;
    record.resolution = *body->resolution;
    record.reason = body->reason;
    record.ticket = body->ticket;
    record.actor = ctx.who.name;
    record.role = toString(ctx.who.role);
    record.resolvedAt = now;
    const auto changed = replay::resolveDeliveries(ctx.db, resolvable, record);
    if (!changed)
        return databaseError("resolving deliveries", changed.error());
    const auto closed = closeEmptiedIncidents(ctx.db, now);
    if (!closed)
        return databaseError("resolving deliveries", closed.error());

    QJsonObject details { { QStringLiteral("count"), changed->size() },
        { QStringLiteral("resolution"), record.resolution.name() },
        { QStringLiteral("delivery_ids"), idsJson(*changed, kMaxListed) },
        { QStringLiteral("delivery_ids_listed"), qMin<qsizetype>(changed->size(), kMaxListed) },
        { QStringLiteral("incidents_closed"), *closed } };
    if (!record.ticket.isEmpty())
        details.insert(QStringLiteral("ticket"), record.ticket);
    if (!body->byIds)
        details.insert(QStringLiteral("filter"), body->filter.toQuery().toString(QUrl::FullyEncoded));
    const QString target = changed->size() == 1 ? QStringLiteral("delivery:%1").arg(changed->first())
                                                : QStringLiteral("deliveries");
    if (auto committed = auditAndCommit(
            ctx, tx, ctx.record(QStringLiteral("deliveries_resolved"), target, record.reason, details));
        !committed)
        return databaseError("resolving deliveries", committed.error());

    return jsonResponse(200,
        QJsonObject { { QStringLiteral("resolved"), changed->size() },
            { QStringLiteral("delivery_ids"), idsJson(*changed, changed->size()) },
            { QStringLiteral("skipped"), skippedList }, { QStringLiteral("skipped_count"), skipped.size() },
            { QStringLiteral("resolution"), record.resolution.name() },
            { QStringLiteral("incidents_closed"), *closed } });
}

} // namespace redrive::admin
