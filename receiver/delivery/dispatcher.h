// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "httpclient.h"
#include "util/clock.h"

#include <QHash>
#include <QString>

#include <deque>
#include <functional>
#include <mutex>

// Starts claimed deliveries' HTTP exchanges within each destination's `concurrency` and the
// global delivery.max_in_flight. A finished exchange starts the next queued one right away, on
// the HTTP client's thread, so a destination stays busy while the engine thread is in the
// database recording the last batch and claiming the next.
//
// A queued job whose lease could run out before its exchange ends (less than timeout + margin
// left) is not sent: it completes as not sent, and the engine gives the claim back.
namespace redrive::delivery {

class Dispatcher final {
public:
    struct Job {
        QString destination;
        qint64 leaseExpiresAt = 0;
        HttpRequest request;
        // Runs once, on any thread: the outcome, when the exchange started (wall clock) and how
        // long it took. Not sent → Transport::Cancelled with requestWritten = false.
        std::function<void(AttemptOutcome, qint64 startedAtMs, qint64 durationMs)> done;
    };

    Dispatcher(HttpClient &http, const Clock &clock, int maxInFlight, qint64 leaseMarginMs);
    Dispatcher(const Dispatcher &) = delete;
    Dispatcher &operator=(const Dispatcher &) = delete;

    void setConcurrency(const QString &destination, int limit);
    void submit(Job job);
    // Completes every job not yet started as not sent (shutdown). Running exchanges go on.
    void dropQueued();
    // Completes `destination`'s jobs not yet started as not sent (its circuit opened); the
    // dispatcher goes on with everything else.
    void dropQueued(const QString &destination);

    // Jobs queued or running for `destination`, and the mean duration of its recent exchanges
    // (0 before the first), from which the engine sizes how far it claims ahead.
    struct Load {
        int queued = 0;
        int running = 0;
        double meanExchangeMs = 0;
    };
    [[nodiscard]] Load load(const QString &destination) const;

private:
    struct Queue {
        std::deque<Job> jobs;
        int running = 0;
        int limit = 1;
        double meanMs = 0;
    };
    void pump(std::unique_lock<std::mutex> &lock); // starts what the limits allow
    void finished(const QString &destination, double durationMs);

    HttpClient &m_http;
    const Clock &m_clock;
    const int m_maxInFlight;
    const qint64 m_leaseMarginMs;
    mutable std::mutex m_mutex;
    QHash<QString, Queue> m_queues;
    QStringList m_order; // round robin over destinations for the global cap
    qsizetype m_next = 0;
    int m_running = 0;
    bool m_stopped = false; // after dropQueued(): nothing new starts
};

} // namespace redrive::delivery
