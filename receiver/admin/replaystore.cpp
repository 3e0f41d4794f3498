// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replaystore.h"

#include "admin/apiresponse.h"
#include "replay/replaywire.h"
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

std::optional<qint64> optionalInt(const QVariant &v)
{
    return v.isNull() ? std::nullopt : std::optional<qint64>(v.toLongLong());
}

ReplayRow replayFromQuery(const QSqlQuery &q)
{
    ReplayRow r;
    r.id = q.value(0).toLongLong();
    r.status = Stored<ReplayStatus>::fromName(q.value(1).toString());
    r.selectionHash = q.value(2).toString();
    r.requestedBy = q.value(3).toString();
    r.requesterRole = q.value(4).toString();
    r.reason = q.value(5).toString();
    r.ticket = q.value(6).toString();
    r.itemCount = q.value(7).toInt();
    r.requiresApproval = q.value(8).toInt() != 0;
    r.summary = q.value(9).toString();
    r.approvedBy = q.value(10).toString();
    r.decidedAt = optionalInt(q.value(11));
    r.decisionReason = q.value(12).toString();
    r.approvalExpiresAt = optionalInt(q.value(13));
    r.createdAt = q.value(14).toLongLong();
    r.updatedAt = q.value(15).toLongLong();
    r.startedAt = optionalInt(q.value(16));
    r.finishedAt = optionalInt(q.value(17));
    r.queued = q.value(18).toInt();
    r.succeeded = q.value(19).toInt();
    r.failed = q.value(20).toInt();
    r.skipped = q.value(21).toInt();
    r.requesterOwner = q.value(22).toString();
    r.approverOwner = q.value(23).toString();
    r.haltReason = q.value(24).toString();
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
    q.prepare(QStringLiteral(
        "INSERT INTO selections (hash, created_by, created_at, expires_at, items, summary) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (hash) DO UPDATE SET created_by = excluded.created_by, "
        "created_at = excluded.created_at, expires_at = excluded.expires_at"));
    q.addBindValue(selection.hash);
    q.addBindValue(createdBy);
    q.addBindValue(nowMs);
    q.addBindValue(nowMs + ttlMs);
    q.addBindValue(replay::itemsToJson(selection.items));
    q.addBindValue(QString::fromUtf8(QJsonDocument(summary.toJson()).toJson(QJsonDocument::Compact)));
    if (!q.exec())
        return Failure(sqlErrorText(q));
    return ok();
}

Result<std::optional<StoredSelection>> loadSelection(Db &db, const QString &hash)
{
    QSqlQuery q(db.handle());
    q.prepare(QStringLiteral(
        "SELECT hash, created_by, created_at, expires_at, items, summary FROM selections WHERE hash = ?"));
    q.addBindValue(hash);
    if (!q.exec())
        return Failure(sqlErrorText(q));
    if (!q.next())
        return std::nullopt;
    StoredSelection s;
    s.hash = q.value(0).toString();
    s.createdBy = q.value(1).toString();
    s.createdAt = q.value(2).toLongLong();
    s.expiresAt = q.value(3).toLongLong();
    auto items = replay::itemsFromJson(q.value(4).toString());
    auto summary = replay::SelectionSummary::fromJson(
        QJsonDocument::fromJson(q.value(5).toString().toUtf8()).object());
    if (!items || !summary)
        return Failure(QStringLiteral("stored selection %1 is unreadable").arg(hash));
    s.items = std::move(*items);
    s.summary = std::move(*summary);
    return std::optional<StoredSelection>(std::move(s));
}

Result<> deleteExpiredSelections(Db &db, qint64 nowMs)
{
    QSqlQuery q(db.handle());
    q.prepare(QStringLiteral("DELETE FROM selections WHERE expires_at < ?"));
    q.addBindValue(nowMs);
    if (!q.exec())
        return Failure(sqlErrorText(q));
    return ok();
}

