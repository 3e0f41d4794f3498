// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/tablepage.h"

class QLabel;
class QPushButton;
class QTableView;

namespace redrive::ui {

// The Reconciliation page, passive: a status line, each source's newest run, and under it the
// selected source's recent runs with the last "Run now" result; "Run now" names the selected
// source. ReconcileController decides what it shows.
class ReconcileView final : public TablePage {
    Q_OBJECT
public:
    explicit ReconcileView(QWidget *parent = nullptr);

    [[nodiscard]] QTableView *sourceTable() const { return table(); }
    [[nodiscard]] QTableView *runTable() const { return m_runTable; }
    // The status line; `bad` when a source's last run failed.
    void setSummary(const QString &text, bool bad);
    void setRunsHeading(const QString &text);
    // What the last "Run now" came to (empty: nothing to say, the line is hidden).
    void setResult(const QString &text, bool bad);
    // "Run now" for the selected source (empty: none) of `provider`; `whyNot` is why it cannot
    // be started now, empty when it can.
    void setRunNow(const QString &source, const QString &provider, const QString &whyNot);
    // After the first fill: the columns fit what they show.
    void fitColumns();

Q_SIGNALS:
    void runNowRequested();

private:
    QTableView *m_runTable;
    QLabel *m_runsHeading;
    QLabel *m_result;
    QPushButton *m_runNow;
};

} // namespace redrive::ui
