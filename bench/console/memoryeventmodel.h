// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "syntheticevents.h"

#include <QAbstractTableModel>

#include <vector>

namespace redrive::bench {

// The baseline: every row held in memory, compactly, with the events model's columns and the
// same cell formatting, so the two views differ only in where the rows come from.
class MemoryEventModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit MemoryEventModel(qint64 rows, QObject *parent = nullptr);

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<SyntheticRow> m_rows; // newest first
};

} // namespace redrive::bench
