// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replayhandlers.h"

#include "admin/eventviews.h"
#include "admin/jsonbody.h"
#include "admin/replaystore.h"
#include "audit/auditlog.h"
#include "query/eventfilter.h"
#include "replay/replaypolicy.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSqlQuery>

namespace redrive::admin {
namespace {
constexpr int kMaxReasonChars = 1000;
constexpr int kMaxTicketChars = 200;
constexpr int kChunk = 500;
constexpr qint64 kReplayCreateLock = 4'242'003;
const QStringList kActiveStatuses{QStringLiteral("pending_approval"), QStringLiteral("approved"), QStringLiteral("executing")};

QString target(qint64 id)
{
    return QStringLiteral("replay:%1").arg(id);
}

http::Response notFound(qint64 id)
{
    return errorResponse(404, QStringLiteral("not_found"), QStringLiteral("replay %1 does not exist").arg(id), QStringLiteral("id"));
}

http::Response conflict(const QString &code, const QString &message, const QString &field = {})
{
    return errorResponse(409, code, message, field);
}

// Reads the "filter" object of a preview into an EventFilter (the keys of GET events).
std::optional<EventFilter> readFilter(const QJsonValue &value, ApiError *error)
{
    if (!value.isObject()) {
        *error = badRequest(QStringLiteral("filter"), QStringLiteral("must be an object with the keys of GET events"));
        return std::nullopt;
    }
    static const QStringList keys{QStringLiteral("status"), QStringLiteral("source"), QStringLiteral("type"),
                                  QStringLiteral("destination"), QStringLiteral("category"), QStringLiteral("since"),
                                  QStringLiteral("until"), QStringLiteral("q")};
    const QJsonObject o = value.toObject();
    QUrlQuery query;
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString field = QStringLiteral("filter.") + it.key().left(100);
        if (!keys.contains(it.key())) {
            *error = badRequest(field, QStringLiteral("unknown filter key; expected one of: %1").arg(keys.join(QLatin1String(", "))));
            return std::nullopt;
        }
        QString text;
        if (it.value().isString()) {
            text = it.value().toString();
        } else if (it.key() == u"status" && it.value().isArray()) {
            QStringList parts;
            for (const QJsonValue &v : it.value().toArray()) {
                if (!v.isString()) {
                    *error = badRequest(field, QStringLiteral("must be a string or an array of strings"));
                    return std::nullopt;
                }
                parts.append(v.toString());
            }
            text = parts.join(u',');
        } else if ((it.key() == u"since" || it.key() == u"until") && it.value().isDouble()) {
            text = QString::number(it.value().toInteger());
        } else {
            *error = badRequest(field, QStringLiteral("must be a string"));
            return std::nullopt;
        }
        query.addQueryItem(it.key(), QString::fromUtf8(QUrl::toPercentEncoding(text)));
    }
    QString field, message;
    auto filter = EventFilter::fromQuery(query, &field, &message);
    if (!filter) {
        *error = badRequest(QStringLiteral("filter.") + field, message);
        return std::nullopt;
    }
    if (filter->isEmpty()) {
        *error = badRequest(QStringLiteral("filter"),
                            QStringLiteral("needs at least one condition; to replay specific deliveries use delivery_ids"));
        return std::nullopt;
    }
    return filter;
}

bool readDeliveryIds(const QJsonValue &value, int maxSelection, QList<qint64> *ids, ApiError *error)
{
    if (!value.isArray()) {
        *error = badRequest(QStringLiteral("delivery_ids"), QStringLiteral("must be an array of delivery ids"));
        return false;
    }
    const QJsonArray array = value.toArray();
    if (array.isEmpty()) {
        *error = badRequest(QStringLiteral("delivery_ids"), QStringLiteral("must not be empty"));
        return false;
    }
    if (array.size() > maxSelection) {
        *error = ApiError{422, QStringLiteral("selection_too_large"),
                          QStringLiteral("at most %1 deliveries per replay (admin.max_selection); split the list into batches")
                              .arg(maxSelection),
                          QStringLiteral("delivery_ids")};
        return false;
    }
    QSet<qint64> seen;
    for (qsizetype i = 0; i < array.size(); ++i) {
        qint64 id = 0;
        if (!readId(array[i], QStringLiteral("delivery_ids[%1]").arg(i), &id, error))
            return false;
        if (seen.contains(id)) {
            *error = badRequest(QStringLiteral("delivery_ids[%1]").arg(i), QStringLiteral("delivery %1 is listed twice").arg(id));
            return false;
        }
        seen.insert(id);
        ids->append(id);
    }
    return true;
}

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

struct CurrentDelivery {
    QString status;
    bool outcomeUnknown = false;
    bool hasReplay = false;
    QString destination;
};

bool loadCurrent(Db &db, const QList<replay::SelectionItem> &items, QHash<qint64, CurrentDelivery> *out, QString *error)
{
    for (qsizetype start = 0; start < items.size(); start += kChunk) {
        const qsizetype n = qMin<qsizetype>(kChunk, items.size() - start);
        QSqlQuery q(db.handle());
        q.setForwardOnly(true);
        q.prepare(QStringLiteral("SELECT id, status, outcome_unknown, replay_id, destination FROM deliveries WHERE id IN (%1)")
                      .arg(QStringList(n, QStringLiteral("?")).join(u',')));
        for (qsizetype i = 0; i < n; ++i)
            q.addBindValue(items[start + i].deliveryId);
        if (!q.exec()) {
            *error = sqlErrorText(q);
            return false;
        }
        while (q.next()) {
            out->insert(q.value(0).toLongLong(), CurrentDelivery{q.value(1).toString(), q.value(2).toInt() != 0,
                                                                 !q.value(3).isNull(), q.value(4).toString()});
        }
    }
    return true;
}

// Why the frozen selection no longer describes the deliveries, or empty when it still does.
QString selectionDrift(const Config &config, const QList<replay::SelectionItem> &items,
                       const QHash<qint64, CurrentDelivery> &current)
{
    for (const auto &item : items) {
        const auto it = current.constFind(item.deliveryId);
        if (it == current.constEnd())
            return QStringLiteral("delivery %1 no longer exists").arg(item.deliveryId);
        if (it->status != toString(item.status))
            return QStringLiteral("delivery %1 is now %2 (it was %3 when the selection was frozen)")
                .arg(item.deliveryId)
                .arg(it->status, toString(item.status));
        if (it->outcomeUnknown != item.outcomeUnknown)
            return QStringLiteral("delivery %1's outcome-unknown flag changed since the selection was frozen").arg(item.deliveryId);
        if (it->hasReplay)
            return QStringLiteral("delivery %1 is queued by another replay").arg(item.deliveryId);
        const DestinationConfig *dc = config.destination(item.destination);
        if (!dc)
            return QStringLiteral("destination %1 is no longer configured").arg(item.destination);
        if (dc->risk != item.risk)
            return QStringLiteral("destination %1 is now %2 risk").arg(item.destination, toString(dc->risk));
    }
    return {};
}

// The first delivery of `items` that belongs to another active replay, as a message.
bool findOverlap(Db &db, const QList<replay::SelectionItem> &items, QString *overlap, QString *error)
{
    overlap->clear();
    for (qsizetype start = 0; start < items.size(); start += kChunk) {
        const qsizetype n = qMin<qsizetype>(kChunk, items.size() - start);
        QSqlQuery q(db.handle());
        q.prepare(QStringLiteral("SELECT ri.delivery_id, r.id, r.status FROM replay_items ri JOIN replays r ON r.id = ri.replay_id "
                                 "WHERE r.status IN ('pending_approval', 'approved', 'executing') AND ri.state IN ('waiting', 'queued') "
                                 "AND ri.delivery_id IN (%1) ORDER BY ri.delivery_id LIMIT 1")
                      .arg(QStringList(n, QStringLiteral("?")).join(u',')));
        for (qsizetype i = 0; i < n; ++i)
            q.addBindValue(items[start + i].deliveryId);
        if (!q.exec()) {
            *error = sqlErrorText(q);
            return false;
        }
        if (q.next()) {
            *overlap = QStringLiteral("delivery %1 is already part of replay %2 (%3)")
                           .arg(q.value(0).toLongLong())
                           .arg(q.value(1).toLongLong())
                           .arg(q.value(2).toString());
            return true;
        }
    }
    return true;
}

// Reads {"reason"} (+ the keys in `extra`) from a decision body.
std::optional<QJsonObject> readDecisionBody(RequestContext &ctx, const QStringList &allowed, QString *reason, ApiError *e)
{
    auto body = parseJsonObject(ctx.request.body, allowed, e);
    if (!body)
        return std::nullopt;
    if (!readText(*body, QStringLiteral("reason"), TextRule{true, kMaxReasonChars, true}, reason, e))
        return std::nullopt;
    return body;
}

http::Response replayResponse(RequestContext &ctx, qint64 id, int status)
{
    QString error;
    const auto row = loadReplay(ctx.db, id, &error);
    if (!row)
        return error.isEmpty() ? notFound(id) : databaseError("reading a replay", error);
    return jsonResponse(status, replayJson(*row));
}
} // namespace

