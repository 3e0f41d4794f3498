// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QWidget>

class QAction;
class QPushButton;
class QTableView;

namespace redrive::ui {

class TablePage;

// The open incidents, passive: a short table, a status line and "Acknowledge…". It sits on the
// Dead letters page (DeadLettersView keeps its place); IncidentsController decides what it shows.
class IncidentsView final : public QWidget {
    Q_OBJECT
public:
    explicit IncidentsView(QWidget *parent = nullptr);

    [[nodiscard]] QTableView *table() const { return m_table; }
    void setSummary(const QString &text);
    // Whether the role may acknowledge: shows the button and gives the table its Ctrl+K action.
    void setAcknowledgeAllowed(bool allowed);
    void setAcknowledgeEnabled(bool enabled);

Q_SIGNALS:
    void acknowledgeRequested();

private:
    TablePage *m_page;
    QTableView *m_table;
    QPushButton *m_acknowledge;
    QAction *m_acknowledgeAction;
};

} // namespace redrive::ui
