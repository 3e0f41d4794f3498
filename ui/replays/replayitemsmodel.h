// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "replayitem.h"

#include <QAbstractTableModel>
#include <QJsonObject>

#include <optional>

namespace redrive::ui {

// The deliveries of the selected replay, in delivery-id order, one keyset page at a time
// (`items_after` / `items_next_after`); a poll refreshes the loaded rows in place.
class ReplayItemsModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        DeliveryColumn,
        EventColumn,
        DestinationColumn,
        FrozenStatusColumn,
        OutcomeColumn,
        CurrentStatusColumn,
        ColumnCount
    };
    enum Role { EventIdRole = Qt::UserRole };

    using QAbstractTableModel::QAbstractTableModel;

    // The first page of `replayId` (replaces everything; 0 clears), the pages after it, and
    // fresher copies of rows already loaded.
    void setItems(qint64 replayId, QList<ReplayItem> items, std::optional<qint64> nextAfter);
    void appendItems(qint64 replayId, QList<ReplayItem> items, std::optional<qint64> nextAfter);
    void updateItems(qint64 replayId, const QList<ReplayItem> &items);

    [[nodiscard]] qint64 replayId() const { return m_replayId; }
    [[nodiscard]] const ReplayItem *itemAt(const QModelIndex &index) const;

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    [[nodiscard]] bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

Q_SIGNALS:
    void fetchMoreRequested(qint64 replayId, qint64 after);

private:
    qint64 m_replayId = 0;
    QList<ReplayItem> m_items;
    std::optional<qint64> m_nextAfter;
    std::optional<qint64> m_requestedAfter;
};

} // namespace redrive::ui