http::Response previewReplay(RequestContext &ctx)
{
    if (auto r = requirePermission(ctx, access::Action::RequestReplay))
        return *r;
    ApiError e;
    const auto body = parseJsonObject(ctx.request.body, {QStringLiteral("delivery_ids"), QStringLiteral("filter")}, &e);
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
        if (!readDeliveryIds(body->value(QLatin1String("delivery_ids")), maxSelection, &ids, &e))
            return errorResponse(e);
        selection = replay::freezeDeliveries(ctx.db, ctx.config, ids, maxSelection, &freezeError);
    } else {
        const auto filter = readFilter(body->value(QLatin1String("filter")), &e);
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
    QString error;
    if (!saveSelection(ctx.db, *selection, summary, ctx.who.name, now, ctx.config.admin.selectionTtlMs, &error))
        return databaseError("saving a selection", error);

    QJsonObject out = summary.toJson();
    out.insert(QStringLiteral("selection_hash"), selection->hash);
    out.insert(QStringLiteral("expires_at"), isoUtc(now + ctx.config.admin.selectionTtlMs));
    QJsonArray ids;
    for (const auto &item : selection->items)
        ids.append(item.deliveryId);
    out.insert(QStringLiteral("delivery_ids"), ids);
    QJsonArray excluded;
    for (const auto &x : selection->excluded) {
        excluded.append(QJsonObject{{QStringLiteral("delivery_id"), x.deliveryId},
                                    {QStringLiteral("event_id"), x.eventId},
                                    {QStringLiteral("destination"), x.destination},
                                    {QStringLiteral("status"), x.status},
                                    {QStringLiteral("reason"), x.reason}});
    }
    out.insert(QStringLiteral("excluded"), excluded);
    out.insert(QStringLiteral("excluded_count"), selection->excludedCount);
    out.insert(QStringLiteral("excluded_count_capped"), selection->excludedCountCapped);
    return jsonResponse(200, out);
}

