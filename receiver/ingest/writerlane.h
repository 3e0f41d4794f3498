// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"
#include "storage/database.h"
#include "storage/databaseavailability.h"
#include "storage/duenotifier.h"
#include "storage/ingeststore.h"
#include "util/clock.h"
#include "util/metrics.h"
#include "walcheckpointer.h"

#include <QJsonValue>
#include <QLoggingCategory>
#include <QStringList>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

namespace redrive::ingest {

Q_DECLARE_LOGGING_CATEGORY(lcWriter)

// What became of one submitted event. `ok` is only true after the transaction that holds the
// event (and its deliveries) committed durably.
struct IngestOutcome {
    enum class Failure { None, StoreFailed, QueueFull, ShuttingDown, DatabaseUnavailable };
    bool ok = false;
    qint64 eventId = 0;
    bool duplicate = false;
    Failure failure = Failure::StoreFailed; // when !ok
};
using Completion = std::function<void(const IngestOutcome &)>;

// Reported after every successful commit; the delivery engine uses it as a wake-up.
struct CommitSummary {
    int events = 0; // requests committed in this transaction
    int newEvents = 0;
    int duplicates = 0;
    int newDeliveries = 0; // pending deliveries created, due now
};

struct WriterOptions {
    StorageUrl url;
    SqliteSync sqliteSynchronous = SqliteSync::Full;
    int batchMax = 256;
    // Writer connections, each its own thread and group commit (StorageConfig::writerConnections).
    // SQLite has one writer at a time: always 1 there, whatever is asked.
    int connections = 1;
    int queueCapacity = 10'000;
    int rejectionQueueCapacity = 1'000;
    int rejectionsPerBatch = 64; // bad traffic can never crowd good events out of a batch
    int rejectionsKeep = 10'000;
    int heartbeatIntervalMs = 10'000;
    InstanceRecord instance; // id, host, pid, version; durability is filled in here
};

// One submitted event on its way through a lane.
struct PendingEvent {
    IncomingEvent event;
    Completion done;
    std::chrono::steady_clock::time_point enqueued;
    IngestOutcome outcome;
    int newDeliveries = 0;
};

// What the lanes of one writer share: settings, metrics and the health they report. Everything
// here is either immutable after start or thread-safe.
struct WriterShared {
    WriterShared(std::shared_ptr<const Config> config, WriterOptions options, metrics::Registry &registry,
        const Clock &clock);

    void setDurability(const QString &report, bool durable);
    [[nodiscard]] QString durabilityReport() const;

    const std::shared_ptr<const Config> config;
    WriterOptions options;
    const Clock &clock;
    std::function<void(const CommitSummary &)> onCommitted; // set before start
    DueNotifier *notifier = nullptr; // PostgreSQL: wakes the other receivers; set before start

    std::atomic<bool> healthy { false };
    std::atomic<bool> powerLossDurable { false };
    std::atomic<int> rejectionsSinceTrim { 0 };

    metrics::Histogram &commitSeconds;
    metrics::Histogram &ackSeconds;
    metrics::Histogram &batchSize;
    metrics::Counter &commitFailures;
    metrics::Counter &itemFailures;
    metrics::Counter &rejectionsStored;
    metrics::Counter &rejectionsDropped;
    metrics::Counter &rejectionsTrimmed;
    metrics::Counter &keysIndexed;
    metrics::Gauge &durableGauge;
    DatabaseAvailability availability; // ingest's view: one log line per outage, not per request

private:
    mutable std::mutex m_mutex;
    QString m_durability;
};

// One writer connection and the transactions it runs: a batch of events (and rejections) in
// one group commit. A lane is used by one thread only; several lanes of one writer commit
// concurrently on PostgreSQL. Lane 0 is the primary: it records this receiver in
// receiver_instances, sends the heartbeat and (SQLite) owns the WAL checkpointer.
class WriterLane final {
public:
    WriterLane(WriterShared &shared, int index);
    ~WriterLane();
    WriterLane(const WriterLane &) = delete;
    WriterLane &operator=(const WriterLane &) = delete;

    // On the lane's thread: opens the connection and prepares the statements (the primary also
    // starts the checkpointer and records the receiver instance).
    Result<> open();
    // Commits `batch` and `rejections` in one transaction, answers every event, and clears both.
    void commit(std::vector<PendingEvent> &batch, std::vector<RejectionRecord> &rejections);
    // Trims the rejections table when due; the primary also sends the heartbeat.
    void maintenance();
    [[nodiscard]] std::chrono::steady_clock::time_point nextHeartbeat() const;
    // When maintenance() has work next: the heartbeat, or pending business keys to index.
    [[nodiscard]] std::chrono::steady_clock::time_point nextMaintenance() const;
    // Stops the checkpointer and closes the connection (the last one to close copies the WAL).
    void close();

private:
    Result<> openDatabase();
    Result<> recordInstance();
    bool reconnectIfNeeded();
    Result<> storeOne(PendingEvent &p, qint64 nowMs);
    Result<> storeBatchMultiRow(std::vector<PendingEvent> &batch, qint64 nowMs);
    void retryIndividually(std::vector<PendingEvent> &batch, std::vector<RejectionRecord> &rejections);
    void announce(const CommitSummary &summary);
    void finish(
        PendingEvent &p, bool ok, IngestOutcome::Failure failure = IngestOutcome::Failure::StoreFailed);
    void planDeliveries(const IncomingEvent &event, qint64 eventId, QList<DeliveryRow> *out);
    static void appendKeys(const IncomingEvent &event, qint64 eventId, QList<KeyRow> *out);
    const QStringList &routesFor(const QString &source, const QString &type);
    void noteUnindexedKeys(std::chrono::steady_clock::time_point committedAt);
    void indexKeysIfDue(std::chrono::steady_clock::time_point now);
    void indexKeys();

    // Pending business keys are indexed in batches of this many events, or after this delay.
    static constexpr int kKeyIndexBatch = 4096;
    static constexpr std::chrono::milliseconds kKeyIndexDelay { 500 };

    WriterShared &m_shared;
    const int m_index;
    std::unique_ptr<WalCheckpointer> m_checkpointer; // SQLite, primary lane
    std::unique_ptr<Db> m_db;
    std::unique_ptr<IngestStore> m_store;
    std::unordered_map<QString, QStringList> m_routeCache;
    std::chrono::steady_clock::time_point m_lastTrim;
    std::chrono::steady_clock::time_point m_lastHeartbeat;
    std::chrono::steady_clock::time_point m_lastReconnect;
    int m_unindexedEvents = 0; // new events with keys this lane committed since its last index batch
    std::chrono::steady_clock::time_point m_oldestUnindexed;
};

} // namespace redrive::ingest
