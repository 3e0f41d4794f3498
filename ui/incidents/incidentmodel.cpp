// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "incidentmodel.h"

#include "common/plaintooltip.h"
#include "common/statuspalette.h"
#include "common/timeformat.h"

namespace redrive::ui {

IncidentModel::IncidentModel(QObject *parent)
    : RowTableModel(parent)
{
    static constexpr ColumnHeader columns[]
        = { { QT_TR_NOOP("Destination") }, { QT_TR_NOOP("Failure category") }, { QT_TR_NOOP("Dead letters") },
              { QT_TR_NOOP("Opened") }, { QT_TR_NOOP("Acknowledged") }, { QT_TR_NOOP("Note") } };
    static_assert(std::size(columns) == ColumnCount);
    setColumns(columns);
    setNumberColumns({ CountColumn });
}

void IncidentModel::setIncidents(QList<Incident> incidents)
{
    // The same incidents in the same order: update in place so the selection stays put.
    replaceRows(std::move(incidents),
        [](const Incident &fresh, const Incident &shown) { return fresh.id == shown.id; });
}

const Incident *IncidentModel::incidentAt(const QModelIndex &index) const
{
    return rowAt(index);
}

QModelIndex IncidentModel::indexOfIncident(qint64 id) const
{
    const auto &all = rows();
    for (int row = 0; row < int(all.size()); ++row) {
        if (all[row].id == id)
            return index(row, 0);
    }
    return {};
}

int IncidentModel::unacknowledgedCount() const
{
    return int(
        std::count_if(rows().cbegin(), rows().cend(), [](const Incident &i) { return !i.acknowledged(); }));
}

QString IncidentModel::categoryText(const QString &category)
{
    return category.isEmpty() ? tr("(none recorded)")
                              : categoryLabel(Stored<FailureCategory>::fromName(category));
}

QVariant IncidentModel::rowData(const Incident &i, int column, int role) const
{
    switch (role) {
    case IdRole:
        return i.id;
    case CountRole:
        return i.count;
    case Qt::ToolTipRole:
        if (column == OpenedColumn)
            return TimeFormat::tooltip(i.openedAt);
        if (column == AcknowledgedColumn && i.acknowledgedAt)
            return TimeFormat::tooltip(*i.acknowledgedAt);
        if (column == NoteColumn)
            return plainToolTip(i.note);
        return {};
    case Qt::DisplayRole:
        switch (column) {
        case DestinationColumn:
            return i.destination;
        case CategoryColumn:
            return categoryText(i.category);
        case CountColumn:
            return i.count;
        case OpenedColumn:
            return TimeFormat::display(i.openedAt);
        case AcknowledgedColumn:
            return i.acknowledged()
                ? QStringLiteral("%1, %2").arg(i.acknowledgedBy, TimeFormat::display(i.acknowledgedAt))
                : tr("not yet");
        case NoteColumn:
            return i.note;
        default:
            return {};
        }
    default:
        return {};
    }
}

} // namespace redrive::ui
