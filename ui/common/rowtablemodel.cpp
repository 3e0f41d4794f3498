// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "rowtablemodel.h"

#include <QCoreApplication>

namespace redrive::ui {

int ColumnTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant ColumnTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return m_rowNumbers ? QAbstractTableModel::headerData(section, orientation, role) : QVariant();
    if (section < 0 || section >= int(m_columns.size()))
        return {};
    // The leaf's class name is the context its QT_TR_NOOP texts were extracted under (the
    // same context tr() uses inside the leaf).
    const char *context = metaObject()->className();
    const ColumnHeader &column = m_columns[std::size_t(section)];
    if (role == Qt::DisplayRole)
        return QCoreApplication::translate(context, column.title);
    if (role == Qt::ToolTipRole && column.toolTip)
        return QCoreApplication::translate(context, column.toolTip);
    return {};
}

QVariant ColumnTableModel::cellAlignment(int column) const
{
    return m_numberColumns.contains(column) ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
}

} // namespace redrive::ui
