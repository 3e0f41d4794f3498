// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QAbstractTableModel>
#include <QJsonObject>

namespace redrive::ui {

// A replay request as `GET replays` returns it.
struct ReplayRequest {
    qint64 id = 0;
    QString status;
    QString requestedBy;
    QString reason;
    QString ticket;
    int count = 0;
    QString effect;
    QString createdAt; // ISO-8601 as sent
    QString approvalExpiresAt;
    static ReplayRequest fromJson(const QJsonObject &o);
};

// Replays waiting for a decision. Requests by the signed-in user are marked: nobody approves
// their own request.
class ApprovalModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        IdColumn,
        RequestedByColumn,
        CountColumn,
        ReasonColumn,
        TicketColumn,
        CreatedColumn,
        ColumnCount
    };
    enum Role { ReplayIdRole = Qt::UserRole, OwnRequestRole };

    using QAbstractTableModel::QAbstractTableModel;
    void setRequests(QList<ReplayRequest> requests, const QString &currentUser);
    [[nodiscard]] const ReplayRequest *requestAt(const QModelIndex &index) const;
    [[nodiscard]] bool isOwn(const QModelIndex &index) const;

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<ReplayRequest> m_requests;
    QString m_user;
};

} // namespace redrive::ui
