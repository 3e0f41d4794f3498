// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "approvalmodel.h"

#include "common/timeformat.h"
#include "query/eventfilter.h"

#include <QColor>

namespace redrive::ui {

ReplayRequest ReplayRequest::fromJson(const QJsonObject &o)
{
    ReplayRequest r;
    r.id = o.value(QLatin1String("id")).toInteger();
    r.status = o.value(QLatin1String("status")).toString();
    r.requestedBy = o.value(QLatin1String("requested_by")).toString();
    r.reason = o.value(QLatin1String("reason")).toString();
    r.ticket = o.value(QLatin1String("ticket")).toString();
    r.count = o.value(QLatin1String("count")).toInt();
    r.effect = o.value(QLatin1String("effect")).toString();
    r.createdAt = o.value(QLatin1String("created_at")).toString();
    r.approvalExpiresAt = o.value(QLatin1String("approval_expires_at")).toString();
    return r;
}

void ApprovalModel::setRequests(QList<ReplayRequest> requests, const QString &currentUser)
{
    beginResetModel();
    m_requests = std::move(requests);
    m_user = currentUser;
    endResetModel();
}

const ReplayRequest *ApprovalModel::requestAt(const QModelIndex &index) const
{
    return index.isValid() && index.row() < m_requests.size() ? &m_requests[index.row()] : nullptr;
}

bool ApprovalModel::isOwn(const QModelIndex &index) const
{
    const ReplayRequest *r = requestAt(index);
    return r && r->requestedBy == m_user;
}

int ApprovalModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_requests.size());
}

int ApprovalModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ApprovalModel::data(const QModelIndex &index, int role) const
{
    const ReplayRequest *r = requestAt(index);
    if (!r)
        return {};
    switch (role) {
    case ReplayIdRole:
        return r->id;
    case OwnRequestRole:
        return r->requestedBy == m_user;
    case Qt::ForegroundRole:
        return r->requestedBy == m_user ? QVariant(QColor(Qt::gray)) : QVariant();
    case Qt::ToolTipRole:
        return r->requestedBy == m_user
            ? QStringLiteral("Your own request: another operator must decide it.\n%1").arg(r->effect)
            : r->effect;
    case Qt::DisplayRole:
        switch (index.column()) {
        case IdColumn:
            return r->id;
        case RequestedByColumn:
            return r->requestedBy;
        case CountColumn:
            return r->count;
        case ReasonColumn:
            return r->reason;
        case TicketColumn:
            return r->ticket;
        case CreatedColumn: {
            const auto ms = parseTimestamp(r->createdAt);
            return ms ? TimeFormat::display(*ms) : r->createdAt;
        }
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant ApprovalModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char *const names[]
        = { "Replay", "Requested by", "Deliveries", "Reason", "Ticket", "Requested" };
    return section >= 0 && section < ColumnCount ? QVariant(QLatin1String(names[section])) : QVariant();
}

} // namespace redrive::ui