Result<std::optional<ReplayRow>> loadReplay(Db &db, qint64 id)
{
    QSqlQuery q(db.handle());
    q.prepare(QStringLiteral("SELECT %1 FROM replays WHERE id = ?").arg(replayColumns()));
    q.addBindValue(id);
    if (!q.exec())
        return Failure(sqlErrorText(q));
    if (!q.next())
        return std::nullopt;
    return std::optional<ReplayRow>(replayFromQuery(q));
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
    QSqlQuery q(db.handle());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT %1 FROM replays WHERE %2 ORDER BY id DESC LIMIT %3")
                  .arg(replayColumns(), where.join(QLatin1String(" AND ")))
                  .arg(limit));
    for (const QVariant &b : std::as_const(binds))
        q.addBindValue(b);
    if (!q.exec())
        return Failure(sqlErrorText(q));
    QList<ReplayRow> out;
    while (q.next())
        out.append(replayFromQuery(q));
    return out;
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
    q.prepare(QStringLiteral(
        "INSERT INTO replays (status, selection_hash, requested_by, requester_owner, requester_role, reason, "
        "ticket, item_count, requires_approval, summary, approval_expires_at, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(r.status.name());
    q.addBindValue(r.selectionHash);
    q.addBindValue(r.requestedBy);
    q.addBindValue(r.requesterOwner);
    q.addBindValue(r.requesterRole);
    q.addBindValue(r.reason);
    q.addBindValue(r.ticket.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(r.ticket));
    q.addBindValue(r.itemCount);
    q.addBindValue(r.requiresApproval ? 1 : 0);
    q.addBindValue(r.summary);
    q.addBindValue(nullableInt(r.approvalExpiresAt));
    q.addBindValue(r.createdAt);
    q.addBindValue(r.updatedAt);
    if (!q.exec())
        return Failure(sqlErrorText(q));
    const qint64 id = q.lastInsertId().toLongLong();
    if (id <= 0)
        return Failure(QStringLiteral("the new replay's id could not be read"));
    // Multi-row inserts: 10,000 single-row round trips would dominate on PostgreSQL.
    for (qsizetype start = 0; start < items.size(); start += kItemsPerInsert) {
        const qsizetype n = qMin<qsizetype>(kItemsPerInsert, items.size() - start);
        QSqlQuery ins(db.handle());
        ins.prepare(QStringLiteral(
            "INSERT INTO replay_items (replay_id, delivery_id, frozen_status, frozen_outcome_unknown, state) "
            "VALUES %1")
                        .arg(QStringList(
                            n, QStringLiteral("(?, ?, ?, ?, %1)").arg(sqlName(ReplayItemState::Waiting)))
                                 .join(u',')));
        for (qsizetype i = 0; i < n; ++i) {
            const auto &item = items[start + i];
            ins.addBindValue(id);
            ins.addBindValue(item.deliveryId);
            ins.addBindValue(toString(item.status));
            ins.addBindValue(item.outcomeUnknown ? 1 : 0);
        }
        if (!ins.exec())
            return Failure(sqlErrorText(ins));
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
    QSqlQuery q(db.handle());
    q.prepare(sql);
    q.addBindValue(toString(to));
    q.addBindValue(nowMs);
    for (const auto &set : sets)
        q.addBindValue(set.second);
    q.addBindValue(id);
    for (const ReplayStatus f : from)
        q.addBindValue(toString(f));
    for (const QVariant &b : extraBinds)
        q.addBindValue(b);
    if (!q.exec())
        return Failure(sqlErrorText(q));
    return q.numRowsAffected() == 1;
}

Result<ItemCounts> countItems(Db &db, qint64 replayId)
{
    ItemCounts out;
    QSqlQuery q(db.handle());
    q.prepare(QStringLiteral("SELECT state, COUNT(*) FROM replay_items WHERE replay_id = ? GROUP BY state"));
    q.addBindValue(replayId);
    if (!q.exec())
        return Failure(sqlErrorText(q));
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
