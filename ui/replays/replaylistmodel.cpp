// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replaylistmodel.h"

#include "common/plaintooltip.h"
#include "common/timeformat.h"

#include <QCoreApplication>

namespace redrive::ui {
namespace {

// "12 succeeded, 1 failed, 2 skipped": succeeded always, the others when there are any.
QString tally(const ReplayRecord &r)
{
    QStringList parts {
        QCoreApplication::translate("redrive::ui::ReplayListModel", "%L1 succeeded").arg(r.succeeded)
    };
    if (r.failed > 0)
        parts.append(QCoreApplication::translate("redrive::ui::ReplayListModel", "%L1 failed").arg(r.failed));
    if (r.skipped > 0)
        parts.append(
            QCoreApplication::translate("redrive::ui::ReplayListModel", "%L1 skipped").arg(r.skipped));
    return parts.join(QLatin1String(", "));
}

// "delivery" has no "(s)" plural: one text for one, a numerus one for the rest.
QString deliveries(int n)
{
    return n == 1 ? QCoreApplication::translate("redrive::ui::ReplayListModel", "1 delivery")
                  : QCoreApplication::translate("redrive::ui::ReplayListModel", "%Ln deliveries", nullptr, n);
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
        return QCoreApplication::translate("redrive::ui::ReplayListModel", "waiting for approval");
    case ReplayStatus::Approved:
        return QCoreApplication::translate("redrive::ui::ReplayListModel", "approved");
    case ReplayStatus::Executing:
        return QCoreApplication::translate("redrive::ui::ReplayListModel", "executing");
    case ReplayStatus::Completed:
        return QCoreApplication::translate("redrive::ui::ReplayListModel", "completed");
    case ReplayStatus::Halted:
        return QCoreApplication::translate("redrive::ui::ReplayListModel", "halted");
    case ReplayStatus::Rejected:
        return QCoreApplication::translate("redrive::ui::ReplayListModel", "rejected");
    case ReplayStatus::Cancelled:
        return QCoreApplication::translate("redrive::ui::ReplayListModel", "cancelled");
    case ReplayStatus::Expired:
        return QCoreApplication::translate("redrive::ui::ReplayListModel", "expired");
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
        return QCoreApplication::translate("redrive::ui::ReplayListModel", "waiting for approval: %1")
            .arg(deliveries(r.count));
    case ReplayStatus::Approved:
        return r.decidedBy.isEmpty()
            ? QCoreApplication::translate("redrive::ui::ReplayListModel", "approved: %1 about to start")
                  .arg(deliveries(r.count))
            : QCoreApplication::translate("redrive::ui::ReplayListModel", "approved by %1: %2 about to start")
                  .arg(r.decidedBy, deliveries(r.count));
    case ReplayStatus::Executing:
        return QCoreApplication::translate("redrive::ui::ReplayListModel", "executing: %L1 of %L2 sent · %3")
            .arg(r.sent)
            .arg(r.count)
            .arg(tally(r));
    case ReplayStatus::Completed:
        return QCoreApplication::translate("redrive::ui::ReplayListModel", "completed: %1").arg(tally(r));
    case ReplayStatus::Halted:
        return QCoreApplication::translate("redrive::ui::ReplayListModel", "halted: %1")
            .arg(r.haltReason.isEmpty() ? QCoreApplication::translate(
                     "redrive::ui::ReplayListModel", "too many of its first attempts failed; %L1 not sent")
                                              .arg(r.unsent())
                                        : r.haltReason);
    case ReplayStatus::Rejected:
        return withReason(r.decidedBy.isEmpty()
                ? QCoreApplication::translate("redrive::ui::ReplayListModel", "rejected")
                : QCoreApplication::translate("redrive::ui::ReplayListModel", "rejected by %1")
                      .arg(r.decidedBy),
            r.decisionReason);
    case ReplayStatus::Cancelled:
        return withReason(
            QCoreApplication::translate("redrive::ui::ReplayListModel", "cancelled"), r.decisionReason);
    case ReplayStatus::Expired:
        return QCoreApplication::translate("redrive::ui::ReplayListModel",
            "expired: it was not approved or started in time; nothing was sent");
    }
    return r.status.name();
}

ReplayListModel::ReplayListModel(QObject *parent)
    : RowTableModel(parent)
{
    static constexpr ColumnHeader columns[] = { { QT_TR_NOOP("Replay") }, { QT_TR_NOOP("Status") },
        { QT_TR_NOOP("Requested by") }, { QT_TR_NOOP("Decided by") }, { QT_TR_NOOP("Reason") },
        { QT_TR_NOOP("Ticket") }, { QT_TR_NOOP("Deliveries") },
        { QT_TR_NOOP("Queued"), QT_TR_NOOP("Not sent yet: waiting their turn or queued for delivery") },
        { QT_TR_NOOP("Sent"), QT_TR_NOOP("The replay attempt finished (succeeded or failed)") },
        { QT_TR_NOOP("Succeeded") }, { QT_TR_NOOP("Failed") },
        { QT_TR_NOOP("Skipped"),
            QT_TR_NOOP("Not replayed: the delivery vanished, was in flight or was queued by another "
                       "replay when its turn came") },
        { QT_TR_NOOP("Requested") }, { QT_TR_NOOP("Decided") }, { QT_TR_NOOP("Finished") },
        { QT_TR_NOOP("Outcome") } };
    static_assert(std::size(columns) == ColumnCount);
    setColumns(columns);
    setNumberColumns(
        { IdColumn, CountColumn, QueuedColumn, SentColumn, SucceededColumn, FailedColumn, SkippedColumn });
}

void ReplayListModel::setReplays(QList<ReplayRecord> replays, const QString &nextCursor)
{
    beginResetModel();
    mutableRows() = std::move(replays);
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
    appendRows(std::move(fresh));
}

bool ReplayListModel::updateReplay(const ReplayRecord &replay)
{
    const QModelIndex at = indexOf(replay.id);
    if (!at.isValid())
        return false;
    mutableRows()[at.row()] = replay;
    Q_EMIT dataChanged(index(at.row(), 0), index(at.row(), ColumnCount - 1));
    return true;
}

const ReplayRecord *ReplayListModel::replayAt(const QModelIndex &index) const
{
    return rowAt(index);
}

QModelIndex ReplayListModel::indexOf(qint64 replayId) const
{
    const int row = findRow([replayId](const ReplayRecord &r) { return r.id == replayId; });
    return row < 0 ? QModelIndex() : index(row, 0);
}

QVariant ReplayListModel::rowData(const ReplayRecord &r, int column, int role) const
{
    if (role == ReplayIdRole)
        return r.id;
    if (role == Qt::ToolTipRole) {
        switch (column) {
        case CreatedColumn:
            return r.createdAt.ms ? TimeFormat::tooltip(*r.createdAt.ms) : QVariant();
        case DecidedColumn:
            return r.decidedAt.ms ? TimeFormat::tooltip(*r.decidedAt.ms) : QVariant();
        case FinishedColumn:
            return r.finishedAt.ms ? TimeFormat::tooltip(*r.finishedAt.ms) : QVariant();
        case ReasonColumn:
            return plainToolTip(r.reason);
        default:
            return plainToolTip(replayOutcome(r));
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case IdColumn:
        return r.id;
    case StatusColumn:
        return replayStatusLabel(r);
    case RequestedByColumn:
        return r.requestedBy;
    case DecidedByColumn:
        return r.decidedBy;
    case ReasonColumn:
        return r.reason;
    case TicketColumn:
        return r.ticket;
    case CountColumn:
        return r.count;
    case QueuedColumn:
        // Nothing is queued before an approval or after a refusal: blank, not a count.
        return r.canQueue() ? QVariant(r.unsent()) : QVariant();
    case SentColumn:
        return r.sent;
    case SucceededColumn:
        return r.succeeded;
    case FailedColumn:
        return r.failed;
    case SkippedColumn:
        return r.skipped;
    case CreatedColumn:
        return TimeFormat::display(r.createdAt.ms);
    case DecidedColumn:
        return TimeFormat::display(r.decidedAt.ms);
    case FinishedColumn:
        return TimeFormat::display(r.finishedAt.ms);
    case OutcomeColumn:
        return replayOutcome(r);
    default:
        return {};
    }
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
