// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QWidget>

#include <functional>

class QAction;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QSplitter;
class QTableView;
class QVBoxLayout;

namespace redrive::ui {

// A list page, passive: an optional filter row, a status line, one table (optionally with a
// detail pane under it) and a row of buttons on the right. The list pages' views (incidents,
// rejections, approvals, destinations, reconciliation) derive from it and add only what is their
// own; the dead letters page holds one, and the audit and replays pages set their tables up the
// same way, so every list looks and reads the same to a screen reader and from the keyboard.
class TablePage : public QWidget {
    Q_OBJECT
public:
    // `tableName` is the table's object name (tests find it by that); `accessibleName` is what a
    // screen reader says for it.
    TablePage(const QString &tableName, const QString &accessibleName, QWidget *parent = nullptr);

    [[nodiscard]] QTableView *table() const { return m_table; }
    // The line above the table: what the page shows, or why it could not be read.
    [[nodiscard]] QLabel *status() const { return m_status; }
    void setSummary(const QString &text);
    // Filters above the status line; the row is hidden until something is added to it.
    void addFilter(QWidget *widget, int stretch = 0);
    // Buttons right-aligned under the table, in the order added.
    void addButton(QPushButton *button);
    // A pane under the table (the selected row's detail); the two share a vertical splitter.
    // Returns the pane's layout, which the page fills top to bottom.
    QVBoxLayout *addDetailPane();
    // A command on the selected row, two ways in: `button` under the table, and `action` (the
    // same command) as the table's shortcut and context-menu entry while the table has focus.
    // Both stay hidden until offerRowCommand: a role that may not use a command is not shown it.
    void addRowCommand(QPushButton *button, QAction *action);
    void offerRowCommand(QPushButton *button, QAction *action, bool offered);

    // The one setup every console table gets: whole rows selected one at a time, no sorting
    // (the models decide the order), no row numbers, rows one line high, the last column
    // stretched, alternating rows, its object name and an accessible name.
    static void setupTableView(QTableView *table, const QString &name, const QString &accessibleName);
    // Calls `update` whenever the table's current row changes, and whenever its model's rows do
    // (a reset, or a row's data), so that what a page offers for the selected row follows that
    // row. The table has its model already; `context` ends the calls when it goes.
    static void followCurrentRow(QTableView *table, QObject *context, const std::function<void()> &update);

private:
    QWidget *m_filters;
    QHBoxLayout *m_filterRow;
    QLabel *m_status;
    QSplitter *m_split;
    QTableView *m_table;
    QHBoxLayout *m_buttonRow;
};

} // namespace redrive::ui
