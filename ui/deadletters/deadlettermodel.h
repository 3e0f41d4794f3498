// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "query/opsstats.h"

#include <QAbstractTableModel>

namespace redrive::ui {

// Dead letters grouped by failure category and destination, largest group first.
class DeadLetterModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        CategoryColumn,
        DestinationColumn,
        CountColumn,
        OldestColumn,
        NewestColumn,
        LatestErrorColumn,
        ColumnCount
    };
    enum Role { CategoryRole = Qt::UserRole, DestinationRole, CountRole };

    using QAbstractTableModel::QAbstractTableModel;

    void setGroups(QList<DeadLetterGroup> groups);
    [[nodiscard]] const DeadLetterGroup *groupAt(const QModelIndex &index) const;
    [[nodiscard]] qint64 total() const;

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<DeadLetterGroup> m_groups;
};

} // namespace redrive::ui
