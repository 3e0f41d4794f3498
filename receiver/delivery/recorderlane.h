// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "deliverystore.h"
#include "storage/database.h"
#include "util/worker.h"

#include <QList>
#include <QString>

#include <functional>
#include <memory>

// A thread with its own database connection that records attempt results for the engine. On
// PostgreSQL recording a delivery costs more server work than ingesting its event (fenced
// update, attempt row, event status), so the engine records part of each turn's results on a
// lane while its own connection records the rest and claims: the work runs on two server
// backends at once. (SQLite has one writer at a time; it uses no lanes.)
//
// Fencing is unchanged: a lane runs the same conditional updates (DeliveryStore::recordMany).
// The engine sends all results of one event to the same lane, so two connections never update
// the same event row at once.
namespace redrive::delivery {

class RecorderLane final {
public:
    using Items = QList<std::pair<Claim, AttemptRecord>>;
    // Runs on the lane's thread after each batch.
    using Done = std::function<void(Items items, QList<RecordResult> results, QString error)>;

    RecorderLane(StorageUrl storage, QString name, Done done);
    ~RecorderLane(); // stop()
    RecorderLane(const RecorderLane &) = delete;
    RecorderLane &operator=(const RecorderLane &) = delete;

    Result<> start();
    void submit(Items items);
    // Results queued or being recorded.
    [[nodiscard]] int pending() const;
    // Records what is queued, then ends the thread.
    void stop();

private:
    void run();

    const StorageUrl m_storage;
    const QString m_name;
    const Done m_done;
    Worker m_worker; // its mutex guards m_queue and m_busy
    Items m_queue;
    int m_busy = 0; // items taken by the thread, not yet reported
    // Lane thread only:
    std::unique_ptr<Db> m_db;
    std::unique_ptr<DeliveryStore> m_store;
    int m_failures = 0;
};

} // namespace redrive::delivery
