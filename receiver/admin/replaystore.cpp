// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replaystore.h"

#include "admin/apiresponse.h"
#include "replay/replaywire.h"
#include "storage/sqlrow.h"
#include "util/clock.h"
#include "util/jsonvalues.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>

namespace redrive::admin {
namespace {
const QString &replayColumns()
{
    static const QString columns = QStringLiteral(
        "id, status, selection_hash, requested_by, requester_role, reason, ticket, item_count, "
        "requires_approval, summary, approved_by, decided_at, decision_reason, approval_expires_at, "
        "created_at, updated_at, started_at, finished_at, queued_count, succeeded_count, failed_count, "
        "skipped_count, requester_owner, approver_owner, "
        // Why a halted replay stopped: the executor states it in its replay_halted audit entry.
        "CASE WHEN status = %1 THEN (SELECT a.reason FROM audit_log a WHERE a.target = 'replay:' || replays.id "
        "AND a.action = 'replay_halted' ORDER BY a.seq DESC LIMIT 1) END")
                                       .arg(sqlName(ReplayStatus::Halted));
    return columns;
}
constexpr int kItemsPerInsert = 400;

ReplayRow replayFromQuery(const QSqlQuery &q)
{
    ReplayRow r;
    readColumns(q, r.id, r.status, r.selectionHash, r.requestedBy, r.requesterRole, r.reason, r.ticket,
        r.itemCount, r.requiresApproval, r.summary, r.approvedBy, r.decidedAt, r.decisionReason,
        r.approvalExpiresAt, r.createdAt, r.updatedAt, r.startedAt, r.finishedAt, r.queued, r.succeeded,
        r.failed, r.skipped, r.requesterOwner, r.approverOwner, r.haltReason);
    return r;
}

} // namespace

QVariant nullableInt(const std::optional<qint64> &value)
{
    return value ? QVariant(*value) : QVariant(QMetaType(QMetaType::LongLong));
}

Result<> saveSelection(Db &db, const replay::Selection &selection, const replay::SelectionSummary &summary,
    const QString &createdBy, qint64 nowMs, qint64 ttlMs)
{
    QSqlQuery q(db.handle());
    return runQuery(q,
        QStringLiteral(
            "INSERT INTO selections (hash, created_by, created_at, expires_at, items, summary) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (hash) DO UPDATE SET created_by = excluded.created_by, "
            "created_at = excluded.created_at, expires_at = excluded.expires_at"),
        { selection.hash, createdBy, nowMs, nowMs + ttlMs, replay::itemsToJson(selection.items),
            QString::fromUtf8(QJsonDocument(summary.toJson()).toJson(QJsonDocument::Compact)) });
}

Result<std::optional<StoredSelection>> loadSelection(Db &db, const QString &hash)
{
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q,
            QStringLiteral(
                "SELECT hash, created_by, created_at, expires_at, items, summary FROM selections WHERE hash = ?"),
            { hash });
        !ran)
        return Failure(ran.error());
    if (!q.next())
        return std::nullopt;
    StoredSelection s;
    QString itemsJson;
    QByteArray summaryJson;
    readColumns(q, s.hash, s.createdBy, s.createdAt, s.expiresAt, itemsJson, summaryJson);
    auto items = replay::itemsFromJson(itemsJson);
    auto summary = replay::SelectionSummary::fromJson(QJsonDocument::fromJson(summaryJson).object());
    if (!items || !summary)
        return Failure(QStringLiteral("stored selection %1 is unreadable").arg(hash));
    s.items = std::move(*items);
    s.summary = std::move(*summary);
    return std::optional<StoredSelection>(std::move(s));
}

Result<> deleteExpiredSelections(Db &db, qint64 nowMs)
{
    QSqlQuery q(db.handle());
    return runQuery(q, QStringLiteral("DELETE FROM selections WHERE expires_at < ?"), { nowMs });
}

Result<std::optional<ReplayRow>> loadReplay(Db &db, qint64 id)
{
    return selectRow(db, QStringLiteral("SELECT %1 FROM replays WHERE id = ?").arg(replayColumns()), { id },
        replayFromQuery);
}

Result<QList<ReplayRow>> listReplays(
    Db &db, const QList<ReplayStatus> &statuses, const QString &requestedBy, qint64 beforeId, int limit)
{
    QStringList where { QStringLiteral("1=1") };
    QVariantList binds;
    if (!statuses.isEmpty()) {
        where.append(QStringLiteral("status IN (%1)")
                         .arg(QStringList(statuses.size(), QStringLiteral("?")).join(u',')));
        for (const ReplayStatus s : statuses)
            binds.append(toString(s));
    }
    if (!requestedBy.isEmpty()) {
        where.append(QStringLiteral("requested_by = ?"));
        binds.append(requestedBy);
    }
    if (beforeId > 0) {
        where.append(QStringLiteral("id < ?"));
        binds.append(beforeId);
    }
    return selectRows(db,
        QStringLiteral("SELECT %1 FROM replays WHERE %2 ORDER BY id DESC LIMIT %3")
            .arg(replayColumns(), where.join(QLatin1String(" AND ")))
            .arg(limit),
        binds, replayFromQuery);
}

