// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "incidentmodel.h"

#include "common/plaintooltip.h"
#include "common/statuspalette.h"
#include "common/timeformat.h"

namespace redrive::ui {

void IncidentModel::setIncidents(QList<Incident> incidents)
{
    // The same incidents in the same order: update in place so the selection stays put.
    bool sameShape = incidents.size() == m_incidents.size();
    for (qsizetype i = 0; sameShape && i < incidents.size(); ++i)
        sameShape = incidents[i].id == m_incidents[i].id;
    if (sameShape) {
        m_incidents = std::move(incidents);
        if (!m_incidents.isEmpty())
            Q_EMIT dataChanged(index(0, 0), index(int(m_incidents.size()) - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_incidents = std::move(incidents);
    endResetModel();
}

const Incident *IncidentModel::incidentAt(const QModelIndex &index) const
{
    return index.isValid() && index.model() == this && index.row() < m_incidents.size()
        ? &m_incidents[index.row()]
        : nullptr;
}

int IncidentModel::unacknowledgedCount() const
{
    return int(std::count_if(
        m_incidents.cbegin(), m_incidents.cend(), [](const Incident &i) { return !i.acknowledged(); }));
}

QString IncidentModel::categoryText(const QString &category)
{
    return category.isEmpty() ? tr("(none recorded)")
                              : categoryLabel(Stored<FailureCategory>::fromName(category));
}

int IncidentModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_incidents.size());
}

int IncidentModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant IncidentModel::data(const QModelIndex &index, int role) const
{
    const Incident *i = incidentAt(index);
    if (!i)
        return {};
    switch (role) {
    case IdRole:
        return i->id;
    case CountRole:
        return i->count;
    case Qt::TextAlignmentRole:
        return index.column() == CountColumn ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case Qt::ToolTipRole:
        if (index.column() == OpenedColumn)
            return TimeFormat::tooltip(i->openedAt);
        if (index.column() == AcknowledgedColumn && i->acknowledgedAt)
            return TimeFormat::tooltip(*i->acknowledgedAt);
        if (index.column() == NoteColumn)
            return plainToolTip(i->note);
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case DestinationColumn:
            return i->destination;
        case CategoryColumn:
            return categoryText(i->category);
        case CountColumn:
            return i->count;
        case OpenedColumn:
            return TimeFormat::display(i->openedAt);
        case AcknowledgedColumn:
            return i->acknowledged()
                ? QStringLiteral("%1, %2").arg(i->acknowledgedBy, TimeFormat::display(i->acknowledgedAt))
                : tr("not yet");
        case NoteColumn:
            return i->note;
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant IncidentModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case DestinationColumn:
        return tr("Destination");
    case CategoryColumn:
        return tr("Failure category");
    case CountColumn:
        return tr("Dead letters");
    case OpenedColumn:
        return tr("Opened");
    case AcknowledgedColumn:
        return tr("Acknowledged");
    case NoteColumn:
        return tr("Note");
    default:
        return {};
    }
}

} // namespace redrive::ui