http::Response createReplay(RequestContext &ctx)
{
    if (auto r = requirePermission(ctx, access::Action::RequestReplay))
        return *r;
    ApiError e;
    const auto body = parseJsonObject(ctx.request.body,
                                      {QStringLiteral("selection_hash"), QStringLiteral("reason"), QStringLiteral("ticket")}, &e);
    if (!body)
        return errorResponse(e);
    QString hash, reason, ticket;
    if (!readText(*body, QStringLiteral("selection_hash"), TextRule{true, 64, false}, &hash, &e))
        return errorResponse(e);
    if (!isSha256Hex(hash))
        return errorResponse(badRequest(QStringLiteral("selection_hash"), QStringLiteral("must be the 64 hex digits a preview returned")));
    if (!readText(*body, QStringLiteral("reason"), TextRule{true, kMaxReasonChars, true}, &reason, &e))
        return errorResponse(e);
    if (!readText(*body, QStringLiteral("ticket"), TextRule{false, kMaxTicketChars, false}, &ticket, &e))
        return errorResponse(e);

    QString error;
    Transaction tx(ctx.db);
    if (!tx.begin(&error))
        return databaseError("creating a replay", error);
    if (!ctx.db.isSqlite() && !ctx.db.exec(QStringLiteral("SELECT pg_advisory_xact_lock(%1)").arg(kReplayCreateLock), &error))
        return databaseError("creating a replay", error);
    const qint64 now = ctx.clock.nowMs();
    const auto selection = loadSelection(ctx.db, hash, &error);
    if (!selection) {
        if (!error.isEmpty())
            return databaseError("loading a selection", error);
        return conflict(QStringLiteral("unknown_selection"),
                        QStringLiteral("no preview has this selection hash (it may have expired); preview again"),
                        QStringLiteral("selection_hash"));
    }
    if (selection->expiresAt <= now)
        return conflict(QStringLiteral("selection_expired"),
                        QStringLiteral("the preview expired at %1; preview again").arg(isoUtc(selection->expiresAt)),
                        QStringLiteral("selection_hash"));
    if (selection->summary.requiresApproval && !access::allows(ctx.who.role, access::Action::RequestHighRiskReplay)) {
        tx.rollback();
        return forbidden(ctx, access::Action::RequestHighRiskReplay, QStringLiteral("selection:") + hash,
                         QStringLiteral("the %1 role may not request replays that need approval").arg(toString(ctx.who.role)));
    }
    QHash<qint64, CurrentDelivery> current;
    if (!loadCurrent(ctx.db, selection->items, &current, &error))
        return databaseError("checking a selection", error);
    const QString drift = selectionDrift(ctx.config, selection->items, current);
    if (!drift.isEmpty())
        return conflict(QStringLiteral("selection_changed"), drift + QStringLiteral("; preview again"), QStringLiteral("selection_hash"));
    QString overlap;
    if (!findOverlap(ctx.db, selection->items, &overlap, &error))
        return databaseError("checking a selection", error);
    if (!overlap.isEmpty())
        return conflict(QStringLiteral("already_in_replay"), overlap, QStringLiteral("selection_hash"));

    ReplayRow row;
    row.status = selection->summary.requiresApproval ? QStringLiteral("pending_approval") : QStringLiteral("approved");
    row.selectionHash = hash;
    row.requestedBy = ctx.who.name;
    row.requesterRole = toString(ctx.who.role);
    row.reason = reason;
    row.ticket = ticket;
    row.itemCount = static_cast<int>(selection->items.size());
    row.requiresApproval = selection->summary.requiresApproval;
    row.summary = QString::fromUtf8(QJsonDocument(selection->summary.toJson()).toJson(QJsonDocument::Compact));
    // Pending: the window for an approval. Approval-free: the window for the executor to start.
    row.approvalExpiresAt = now + ctx.config.admin.approvalTtlMs;
    row.createdAt = now;
    row.updatedAt = now;
    if (!insertReplay(ctx.db, &row, selection->items, &error))
        return databaseError("creating a replay", error);
    QJsonObject details = selection->summary.toJson();
    details.insert(QStringLiteral("selection_hash"), hash);
    details.insert(QStringLiteral("status"), row.status);
    if (!ticket.isEmpty())
        details.insert(QStringLiteral("ticket"), ticket);
    if (!auditAndCommit(ctx, tx, ctx.record(QStringLiteral("replay_requested"), target(row.id), reason, details), &error))
        return databaseError("creating a replay", error);
    if (ctx.metrics)
        ctx.metrics->replaysRequested.inc();
    if (!row.requiresApproval && ctx.wakeExecutor)
        ctx.wakeExecutor();
    return replayResponse(ctx, row.id, 201);
}

