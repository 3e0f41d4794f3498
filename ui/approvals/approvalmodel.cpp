// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "approvalmodel.h"

#include "common/statuspalette.h"
#include "common/timeformat.h"
#include "query/eventfilter.h"

#include <QColor>

namespace redrive::ui {

Result<ReplayRequest> ReplayRequest::fromJson(const QJsonObject &o)
{
    ReplayRequest r;
    r.id = o.value(QLatin1String("id")).toInteger();
    r.status = replayStatusFromString(o.value(QLatin1String("status")).toString());
    r.requestedBy = o.value(QLatin1String("requested_by")).toString();
    r.reason = o.value(QLatin1String("reason")).toString();
    r.ticket = o.value(QLatin1String("ticket")).toString();
    r.count = o.value(QLatin1String("count")).toInt();
    r.effect = o.value(QLatin1String("effect")).toString();
    r.selectionHash = o.value(QLatin1String("selection_hash")).toString();
    r.createdAt = o.value(QLatin1String("created_at")).toString();
    r.approvalExpiresAt = o.value(QLatin1String("approval_expires_at")).toString();
    r.createdAtMs = parseTimestamp(r.createdAt);
    r.approvalExpiresAtMs = parseTimestamp(r.approvalExpiresAt);
    // The replay carries the same summary fields as the preview the requester saw, read by the
    // same parser; a replay that has no summary at all (no count) keeps an empty one.
    if (o.contains(QLatin1String("count"))) {
        auto p = ReplayPreview::fromSummaryJson(o);
        if (!p)
            return Failure(QStringLiteral("Replay %1: %2").arg(r.id).arg(p.error()));
        r.preview = std::move(*p);
        r.preview.selectionHash = r.selectionHash;
    }
    return r;
}

Risk ReplayRequest::risk() const
{
    for (const ReplayPreview::Destination &d : preview.destinations) {
        if (d.risk == Risk::High)
            return Risk::High;
    }
    return Risk::Low;
}

void ApprovalModel::setRequests(QList<ReplayRequest> requests, const QString &currentUser, qint64 nowMs)
{
    beginResetModel();
    m_requests = std::move(requests);
    m_user = currentUser;
    m_now = nowMs;
    endResetModel();
}

const ReplayRequest *ApprovalModel::requestAt(const QModelIndex &index) const
{
    return index.isValid() && index.model() == this && index.row() < m_requests.size()
        ? &m_requests[index.row()]
        : nullptr;
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
    const bool own = r->requestedBy == m_user;
    switch (role) {
    case ReplayIdRole:
        return r->id;
    case OwnRequestRole:
        return own;
    case RiskRole:
        return toString(r->risk());
    case Qt::ForegroundRole:
        if (index.column() == RiskColumn)
            return toneText(r->risk() == Risk::High ? Tone::Bad : Tone::Good);
        return own ? QVariant(toneText(Tone::Muted)) : QVariant();
    case Qt::ToolTipRole:
        if (index.column() == AgeColumn && r->createdAtMs)
            return TimeFormat::tooltip(*r->createdAtMs);
        if (index.column() == ExpiresColumn && r->approvalExpiresAtMs)
            return TimeFormat::tooltip(*r->approvalExpiresAtMs);
        return own ? QStringLiteral("Your own request: another operator must decide it.") : QVariant();
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
        case RiskColumn:
            return toString(r->risk());
        case AgeColumn:
            return r->createdAtMs ? TimeFormat::duration(std::max<qint64>(0, m_now - *r->createdAtMs))
                                  : r->createdAt;
        case ExpiresColumn:
            if (!r->approvalExpiresAtMs)
                return QStringLiteral("—");
            return *r->approvalExpiresAtMs > m_now ? TimeFormat::duration(*r->approvalExpiresAtMs - m_now)
                                                   : QStringLiteral("expired");
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
        = { "Replay", "Requested by", "Deliveries", "Reason", "Ticket", "Risk", "Age", "Expires in" };
    static_assert(std::size(names) == ColumnCount);
    return section >= 0 && section < ColumnCount ? QVariant(QLatin1String(names[section])) : QVariant();
}

} // namespace redrive::ui
