// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/dbexecutor.h"
#include "query/eventfilter.h"
#include "query/opsstats.h"

#include <QObject>

class QTableView;

namespace redrive::ui {

class DeadLetterModel;
class DeadLettersView;
class Session;

// Drives the dead-letter page (DeadLettersView): groups by category × destination, refreshed while visible;
// opening a group asks for the events list filtered to it.
class DeadLettersController final : public QObject {
    Q_OBJECT
public:
    DeadLettersController(Session *session, DeadLettersView *view, QObject *parent = nullptr);
    [[nodiscard]] DeadLetterModel *model() const { return m_model; }
    void refresh();
    // "Replay group…": the selected group's dead deliveries (destination, category, dead).
    void replaySelectedGroup();
    // "Mark group resolved…": the selected group's dead deliveries, handled another way.
    void resolveSelectedGroup();
    // The events of a group: a delivery to its destination, dead, with its category.
    static EventFilter groupFilter(const DeadLetterGroup &group);

Q_SIGNALS:
    void openEvents(const redrive::EventFilter &filter);
    void replayRequested(const redrive::EventFilter &filter);
    void resolveRequested(const redrive::EventFilter &filter);

private:
    void updateReplayGroup();

    Session *m_session;
    DeadLettersView *m_view;
    DeadLetterModel *m_model;
    QTableView *m_table;
    Generation m_generation;
};

} // namespace redrive::ui
