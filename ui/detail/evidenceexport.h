// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QObject>

namespace redrive::ui {

class Session;

// Saves the evidence bundle of one event. The receiver builds it from its own database, signs
// it with its audit key and records the export in its audit log (GET events/{id}/evidence);
// the console only checks the answer with the verifier `redrive --verify-evidence` uses (off
// the GUI thread) and writes it atomically. A bundle that does not verify is still saved, since
// it is what the receiver answered, but the export is reported as failed with the problem.
class EvidenceExport final : public QObject {
    Q_OBJECT
public:
    explicit EvidenceExport(Session *session, QObject *parent = nullptr);

    // One export at a time; false when one is already running.
    bool start(qint64 eventId, const QString &path);
    [[nodiscard]] bool busy() const { return m_busy; }

Q_SIGNALS:
    void progress(const QString &message);
    void finished(bool ok, const QString &message);

private:
    void fail(const QString &message);

    Session *m_session;
    bool m_busy = false;
};

} // namespace redrive::ui
