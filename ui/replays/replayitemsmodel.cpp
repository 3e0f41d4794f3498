// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replayitemsmodel.h"

#include "common/statuspalette.h"

#include <QHash>

namespace redrive::ui {
namespace {

QString statusText(const Stored<DeliveryStatus> &s)
{
    return s.isKnown() ? statusLook(s).label : QStringLiteral("—");
}

} // namespace

void ReplayItemsModel::setItems(QList<ReplayItem> items)
{
    beginResetModel();
    m_replayId = 0;
    m_items = std::move(items);
    m_nextAfter.reset();
    m_requestedAfter.reset();
    endResetModel();
}

void ReplayItemsModel::setItems(qint64 replayId, QList<ReplayItem> items, std::optional<qint64> nextAfter)
{
    beginResetModel();
    m_replayId = replayId;
    m_items = replayId > 0 ? std::move(items) : QList<ReplayItem> {};
    m_nextAfter = replayId > 0 ? nextAfter : std::nullopt;
    m_requestedAfter.reset();
    endResetModel();
}

void ReplayItemsModel::appendItems(qint64 replayId, QList<ReplayItem> items, std::optional<qint64> nextAfter)
{
    if (replayId != m_replayId)
        return; // a page of a replay no longer shown
    m_nextAfter = nextAfter;
    m_requestedAfter.reset();
    if (items.isEmpty())
        return;
    const int first = int(m_items.size());
    beginInsertRows({}, first, first + int(items.size()) - 1);
    m_items.append(std::move(items));
    endInsertRows();
}

void ReplayItemsModel::updateItems(qint64 replayId, const QList<ReplayItem> &items)
{
    if (replayId != m_replayId || m_items.isEmpty())
        return;
    QHash<qint64, const ReplayItem *> fresh;
    for (const ReplayItem &i : items)
        fresh.insert(i.deliveryId, &i);
    for (int row = 0; row < m_items.size(); ++row) {
        const ReplayItem *f = fresh.value(m_items[row].deliveryId);
        if (!f)
            continue;
        m_items[row] = *f;
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    }
}

const ReplayItem *ReplayItemsModel::itemAt(const QModelIndex &index) const
{
    return index.isValid() && index.model() == this && index.row() < m_items.size() ? &m_items[index.row()]
                                                                                    : nullptr;
}

int ReplayItemsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_items.size());
}

int ReplayItemsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ReplayItemsModel::data(const QModelIndex &index, int role) const
{
    const ReplayItem *i = itemAt(index);
    if (!i)
        return {};
    if (role == EventIdRole)
        return i->eventId ? QVariant(*i->eventId) : QVariant();
    if (role == DeliveryIdRole)
        return i->deliveryId;
    if (m_view == View::FrozenSelection)
        return frozenData(*i, index.column(), role);
    if (role == Qt::ToolTipRole) {
        return i->eventId
            ? tr("Press Enter or double-click to open event %1 at this replay's attempt").arg(*i->eventId)
            : tr("The delivery no longer exists (retention may have removed it)");
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case DeliveryColumn:
        return i->deliveryId;
    case EventColumn:
        return i->eventId ? QVariant(*i->eventId) : QVariant(QStringLiteral("—"));
    case DestinationColumn:
        return i->destination.isEmpty() ? QStringLiteral("—") : i->destination;
    case FrozenStatusColumn:
        return i->frozenStatus.name();
    case OutcomeColumn:
        return itemOutcome(*i);
    case CurrentStatusColumn:
        return i->currentStatus.isNull() ? QStringLiteral("—") : i->currentStatus.name();
    default:
        return {};
    }
}

QVariant ReplayItemsModel::frozenData(const ReplayItem &i, int column, int role) const
{
    if (role == Qt::ToolTipRole) {
        if (column != OutcomeUnknownColumn)
            return {};
        return i.frozenOutcomeUnknown ? tr("When the selection was frozen")
                                      : tr("As it is now (the receiver no longer keeps the frozen flag)");
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case DeliveryColumn:
        return i.deliveryId;
    case EventColumn:
        return i.eventId ? QVariant(*i.eventId) : QVariant(QStringLiteral("—"));
    case DestinationColumn:
        return i.destination;
    case FrozenStatusColumn:
        return statusText(i.frozenStatus);
    case OutcomeUnknownColumn: {
        const auto outcomeUnknown = i.outcomeUnknownFrozenOrNow();
        if (!outcomeUnknown)
            return QStringLiteral("—");
        return *outcomeUnknown ? tr("yes — may have acted") : tr("no");
    }
    case CurrentStatusColumn:
        return statusText(i.currentStatus);
    default:
        return {};
    }
}

QVariant ReplayItemsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return {};
    static const char *const outcomeNames[ColumnCount]
        = { QT_TR_NOOP("Delivery"), QT_TR_NOOP("Event"), QT_TR_NOOP("Destination"),
              QT_TR_NOOP("Status at request"), QT_TR_NOOP("Replay outcome"), QT_TR_NOOP("Status now") };
    static const char *const frozenNames[ColumnCount]
        = { QT_TR_NOOP("Delivery"), QT_TR_NOOP("Event"), QT_TR_NOOP("Destination"),
              QT_TR_NOOP("Status at freeze"), QT_TR_NOOP("Outcome unknown"), QT_TR_NOOP("Status now") };
    return tr(m_view == View::FrozenSelection ? frozenNames[section] : outcomeNames[section]);
}

bool ReplayItemsModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_nextAfter && m_requestedAfter != m_nextAfter;
}

void ReplayItemsModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    m_requestedAfter = m_nextAfter;
    Q_EMIT fetchMoreRequested(m_replayId, *m_nextAfter);
}

} // namespace redrive::ui
