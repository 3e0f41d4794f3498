// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QWidget>

class QHBoxLayout;
class QLabel;
class QPushButton;
class QSplitter;
class QTableView;

namespace redrive::ui {

// A list page, passive: an optional filter row, a status line, one table (optionally with a
// detail pane under it) and a row of buttons on the right. The list pages' views (dead letters,
// incidents, rejections, approvals, destinations, reconciliation, audit) are built on it, so
// every list looks and reads the same to a screen reader and from the keyboard.
class TablePage final : public QWidget {
    Q_OBJECT
public:
    // `tableName` is the table's object name (tests find it by that); `accessibleName` is what a
    // screen reader says for it.
    TablePage(const QString &tableName, const QString &accessibleName, QWidget *parent = nullptr);

    [[nodiscard]] QTableView *table() const { return m_table; }
    // The line above the table: what the page shows, or why it could not be read.
    [[nodiscard]] QLabel *status() const { return m_status; }
    // Filters above the status line; the row is hidden until something is added to it.
    void addFilter(QWidget *widget, int stretch = 0);
    // Buttons right-aligned under the table, in the order added.
    void addButton(QPushButton *button);
    // A pane under the table (the selected row's detail); the two share a vertical splitter.
    void setDetail(QWidget *detail);

    // The one setup every console table gets: whole rows selected one at a time, no sorting
    // (the models decide the order), no row numbers, rows one line high, the last column
    // stretched, alternating rows, and an accessible name.
    static void setupTableView(QTableView *table, const QString &accessibleName);

private:
    QWidget *m_filters;
    QHBoxLayout *m_filterRow;
    QLabel *m_status;
    QSplitter *m_split;
    QTableView *m_table;
    QHBoxLayout *m_buttonRow;
};

} // namespace redrive::ui
