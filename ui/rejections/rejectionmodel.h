// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/keysetlistmodel.h"
#include "query/opsstats.h"

namespace redrive::ui {

// The receiver's rejected requests, newest first, fetched in keyset pages as the view scrolls
// (the table is bounded by the receiver, but still read lazily).
class RejectionModel final : public KeysetListModel<RejectionRow> {
    Q_OBJECT
public:
    enum Column {
        ReceivedColumn,
        SourceColumn,
        StatusColumn,
        ReasonColumn,
        DetailColumn,
        RemoteColumn,
        ColumnCount
    };
    enum Role { RejectionIdRole = Qt::UserRole };
    static constexpr int kPageSize = 200;

    explicit RejectionModel(DbExecutor *executor, QObject *parent = nullptr);

    [[nodiscard]] const RejectionRow *rejectionAt(const QModelIndex &index) const { return rowAt(index); }

private:
    [[nodiscard]] QVariant rowData(const RejectionRow &r, int column, int role) const override;

    [[nodiscard]] PageQuery pageAfter(const RejectionRow *last, int limit) const override;
};

} // namespace redrive::ui