http::Response decideReplay(RequestContext &ctx, qint64 id, Decision decision)
{
    const bool approve = decision == Decision::Approve;
    if (auto r = requirePermission(ctx, access::Action::DecideReplay, target(id)))
        return *r;
    ApiError e;
    QString reason;
    const QStringList allowed = approve ? QStringList{QStringLiteral("selection_hash"), QStringLiteral("reason")}
                                        : QStringList{QStringLiteral("reason")};
    const auto body = readDecisionBody(ctx, allowed, &reason, &e);
    if (!body)
        return errorResponse(e);
    QString hash;
    if (approve) {
        if (!readText(*body, QStringLiteral("selection_hash"), TextRule{true, 64, false}, &hash, &e))
            return errorResponse(e);
        if (!isSha256Hex(hash))
            return errorResponse(badRequest(QStringLiteral("selection_hash"), QStringLiteral("must be 64 hex digits")));
    }

    QString error;
    Transaction tx(ctx.db);
    if (!tx.begin(&error))
        return databaseError("deciding a replay", error);
    const auto row = loadReplay(ctx.db, id, &error);
    if (!row)
        return error.isEmpty() ? notFound(id) : databaseError("deciding a replay", error);
    if (row->requestedBy == ctx.who.name) {
        tx.rollback();
        return forbidden(ctx, access::Action::DecideReplay, target(id),
                         approve ? QStringLiteral("you requested this replay; another operator must approve it")
                                 : QStringLiteral("you requested this replay; cancel it instead of rejecting it"));
    }
    const qint64 now = ctx.clock.nowMs();
    if (row->status == u"pending_approval" && row->approvalExpiresAt && *row->approvalExpiresAt <= now) {
        bool changed = false;
        if (!transitionReplay(ctx.db, id, {QStringLiteral("pending_approval")}, QStringLiteral("expired"),
                              {{QStringLiteral("finished_at"), now}}, now, &changed, &error))
            return databaseError("expiring a replay", error);
        if (changed) {
            audit::AuditRecord record{QLatin1String(kSystemActor), QLatin1String(kSystemRole), QStringLiteral("replay_expired"),
                                      target(id), QStringLiteral("not approved within admin.approval_ttl"),
                                      QJsonObject{{QStringLiteral("noticed_by"), ctx.who.name}}};
            if (!auditAndCommit(ctx, tx, record, &error))
                return databaseError("expiring a replay", error);
        }
        return conflict(QStringLiteral("expired"),
                        QStringLiteral("replay %1 was not approved before %2 and has expired; request it again")
                            .arg(id)
                            .arg(isoUtc(*row->approvalExpiresAt)));
    }
    if (row->status != u"pending_approval")
        return conflict(QStringLiteral("conflict"),
                        QStringLiteral("replay %1 is %2; only a pending_approval request can be %3")
                            .arg(id)
                            .arg(row->status, approve ? QStringLiteral("approved") : QStringLiteral("rejected")));
    if (approve) {
        if (hash != row->selectionHash)
            return conflict(QStringLiteral("selection_mismatch"),
                            QStringLiteral("the selection hash differs from the one this request froze; review the request again"),
                            QStringLiteral("selection_hash"));
        // The approval binds to the frozen selection: any delivery whose status moved since the
        // freeze makes the request describe something else than what is approved.
        QSqlQuery q(ctx.db.handle());
        q.prepare(QStringLiteral("SELECT ri.delivery_id, ri.frozen_status, d.status FROM replay_items ri "
                                 "LEFT JOIN deliveries d ON d.id = ri.delivery_id WHERE ri.replay_id = ? AND "
                                 "(d.id IS NULL OR d.status <> ri.frozen_status) ORDER BY ri.delivery_id LIMIT 1"));
        q.addBindValue(id);
        if (!q.exec())
            return databaseError("checking a replay's selection", sqlErrorText(q));
        if (q.next()) {
            const QString now_ = q.value(2).isNull() ? QStringLiteral("gone") : q.value(2).toString();
            return conflict(QStringLiteral("selection_changed"),
                            QStringLiteral("delivery %1 is now %2 (it was %3 when the request was made); the request "
                                           "must be made again")
                                .arg(q.value(0).toLongLong())
                                .arg(now_, q.value(1).toString()),
                            QStringLiteral("selection_hash"));
        }
    }
    bool changed = false;
    const ColumnValues sets = approve
        ? ColumnValues{{QStringLiteral("approved_by"), ctx.who.name},
                       {QStringLiteral("decided_at"), now},
                       {QStringLiteral("decision_reason"), reason},
                       {QStringLiteral("approval_expires_at"), now + ctx.config.admin.approvalTtlMs}}
        : ColumnValues{{QStringLiteral("approved_by"), ctx.who.name},
                       {QStringLiteral("decided_at"), now},
                       {QStringLiteral("decision_reason"), reason},
                       {QStringLiteral("finished_at"), now}};
    if (!transitionReplay(ctx.db, id, {QStringLiteral("pending_approval")},
                          approve ? QStringLiteral("approved") : QStringLiteral("rejected"), sets, now, &changed, &error,
                          QStringLiteral("approval_expires_at IS NULL OR approval_expires_at > ?"), {now}))
        return databaseError("deciding a replay", error);
    if (!changed) {
        tx.rollback();
        const auto again = loadReplay(ctx.db, id, &error);
        return conflict(QStringLiteral("conflict"), QStringLiteral("replay %1 is %2; it was decided concurrently")
                                                        .arg(id)
                                                        .arg(again ? again->status : QStringLiteral("changed")));
    }
    const auto record = ctx.record(approve ? QStringLiteral("replay_approved") : QStringLiteral("replay_rejected"), target(id),
                                   reason,
                                   QJsonObject{{QStringLiteral("selection_hash"), row->selectionHash},
                                               {QStringLiteral("requested_by"), row->requestedBy},
                                               {QStringLiteral("count"), row->itemCount}});
    if (!auditAndCommit(ctx, tx, record, &error))
        return databaseError("deciding a replay", error);
    if (ctx.metrics)
        (approve ? ctx.metrics->replaysApproved : ctx.metrics->replaysRejected).inc();
    if (approve && ctx.wakeExecutor)
        ctx.wakeExecutor();
    return replayResponse(ctx, id, 200);
}

