// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "deadlettermodel.h"

#include "common/plaintooltip.h"
#include "common/statuspalette.h"
#include "common/timeformat.h"

namespace redrive::ui {

DeadLetterModel::DeadLetterModel(QObject *parent)
    : RowTableModel(parent)
{
    static constexpr ColumnHeader columns[]
        = { { QT_TR_NOOP("Failure category") }, { QT_TR_NOOP("Destination") }, { QT_TR_NOOP("Dead letters") },
              { QT_TR_NOOP("Oldest") }, { QT_TR_NOOP("Newest") }, { QT_TR_NOOP("Most recent error") } };
    static_assert(std::size(columns) == ColumnCount);
    setColumns(columns);
    setNumberColumns({ CountColumn });
}

void DeadLetterModel::setGroups(QList<DeadLetterGroup> groups)
{
    // Same groups in the same order: update values in place so the selection stays put.
    replaceRows(std::move(groups), [](const DeadLetterGroup &fresh, const DeadLetterGroup &shown) {
        return fresh.category == shown.category && fresh.destination == shown.destination;
    });
}

const DeadLetterGroup *DeadLetterModel::groupAt(const QModelIndex &index) const
{
    return rowAt(index);
}

qint64 DeadLetterModel::total() const
{
    qint64 n = 0;
    for (const DeadLetterGroup &g : rows())
        n += g.count;
    return n;
}

QVariant DeadLetterModel::rowData(const DeadLetterGroup &g, int column, int role) const
{
    switch (role) {
    case CategoryRole:
        return g.category.name(); // as stored
    case DestinationRole:
        return g.destination;
    case CountRole:
        return g.count;
    case Qt::ToolTipRole:
        if (column == OldestColumn)
            return TimeFormat::tooltip(g.oldestAt);
        if (column == NewestColumn)
            return TimeFormat::tooltip(g.newestAt);
        if (column == LatestErrorColumn && !g.latestError.isEmpty())
            return plainToolTip(g.latestError);
        return tr("Double-click to list these events");
    case Qt::DisplayRole:
        switch (column) {
        case CategoryColumn:
            return g.category.isNull() ? tr("(none recorded)") : categoryLabel(g.category);
        case DestinationColumn:
            return g.destination;
        case CountColumn:
            return g.count;
        case OldestColumn:
            return TimeFormat::display(g.oldestAt);
        case NewestColumn:
            return TimeFormat::display(g.newestAt);
        case LatestErrorColumn:
            return g.latestError.isEmpty() ? QStringLiteral("—") : g.latestError.simplified();
        default:
            return {};
        }
    default:
        return {};
    }
}

} // namespace redrive::ui
