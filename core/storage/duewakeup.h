// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <thread>

// "Deliveries are due": the wake-up that lets a delivery engine claim a committed event at once
// instead of at its next poll, across every receiver that shares one PostgreSQL database.
//
// The admin API's writers (the replay executor, a destination resume) call notifyDeliveriesDue()
// inside the transaction that made deliveries due. On PostgreSQL that is a NOTIFY, which the
// server hands to listeners only when (and if) the transaction commits, and folds into one
// however often a transaction sends it, so a rolled-back change wakes nobody. The ingest writer,
// which commits far more often, sends its wake-ups after the commit through a DueNotifier
// (duenotifier.h says why). On SQLite nothing is sent: only one process writes a SQLite file,
// and its writers wake the engine in-process.
//
// Every delivery engine on PostgreSQL runs a DueListener: LISTEN on a connection of its own,
// on a thread of its own (QPSQL's notification support needs an event loop; the engine thread
// waits on a condition variable instead). Polling stays the fallback: a notification can be lost
// while the listening connection is down, so the listener also wakes the engine each time it
// (re)connects, and the engine keeps its poll.
namespace redrive {

// The channel name is part of the contract between receivers of different versions on one
// database: keep it.
inline constexpr char kDeliveriesDueChannel[] = "redrive_deliveries_due";

// NOTIFY on PostgreSQL inside the caller's open write transaction; true and nothing on SQLite.
Result<> notifyDeliveriesDue(Db &db);

class DueListener final {
public:
    // `onDue` runs on the listener thread for each batch of notifications and after each
    // (re)connection; it must be quick and must not block (set a flag, notify a condition).
    // Notifications whose payload is `ignoredOrigin` (this receiver's own DueNotifier: its engine
    // was woken in-process already) wake nothing; an empty `ignoredOrigin` ignores none.
    DueListener(StorageUrl url, std::function<void()> onDue, QByteArray ignoredOrigin = {});
    ~DueListener(); // stop()
    DueListener(const DueListener &) = delete;
    DueListener &operator=(const DueListener &) = delete;

    // Starts the thread; fails only when it cannot be created (SQLite urls are
    // refused). A database that is down is not an error: the thread keeps trying, once every
    // `retryMs`, and says so in the log once per outage.
    Result<> start(int retryMs = 1'000);
    void stop();

    // True while LISTEN is in effect on a live connection.
    [[nodiscard]] bool listening() const { return m_listening.load(std::memory_order_acquire); }
    // Notifications received (each batch counted once) and connections made, for metrics/tests.
    [[nodiscard]] quint64 wakeups() const { return m_wakeups.load(std::memory_order_relaxed); }
    [[nodiscard]] quint64 connections() const { return m_connections.load(std::memory_order_relaxed); }
    // Notifications ignored as this receiver's own.
    [[nodiscard]] quint64 ignored() const { return m_ignored.load(std::memory_order_relaxed); }

private:
    void run(int retryMs);
    bool waitStop(int timeoutMs); // true when stop() was called

    StorageUrl m_url;
    std::function<void()> m_onDue;
    QByteArray m_ignoredOrigin;
    std::thread m_thread;
    int m_stopFd = -1; // eventfd: stop() wakes the thread's poll()
    std::atomic<bool> m_listening { false };
    std::atomic<quint64> m_wakeups { 0 };
    std::atomic<quint64> m_connections { 0 };
    std::atomic<quint64> m_ignored { 0 };
};

} // namespace redrive
