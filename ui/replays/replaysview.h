// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QWidget>

class QLabel;
class QModelIndex;
class QPushButton;
class QTableView;

namespace redrive::ui {

// The Replays page, passive: a status line with Refresh, the replay requests' table, and under
// it the selected request's outcome line, its deliveries and "Open event".
// ReplayHistoryController decides what it shows.
class ReplaysView final : public QWidget {
    Q_OBJECT
public:
    explicit ReplaysView(QWidget *parent = nullptr);

    [[nodiscard]] QTableView *table() const { return m_table; }
    [[nodiscard]] QTableView *itemsTable() const { return m_itemsTable; }
    void setSummary(const QString &text);
    // The selected request in words, or why its deliveries are not shown.
    void setOutcome(const QString &text);
    // Whether the selected delivery has an event to open.
    void setOpenEnabled(bool enabled);
    // Makes `index` the current request and scrolls to it.
    void showReplay(const QModelIndex &index);
    void fitColumns();
    void fitItemColumns();

Q_SIGNALS:
    void refreshRequested();
    // Enter or a double-click on a delivery, or "Open event" for the current one.
    void openRequested(const QModelIndex &item);

private:
    QLabel *m_summary;
    QPushButton *m_refresh;
    QTableView *m_table;
    QLabel *m_outcome;
    QTableView *m_itemsTable;
    QPushButton *m_open;
};

} // namespace redrive::ui
