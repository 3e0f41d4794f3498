// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QByteArray>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace redrive {

// Tells the other receivers on a PostgreSQL database that deliveries are due, after the commit
// that made them due (see duewakeup.h for the listening side).
//
// Why not a NOTIFY inside the ingest transaction: PostgreSQL serialises the commits of every
// transaction that sent a NOTIFY, database-wide, and holds that lock while the commit record is
// flushed. With several writer connections each batch then waited for the others' flushes
// (tens of milliseconds under load) instead of sharing them, which delayed the acknowledgement
// and the wake-up it was meant to speed up. Here the writers commit without it, wake their own
// process's engine in-process, and poke() this notifier, which sends the NOTIFY on a connection
// of its own with synchronous_commit off: its commit holds the lock only for the time it takes
// to write the commit record, not to flush it. Losing that commit in a crash loses nothing but a
// wake-up, which the listeners' poll covers.
//
// Pokes fold: however many arrive while one NOTIFY is on its way, one more follows it. Each
// poke comes after its commit returned, so the NOTIFY that answers it commits later, and a
// listener woken by it sees the events.
//
// The payload is the sending receiver's `origin` (its instance id): a receiver's own engine,
// already woken in-process, ignores the notifications its own notifier sent.
class DueNotifier final {
public:
    DueNotifier(StorageUrl url, QByteArray origin);
    ~DueNotifier(); // stop()
    DueNotifier(const DueNotifier &) = delete;
    DueNotifier &operator=(const DueNotifier &) = delete;

    // Starts the thread (PostgreSQL urls only). A database that is down is not an error: the
    // thread connects when it is asked to send and retries every `retryMs` while a poke waits,
    // saying so in the log once per outage.
    Result<> start(int retryMs = 1'000);
    // Sends what is still waiting (one attempt) and ends the thread.
    void stop();

    // After a commit that made deliveries due. Never waits for the database.
    void poke();

    // NOTIFYs committed; for tests and metrics.
    [[nodiscard]] quint64 sent() const { return m_sent.load(std::memory_order_relaxed); }

private:
    void run(int retryMs);

    StorageUrl m_url;
    QByteArray m_origin;
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_pending = false; // under m_mutex
    bool m_stop = false; // under m_mutex
    std::atomic<quint64> m_sent { 0 };
};

} // namespace redrive