QJsonObject replayJson(const ReplayRow &r)
{
    const QJsonObject stored = QJsonDocument::fromJson(r.summary.toUtf8()).object();
    replay::ReplayRecord w;
    w.id = r.id;
    w.status = r.status;
    w.requestedBy = r.requestedBy;
    w.requesterRole = r.requesterRole;
    w.requesterOwner = r.requesterOwner;
    w.decidedBy = r.approvedBy;
    w.deciderOwner = r.approverOwner;
    w.decisionReason = r.decisionReason;
    w.reason = r.reason;
    w.ticket = r.ticket;
    w.count = r.itemCount;
    w.selectionHash = r.selectionHash;
    auto summary = replay::SelectionSummary::fromJson(stored);
    if (summary)
        w.summary = std::move(*summary);
    w.summary.requiresApproval = r.requiresApproval;
    w.createdAt = replay::WireTime::fromMs(r.createdAt);
    w.updatedAt = replay::WireTime::fromMs(r.updatedAt);
    w.decidedAt = replay::WireTime::fromMs(r.decidedAt);
    w.approvalExpiresAt = replay::WireTime::fromMs(r.approvalExpiresAt);
    w.startedAt = replay::WireTime::fromMs(r.startedAt);
    w.finishedAt = replay::WireTime::fromMs(r.finishedAt);
    w.queued = r.queued;
    w.succeeded = r.succeeded;
    w.failed = r.failed;
    w.skipped = r.skipped;
    w.sent = r.succeeded + r.failed;
    w.haltReason = r.haltReason;
    QJsonObject out = w.toJson();
    if (!summary) {
        // A stored summary this build cannot read (a hand-edited row, a risk word it does not
        // know) is passed on as stored, so the console refuses it instead of seeing no risk.
        for (const QLatin1String key : { QLatin1String("approval_reasons"), QLatin1String("destinations"),
                 QLatin1String("already_succeeded"), QLatin1String("outcome_unknown"),
                 QLatin1String("effect") })
            out.insert(key, stored.value(key));
    }
    return out;
}

Result<qint64> insertReplay(Db &db, const ReplayRow &r, const QList<replay::SelectionItem> &items)
{
    QSqlQuery q(db.handle());
    if (auto inserted = runQuery(q,
            QStringLiteral(
                "INSERT INTO replays (status, selection_hash, requested_by, requester_owner, requester_role, reason, "
                "ticket, item_count, requires_approval, summary, approval_expires_at, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
            { r.status.name(), r.selectionHash, r.requestedBy, r.requesterOwner, r.requesterRole, r.reason,
                r.ticket.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(r.ticket),
                r.itemCount, r.requiresApproval ? 1 : 0, r.summary, nullableInt(r.approvalExpiresAt),
                r.createdAt, r.updatedAt });
        !inserted)
        return Failure(inserted.error());
    const qint64 id = q.lastInsertId().toLongLong();
    if (id <= 0)
        return Failure(QStringLiteral("the new replay's id could not be read"));
    // Multi-row inserts: 10,000 single-row round trips would dominate on PostgreSQL.
    for (qsizetype start = 0; start < items.size(); start += kItemsPerInsert) {
        const qsizetype n = qMin<qsizetype>(kItemsPerInsert, items.size() - start);
        QVariantList binds;
        binds.reserve(n * 4);
        for (qsizetype i = start; i < start + n; ++i) {
            const auto &item = items[i];
            binds << id << item.deliveryId << toString(item.status) << (item.outcomeUnknown ? 1 : 0);
        }
        QSqlQuery ins(db.handle());
        if (auto inserted = runQuery(ins,
                QStringLiteral("INSERT INTO replay_items (replay_id, delivery_id, frozen_status, "
                               "frozen_outcome_unknown, state) VALUES %1")
                    .arg(QStringList(
                        n, QStringLiteral("(?, ?, ?, ?, %1)").arg(sqlName(ReplayItemState::Waiting)))
                             .join(u',')),
                binds);
            !inserted)
            return Failure(inserted.error());
    }
    return id;
}

Result<bool> transitionReplay(Db &db, qint64 id, const QList<ReplayStatus> &from, ReplayStatus to,
    const ColumnValues &sets, qint64 nowMs, const QString &extraCondition, const QVariantList &extraBinds)
{
    QStringList assignments { QStringLiteral("status = ?"), QStringLiteral("updated_at = ?") };
    for (const auto &set : sets)
        assignments.append(set.first + QLatin1String(" = ?"));
    QString sql = QStringLiteral("UPDATE replays SET %1 WHERE id = ? AND status IN (%2)")
                      .arg(assignments.join(QLatin1String(", ")),
                          QStringList(from.size(), QStringLiteral("?")).join(u','));
    if (!extraCondition.isEmpty())
        sql += QLatin1String(" AND (") + extraCondition + u')';
    QVariantList binds { toString(to), nowMs };
    for (const auto &set : sets)
        binds.append(set.second);
    binds.append(id);
    for (const ReplayStatus f : from)
        binds.append(toString(f));
    binds.append(extraBinds);
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q, sql, binds); !ran)
        return Failure(ran.error());
    return q.numRowsAffected() == 1;
}

Result<ItemCounts> countItems(Db &db, qint64 replayId)
{
    ItemCounts out;
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q,
            QStringLiteral("SELECT state, COUNT(*) FROM replay_items WHERE replay_id = ? GROUP BY state"),
            { replayId });
        !ran)
        return Failure(ran.error());
    while (q.next()) {
        // A state this build does not know is counted nowhere, as before states were typed.
        const auto state = replayItemStateFromString(q.value(0).toString());
        const int n = q.value(1).toInt();
        if (!state)
            continue;
        switch (*state) {
        case ReplayItemState::Waiting:
            out.waiting = n;
            break;
        case ReplayItemState::Queued:
            out.queued = n;
            break;
        case ReplayItemState::Succeeded:
            out.succeeded = n;
            break;
        case ReplayItemState::Failed:
            out.failed = n;
            break;
        case ReplayItemState::Skipped:
            out.skipped = n;
            break;
        }
    }
    return out;
}

} // namespace redrive::admin
