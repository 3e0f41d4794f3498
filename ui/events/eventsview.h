// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace redrive::ui {

class FilterBar;

// The events page: filter row, "N new events" strip, the table, and a count line. Passive —
// the EventsController gives it a model and reacts to what it emits.
class EventsView final : public QWidget {
    Q_OBJECT
public:
    explicit EventsView(QWidget *parent = nullptr);

    [[nodiscard]] FilterBar *filterBar() const { return m_filterBar; }
    [[nodiscard]] QTableView *table() const { return m_table; }
    void setNewEventCount(qint64 count);
    void setCountText(const QString &text);
    void setError(const QString &text);
    void setReplayAllowed(bool allowed);
    void setSelectionSize(int events);

Q_SIGNALS:
    void showNewEventsRequested();
    void replaySelectedRequested();
    void replayFilterRequested();

private:
    FilterBar *m_filterBar;
    QPushButton *m_newEvents;
    QTableView *m_table;
    QLabel *m_count;
    QLabel *m_error;
    QPushButton *m_replaySelected;
    QPushButton *m_replayFilter;
};

} // namespace redrive::ui
