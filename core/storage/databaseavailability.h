// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "util/metrics.h"

#include <QString>

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>

namespace redrive {

// The last outage one component saw, in wall-clock time (what the receiver writes to its
// receiver_instances row for the console, and what an operator compares with other logs).
struct DatabaseOutage {
    qint64 beganAtMs = 0; // ms since the epoch
    std::optional<qint64> endedAtMs; // nullopt while it lasts
    qint64 refused = 0; // units counted by countUnavailable() during it (so far, while it lasts)
};

// What one component (ingest, admin, delivery) knows about its database: up or down, and since
// when. A component reports down only when the database cannot be reached at all (a reconnect
// failed too), never for a query that failed on a healthy connection, and up after the next
// operation that succeeded. An outage is logged once when it starts and once when it ends (with
// its length and how much work was refused meanwhile), never per request: while PostgreSQL
// restarts a busy receiver refuses thousands of requests.
//
// Metrics (per component label): redrive_database_up (1/0) and
// redrive_database_unavailable_total (requests answered 503, or delivery turns paused).
// Thread-safe; reporting "up" while up costs one atomic load.
class DatabaseAvailability final {
public:
    // What a refused client is told to wait before retrying.
    static constexpr int kRetryAfterSeconds = 2;

    DatabaseAvailability(metrics::Registry &registry, const QString &component);
    DatabaseAvailability(const DatabaseAvailability &) = delete;
    DatabaseAvailability &operator=(const DatabaseAvailability &) = delete;

    using Clock = std::chrono::steady_clock;

    // `attemptStarted`: when the operation that succeeded began. One that began before the outage
    // was reported (a commit the server answered just before it went away, its answer arriving
    // after another thread's failure) says nothing about now and changes nothing.
    void reportUp(Clock::time_point attemptStarted = Clock::now());
    // `error` is the driver's text (never holds a password: QtSql does not echo the conninfo).
    // `attemptStarted`: when the connect that failed began. A failure that began before the
    // database was last reported up is old news (one thread's connect to a server still starting,
    // finishing after another thread got through) and changes nothing: an outage stays one.
    void reportDown(const QString &error, Clock::time_point attemptStarted = Clock::now());
    // One unit of work refused or paused because the database is down.
    void countUnavailable(double units = 1.0);

    [[nodiscard]] bool isUp() const { return m_up.load(std::memory_order_acquire); }
    // nullopt until the first outage of this process.
    [[nodiscard]] std::optional<DatabaseOutage> lastOutage() const;
    [[nodiscard]] const QString &component() const { return m_component; }

private:
    QString m_component;
    metrics::Gauge &m_upGauge;
    metrics::Counter &m_unavailable;
    std::atomic<bool> m_up { true };
    mutable std::mutex m_mutex;
    Clock::time_point m_downSince;
    Clock::time_point m_upSince; // the last transition to up (the epoch: up from the start)
    double m_unavailableAtStart = 0;
    std::optional<DatabaseOutage> m_lastOutage; // refused is filled in when it ends
};

} // namespace redrive
