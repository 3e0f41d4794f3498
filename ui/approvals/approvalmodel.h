// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "newreplay/replaypreview.h"
#include "util/result.h"

#include <QAbstractTableModel>
#include <QJsonObject>

#include <optional>

namespace redrive::ui {

// A replay request as `GET replays` returns it.
struct ReplayRequest {
    qint64 id = 0;
    std::optional<ReplayStatus> status;
    QString requestedBy;
    QString reason;
    QString ticket;
    int count = 0;
    QString effect;
    QString selectionHash; // sent back with the decision: it binds to what was frozen
    QString createdAt; // ISO-8601 as sent
    QString approvalExpiresAt;
    std::optional<qint64> createdAtMs;
    std::optional<qint64> approvalExpiresAtMs;
    // What the requester saw: destinations with their risk, approval reasons, counts.
    ReplayPreview preview;
    // High when a destination is high-risk.
    [[nodiscard]] Risk risk() const;
    // Refused when the summary is unreadable (a risk word this console does not know, say):
    // the page shows that rather than guessing a risk.
    static Result<ReplayRequest> fromJson(const QJsonObject &o);
};

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
    void setRequests(QList<ReplayRequest> requests, const QString &currentUser, qint64 nowMs);
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
    qint64 m_now = 0;
};

} // namespace redrive::ui
