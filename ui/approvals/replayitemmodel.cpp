// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replayitemmodel.h"

#include "common/statuspalette.h"

namespace redrive::ui {
namespace {

std::optional<bool> optionalBool(const QJsonValue &v)
{
    return v.isBool() ? std::optional<bool>(v.toBool()) : std::nullopt;
}

QString statusText(const std::optional<DeliveryStatus> &s)
{
    return s ? statusLook(toString(*s)).label : QStringLiteral("—");
}

} // namespace

ReplayItem ReplayItem::fromJson(const QJsonObject &o)
{
    ReplayItem i;
    i.deliveryId = o.value(QLatin1String("delivery_id")).toInteger();
    const QJsonValue event = o.value(QLatin1String("event_id"));
    if (event.isDouble())
        i.eventId = event.toInteger();
    i.destination = o.value(QLatin1String("destination")).toString();
    i.frozenStatus = deliveryStatusFromString(o.value(QLatin1String("frozen_status")).toString());
    i.currentStatus = deliveryStatusFromString(o.value(QLatin1String("current_status")).toString());
    i.outcomeUnknown = optionalBool(o.value(QLatin1String("frozen_outcome_unknown")));
    i.outcomeUnknownAtFreeze = i.outcomeUnknown.has_value();
    if (!i.outcomeUnknown)
        i.outcomeUnknown = optionalBool(o.value(QLatin1String("outcome_unknown")));
    return i;
}

void ReplayItemModel::setItems(QList<ReplayItem> items)
{
    beginResetModel();
    m_items = std::move(items);
    endResetModel();
}

const ReplayItem *ReplayItemModel::itemAt(const QModelIndex &index) const
{
    return index.isValid() && index.model() == this && index.row() < m_items.size() ? &m_items[index.row()]
                                                                                    : nullptr;
}

int ReplayItemModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_items.size());
}

int ReplayItemModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ReplayItemModel::data(const QModelIndex &index, int role) const
{
    const ReplayItem *i = itemAt(index);
    if (!i)
        return {};
    switch (role) {
    case DeliveryIdRole:
        return i->deliveryId;
    case EventIdRole:
        return i->eventId ? QVariant(*i->eventId) : QVariant();
    case Qt::ToolTipRole:
        if (index.column() == OutcomeUnknownColumn)
            return i->outcomeUnknownAtFreeze
                ? QStringLiteral("When the selection was frozen")
                : QStringLiteral("As it is now (the receiver no longer keeps the frozen flag)");
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case DeliveryColumn:
            return i->deliveryId;
        case EventColumn:
            return i->eventId ? QVariant(*i->eventId) : QVariant(QStringLiteral("—"));
        case DestinationColumn:
            return i->destination;
        case FrozenStatusColumn:
            return statusText(i->frozenStatus);
        case OutcomeUnknownColumn:
            if (!i->outcomeUnknown)
                return QStringLiteral("—");
            return *i->outcomeUnknown ? QStringLiteral("yes — may have acted") : QStringLiteral("no");
        case CurrentStatusColumn:
            return statusText(i->currentStatus);
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant ReplayItemModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char *const names[]
        = { "Delivery", "Event", "Destination", "Status at freeze", "Outcome unknown", "Status now" };
    static_assert(std::size(names) == ColumnCount);
    return section >= 0 && section < ColumnCount ? QVariant(QLatin1String(names[section])) : QVariant();
}

} // namespace redrive::ui
