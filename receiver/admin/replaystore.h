// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "replay/replaypolicy.h"
#include "replay/selection.h"
#include "storage/database.h"

#include <QJsonObject>
#include <QVariant>

#include <optional>
#include <utility>

// Rows of selections, replays and replay_items, shared by the API handlers and the executor.
// Every state change of a replay is a conditional update (WHERE status IN (...)), so two callers
// racing for the same transition cannot both win.
namespace redrive::admin {

// The identity the receiver itself uses in audit entries (expiry, execution).
inline constexpr char kSystemActor[] = "redrive";
inline constexpr char kSystemRole[] = "system";

struct StoredSelection {
    QString hash;
    QString createdBy;
    qint64 createdAt = 0;
    qint64 expiresAt = 0;
    QList<replay::SelectionItem> items;
    replay::SelectionSummary summary;
};

// Upsert: previewing the same deliveries in the same state again refreshes the expiry.
Result<> saveSelection(Db &db, const replay::Selection &selection, const replay::SelectionSummary &summary,
    const QString &createdBy, qint64 nowMs, qint64 ttlMs);
// nullopt when no selection has that hash.
Result<std::optional<StoredSelection>> loadSelection(Db &db, const QString &hash);
Result<> deleteExpiredSelections(Db &db, qint64 nowMs);

struct ReplayRow {
    qint64 id = 0;
    Stored<ReplayStatus> status; // parsed where the row is read
    QString selectionHash;
    QString requestedBy;
    QString requesterOwner; // the person behind requestedBy; four eyes compares these
    QString requesterRole;
    QString reason;
    QString ticket;
    int itemCount = 0;
    bool requiresApproval = false;
    QString summary; // JSON of replay::SelectionSummary
    QString approvedBy; // the operator who decided (approved or rejected)
    QString approverOwner;
    std::optional<qint64> decidedAt;
    QString decisionReason;
    std::optional<qint64> approvalExpiresAt;
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
    std::optional<qint64> startedAt;
    std::optional<qint64> finishedAt;
    int queued = 0;
    int succeeded = 0;
    int failed = 0;
    int skipped = 0;
    QString haltReason; // read from the replay_halted audit entry; empty unless halted
};

// nullopt when there is no such replay.
Result<std::optional<ReplayRow>> loadReplay(Db &db, qint64 id);
// Newest first, ids below `beforeId` (0 = from the newest).
Result<QList<ReplayRow>> listReplays(
    Db &db, const QList<ReplayStatus> &statuses, const QString &requestedBy, qint64 beforeId, int limit);
// The contract shape {"id", "status", "requested_by", "approved_by", "reason", "count", "created_at"}
// plus the rest of the row.
QJsonObject replayJson(const ReplayRow &row);

// Inserts the replay and one replay_items row per item, state 'waiting'; the new replay's id.
Result<qint64> insertReplay(Db &db, const ReplayRow &row, const QList<replay::SelectionItem> &items);

using ColumnValues = QList<std::pair<QString, QVariant>>;
// UPDATE replays SET status = to, updated_at = now, <sets> WHERE id = ? AND status IN (from)
// [AND <extraCondition>]. The value says whether this caller won the transition.
Result<bool> transitionReplay(Db &db, qint64 id, const QList<ReplayStatus> &from, ReplayStatus to,
    const ColumnValues &sets, qint64 nowMs, const QString &extraCondition = {},
    const QVariantList &extraBinds = {});

// Item counts by state: waiting, queued, succeeded, failed, skipped.
struct ItemCounts {
    int waiting = 0, queued = 0, succeeded = 0, failed = 0, skipped = 0;
    [[nodiscard]] int finished() const { return succeeded + failed; }
};
Result<ItemCounts> countItems(Db &db, qint64 replayId);

// A SQL NULL of the right type for optional integers.
QVariant nullableInt(const std::optional<qint64> &value);

} // namespace redrive::admin
