// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QObject>

namespace redrive {
class Clock;
}

namespace redrive::ui {

class Session;

// Writes an evidence bundle for one event: first a signed checkpoint of the audit log from the
// admin API (GET audit/checkpoint), then, on the database thread, everything about the event up
// to that checkpoint, assembled by core (audit/evidence.h) and written atomically to the file.
class EvidenceExport final : public QObject {
    Q_OBJECT
public:
    EvidenceExport(Session *session, const Clock &clock, QObject *parent = nullptr);

    // One export at a time; false when one is already running.
    bool start(qint64 eventId, const QString &path);
    [[nodiscard]] bool busy() const { return m_busy; }

Q_SIGNALS:
    void progress(const QString &message);
    void finished(bool ok, const QString &message);

private:
    void fail(const QString &message);

    Session *m_session;
    const Clock &m_clock;
    bool m_busy = false;
};

} // namespace redrive::ui