http::Response cancelReplay(RequestContext &ctx, qint64 id)
{
    if (auto r = requirePermission(ctx, access::Action::CancelReplay, target(id)))
        return *r;
    ApiError e;
    QString reason;
    if (!readDecisionBody(ctx, {QStringLiteral("reason")}, &reason, &e))
        return errorResponse(e);
    QString error;
    Transaction tx(ctx.db);
    if (!tx.begin(&error))
        return databaseError("cancelling a replay", error);
    const auto row = loadReplay(ctx.db, id, &error);
    if (!row)
        return error.isEmpty() ? notFound(id) : databaseError("cancelling a replay", error);
    if (ctx.who.role != Role::Admin && row->requestedBy != ctx.who.name) {
        tx.rollback();
        return forbidden(ctx, access::Action::CancelReplay, target(id),
                         QStringLiteral("only the requester or an admin can cancel replay %1").arg(id));
    }
    if (!kActiveStatuses.contains(row->status))
        return conflict(QStringLiteral("conflict"),
                        QStringLiteral("replay %1 is %2 and can no longer be cancelled").arg(id).arg(row->status));
    const qint64 now = ctx.clock.nowMs();
    bool changed = false;
    if (!transitionReplay(ctx.db, id, kActiveStatuses, QStringLiteral("cancelled"),
                          {{QStringLiteral("decision_reason"), reason}, {QStringLiteral("finished_at"), now}}, now, &changed,
                          &error))
        return databaseError("cancelling a replay", error);
    if (!changed)
        return conflict(QStringLiteral("conflict"), QStringLiteral("replay %1 changed concurrently; read it again").arg(id));
    ItemCounts counts;
    if (!countItems(ctx.db, id, &counts, &error))
        return databaseError("cancelling a replay", error);
    const auto record = ctx.record(QStringLiteral("replay_cancelled"), target(id), reason,
                                   QJsonObject{{QStringLiteral("previous_status"), row->status},
                                               {QStringLiteral("unsent"), counts.waiting},
                                               {QStringLiteral("already_queued"), counts.queued},
                                               {QStringLiteral("succeeded"), counts.succeeded},
                                               {QStringLiteral("failed"), counts.failed}});
    if (!auditAndCommit(ctx, tx, record, &error))
        return databaseError("cancelling a replay", error);
    if (ctx.metrics)
        ctx.metrics->replaysCancelled.inc();
    return replayResponse(ctx, id, 200);
}

