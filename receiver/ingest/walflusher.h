// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QString>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace redrive::ingest {

// SQLite only: the durable flush of the group-commit writer's transactions, on a thread of its
// own, so that the writer prepares and commits the next batch while the disk flushes the last.
//
// The writer's connection runs synchronous=NORMAL, under which SQLite commits a transaction to
// the WAL without syncing it (everything else that makes WAL mode crash-safe stays: the header is
// synced when the WAL starts over, checkpoints sync the WAL before copying it and the database
// after). After each COMMIT the writer hands the batch's completion to enqueue(); the flusher
// runs fdatasync() on the WAL file and only then calls it, so an acknowledgement still leaves
// only after its transaction is on disk — the guarantee of synchronous=FULL. Commits that queue
// up during one flush share the next one. If a flush ever fails, every completion from then on
// is told so (the kernel may have dropped the dirty pages: nothing written since can be
// trusted to be on disk), and failed() stays true until the process restarts.
class WalFlusher final {
public:
    using AfterFlush = std::function<void(bool flushed)>;

    // `walPath` is the database path plus "-wal"; `databasePath` is flushed instead if the WAL
    // file no longer exists (SQLite removes it only after copying it into the database).
    WalFlusher(QString databasePath, QString walPath);
    ~WalFlusher();
    WalFlusher(const WalFlusher &) = delete;
    WalFlusher &operator=(const WalFlusher &) = delete;

    // Test seam, set before start(): runs on the flusher thread just before each fdatasync (tests
    // hold a flush open with it to commit "during" it).
    void setBeforeFlush(std::function<void()> hook) { m_beforeFlush = std::move(hook); }

    bool start(QString *error);
    // Flushes and completes everything enqueued, then joins the thread.
    void stop();

    // `done` runs on the flusher thread after an fdatasync() that began after this call.
    void enqueue(AfterFlush done);
    // Blocks while more than `limit` enqueued commits are still waiting for their flush.
    void waitUntilAtMost(int limit);

    [[nodiscard]] bool failed() const { return m_failed.load(std::memory_order_acquire); }
    [[nodiscard]] quint64 flushes() const { return m_flushes.load(std::memory_order_relaxed); }

private:
    void run();
    bool flush(QString *error);
    bool reopenIfReplaced(QString *error);

    QString m_databasePath;
    QString m_walPath;
    int m_fd = -1;
    std::function<void()> m_beforeFlush;
    std::atomic<bool> m_failed { false };
    std::atomic<quint64> m_flushes { 0 };

    std::mutex m_mutex;
    std::condition_variable m_work; // the flusher waits for commits
    std::condition_variable m_flushed; // the writer waits for the backlog to shrink
    std::deque<AfterFlush> m_queue;
    int m_unflushed = 0; // enqueued and not yet completed
    bool m_stop = false;
    std::thread m_thread;
};

} // namespace redrive::ingest
