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
class EvidenceExport;
class Session;

// Loads the selected event's detail on the database thread (answers for an event the user
// has already moved away from are dropped), sends notes and revalidations through the admin API, and exports
// evidence bundles for the roles that may.
class DetailController final : public QObject {
    Q_OBJECT
public:
    DetailController(Session *session, EventDetailView *view, const Clock &clock, QObject *parent = nullptr);
    ~DetailController() override;

    void showEvent(qint64 eventId);
    void reload();
    // Asks where to save (FileChooser), then writes the bundle; `evidenceExported` reports.
    void exportEvidence(qint64 eventId);
    // Shows the event with the attempt caused by replay `replayId` selected, once loaded.
    void showEventAttempt(qint64 eventId, qint64 replayId);

Q_SIGNALS:
    void loaded(qint64 eventId);
    // The event is not in the database (never was, or retention removed it).
    void missing(qint64 eventId);
    void evidenceExported(bool ok, const QString &message);
    // "Replay this delivery…" on a delivery row (only offered to roles that may replay).
    void replayDeliveryRequested(qint64 deliveryId);
    // "Mark resolved…" on a dead delivery (only offered to roles that triage).
    void resolveDeliveryRequested(qint64 deliveryId);
    // A business key on the detail was clicked: search the events for "name:value".
    void keySearchRequested(const QString &search);

private:
    void addNote(qint64 eventId, const QString &text);
    // POST events/{id}/revalidate: the receiver checks a quarantined event again.
    void revalidate(qint64 eventId);
    // "Reveal original…": a RevealDialog asks the reason, then POST events/{id}/reveal.
    void reveal(qint64 eventId);

    Session *m_session;
    EventDetailView *m_view;
    const Clock &m_clock;
    EvidenceExport *m_evidence;
    Generation m_generation;
    qint64 m_eventId = 0;
    QMetaObject::Connection m_attemptFocus;
};

} // namespace redrive::ui
