// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/rowtablemodel.h"
#include "query/opsstats.h"

namespace redrive::ui {

// Dead letters grouped by failure category and destination, largest group first.
class DeadLetterModel final : public RowTableModel<DeadLetterGroup> {
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

    explicit DeadLetterModel(QObject *parent = nullptr);

    void setGroups(QList<DeadLetterGroup> groups);
    [[nodiscard]] const DeadLetterGroup *groupAt(const QModelIndex &index) const;
    [[nodiscard]] qint64 total() const;

private:
    [[nodiscard]] QVariant rowData(const DeadLetterGroup &g, int column, int role) const override;
};

} // namespace redrive::ui
