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

ReplayItemsModel::ReplayItemsModel(QObject *parent, View view)
    : RowTableModel(parent)
    , m_view(view)
{
    static constexpr ColumnHeader outcomeColumns[] = { { QT_TR_NOOP("Delivery") }, { QT_TR_NOOP("Event") },
        { QT_TR_NOOP("Destination") }, { QT_TR_NOOP("Status at request") }, { QT_TR_NOOP("Replay outcome") },
        { QT_TR_NOOP("Status now") } };
    static constexpr ColumnHeader frozenColumns[] = { { QT_TR_NOOP("Delivery") }, { QT_TR_NOOP("Event") },
        { QT_TR_NOOP("Destination") }, { QT_TR_NOOP("Status at freeze") }, { QT_TR_NOOP("Outcome unknown") },
        { QT_TR_NOOP("Status now") } };
    static_assert(std::size(outcomeColumns) == ColumnCount && std::size(frozenColumns) == ColumnCount);
    if (view == View::FrozenSelection)
        setColumns(frozenColumns);
    else
        setColumns(outcomeColumns);
}

void ReplayItemsModel::setItems(QList<ReplayItem> items)
{
    beginResetModel();
    m_replayId = 0;
    mutableRows() = std::move(items);
    m_nextAfter.reset();
    m_requestedAfter.reset();
    endResetModel();
}

void ReplayItemsModel::setItems(qint64 replayId, QList<ReplayItem> items, std::optional<qint64> nextAfter)
{
    beginResetModel();
    m_replayId = replayId;
    mutableRows() = replayId > 0 ? std::move(items) : QList<ReplayItem> {};
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
    appendRows(std::move(items));
}

void ReplayItemsModel::updateItems(qint64 replayId, const QList<ReplayItem> &items)
{
    if (replayId != m_replayId || rows().isEmpty())
        return;
    QHash<qint64, const ReplayItem *> fresh;
    for (const ReplayItem &i : items)
        fresh.insert(i.deliveryId, &i);
    QList<ReplayItem> &shown = mutableRows();
    for (int row = 0; row < shown.size(); ++row) {
        const ReplayItem *f = fresh.value(shown[row].deliveryId);
        if (!f)
            continue;
        shown[row] = *f;
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    }
}

const ReplayItem *ReplayItemsModel::itemAt(const QModelIndex &index) const
{
    return rowAt(index);
}

QVariant ReplayItemsModel::rowData(const ReplayItem &i, int column, int role) const
{
    if (role == EventIdRole)
        return i.eventId ? QVariant(*i.eventId) : QVariant();
    if (role == DeliveryIdRole)
        return i.deliveryId;
    // Both views show which delivery and which event a row is alike.
    if (role == Qt::DisplayRole && column == DeliveryColumn)
        return i.deliveryId;
    if (role == Qt::DisplayRole && column == EventColumn)
        return i.eventId ? QVariant(*i.eventId) : QVariant(QStringLiteral("—"));
    if (m_view == View::FrozenSelection)
        return frozenData(i, column, role);
    if (role == Qt::ToolTipRole) {
        return i.eventId
            ? tr("Press Enter or double-click to open event %1 at this replay's attempt").arg(*i.eventId)
            : tr("The delivery no longer exists (retention may have removed it)");
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case DestinationColumn:
        return i.destination.isEmpty() ? QStringLiteral("—") : i.destination;
    case FrozenStatusColumn:
        return i.frozenStatus.name();
    case OutcomeColumn:
        return itemOutcome(i);
    case CurrentStatusColumn:
        return i.currentStatus.isNull() ? QStringLiteral("—") : i.currentStatus.name();
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
