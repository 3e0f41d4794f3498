// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "memoryeventmodel.h"

#include "common/statuspalette.h"
#include "common/timeformat.h"
#include "events/eventtablemodel.h"

namespace redrive::bench {

using ui::EventTableModel;

MemoryEventModel::MemoryEventModel(qint64 rows, QObject *parent)
    : QAbstractTableModel(parent)
{
    m_rows.reserve(std::size_t(rows));
    for (qint64 x = rows; x >= 1; --x)
        m_rows.push_back(syntheticRow(x));
}

int MemoryEventModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int MemoryEventModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : EventTableModel::ColumnCount;
}

QVariant MemoryEventModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    static const char *const names[] = { "ID", "Received", "Status", "Downstream", "Source", "Type",
        "Attempts", "Last failure", "Provider ID" };
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0
        || section >= EventTableModel::ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    return QLatin1String(names[section]);
}

QVariant MemoryEventModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const SyntheticRow &r = m_rows[std::size_t(index.row())];
    const EventStatus status = statusValues()[r.status];
    const auto downstream = DownstreamState(r.downstream);
    switch (role) {
    case Qt::BackgroundRole:
        if (index.column() == EventTableModel::StatusColumn)
            return ui::statusLook(status).background;
        if (index.column() == EventTableModel::DownstreamColumn)
            return ui::downstreamLook(downstream).background;
        return {};
    case Qt::ForegroundRole:
        if (index.column() == EventTableModel::StatusColumn)
            return ui::statusLook(status).foreground;
        if (index.column() == EventTableModel::DownstreamColumn)
            return ui::downstreamLook(downstream).foreground;
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case EventTableModel::IdColumn:
            return r.id;
        case EventTableModel::ReceivedColumn:
            return ui::TimeFormat::display(r.receivedAt);
        case EventTableModel::SourceColumn:
            return sourceNames()[r.source];
        case EventTableModel::TypeColumn:
            return typeNames()[r.type];
        case EventTableModel::ProviderIdColumn:
            return r.providerId;
        case EventTableModel::StatusColumn:
            return ui::statusLook(status).label;
        case EventTableModel::AttemptsColumn:
            return r.attempts;
        case EventTableModel::LastFailureColumn:
            return ui::categoryLabel(categoryValues()[r.lastFailure]);
        case EventTableModel::DownstreamColumn:
            return r.downstreamRef.isEmpty()
                ? ui::downstreamLook(downstream).label
                : ui::downstreamLook(downstream).label + QStringLiteral(" · ") + r.downstreamRef;
        default:
            return {};
        }
    default:
        return {};
    }
}

} // namespace redrive::bench
