// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "replays/replayitem.h"

#include <QAbstractTableModel>

namespace redrive::ui {

// Replays waiting for a decision. Requests by the signed-in user are marked: nobody approves
// their own request. Age and "expires in" are relative to the time given with the requests.
class ApprovalModel final : public QAbstractTableModel {
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

    using QAbstractTableModel::QAbstractTableModel;
    void setRequests(QList<ReplayRecord> requests, const QString &currentUser, qint64 nowMs);
    [[nodiscard]] const ReplayRecord *requestAt(const QModelIndex &index) const;
    [[nodiscard]] bool isOwn(const QModelIndex &index) const;

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<ReplayRecord> m_requests;
    QString m_user;
    qint64 m_now = 0;
};

} // namespace redrive::ui
