// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replaylistmodel.h"

#include "common/plaintooltip.h"
#include "common/timeformat.h"

namespace redrive::ui {
namespace {

// "12 succeeded, 1 failed, 2 skipped": succeeded always, the others when there are any.
QString tally(const ReplayRecord &r)
{
    QStringList parts { QStringLiteral("%L1 succeeded").arg(r.succeeded) };
    if (r.failed > 0)
        parts.append(QStringLiteral("%L1 failed").arg(r.failed));
    if (r.skipped > 0)
        parts.append(QStringLiteral("%L1 skipped").arg(r.skipped));
    return parts.join(QLatin1String(", "));
}

QString deliveries(int n)
{
    return n == 1 ? QStringLiteral("1 delivery") : QStringLiteral("%L1 deliveries").arg(n);
}

QString withReason(const QString &head, const QString &reason)
{
    return reason.isEmpty() ? head : head + QStringLiteral(": ") + reason;
}

} // namespace

QString replayStatusLabel(const ReplayRecord &r)
{
    const auto status = r.status.value();
    if (!status)
        return r.status.name();
    switch (*status) {
    case ReplayStatus::PendingApproval:
        return QStringLiteral("waiting for approval");
    case ReplayStatus::Approved:
        return QStringLiteral("approved");
    case ReplayStatus::Executing:
        return QStringLiteral("executing");
    case ReplayStatus::Completed:
        return QStringLiteral("completed");
    case ReplayStatus::Halted:
        return QStringLiteral("halted");
    case ReplayStatus::Rejected:
        return QStringLiteral("rejected");
    case ReplayStatus::Cancelled:
        return QStringLiteral("cancelled");
    case ReplayStatus::Expired:
        return QStringLiteral("expired");
    }
    return r.status.name();
}

QString replayOutcome(const ReplayRecord &r)
{
    const auto status = r.status.value();
    if (!status)
        return r.status.name();
    switch (*status) {
    case ReplayStatus::PendingApproval:
        return QStringLiteral("waiting for approval: %1").arg(deliveries(r.count));
    case ReplayStatus::Approved:
        return QStringLiteral("approved%1: %2 about to start")
            .arg(r.decidedBy.isEmpty() ? QString() : QStringLiteral(" by ") + r.decidedBy,
                deliveries(r.count));
    case ReplayStatus::Executing:
        return QStringLiteral("executing: %L1 of %L2 sent · %3").arg(r.sent).arg(r.count).arg(tally(r));
    case ReplayStatus::Completed:
        return QStringLiteral("completed: ") + tally(r);
    case ReplayStatus::Halted:
        return QStringLiteral("halted: ")
            + (r.haltReason.isEmpty()
                    ? QStringLiteral("too many of its first attempts failed; %L1 not sent").arg(r.unsent())
                    : r.haltReason);
    case ReplayStatus::Rejected:
        return withReason(QStringLiteral("rejected")
                + (r.decidedBy.isEmpty() ? QString() : QStringLiteral(" by ") + r.decidedBy),
            r.decisionReason);
    case ReplayStatus::Cancelled:
        return withReason(QStringLiteral("cancelled"), r.decisionReason);
    case ReplayStatus::Expired:
        return QStringLiteral("expired: it was not approved or started in time; nothing was sent");
    }
    return r.status.name();
}

void ReplayListModel::setReplays(QList<ReplayRecord> replays, const QString &nextCursor)
{
    beginResetModel();
    m_replays = std::move(replays);
    m_nextCursor = nextCursor;
    m_requestedCursor.clear();
    endResetModel();
}

void ReplayListModel::appendReplays(QList<ReplayRecord> replays, const QString &nextCursor)
{
    // A request created while paging sits above the first page; an id already listed is not
    // listed twice.
    QList<ReplayRecord> fresh;
    for (ReplayRecord &r : replays) {
        if (!indexOf(r.id).isValid())
            fresh.append(std::move(r));
    }
    m_nextCursor = nextCursor;
    m_requestedCursor.clear();
    if (fresh.isEmpty())
        return;
    const int first = int(m_replays.size());
    beginInsertRows({}, first, first + int(fresh.size()) - 1);
    m_replays.append(std::move(fresh));
    endInsertRows();
}

bool ReplayListModel::updateReplay(const ReplayRecord &replay)
{
    const QModelIndex at = indexOf(replay.id);
    if (!at.isValid())
        return false;
    m_replays[at.row()] = replay;
    Q_EMIT dataChanged(index(at.row(), 0), index(at.row(), ColumnCount - 1));
    return true;
}

const ReplayRecord *ReplayListModel::replayAt(const QModelIndex &index) const
{
    return index.isValid() && index.model() == this && index.row() < m_replays.size()
        ? &m_replays[index.row()]
        : nullptr;
}

QModelIndex ReplayListModel::indexOf(qint64 replayId) const
{
    for (int row = 0; row < m_replays.size(); ++row) {
        if (m_replays[row].id == replayId)
            return index(row, 0);
    }
    return {};
}

int ReplayListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_replays.size());
}

int ReplayListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ReplayListModel::data(const QModelIndex &index, int role) const
{
    const ReplayRecord *r = replayAt(index);
    if (!r)
        return {};
    if (role == ReplayIdRole)
        return r->id;
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case CreatedColumn:
            return r->createdAt.ms ? TimeFormat::tooltip(*r->createdAt.ms) : QVariant();
        case DecidedColumn:
            return r->decidedAt.ms ? TimeFormat::tooltip(*r->decidedAt.ms) : QVariant();
        case FinishedColumn:
            return r->finishedAt.ms ? TimeFormat::tooltip(*r->finishedAt.ms) : QVariant();
        case ReasonColumn:
            return plainToolTip(r->reason);
        default:
            return plainToolTip(replayOutcome(*r));
        }
    }
    if (role == Qt::TextAlignmentRole) {
        const bool number = index.column() == IdColumn
            || (index.column() >= CountColumn && index.column() <= SkippedColumn);
        return number ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case IdColumn:
        return r->id;
    case StatusColumn:
        return replayStatusLabel(*r);
    case RequestedByColumn:
        return r->requestedBy;
    case DecidedByColumn:
        return r->decidedBy;
    case ReasonColumn:
        return r->reason;
    case TicketColumn:
        return r->ticket;
    case CountColumn:
        return r->count;
    case QueuedColumn:
        // Nothing is queued before an approval or after a refusal: blank, not a count.
        return r->canQueue() ? QVariant(r->unsent()) : QVariant();
    case SentColumn:
        return r->sent;
    case SucceededColumn:
        return r->succeeded;
    case FailedColumn:
        return r->failed;
    case SkippedColumn:
        return r->skipped;
    case CreatedColumn:
        return TimeFormat::display(r->createdAt.ms);
    case DecidedColumn:
        return TimeFormat::display(r->decidedAt.ms);
    case FinishedColumn:
        return TimeFormat::display(r->finishedAt.ms);
    case OutcomeColumn:
        return replayOutcome(*r);
    default:
        return {};
    }
}

QVariant ReplayListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case QueuedColumn:
            return QStringLiteral("Not sent yet: waiting their turn or queued for delivery");
        case SentColumn:
            return QStringLiteral("The replay attempt finished (succeeded or failed)");
        case SkippedColumn:
            return QStringLiteral(
                "Not replayed: the delivery vanished, was in flight or was queued by another "
                "replay when its turn came");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    static const char *const names[ColumnCount]
        = { "Replay", "Status", "Requested by", "Decided by", "Reason", "Ticket", "Deliveries", "Queued",
              "Sent", "Succeeded", "Failed", "Skipped", "Requested", "Decided", "Finished", "Outcome" };
    return QLatin1String(names[section]);
}

bool ReplayListModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_nextCursor.isEmpty() && m_requestedCursor != m_nextCursor;
}

void ReplayListModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    m_requestedCursor = m_nextCursor;
    Q_EMIT fetchMoreRequested(m_nextCursor);
}

} // namespace redrive::ui
