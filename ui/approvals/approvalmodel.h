// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/rowtablemodel.h"
#include "replays/replayitem.h"

namespace redrive::ui {

// Replays waiting for a decision. Requests by the signed-in user are marked: nobody approves
// their own request. Age and "expires in" are relative to the time given with the requests.
class ApprovalModel final : public RowTableModel<ReplayRecord> {
    Q_OBJECT
public:
    enum Column {
        IdColumn,
        RequestedByColumn,
        CountColumn,
        ReasonColumn,
        TicketColumn,
        RiskColumn,
        AgeColumn,
        ExpiresColumn,
        ColumnCount
    };
    enum Role { ReplayIdRole = Qt::UserRole, OwnRequestRole, RiskRole };

    explicit ApprovalModel(QObject *parent = nullptr);
    void setRequests(QList<ReplayRecord> requests, const QString &currentUser, qint64 nowMs);
    [[nodiscard]] const ReplayRecord *requestAt(const QModelIndex &index) const;
    [[nodiscard]] bool isOwn(const QModelIndex &index) const;

private:
    [[nodiscard]] QVariant rowData(const ReplayRecord &r, int column, int role) const override;

    QString m_user;
    qint64 m_now = 0;
};

} // namespace redrive::ui
