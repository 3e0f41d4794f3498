// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QObject>
#include <QString>

#include <optional>

class QTimer;

namespace redrive {
class Clock;
} // namespace redrive

namespace redrive::ui {

class Session;
class WarningBanner;

// The console while its database cannot be reached (PostgreSQL restarting, stopped, or the
// network gone). QtSql does not reconnect a lost connection by itself, so:
//
//   up ──a read finds its connection lost (DbExecutor::connectionLost)──▶ down
//   down: the banner says since when and why; the pages keep what they show (stale, and said
//         so); no page refresh is asked for. A timer (never a nested loop) reopens both of the
//         session's connections, first after 1 s, then doubling up to 10 s.
//   down ──both reopened──▶ up: the banner clears and `recovered` asks the pages to refresh.
//
// Only connection losses count: a query that failed on a healthy connection is the page's own
// error to show.
class DatabaseWatch final : public QObject {
    Q_OBJECT
public:
    DatabaseWatch(Session *session, WarningBanner *banner, const Clock &clock, QObject *parent = nullptr);
    ~DatabaseWatch() override;

    [[nodiscard]] bool down() const { return m_downSince.has_value(); }
    [[nodiscard]] std::optional<qint64> downSinceMs() const { return m_downSince; }
    [[nodiscard]] int reconnectAttempts() const { return m_attempts; }

    // The banner's sentence; exposed for tests.
    static QString warningFor(qint64 sinceMs, const QString &reason, int nextAttemptMs);

    static constexpr int kFirstRetryMs = 1'000;
    static constexpr int kMaxRetryMs = 10'000;

Q_SIGNALS:
    void lost();
    // Both connections work again after `downForMs`: the pages should read again.
    void recovered(qint64 downForMs);

private:
    void noteLost(const QString &reason);
    void attempt();
    void attemptDone(const QString &error);
    void show();

    Session *m_session;
    WarningBanner *m_banner;
    const Clock &m_clock;
    QTimer *m_timer;
    std::optional<qint64> m_downSince;
    QString m_reason;
    int m_delayMs = kFirstRetryMs;
    int m_outstanding = 0; // reconnects of this attempt not answered yet
    QString m_attemptError;
    int m_attempts = 0;
};

} // namespace redrive::ui
