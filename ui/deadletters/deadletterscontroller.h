// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/dbexecutor.h"
#include "query/eventfilter.h"
#include "query/opsstats.h"

#include <QObject>

class QLabel;
class QPushButton;
class QTableView;
class QWidget;

namespace redrive::ui {

class DeadLetterModel;
class Session;
class TablePage;

// The dead-letter page: groups by category × destination, refreshed while visible; opening a
// group asks for the events list filtered to it.
class DeadLettersController final : public QObject {
    Q_OBJECT
public:
    DeadLettersController(Session *session, QWidget *page, QObject *parent = nullptr);
    ~DeadLettersController() override;
    [[nodiscard]] DeadLetterModel *model() const { return m_model; }
    void refresh();
    // "Replay group…": the selected group's dead deliveries (destination, category, dead).
    void replaySelectedGroup();
    // The events of a group: a delivery to its destination, dead, with its category.
    static EventFilter groupFilter(const DeadLetterGroup &group);

Q_SIGNALS:
    void openEvents(const redrive::EventFilter &filter);
    void replayRequested(const redrive::EventFilter &filter);

private:
    void updateReplayGroup();

    Session *m_session;
    TablePage *m_container;
    DeadLetterModel *m_model;
    QTableView *m_table;
    QLabel *m_summary;
    QPushButton *m_replayGroup;
    Generation m_generation;
};

} // namespace redrive::ui
