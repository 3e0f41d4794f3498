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
// receiver that is not power-loss durable, or no receiver heartbeat at all, goes in the amber
// banner where nobody can miss it.
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

Q_SIGNALS:
    void refreshed();

private:
    Session *m_session;
    WarningBanner *m_banner;
    QLabel *m_status;
    const Clock &m_clock;
    Generation m_generation;
    bool m_busy = false;
    bool m_again = false; // asked again while busy: what changed meanwhile is read right after
};

} // namespace redrive::ui
