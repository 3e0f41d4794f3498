// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "replays/replayitem.h"

#include <QAbstractTableModel>
#include <QJsonObject>

#include <optional>

namespace redrive::ui {

// The frozen selection of one replay request, so an approver can look at exactly what they
// are asked to approve: each delivery with its event, destination, status at freeze and
// whether its outcome was unknown.
class FrozenSelectionModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        DeliveryColumn,
        EventColumn,
        DestinationColumn,
        FrozenStatusColumn,
        OutcomeUnknownColumn,
        CurrentStatusColumn,
        ColumnCount
    };
    enum Role { DeliveryIdRole = Qt::UserRole, EventIdRole };

    using QAbstractTableModel::QAbstractTableModel;
    void setItems(QList<ReplayItem> items);
    void clear() { setItems({}); }
    [[nodiscard]] const ReplayItem *itemAt(const QModelIndex &index) const;

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<ReplayItem> m_items;
};

} // namespace redrive::ui
