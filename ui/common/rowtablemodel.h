// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QAbstractTableModel>
#include <QList>

#include <algorithm>
#include <initializer_list>
#include <span>

namespace redrive::ui {

// One column of a console table: its header title and, optionally, the header's tooltip. The
// texts are marked with QT_TR_NOOP by the model that lists them and translated in that model's
// context (its class name), so they stay in the model's section of the translations.
struct ColumnHeader {
    const char *title = nullptr;
    const char *toolTip = nullptr;
};

// The part every console table shares: a fixed list of columns with their header texts and
// which of them hold numbers. A leaf lists its columns once (setColumns and setNumberColumns,
// from its constructor) and answers its cells and its own roles; the column count, the
// horizontal header and the alignment of number cells come from the list.
class ColumnTableModel : public QAbstractTableModel {
public:
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    using QAbstractTableModel::QAbstractTableModel;

    // `columns` outlives the model (a function-local static of the leaf).
    void setColumns(std::span<const ColumnHeader> columns) { m_columns = columns; }
    // The vertical header numbers the rows (Qt's default) instead of staying empty.
    void setRowNumbers(bool numbered) { m_rowNumbers = numbered; }
    // Columns of counts and ids: right-aligned, so their digits line up.
    void setNumberColumns(std::initializer_list<int> columns) { m_numberColumns = columns; }
    // The Qt::TextAlignmentRole answer for a cell of `column`.
    [[nodiscard]] QVariant cellAlignment(int column) const;

private:
    std::span<const ColumnHeader> m_columns;
    QList<int> m_numberColumns;
    bool m_rowNumbers = false;
};

// A console table whose rows are held in one QList, in display order. data() finds the row and
// answers the alignment; the leaf answers every other role of a row's cell in rowData().
template<typename Row, typename Base = ColumnTableModel> class RowTableModel : public Base {
public:
    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_rows.size());
    }
    [[nodiscard]] QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override
    {
        const Row *row = rowAt(index);
        if (!row)
            return {};
        if (role == Qt::TextAlignmentRole)
            return this->cellAlignment(index.column());
        return rowData(*row, index.column(), role);
    }

    [[nodiscard]] const Row *rowAt(int row) const
    {
        return row >= 0 && row < m_rows.size() ? &m_rows[row] : nullptr;
    }
    // Null for an index of another model (a proxy's, say) as well as for an invalid one.
    [[nodiscard]] const Row *rowAt(const QModelIndex &index) const
    {
        return index.isValid() && index.model() == this ? rowAt(index.row()) : nullptr;
    }
    [[nodiscard]] const QList<Row> &rows() const { return m_rows; }

protected:
    using Base::Base;

    [[nodiscard]] virtual QVariant rowData(const Row &row, int column, int role) const = 0;

    // The first row `matches` accepts, or -1.
    template<typename Matches> [[nodiscard]] int findRow(Matches matches) const
    {
        const auto it = std::find_if(m_rows.cbegin(), m_rows.cend(), matches);
        return it == m_rows.cend() ? -1 : int(it - m_rows.cbegin());
    }

    // Replaces every row. When `sameRow` says each new row is the one already at its place,
    // only the values change: dataChanged, so the selection and the scroll position stay put.
    // Otherwise the model resets.
    template<typename SameRow> void replaceRows(QList<Row> fresh, SameRow sameRow)
    {
        bool sameShape = fresh.size() == m_rows.size();
        for (qsizetype i = 0; sameShape && i < fresh.size(); ++i)
            sameShape = sameRow(fresh[i], m_rows[i]);
        if (!sameShape) {
            resetRows(std::move(fresh));
            return;
        }
        m_rows = std::move(fresh);
        if (!m_rows.isEmpty())
            Q_EMIT this->dataChanged(
                this->index(0, 0), this->index(int(m_rows.size()) - 1, this->columnCount() - 1));
    }
    void resetRows(QList<Row> fresh)
    {
        this->beginResetModel();
        m_rows = std::move(fresh);
        this->endResetModel();
    }
    void appendRows(QList<Row> fresh)
    {
        if (fresh.isEmpty())
            return;
        this->beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + fresh.size()) - 1);
        m_rows.append(std::move(fresh));
        this->endInsertRows();
    }
    // In-place edits; the leaf emits dataChanged for what it changed.
    [[nodiscard]] QList<Row> &mutableRows() { return m_rows; }

private:
    QList<Row> m_rows;
};

} // namespace redrive::ui
