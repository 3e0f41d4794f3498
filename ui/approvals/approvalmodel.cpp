// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "approvalmodel.h"

#include "common/statuspalette.h"
#include "common/timeformat.h"

#include <QColor>

namespace redrive::ui {

ApprovalModel::ApprovalModel(QObject *parent)
    : RowTableModel(parent)
{
    static constexpr ColumnHeader columns[] = { { QT_TR_NOOP("Replay") }, { QT_TR_NOOP("Requested by") },
        { QT_TR_NOOP("Deliveries") }, { QT_TR_NOOP("Reason") }, { QT_TR_NOOP("Ticket") },
        { QT_TR_NOOP("Risk") }, { QT_TR_NOOP("Age") }, { QT_TR_NOOP("Expires in") } };
    static_assert(std::size(columns) == ColumnCount);
    setColumns(columns);
    setNumberColumns({ IdColumn, CountColumn });
}

void ApprovalModel::setRequests(QList<ReplayRecord> requests, const QString &currentUser, qint64 nowMs)
{
    m_user = currentUser;
    m_now = nowMs;
    resetRows(std::move(requests));
}

const ReplayRecord *ApprovalModel::requestAt(const QModelIndex &index) const
{
    return rowAt(index);
}

bool ApprovalModel::isOwn(const QModelIndex &index) const
{
    const ReplayRecord *r = requestAt(index);
    return r && r->requestedBy == m_user;
}

QVariant ApprovalModel::rowData(const ReplayRecord &r, int column, int role) const
{
    const bool own = r.requestedBy == m_user;
    switch (role) {
    case ReplayIdRole:
        return r.id;
    case OwnRequestRole:
        return own;
    case RiskRole:
        return toString(r.summary.risk());
    case Qt::ForegroundRole:
        if (column == RiskColumn)
            return toneText(r.summary.risk() == Risk::High ? Tone::Bad : Tone::Good);
        return own ? QVariant(toneText(Tone::Muted)) : QVariant();
    case Qt::ToolTipRole:
        if (column == AgeColumn && r.createdAt.ms)
            return TimeFormat::tooltip(*r.createdAt.ms);
        if (column == ExpiresColumn && r.approvalExpiresAt.ms)
            return TimeFormat::tooltip(*r.approvalExpiresAt.ms);
        return own ? tr("Your own request: another operator must decide it.") : QVariant();
    case Qt::DisplayRole:
        switch (column) {
        case IdColumn:
            return r.id;
        case RequestedByColumn:
            return r.requestedBy;
        case CountColumn:
            return r.count;
        case ReasonColumn:
            return r.reason;
        case TicketColumn:
            return r.ticket;
        case RiskColumn:
            return toString(r.summary.risk());
        case AgeColumn:
            return r.createdAt.ms ? TimeFormat::duration(std::max<qint64>(0, m_now - *r.createdAt.ms))
                                  : r.createdAt.text;
        case ExpiresColumn:
            if (!r.approvalExpiresAt.ms)
                return QStringLiteral("—");
            return *r.approvalExpiresAt.ms > m_now ? TimeFormat::duration(*r.approvalExpiresAt.ms - m_now)
                                                   : tr("expired");
        default:
            return {};
        }
    default:
        return {};
    }
}

} // namespace redrive::ui
