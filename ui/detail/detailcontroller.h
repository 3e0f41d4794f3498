// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/dbexecutor.h"

#include <QObject>

namespace redrive {
class Clock;
}

namespace redrive::ui {

class EventDetailView;
class Session;

// Loads the selected event's detail on the database thread (answers for an event the user
// has already moved away from are dropped) and sends notes through the admin API.
class DetailController final : public QObject {
    Q_OBJECT
public:
    DetailController(Session *session, EventDetailView *view, const Clock &clock, QObject *parent = nullptr);

    void showEvent(qint64 eventId);
    void reload();

Q_SIGNALS:
    void loaded(qint64 eventId);

private:
    void addNote(qint64 eventId, const QString &text);

    Session *m_session;
    EventDetailView *m_view;
    const Clock &m_clock;
    Generation m_generation;
    qint64 m_eventId = 0;
};

} // namespace redrive::ui
