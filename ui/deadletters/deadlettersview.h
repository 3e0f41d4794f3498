// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QWidget>

class QAction;
class QLabel;
class QPushButton;
class QTableView;

namespace redrive::ui {

class IncidentsView;
class TablePage;

// The Dead letters page, passive: the open incidents on top (their own view, which
// IncidentsController drives), then the groups by category × destination with a status line
// and "Replay group…" / "Mark group resolved…". DeadLettersController decides what it shows.
class DeadLettersView final : public QWidget {
    Q_OBJECT
public:
    explicit DeadLettersView(QWidget *parent = nullptr);

    [[nodiscard]] IncidentsView *incidents() const { return m_incidents; }
    [[nodiscard]] QTableView *table() const { return m_table; }
    void setSummary(const QString &text);
    // Whether the role may replay at all: shows the button and gives the table its Ctrl+R action.
    void setReplayAllowed(bool allowed);
    // Whether the selected group can be replayed, and why (the button's tooltip).
    void setReplayEnabled(bool enabled, const QString &toolTip);
    // "Mark group resolved…", for roles that triage; enabled like the replay (same group rule).
    void setResolveAllowed(bool allowed);
    void setResolveEnabled(bool enabled);

Q_SIGNALS:
    void groupActivated(const QModelIndex &index);
    void replayGroupRequested();
    void resolveGroupRequested();

private:
    TablePage *m_groups;
    IncidentsView *m_incidents;
    QTableView *m_table;
    QPushButton *m_replayGroup;
    QAction *m_replayAction;
    QPushButton *m_resolveGroup;
    QAction *m_resolveAction;
};

} // namespace redrive::ui
