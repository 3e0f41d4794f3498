// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/dbexecutor.h"
#include "query/receiverhealth.h"

#include <QObject>

class QLabel;

namespace redrive {
class Clock;
}

namespace redrive::ui {

class Session;
class WarningBanner;

// Reads receiver_instances on the stats thread and shows the receivers in the status bar; a
// receiver that is not power-loss durable, no receiver heartbeat at all, or a receiver's recent
// database outage (kOutageRecentMs) goes in the amber banner where nobody can miss it. Each
// receiver's last outage stays in the status tooltip.
class ReceiverHealthController final : public QObject {
    Q_OBJECT
public:
    ReceiverHealthController(Session *session, WarningBanner *banner, QLabel *status, const Clock &clock,
        QObject *parent = nullptr);
    ~ReceiverHealthController() override;
    void refresh();

    // The banner's sentences and the status text, from an assessment; exposed for tests.
    static QStringList warningsFor(const ReceiverHealth &health);
    static QString statusFor(const ReceiverHealth &health, qint64 nowMs);
    static QString tooltipFor(const ReceiverHealth &health, qint64 nowMs);
    // "sqlite journal_mode=wal synchronous=NORMAL" → "SQLite journal_mode=wal synchronous=NORMAL"
    static QString durabilityText(const QString &stored);
    // "database unreachable 2026-12-01 16:02:11–16:02:19 (8 s, 412 requests refused)", or
    // "database unreachable since … (ongoing, 412 requests refused so far)"; empty: no outage.
    static QString outageText(const ReceiverInstance &receiver);

Q_SIGNALS:
    void refreshed();

private:
    Session *m_session;
    WarningBanner *m_banner;
    QLabel *m_status;
    const Clock &m_clock;
    Generation m_generation;
    RefreshGate m_gate; // asked again while busy: what changed meanwhile is read right after
};

} // namespace redrive::ui