http::Response listReplays(RequestContext &ctx)
{
    if (auto r = requirePermission(ctx, access::Action::ReadReplays))
        return *r;
    ApiError e;
    if (!checkQueryKeys(ctx.query, {QStringLiteral("status"), QStringLiteral("requested_by"), QStringLiteral("limit"),
                                    QStringLiteral("cursor")},
                        &e))
        return errorResponse(e);
    int limit = 0;
    if (!readLimit(ctx.query, 50, 500, &limit, &e))
        return errorResponse(e);
    QStringList statuses;
    for (const QString &s : ctx.query.queryItemValue(QStringLiteral("status"), QUrl::FullyDecoded).split(u',', Qt::SkipEmptyParts)) {
        if (!replayStatusFromString(s.trimmed()))
            return errorResponse(badRequest(QStringLiteral("status"), QStringLiteral("unknown replay status \"%1\"; use %2")
                                                                          .arg(s.left(50), allReplayStatusNames().join(QLatin1String(", ")))));
        statuses.append(s.trimmed());
    }
    const QString requestedBy = ctx.query.queryItemValue(QStringLiteral("requested_by"), QUrl::FullyDecoded);
    if (requestedBy.size() > 200)
        return errorResponse(badRequest(QStringLiteral("requested_by"), QStringLiteral("is longer than 200 characters")));
    qint64 before = 0;
    const QString cursor = ctx.query.queryItemValue(QStringLiteral("cursor"), QUrl::FullyDecoded);
    if (!cursor.isEmpty()) {
        const auto id = decodeCursor(cursor);
        if (!id)
            return errorResponse(badRequest(QStringLiteral("cursor"), QStringLiteral("malformed cursor; use the next_cursor of a previous page")));
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
    return jsonResponse(200, QJsonObject{{QStringLiteral("items"), items},
                                         {QStringLiteral("next_cursor"), more ? QJsonValue(encodeCursor(rows.last().id))
                                                                              : QJsonValue(QJsonValue::Null)}});
}

http::Response getReplay(RequestContext &ctx, qint64 id)
{
    if (auto r = requirePermission(ctx, access::Action::ReadReplays, target(id)))
        return *r;
    ApiError e;
    if (!checkQueryKeys(ctx.query, {QStringLiteral("items_after"), QStringLiteral("items_limit")}, &e))
        return errorResponse(e);
    qint64 after = 0;
    if (ctx.query.hasQueryItem(QStringLiteral("items_after"))) {
        const auto v = parsePathId(ctx.query.queryItemValue(QStringLiteral("items_after")));
        if (!v)
            return errorResponse(badRequest(QStringLiteral("items_after"), QStringLiteral("must be a delivery id")));
        after = *v;
    }
    int limit = 500;
    if (ctx.query.hasQueryItem(QStringLiteral("items_limit"))) {
        bool ok = false;
        limit = ctx.query.queryItemValue(QStringLiteral("items_limit")).toInt(&ok);
        if (!ok || limit < 1 || limit > 1000)
            return errorResponse(badRequest(QStringLiteral("items_limit"), QStringLiteral("must be an integer from 1 to 1000")));
    }
    QString error;
    const auto row = loadReplay(ctx.db, id, &error);
    if (!row)
        return error.isEmpty() ? notFound(id) : databaseError("reading a replay", error);
    QJsonObject out = replayJson(*row);

    QSqlQuery q(ctx.db.handle());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT ri.delivery_id, ri.frozen_status, ri.state, d.status, d.event_id, d.destination "
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
        items.append(QJsonObject{{QStringLiteral("delivery_id"), last},
                                 {QStringLiteral("frozen_status"), q.value(1).toString()},
                                 {QStringLiteral("state"), q.value(2).toString()},
                                 {QStringLiteral("current_status"), jsonOrNull(q.value(3))},
                                 {QStringLiteral("event_id"), q.value(4).isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(q.value(4).toLongLong())},
                                 {QStringLiteral("destination"), jsonOrNull(q.value(5))}});
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
        trail.append(auditEntryJson(entry));
    out.insert(QStringLiteral("audit"), trail);
    return jsonResponse(200, out);
}

} // namespace redrive::admin
