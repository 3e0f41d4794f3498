// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"

#include <QAbstractTableModel>
#include <QJsonObject>

#include <optional>

namespace redrive::ui {

// One delivery of a replay's frozen selection, as `GET replays/{id}` lists it.
struct ReplayItem {
    qint64 deliveryId = 0;
    std::optional<qint64> eventId; // null once retention removed the delivery
    QString destination;
    std::optional<DeliveryStatus> frozenStatus; // its status when the selection was frozen
    std::optional<DeliveryStatus> currentStatus;
    // Outcome unknown when frozen (while the receiver keeps the selection), else as it is now.
    std::optional<bool> outcomeUnknown;
    bool outcomeUnknownAtFreeze = false; // whether outcomeUnknown is the frozen flag
    static ReplayItem fromJson(const QJsonObject &o);
};

// The frozen selection of one replay request, so an approver can look at exactly what they
// are asked to approve: each delivery with its event, destination, status at freeze and
// whether its outcome was unknown.
class ReplayItemModel final : public QAbstractTableModel {
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
