// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/rowtablemodel.h"
#include "query/destinationstats.h"

namespace redrive::ui {

// One row per destination: pause state, backlog, dead letters, the last hour's success rate
// and the newest failure. Relative times are against the `nowMs` of the last setStatuses().
class DestinationModel final : public RowTableModel<DestinationStatus> {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        StateColumn,
        BacklogColumn,
        DeadColumn,
        SuccessRateColumn,
        LastFailureColumn,
        ChangedColumn,
        ColumnCount
    };
    enum Role { NameRole = Qt::UserRole, PausedRole, BacklogRole, DeadRole };

    explicit DestinationModel(QObject *parent = nullptr);

    void setStatuses(QList<DestinationStatus> statuses, qint64 nowMs);
    [[nodiscard]] const DestinationStatus *destinationAt(const QModelIndex &index) const;
    [[nodiscard]] int rowOf(const QString &name) const; // -1 when absent
    [[nodiscard]] int pausedCount() const;
    [[nodiscard]] QStringList openCircuits() const; // names of destinations whose circuit is open

private:
    [[nodiscard]] QVariant rowData(const DestinationStatus &d, int column, int role) const override;

    [[nodiscard]] QString display(const DestinationStatus &d, int column) const;
    [[nodiscard]] QString tooltip(const DestinationStatus &d, int column) const;

    qint64 m_now = 0;
};

} // namespace redrive::ui
