// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "deadlettermodel.h"

#include "common/plaintooltip.h"
#include "common/statuspalette.h"
#include "common/timeformat.h"

namespace redrive::ui {

void DeadLetterModel::setGroups(QList<DeadLetterGroup> groups)
{
    // Same groups in the same order: update values in place so the selection stays put.
    bool sameShape = groups.size() == m_groups.size();
    for (qsizetype i = 0; sameShape && i < groups.size(); ++i)
        sameShape
            = groups[i].category == m_groups[i].category && groups[i].destination == m_groups[i].destination;
    if (sameShape) {
        m_groups = std::move(groups);
        if (!m_groups.isEmpty())
            Q_EMIT dataChanged(index(0, 0), index(int(m_groups.size()) - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_groups = std::move(groups);
    endResetModel();
}

const DeadLetterGroup *DeadLetterModel::groupAt(const QModelIndex &index) const
{
    return index.isValid() && index.row() < m_groups.size() ? &m_groups[index.row()] : nullptr;
}

qint64 DeadLetterModel::total() const
{
    qint64 n = 0;
    for (const DeadLetterGroup &g : m_groups)
        n += g.count;
    return n;
}

int DeadLetterModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_groups.size());
}

int DeadLetterModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DeadLetterModel::data(const QModelIndex &index, int role) const
{
    const DeadLetterGroup *g = groupAt(index);
    if (!g)
        return {};
    switch (role) {
    case CategoryRole:
        return g->category.name(); // as stored
    case DestinationRole:
        return g->destination;
    case CountRole:
        return g->count;
    case Qt::TextAlignmentRole:
        return index.column() == CountColumn ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case Qt::ToolTipRole:
        if (index.column() == OldestColumn)
            return TimeFormat::tooltip(g->oldestAt);
        if (index.column() == NewestColumn)
            return TimeFormat::tooltip(g->newestAt);
        if (index.column() == LatestErrorColumn && !g->latestError.isEmpty())
            return plainToolTip(g->latestError);
        return tr("Double-click to list these events");
    case Qt::DisplayRole:
        switch (index.column()) {
        case CategoryColumn:
            return g->category.isNull() ? tr("(none recorded)") : categoryLabel(g->category);
        case DestinationColumn:
            return g->destination;
        case CountColumn:
            return g->count;
        case OldestColumn:
            return TimeFormat::display(g->oldestAt);
        case NewestColumn:
            return TimeFormat::display(g->newestAt);
        case LatestErrorColumn:
            return g->latestError.isEmpty() ? QStringLiteral("—") : g->latestError.simplified();
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant DeadLetterModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case CategoryColumn:
        return tr("Failure category");
    case DestinationColumn:
        return tr("Destination");
    case CountColumn:
        return tr("Dead letters");
    case OldestColumn:
        return tr("Oldest");
    case NewestColumn:
        return tr("Newest");
    case LatestErrorColumn:
        return tr("Most recent error");
    default:
        return {};
    }
}

} // namespace redrive::ui
