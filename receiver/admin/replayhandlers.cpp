// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replayhandlers.h"

#include "access/apitokens.h"
#include "admin/jsonbody.h"
#include "admin/replaystore.h"
#include "audit/auditlog.h"
#include "notify/notification.h"
#include "replay/replaypolicy.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>

namespace redrive::admin {
namespace {
constexpr int kMaxReasonChars = 1000;
constexpr int kMaxTicketChars = 200;
constexpr int kChunk = 500;
constexpr qint64 kReplayCreateLock = 4'242'003;
const QList<ReplayStatus> kActiveStatuses { ReplayStatus::PendingApproval, ReplayStatus::Approved,
    ReplayStatus::Executing };

bool isActive(const Stored<ReplayStatus> &status)
{
    return status.isKnown() && kActiveStatuses.contains(*status.value());
}

http::Response conflict(const QString &code, const QString &message, const QString &field = {})
{
    return errorResponse(409, code, message, field);
}

struct CurrentDelivery {
    Stored<DeliveryStatus> status;
    bool outcomeUnknown = false;
    bool hasReplay = false;
    QString destination;
};

bool loadCurrent(
    Db &db, const QList<replay::SelectionItem> &items, QHash<qint64, CurrentDelivery> *out, QString *error)
{
    for (qsizetype start = 0; start < items.size(); start += kChunk) {
        const qsizetype n = qMin<qsizetype>(kChunk, items.size() - start);
        QSqlQuery q(db.handle());
        q.setForwardOnly(true);
        q.prepare(QStringLiteral(
            "SELECT id, status, outcome_unknown, replay_id, destination FROM deliveries WHERE id IN (%1)")
                      .arg(QStringList(n, QStringLiteral("?")).join(u',')));
        for (qsizetype i = 0; i < n; ++i)
            q.addBindValue(items[start + i].deliveryId);
        if (!q.exec()) {
            *error = sqlErrorText(q);
            return false;
        }
        while (q.next()) {
            out->insert(q.value(0).toLongLong(),
                CurrentDelivery { Stored<DeliveryStatus>::fromName(q.value(1).toString()),
                    q.value(2).toInt() != 0, !q.value(3).isNull(), q.value(4).toString() });
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
        const auto state = it == current.constEnd()
            ? std::nullopt
            : std::optional<replay::DeliveryState>({ it->status, it->outcomeUnknown });
        switch (replay::frozenDrift({ Stored<DeliveryStatus>(item.status), item.outcomeUnknown }, state)) {
        case replay::FrozenDrift::Gone:
            return QStringLiteral("delivery %1 no longer exists").arg(item.deliveryId);
        case replay::FrozenDrift::Status:
            return QStringLiteral("delivery %1 is now %2 (it was %3 when the selection was frozen)")
                .arg(item.deliveryId)
                .arg(it->status.name(), toString(item.status));
        case replay::FrozenDrift::OutcomeUnknown:
            return QStringLiteral("delivery %1's outcome-unknown flag changed since the selection was frozen")
                .arg(item.deliveryId);
        case replay::FrozenDrift::None:
            break;
        }
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
        q.prepare(QStringLiteral(
            "SELECT ri.delivery_id, r.id, r.status FROM replay_items ri JOIN replays r ON r.id = ri.replay_id "
            "WHERE r.status IN %1 AND ri.state IN %2 AND ri.delivery_id IN (%3) ORDER BY ri.delivery_id LIMIT 1")
                      .arg(sqlNames({ ReplayStatus::PendingApproval, ReplayStatus::Approved,
                               ReplayStatus::Executing }),
                          sqlNames({ ReplayItemState::Waiting, ReplayItemState::Queued }),
                          QStringList(n, QStringLiteral("?")).join(u',')));
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
// The body of approve, reject and cancel: {"reason", "selection_hash"?}. The hash is optional;
// a client that shows the frozen selection sends it so that its decision binds to what it showed.
struct DecisionBody {
    QString reason;
    QString selectionHash; // empty when not sent
};
std::optional<DecisionBody> readDecisionBody(RequestContext &ctx, ApiError *e)
{
    const auto body = parseJsonObject(
        ctx.request.body, { QStringLiteral("reason"), QStringLiteral("selection_hash") }, e);
    if (!body)
        return std::nullopt;
    DecisionBody out;
    if (!readText(*body, QStringLiteral("reason"), TextRule { true, kMaxReasonChars, true }, &out.reason, e))
        return std::nullopt;
    if (!readText(
            *body, QStringLiteral("selection_hash"), TextRule { false, 64, false }, &out.selectionHash, e))
        return std::nullopt;
    if (!out.selectionHash.isEmpty() && !isSha256Hex(out.selectionHash)) {
        *e = badRequest(QStringLiteral("selection_hash"), QStringLiteral("must be 64 hex digits"));
        return std::nullopt;
    }
    return out;
}

// A decision sent with a selection hash is about that selection only.
std::optional<http::Response> selectionMismatch(const DecisionBody &body, const ReplayRow &row)
{
    if (body.selectionHash.isEmpty() || body.selectionHash == row.selectionHash)
        return std::nullopt;
    return conflict(QStringLiteral("selection_mismatch"),
        QStringLiteral("the selection hash differs from the one replay %1 froze; review the request again")
            .arg(row.id),
        QStringLiteral("selection_hash"));
}

// What approve, reject and cancel open with: the caller may take `action` on replay `id`, the
// body is a decision, and the replay exists, read inside `tx` (begun here) so the decision
// commits against the row it checked. Fills *body and *row, or returns the answer that ends
// the request.
std::optional<http::Response> openDecision(RequestContext &ctx, Transaction &tx, qint64 id,
    access::Action action, const char *doing, DecisionBody *body, std::optional<ReplayRow> *row)
{
    if (auto r = requirePermission(ctx, action, replayTarget(id)))
        return r;
    ApiError e;
    auto decision = readDecisionBody(ctx, &e);
    if (!decision)
        return errorResponse(e);
    *body = std::move(*decision);
    if (auto failed = beginWrite(tx, doing))
        return *failed;
    auto read = readReplay(ctx, id, doing);
    if (auto *answer = std::get_if<http::Response>(&read))
        return std::move(*answer);
    *row = std::move(std::get<ReplayRow>(read));
    return std::nullopt;
}

http::Response replayResponse(RequestContext &ctx, qint64 id, int status)
{
    auto read = readReplay(ctx, id, "reading a replay");
    if (auto *answer = std::get_if<http::Response>(&read))
        return std::move(*answer);
    return jsonResponse(status, replayJson(std::get<ReplayRow>(read)));
}
} // namespace

QString replayTarget(qint64 id)
{
    return QStringLiteral("replay:%1").arg(id);
}

std::variant<ReplayRow, http::Response> readReplay(RequestContext &ctx, qint64 id, const char *doing)
{
    auto loaded = loadReplay(ctx.db, id);
    if (!loaded)
        return databaseError(doing, loaded.error());
    if (!*loaded)
        return errorResponse(404, QStringLiteral("not_found"),
            QStringLiteral("replay %1 does not exist").arg(id), QStringLiteral("id"));
    return std::move(**loaded);
}

http::Response createReplay(RequestContext &ctx)
{
    if (auto r = requirePermission(ctx, access::Action::RequestReplay))
        return *r;
    ApiError e;
    const auto body = parseJsonObject(ctx.request.body,
        { QStringLiteral("selection_hash"), QStringLiteral("reason"), QStringLiteral("ticket") }, &e);
    if (!body)
        return errorResponse(e);
    QString hash, reason, ticket;
    if (!readText(*body, QStringLiteral("selection_hash"), TextRule { true, 64, false }, &hash, &e))
        return errorResponse(e);
    if (!isSha256Hex(hash))
        return errorResponse(badRequest(QStringLiteral("selection_hash"),
            QStringLiteral("must be the 64 hex digits a preview returned")));
    if (!readText(*body, QStringLiteral("reason"), TextRule { true, kMaxReasonChars, true }, &reason, &e))
        return errorResponse(e);
    if (!readText(*body, QStringLiteral("ticket"), TextRule { false, kMaxTicketChars, false }, &ticket, &e))
        return errorResponse(e);

    QString error;
    Transaction tx(ctx.db);
    if (auto failed = beginWrite(tx, "creating a replay"))
        return *failed;
    if (!ctx.db.isSqlite()
        && !succeeded(
            ctx.db.exec(QStringLiteral("SELECT pg_advisory_xact_lock(%1)").arg(kReplayCreateLock)), &error))
        return databaseError("creating a replay", error);
    const qint64 now = ctx.clock.nowMs();
    const auto loaded = loadSelection(ctx.db, hash);
    if (!loaded)
        return databaseError("loading a selection", loaded.error());
    const std::optional<StoredSelection> &selection = *loaded;
    if (!selection)
        return conflict(QStringLiteral("unknown_selection"),
            QStringLiteral("no preview has this selection hash (it may have expired); preview again"),
            QStringLiteral("selection_hash"));
    if (selection->expiresAt <= now)
        return conflict(QStringLiteral("selection_expired"),
            QStringLiteral("the preview expired at %1; preview again").arg(isoUtc(selection->expiresAt)),
            QStringLiteral("selection_hash"));
    if (selection->summary.requiresApproval
        && !access::allows(ctx.who.role, access::Action::RequestHighRiskReplay)) {
        tx.rollback();
        return forbidden(ctx, access::Action::RequestHighRiskReplay, QStringLiteral("selection:") + hash,
            QStringLiteral("the %1 role may not request replays that need approval")
                .arg(toString(ctx.who.role)));
    }
    QHash<qint64, CurrentDelivery> current;
    if (!loadCurrent(ctx.db, selection->items, &current, &error))
        return databaseError("checking a selection", error);
    const QString drift = selectionDrift(ctx.config, selection->items, current);
    if (!drift.isEmpty())
        return conflict(QStringLiteral("selection_changed"), drift + QStringLiteral("; preview again"),
            QStringLiteral("selection_hash"));
    QString overlap;
    if (!findOverlap(ctx.db, selection->items, &overlap, &error))
        return databaseError("checking a selection", error);
    if (!overlap.isEmpty())
        return conflict(QStringLiteral("already_in_replay"), overlap, QStringLiteral("selection_hash"));

    ReplayRow row;
    row.status = selection->summary.requiresApproval ? ReplayStatus::PendingApproval : ReplayStatus::Approved;
    row.selectionHash = hash;
    row.requestedBy = ctx.who.name;
    row.requesterOwner = ctx.who.owner;
    row.requesterRole = toString(ctx.who.role);
    row.reason = reason;
    row.ticket = ticket;
    row.itemCount = static_cast<int>(selection->items.size());
    row.requiresApproval = selection->summary.requiresApproval;
    row.summary
        = QString::fromUtf8(QJsonDocument(selection->summary.toJson()).toJson(QJsonDocument::Compact));
    // Pending: the window for an approval. Approval-free: the window for the executor to start.
    row.approvalExpiresAt = now + ctx.config.admin.approvalTtlMs;
    row.createdAt = now;
    row.updatedAt = now;
    const auto inserted = insertReplay(ctx.db, row, selection->items);
    if (!inserted)
        return databaseError("creating a replay", inserted.error());
    row.id = *inserted;
    if (row.status == ReplayStatus::PendingApproval) {
        // The approver is told where they are, not only in an open console; in this transaction,
        // so a request that is not committed tells no one.
        const auto told = notify::enqueue(ctx.db, ctx.config.notifications,
            notify::replayPendingApproval(
                row.id, row.requestedBy, row.itemCount, row.reason, *row.approvalExpiresAt, now),
            now);
        if (!told)
            return databaseError("creating a replay", told.error());
    }
    QJsonObject details = selection->summary.toJson();
    details.insert(QStringLiteral("selection_hash"), hash);
    details.insert(QStringLiteral("status"), row.status.name());
    if (!ticket.isEmpty())
        details.insert(QStringLiteral("ticket"), ticket);
    if (auto committed = auditAndCommit(
            ctx, tx, ctx.record(QStringLiteral("replay_requested"), replayTarget(row.id), reason, details));
        !committed)
        return databaseError("creating a replay", committed.error());
    if (ctx.metrics)
        ctx.metrics->replaysRequested.inc();
    if (!row.requiresApproval && ctx.wakeExecutor)
        ctx.wakeExecutor();
    return replayResponse(ctx, row.id, 201);
}

http::Response decideReplay(RequestContext &ctx, qint64 id, Decision decision)
{
    const bool approve = decision == Decision::Approve;
    Transaction tx(ctx.db);
    DecisionBody body;
    std::optional<ReplayRow> row;
    if (auto r = openDecision(ctx, tx, id, access::Action::DecideReplay, "deciding a replay", &body, &row))
        return *r;
    const QString &reason = body.reason;
    // Four eyes means two people: the same owner with another token is still the requester.
    if (row->requestedBy == ctx.who.name || access::sameOwner(row->requesterOwner, ctx.who.owner)) {
        tx.rollback();
        const QString who = row->requestedBy == ctx.who.name
            ? QStringLiteral("you requested this replay")
            : QStringLiteral("you (%1) requested this replay with token \"%2\"")
                  .arg(row->requesterOwner, row->requestedBy);
        return forbidden(ctx, access::Action::DecideReplay, replayTarget(id),
            approve ? who + QStringLiteral("; another operator, a different person, must approve it")
                    : who + QStringLiteral("; cancel it instead of rejecting it"));
    }
    const qint64 now = ctx.clock.nowMs();
    if (row->status == ReplayStatus::PendingApproval && row->approvalExpiresAt
        && *row->approvalExpiresAt <= now) {
        const auto transition = transitionReplay(ctx.db, id, { ReplayStatus::PendingApproval },
            ReplayStatus::Expired, { { QStringLiteral("finished_at"), now } }, now);
        if (!transition)
            return databaseError("expiring a replay", transition.error());
        if (*transition) {
            audit::AuditRecord record { QLatin1String(kSystemActor), QLatin1String(kSystemRole),
                QStringLiteral("replay_expired"), replayTarget(id),
                QStringLiteral("not approved within admin.approval_ttl"),
                QJsonObject { { QStringLiteral("noticed_by"), ctx.who.name } } };
            if (auto committed = auditAndCommit(ctx, tx, record); !committed)
                return databaseError("expiring a replay", committed.error());
        }
        return conflict(QStringLiteral("expired"),
            QStringLiteral("replay %1 was not approved before %2 and has expired; request it again")
                .arg(id)
                .arg(isoUtc(*row->approvalExpiresAt)));
    }
    if (row->status != ReplayStatus::PendingApproval)
        return conflict(QStringLiteral("conflict"),
            QStringLiteral("replay %1 is %2; only a pending_approval request can be %3")
                .arg(id)
                .arg(row->status.name(), approve ? QStringLiteral("approved") : QStringLiteral("rejected")));
    if (auto r = selectionMismatch(body, *row))
        return *r;
    if (approve) {
        // The approval binds to the frozen selection: any delivery whose status moved since the
        // freeze makes the request describe something else than what is approved.
        QSqlQuery q(ctx.db.handle());
        q.prepare(QStringLiteral(
            "SELECT ri.delivery_id, ri.frozen_status, ri.frozen_outcome_unknown, d.id, d.status, "
            "d.outcome_unknown FROM replay_items ri LEFT JOIN deliveries d ON d.id = ri.delivery_id "
            "WHERE ri.replay_id = ? ORDER BY ri.delivery_id"));
        q.addBindValue(id);
        if (!q.exec())
            return databaseError("checking a replay's selection", sqlErrorText(q));
        while (q.next()) {
            const QString was = q.value(1).toString();
            const auto current = q.value(3).isNull()
                ? std::nullopt
                : std::optional<replay::DeliveryState>(
                    { Stored<DeliveryStatus>::fromName(q.value(4).toString()), q.value(5).toInt() != 0 });
            const auto drift = replay::frozenDrift(
                { Stored<DeliveryStatus>::fromName(was), q.value(2).toInt() != 0 }, current);
            if (drift == replay::FrozenDrift::None)
                continue;
            const QString what = drift == replay::FrozenDrift::OutcomeUnknown
                ? QStringLiteral("delivery %1's outcome became %2 since the request was made")
                      .arg(q.value(0).toLongLong())
                      .arg(current->outcomeUnknown ? QStringLiteral("unknown") : QStringLiteral("known"))
                : QStringLiteral("delivery %1 is now %2 (it was %3 when the request was made)")
                      .arg(q.value(0).toLongLong())
                      .arg(current ? current->status.name() : QStringLiteral("gone"), was);
            return conflict(QStringLiteral("selection_changed"),
                what + QStringLiteral("; the request must be made again"), QStringLiteral("selection_hash"));
        }
    }
    const ColumnValues sets = approve
        ? ColumnValues { { QStringLiteral("approved_by"), ctx.who.name },
              { QStringLiteral("approver_owner"), ctx.who.owner }, { QStringLiteral("decided_at"), now },
              { QStringLiteral("decision_reason"), reason },
              { QStringLiteral("approval_expires_at"), now + ctx.config.admin.approvalTtlMs } }
        : ColumnValues { { QStringLiteral("approved_by"), ctx.who.name },
              { QStringLiteral("approver_owner"), ctx.who.owner }, { QStringLiteral("decided_at"), now },
              { QStringLiteral("decision_reason"), reason }, { QStringLiteral("finished_at"), now } };
    const auto transition = transitionReplay(ctx.db, id, { ReplayStatus::PendingApproval },
        approve ? ReplayStatus::Approved : ReplayStatus::Rejected, sets, now,
        QStringLiteral("approval_expires_at IS NULL OR approval_expires_at > ?"), { now });
    if (!transition)
        return databaseError("deciding a replay", transition.error());
    if (!*transition) {
        tx.rollback();
        const auto again = loadReplay(ctx.db, id);
        return conflict(QStringLiteral("conflict"),
            QStringLiteral("replay %1 is %2; it was decided concurrently")
                .arg(id)
                .arg(again && *again ? (*again)->status.name() : QStringLiteral("changed")));
    }
    const auto record
        = ctx.record(approve ? QStringLiteral("replay_approved") : QStringLiteral("replay_rejected"),
            replayTarget(id), reason,
            QJsonObject { { QStringLiteral("selection_hash"), row->selectionHash },
                { QStringLiteral("requested_by"), row->requestedBy },
                { QStringLiteral("requester_owner"), row->requesterOwner },
                { QStringLiteral("count"), row->itemCount } });
    if (auto committed = auditAndCommit(ctx, tx, record); !committed)
        return databaseError("deciding a replay", committed.error());
    if (ctx.metrics)
        (approve ? ctx.metrics->replaysApproved : ctx.metrics->replaysRejected).inc();
    if (approve && ctx.wakeExecutor)
        ctx.wakeExecutor();
    return replayResponse(ctx, id, 200);
}

http::Response cancelReplay(RequestContext &ctx, qint64 id)
{
    Transaction tx(ctx.db);
    DecisionBody body;
    std::optional<ReplayRow> row;
    if (auto r = openDecision(ctx, tx, id, access::Action::CancelReplay, "cancelling a replay", &body, &row))
        return *r;
    const QString &reason = body.reason;
    if (ctx.who.role != Role::Admin && row->requestedBy != ctx.who.name
        && !access::sameOwner(row->requesterOwner, ctx.who.owner)) {
        tx.rollback();
        return forbidden(ctx, access::Action::CancelReplay, replayTarget(id),
            QStringLiteral("only the requester or an admin can cancel replay %1").arg(id));
    }
    if (auto r = selectionMismatch(body, *row))
        return *r;
    if (!isActive(row->status))
        return conflict(QStringLiteral("conflict"),
            QStringLiteral("replay %1 is %2 and can no longer be cancelled").arg(id).arg(row->status.name()));
    const qint64 now = ctx.clock.nowMs();
    const auto transition = transitionReplay(ctx.db, id, kActiveStatuses, ReplayStatus::Cancelled,
        { { QStringLiteral("decision_reason"), reason }, { QStringLiteral("finished_at"), now } }, now);
    if (!transition)
        return databaseError("cancelling a replay", transition.error());
    if (!*transition)
        return conflict(QStringLiteral("conflict"),
            QStringLiteral("replay %1 changed concurrently; read it again").arg(id));
    const auto counted = countItems(ctx.db, id);
    if (!counted)
        return databaseError("cancelling a replay", counted.error());
    const ItemCounts &counts = *counted;
    const auto record = ctx.record(QStringLiteral("replay_cancelled"), replayTarget(id), reason,
        QJsonObject { { QStringLiteral("previous_status"), row->status.name() },
            { QStringLiteral("unsent"), counts.waiting }, { QStringLiteral("already_queued"), counts.queued },
            { QStringLiteral("succeeded"), counts.succeeded }, { QStringLiteral("failed"), counts.failed } });
    if (auto committed = auditAndCommit(ctx, tx, record); !committed)
        return databaseError("cancelling a replay", committed.error());
    if (ctx.metrics)
        ctx.metrics->replaysCancelled.inc();
    return replayResponse(ctx, id, 200);
}

} // namespace redrive::admin
