// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"
#include "util/worker.h"

#include <atomic>

namespace redrive::ingest {

// SQLite only. Copies the WAL back into the database file on its own thread and connection, so
// that the group-commit writer (which runs with wal_autocheckpoint=0) never stalls an
// acknowledgement behind a checkpoint and its fsync. Passive checkpoints never block the
// writer; if the WAL still grows past a bound (the checkpointer cannot catch up under a long
// burst), one RESTART checkpoint briefly holds the writer back and lets the WAL start over.
class WalCheckpointer final {
public:
    explicit WalCheckpointer(StorageUrl url, SqliteSync synchronous);
    ~WalCheckpointer();
    WalCheckpointer(const WalCheckpointer &) = delete;
    WalCheckpointer &operator=(const WalCheckpointer &) = delete;

    Result<> start();
    void stop();
    // The writer committed: there is WAL to copy.
    void noteCommit() { m_dirty.store(true, std::memory_order_relaxed); }

    static constexpr int kIntervalMs = 100;
    static constexpr int kRestartFrames = 4096; // about 16 MiB of WAL with 4 KiB pages

private:
    void run();

    StorageUrl m_url;
    SqliteSync m_synchronous;
    std::unique_ptr<Db> m_db;
    std::atomic<bool> m_dirty { false };
    Worker m_worker;
};

} // namespace redrive::ingest
