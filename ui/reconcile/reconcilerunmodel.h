// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/rowtablemodel.h"
#include "storage/reconcilestore.h"

namespace redrive::ui {

// Reconciliation runs, one per row: the Reconciliation page shows each source's newest run in
// one of these and the selected source's recent runs in another. What a run checked, found
// missing and recovered, or why it failed (the receiver's reason, shown as text). Relative times
// are against the `nowMs` of the last setRuns().
// What the page shows of a run: its stored status (core's ReconcileRunStatus), or NeverRun for a
// source the receiver's configuration reconciles that has no run yet (a row with id 0), or
// Unknown for a status word this console does not know.
enum class RunShown { Running, Ok, Failed, NeverRun, Unknown };
[[nodiscard]] RunShown runShown(const reconcile::Run &run);

class ReconcileRunModel final : public RowTableModel<reconcile::Run> {
    Q_OBJECT
public:
    enum Column {
        SourceColumn,
        ProviderColumn,
        StartedColumn,
        StatusColumn,
        CheckedColumn,
        MissingColumn,
        RecoveredColumn,
        OutcomeColumn,
        ColumnCount
    };
    enum Role { RunIdRole = Qt::UserRole, SourceRole, StatusRole };

    explicit ReconcileRunModel(QObject *parent = nullptr);

    void setRuns(QList<reconcile::Run> runs, qint64 nowMs);
    [[nodiscard]] const reconcile::Run *runAt(const QModelIndex &index) const;
    [[nodiscard]] int rowOfSource(const QString &source) const; // -1 when absent
    [[nodiscard]] bool anyRunning() const;

    // "Nothing missed (1,204 checked)", "3 missing, 3 recovered", "Failed: …", "Running for 4 s".
    [[nodiscard]] static QString outcome(const reconcile::Run &run, qint64 nowMs);
    [[nodiscard]] static QString statusLabel(const reconcile::Run &run);

private:
    [[nodiscard]] QVariant rowData(const reconcile::Run &r, int column, int role) const override;

    [[nodiscard]] QString display(const reconcile::Run &r, int column) const;
    [[nodiscard]] QString tooltip(const reconcile::Run &r, int column) const;

    qint64 m_now = 0;
};

} // namespace redrive::ui
