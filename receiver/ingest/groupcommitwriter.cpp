// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "groupcommitwriter.h"

#include <algorithm>

namespace redrive::ingest {

GroupCommitWriter::GroupCommitWriter(
    std::shared_ptr<const Config> config, Options options, metrics::Registry &registry, const Clock &clock)
    : m_shared(std::move(config), std::move(options), registry, clock)
{
    Options &o = m_shared.options;
    o.batchMax = std::max(1, o.batchMax);
    o.queueCapacity = std::max(1, o.queueCapacity);
    // SQLite takes one writer at a time: a second connection would only wait for the first.
    m_connections = o.url.dialect == Dialect::Sqlite ? 1 : std::clamp(o.connections, 1, 64);
    registry
        .gauge(QStringLiteral("redrive_ingest_queue_capacity"), QStringLiteral("Capacity of the write queue"))
        .set(o.queueCapacity);
    registry
        .gauge(QStringLiteral("redrive_ingest_writer_connections"),
            QStringLiteral(
                "Database connections the group-commit writer commits on, each its own group commit"))
        .set(m_connections);
    registry.callbackGauge(QStringLiteral("redrive_ingest_queue_depth"),
        QStringLiteral("Verified requests waiting for the group-commit writer"), {},
        [depth = m_depth] { return static_cast<double>(depth->load(std::memory_order_relaxed)); });
}

GroupCommitWriter::~GroupCommitWriter()
{
    stop();
}

void GroupCommitWriter::setPaused(bool paused)
{
    {
        auto lock = m_worker.lock();
        m_paused = paused;
    }
    m_worker.notifyAll();
}

Result<> GroupCommitWriter::start()
{
    if (m_worker.running())
        return Failure(QStringLiteral("writer already started"));
    m_shared.rejectionsSinceTrim.store(1); // trim once soon after start, in case rejections_keep was lowered
    if (m_shared.options.url.dialect == Dialect::Postgres) {
        m_notifier = std::make_unique<DueNotifier>(
            m_shared.options.url, m_shared.options.instance.instanceId.toUtf8());
        if (auto notifying = m_notifier->start(); !notifying) {
            m_notifier.reset();
            return notifying;
        }
        m_shared.notifier = m_notifier.get();
    }
    for (int i = 0; i < m_connections; ++i)
        m_lanes.push_back(std::make_unique<WriterLane>(m_shared, i));
    Result<> started = m_worker.start(
        m_connections,
        [this](int index) -> Result<> {
            auto opened = m_lanes[static_cast<std::size_t>(index)]->open();
            if (!opened && opened.error().isEmpty())
                return Failure(QStringLiteral("cannot open the database"));
            return opened;
        },
        [this](int index) { run(index); });
    if (!started) {
        stop();
        return started;
    }
    m_shared.healthy.store(true);
    {
        auto lock = m_worker.lock();
        m_running.store(true, std::memory_order_release);
    }
    return ok();
}

void GroupCommitWriter::stop()
{
    m_worker.stop(); // the lanes commit everything already queued before they end
    m_lanes.clear();
    m_shared.notifier = nullptr;
    m_notifier.reset(); // sends a wake-up still waiting, then ends its thread
    m_running.store(false, std::memory_order_release);
}

GroupCommitWriter::Submit GroupCommitWriter::submit(IncomingEvent &&event, Completion &&done)
{
    auto lock = m_worker.lock();
    if (m_worker.stopRequested() || !m_running.load(std::memory_order_acquire))
        return Submit::Stopped;
    if (static_cast<int>(m_queue.size()) >= m_shared.options.queueCapacity)
        return Submit::QueueFull;
    m_queue.push_back(
        PendingEvent { std::move(event), std::move(done), std::chrono::steady_clock::now(), {}, 0 });
    m_depth->fetch_add(1, std::memory_order_relaxed);
    const bool wasEmpty = m_queue.size() == 1;
    lock.unlock();
    if (wasEmpty) // otherwise every lane is busy and looks at the queue before waiting
        m_worker.notifyOne();
    return Submit::Queued;
}

bool GroupCommitWriter::submitRejection(RejectionRecord &&rejection)
{
    auto lock = m_worker.lock();
    if (m_worker.stopRequested()
        || static_cast<int>(m_rejectionQueue.size()) >= m_shared.options.rejectionQueueCapacity) {
        lock.unlock();
        m_shared.rejectionsDropped.inc();
        return false;
    }
    m_rejectionQueue.push_back(std::move(rejection));
    const bool wasEmpty = m_rejectionQueue.size() == 1 && m_queue.empty();
    lock.unlock();
    if (wasEmpty)
        m_worker.notifyOne();
    return true;
}

bool GroupCommitWriter::take(
    WriterLane &lane, std::vector<PendingEvent> &batch, std::vector<RejectionRecord> &rejections)
{
    auto lock = m_worker.lock();
    m_worker.waitUntil(lock, lane.nextMaintenance(), [this] {
        return m_worker.stopRequested() || (!m_paused && (!m_queue.empty() || !m_rejectionQueue.empty()));
    });
    const bool draining = m_worker.stopRequested();
    if (!m_paused || draining) {
        const std::size_t n = std::min(m_queue.size(), static_cast<std::size_t>(m_shared.options.batchMax));
        for (std::size_t i = 0; i < n; ++i) {
            batch.push_back(std::move(m_queue.front()));
            m_queue.pop_front();
        }
        m_depth->fetch_sub(static_cast<int>(n), std::memory_order_relaxed);
        const std::size_t r = std::min(m_rejectionQueue.size(),
            static_cast<std::size_t>(std::max(1, m_shared.options.rejectionsPerBatch)));
        for (std::size_t i = 0; i < r; ++i) {
            rejections.push_back(std::move(m_rejectionQueue.front()));
            m_rejectionQueue.pop_front();
        }
    }
    if (draining && batch.empty() && rejections.empty() && m_queue.empty() && m_rejectionQueue.empty())
        return false;
    if (draining)
        m_running.store(false, std::memory_order_release);
    // More than one batch waiting: an idle lane can take the rest now.
    const bool more = (!m_paused || draining) && (!m_queue.empty() || !m_rejectionQueue.empty());
    lock.unlock();
    if (more && m_connections > 1)
        m_worker.notifyOne();
    return true;
}

void GroupCommitWriter::run(int index)
{
    WriterLane &lane = *m_lanes[static_cast<std::size_t>(index)];
    std::vector<PendingEvent> batch;
    batch.reserve(static_cast<std::size_t>(m_shared.options.batchMax));
    std::vector<RejectionRecord> rejections;
    while (take(lane, batch, rejections)) {
        if (!batch.empty() || !rejections.empty())
            lane.commit(batch, rejections);
        lane.maintenance();
    }
    m_running.store(false, std::memory_order_release);
    lane.close();
}

} // namespace redrive::ingest
