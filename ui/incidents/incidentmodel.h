// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/rowtablemodel.h"
#include "query/incidents.h"

namespace redrive::ui {

// Open incidents (dead-letter groups that appeared or grew), newest first, with who is on them.
class IncidentModel final : public RowTableModel<Incident> {
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

    explicit IncidentModel(QObject *parent = nullptr);

    void setIncidents(QList<Incident> incidents);
    [[nodiscard]] const Incident *incidentAt(const QModelIndex &index) const;
    // The row of incident `id` (its first column); invalid when it is not listed.
    [[nodiscard]] QModelIndex indexOfIncident(qint64 id) const;
    [[nodiscard]] const QList<Incident> &incidents() const { return rows(); }
    [[nodiscard]] int unacknowledgedCount() const;

    // "HTTP retryable", or "(none recorded)"; shared with the notification text.
    [[nodiscard]] static QString categoryText(const QString &category);

private:
    [[nodiscard]] QVariant rowData(const Incident &i, int column, int role) const override;
};

} // namespace redrive::ui
