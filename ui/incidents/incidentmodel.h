// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "query/incidents.h"

#include <QAbstractTableModel>

namespace redrive::ui {

// Open incidents (dead-letter groups that appeared or grew), newest first, with who is on them.
class IncidentModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        DestinationColumn,
        CategoryColumn,
        CountColumn,
        OpenedColumn,
        AcknowledgedColumn,
        NoteColumn,
        ColumnCount
    };
    enum Role { IdRole = Qt::UserRole, CountRole };

    using QAbstractTableModel::QAbstractTableModel;

    void setIncidents(QList<Incident> incidents);
    [[nodiscard]] const Incident *incidentAt(const QModelIndex &index) const;
    [[nodiscard]] const QList<Incident> &incidents() const { return m_incidents; }
    [[nodiscard]] int unacknowledgedCount() const;

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "HTTP retryable", or "(none recorded)"; shared with the notification text.
    [[nodiscard]] static QString categoryText(const QString &category);

private:
    QList<Incident> m_incidents;
};

} // namespace redrive::ui
