// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/rowtablemodel.h"
#include "replayitem.h"

#include <QJsonObject>

#include <optional>

namespace redrive::ui {

// The deliveries of one replay request, in delivery-id order: the one items model of the
// console. The Replays page shows each delivery's replay outcome, one keyset page at a time
// (`items_after` / `items_next_after`), and a poll refreshes the loaded rows in place. The
// approvals inbox shows the frozen selection an approver is asked to approve: each delivery
// with its status at freeze and whether its outcome was unknown.
class ReplayItemsModel final : public RowTableModel<ReplayItem> {
    Q_OBJECT
public:
    enum class View { ReplayOutcome, FrozenSelection };
    enum Column {
        DeliveryColumn,
        EventColumn,
        DestinationColumn,
        FrozenStatusColumn,
        OutcomeColumn, // FrozenSelection: whether the outcome was unknown
        CurrentStatusColumn,
        ColumnCount,
        OutcomeUnknownColumn = OutcomeColumn
    };
    enum Role { EventIdRole = Qt::UserRole, DeliveryIdRole };

    explicit ReplayItemsModel(QObject *parent = nullptr, View view = View::ReplayOutcome);

    // The whole frozen selection at once (no replay id, no further pages), and none.
    void setItems(QList<ReplayItem> items);
    void clear() { setItems({}); }
    // The first page of `replayId` (replaces everything; 0 clears), the pages after it, and
    // fresher copies of rows already loaded.
    void setItems(qint64 replayId, QList<ReplayItem> items, std::optional<qint64> nextAfter);
    void appendItems(qint64 replayId, QList<ReplayItem> items, std::optional<qint64> nextAfter);
    void updateItems(qint64 replayId, const QList<ReplayItem> &items);

    [[nodiscard]] qint64 replayId() const { return m_replayId; }
    [[nodiscard]] const ReplayItem *itemAt(const QModelIndex &index) const;

    [[nodiscard]] bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

Q_SIGNALS:
    void fetchMoreRequested(qint64 replayId, qint64 after);

private:
    [[nodiscard]] QVariant rowData(const ReplayItem &i, int column, int role) const override;

    [[nodiscard]] QVariant frozenData(const ReplayItem &item, int column, int role) const;

    View m_view;
    qint64 m_replayId = 0;
    std::optional<qint64> m_nextAfter;
    std::optional<qint64> m_requestedAfter;
};

} // namespace redrive::ui
