// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "common/dbexecutor.h"
#include "query/replicastate.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPointer>

#include <functional>
#include <optional>

class QLabel;
class QTimer;

namespace redrive::ui {

class Session;
class WarningBanner;

// The console on a PostgreSQL hot standby. It reads the standby's state on the stats thread and
// shows the lag in the status bar ("caught up" only when everything received was replayed), and
// an amber banner once the lag passes the profile's threshold.
//
// Actions go to the primary through the admin API, which names the WAL position after each
// write (Redrive-Commit-LSN). Until the standby has replayed that far, pages that would show the
// result wait (afterReplayed) and the status bar says "waiting for the replica…"; the wait is
// polled with a timer, never a nested loop, and bounded: past the limit the pages refresh anyway
// and the banner says the change has not arrived yet, until it does.
//
// On SQLite and on a primary there is nothing to wait for: afterReplayed runs at once.
class ReplicaController final : public QObject {
    Q_OBJECT
public:
    ReplicaController(Session *session, WarningBanner *banner, QLabel *status, QObject *parent = nullptr);
    ~ReplicaController() override;

    // Reads the standby's state (lag, caught up, replay paused) and updates the status bar and banner.
    void refresh();
    // A write committed on the primary at WAL position `lsn` (AdminClient::committed).
    void expect(const QString &lsn);
    // Runs `then` once the database shows every write this session made, or at once when none
    // is awaited. Dropped when `context` is gone.
    void afterReplayed(QObject *context, std::function<void()> then);

    [[nodiscard]] bool waiting() const { return !m_awaited.isEmpty(); }
    [[nodiscard]] const std::optional<ReplicaState> &state() const { return m_state; }
    // How long pages wait for the standby before showing what it has (default 60 s).
    void setWaitLimitMs(int ms) { m_waitLimitMs = ms; }

    // The status bar text and the banner's sentences; exposed for tests.
    static QString statusFor(const ReplicaState &state, bool waiting);
    static QStringList warningsFor(
        const ReplicaState &state, int thresholdSeconds, std::optional<qint64> overdueForMs);

Q_SIGNALS:
    void refreshed();
    // The awaited writes are visible on the standby: pages showing their subject refresh.
    void replayed();
    void waitingChanged(bool waiting);

private:
    void poll();
    void reached();
    void runPending();
    void show();

    Session *m_session;
    WarningBanner *m_banner;
    QLabel *m_status;
    QTimer *m_pollTimer;
    Generation m_generation;
    RefreshGate m_gate;
    bool m_polling = false;
    std::optional<ReplicaState> m_state;
    QString m_stateError;
    QString m_awaited; // the highest WAL position not yet seen on the standby
    quint64 m_awaitedPosition = 0;
    QDeadlineTimer m_deadline;
    QElapsedTimer m_waitClock;
    bool m_overdue = false;
    int m_waitLimitMs = 60'000;
    QList<std::pair<QPointer<QObject>, std::function<void()>>> m_pending;
};

// The session's ReplicaController->afterReplayed, or `then` at once when it has none.
void afterReplicaShows(Session *session, QObject *context, std::function<void()> then);

} // namespace redrive::ui
