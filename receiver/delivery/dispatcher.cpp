// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "dispatcher.h"

#include <chrono>
#include <vector>

namespace redrive::delivery {

namespace {

using Steady = std::chrono::steady_clock;

AttemptOutcome notSent()
{
    AttemptOutcome o;
    o.transport = AttemptOutcome::Transport::Cancelled;
    o.requestWritten = false;
    return o;
}

} // namespace

Dispatcher::Dispatcher(HttpClient &http, const Clock &clock, int maxInFlight, qint64 leaseMarginMs)
    : m_http(http)
    , m_clock(clock)
    , m_maxInFlight(std::max(1, maxInFlight))
    , m_leaseMarginMs(leaseMarginMs)
{ }

void Dispatcher::setConcurrency(const QString &destination, int limit)
{
    std::lock_guard lock(m_mutex);
    if (!m_queues.contains(destination))
        m_order.append(destination);
    m_queues[destination].limit = std::max(1, limit);
}

void Dispatcher::submit(Job job)
{
    std::unique_lock lock(m_mutex);
    if (m_stopped) {
        lock.unlock();
        job.done(notSent(), m_clock.nowMs(), 0);
        return;
    }
    if (!m_queues.contains(job.destination)) {
        m_order.append(job.destination);
        m_queues.insert(job.destination, Queue {});
    }
    m_queues[job.destination].jobs.push_back(std::move(job));
    pump(lock);
}

void Dispatcher::dropQueued()
{
    std::vector<Job> dropped;
    {
        std::lock_guard lock(m_mutex);
        m_stopped = true;
        for (auto it = m_queues.begin(); it != m_queues.end(); ++it) {
            for (Job &job : it->jobs)
                dropped.push_back(std::move(job));
            it->jobs.clear();
        }
    }
    for (Job &job : dropped)
        job.done(notSent(), m_clock.nowMs(), 0);
}

void Dispatcher::dropQueued(const QString &destination)
{
    std::deque<Job> dropped;
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_queues.find(destination);
        if (it == m_queues.end())
            return;
        dropped.swap(it->jobs);
    }
    for (Job &job : dropped)
        job.done(notSent(), m_clock.nowMs(), 0);
}

Dispatcher::Load Dispatcher::load(const QString &destination) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_queues.constFind(destination);
    if (it == m_queues.constEnd())
        return {};
    return { static_cast<int>(it->jobs.size()), it->running, it->meanMs };
}

void Dispatcher::pump(std::unique_lock<std::mutex> &lock)
{
    std::vector<Job> expired;
    while (!m_stopped && m_running < m_maxInFlight && !m_order.isEmpty()) {
        // The next destination, round robin, with a job and room under its own limit.
        Queue *queue = nullptr;
        QString name;
        for (qsizetype i = 0; i < m_order.size() && !queue; ++i) {
            const QString &candidate = m_order.at((m_next + i) % m_order.size());
            Queue &q = m_queues[candidate];
            if (!q.jobs.empty() && q.running < q.limit) {
                queue = &q;
                name = candidate;
                m_next = (m_next + i + 1) % m_order.size();
            }
        }
        if (!queue)
            break;
        Job job = std::move(queue->jobs.front());
        queue->jobs.pop_front();
        const qint64 now = m_clock.nowMs();
        if (now + job.request.timeoutMs + m_leaseMarginMs > job.leaseExpiresAt) {
            expired.push_back(std::move(job));
            continue;
        }
        ++queue->running;
        ++m_running;
        const auto steadyStart = Steady::now();
        m_http.send(std::move(job.request),
            [this, name, done = std::move(job.done), startedAt = now, steadyStart](AttemptOutcome outcome) {
                const double elapsedMs
                    = std::chrono::duration<double, std::milli>(Steady::now() - steadyStart).count();
                done(std::move(outcome), startedAt, static_cast<qint64>(elapsedMs));
                finished(name, elapsedMs);
            });
    }
    lock.unlock();
    for (Job &job : expired)
        job.done(notSent(), m_clock.nowMs(), 0);
    lock.lock();
}

void Dispatcher::finished(const QString &destination, double durationMs)
{
    std::unique_lock lock(m_mutex);
    Queue &q = m_queues[destination];
    --q.running;
    --m_running;
    // A moving mean over roughly the last twenty exchanges.
    q.meanMs = q.meanMs <= 0 ? durationMs : 0.95 * q.meanMs + 0.05 * durationMs;
    pump(lock);
}

} // namespace redrive::delivery
