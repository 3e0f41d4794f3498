// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "util/worker.h"
#include "writerlane.h"

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

namespace redrive::ingest {

// Turns concurrent ingest requests into few transactions: whatever queued up while a commit was
// flushing goes into the next one (up to batch_max), so the cost of a flush is shared by every
// request in the batch. Each of its `connections` lanes (WriterLane: one thread, one database
// connection) takes the next batch from the one queue as soon as it is free, so on PostgreSQL
// several group commits are in flight at once while the server flushes; SQLite has one lane.
// On PostgreSQL a commit that made deliveries due also wakes the other receivers on the database,
// through a DueNotifier of its own (storage/duenotifier.h), with this receiver's instance id as
// the origin its own engine ignores.
// Completions and onCommitted run on a lane's thread: they must be quick, must not block, and
// may run on several threads at once.
class GroupCommitWriter final {
public:
    using Options = WriterOptions;

    GroupCommitWriter(std::shared_ptr<const Config> config, Options options, metrics::Registry &registry,
        const Clock &clock = Clock::system());
    ~GroupCommitWriter();
    GroupCommitWriter(const GroupCommitWriter &) = delete;
    GroupCommitWriter &operator=(const GroupCommitWriter &) = delete;

    // Set before start().
    void setOnCommitted(std::function<void(const CommitSummary &)> callback)
    {
        m_shared.onCommitted = std::move(callback);
    }

    // Opens every lane's connection on its thread, prepares the statements and records this
    // receiver in receiver_instances. Returns once every lane is ready (or one failed).
    Result<> start();
    // Refuses new work, commits everything already queued, then joins the threads.
    void stop();

    enum class Submit { Queued, QueueFull, Stopped };
    // Queued: `done` runs on a writer thread once the event is committed (or failed). On
    // QueueFull and Stopped neither argument is moved from, so the caller can still answer
    // through `done`.
    Submit submit(IncomingEvent &&event, Completion &&done);
    // Rejections are kept off the hot path and bounded: false when dropped (queue full).
    bool submitRejection(RejectionRecord &&rejection);

    [[nodiscard]] bool isRunning() const { return m_running.load(std::memory_order_acquire); }
    // False after a failed commit or heartbeat until the next success.
    [[nodiscard]] bool databaseHealthy() const { return m_shared.healthy.load(std::memory_order_acquire); }
    [[nodiscard]] int queueDepth() const { return m_depth->load(std::memory_order_relaxed); }
    [[nodiscard]] QString durabilityReport() const { return m_shared.durabilityReport(); }
    [[nodiscard]] bool powerLossDurable() const { return m_shared.powerLossDurable.load(); }
    // Lanes (connections) this writer runs: Options::connections, 1 on SQLite.
    [[nodiscard]] int connections() const { return m_connections; }

    // Maintenance and test hook: while paused the writer takes nothing from its queue (stop()
    // still drains it).
    void setPaused(bool paused);

private:
    void run(int index);
    // Under the worker's mutex: moves the next batch and rejections out of the queues; false when the
    // lane should exit (stopping and nothing left).
    bool take(WriterLane &lane, std::vector<PendingEvent> &batch, std::vector<RejectionRecord> &rejections);

    WriterShared m_shared;
    int m_connections = 1;

    Worker m_worker; // one thread per lane; its mutex guards the queues and m_paused
    std::deque<PendingEvent> m_queue;
    std::deque<RejectionRecord> m_rejectionQueue;
    bool m_paused = false;

    std::atomic<bool> m_running { false };
    // Shared with the queue-depth gauge, which may be scraped after the writer is gone.
    std::shared_ptr<std::atomic<int>> m_depth = std::make_shared<std::atomic<int>>(0);
    std::vector<std::unique_ptr<WriterLane>> m_lanes;
    std::unique_ptr<DueNotifier> m_notifier; // PostgreSQL only
};

} // namespace redrive::ingest
