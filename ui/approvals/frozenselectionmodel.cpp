// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "frozenselectionmodel.h"

#include "common/statuspalette.h"

namespace redrive::ui {
namespace {

QString statusText(const std::optional<DeliveryStatus> &s)
{
    return s ? statusLook(toString(*s)).label : QStringLiteral("—");
}

} // namespace

void FrozenSelectionModel::setItems(QList<ReplayItem> items)
{
    beginResetModel();
    m_items = std::move(items);
    endResetModel();
}

const ReplayItem *FrozenSelectionModel::itemAt(const QModelIndex &index) const
{
    return index.isValid() && index.model() == this && index.row() < m_items.size() ? &m_items[index.row()]
                                                                                    : nullptr;
}

int FrozenSelectionModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_items.size());
}

int FrozenSelectionModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FrozenSelectionModel::data(const QModelIndex &index, int role) const
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

QVariant FrozenSelectionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char *const names[]
        = { "Delivery", "Event", "Destination", "Status at freeze", "Outcome unknown", "Status now" };
    static_assert(std::size(names) == ColumnCount);
    return section >= 0 && section < ColumnCount ? QVariant(QLatin1String(names[section])) : QVariant();
}

} // namespace redrive::ui
