// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"
#include "storage/database.h"
#include "storage/databaseavailability.h"
#include "storage/ingeststore.h"
#include "util/clock.h"
#include "util/metrics.h"
#include "walcheckpointer.h"

#include <QJsonValue>
#include <QStringList>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

namespace redrive::ingest {

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

// One thread with its own database connection that turns concurrent ingest requests into few
// transactions: whatever queued up while the previous commit was flushing goes into the next
// one (up to batch_max), so the cost of an fsync is shared by every request in the batch.
// Completions and onCommitted run on the writer thread: they must be quick and must not block.
class GroupCommitWriter final {
public:
    struct Options {
        StorageUrl url;
        SqliteSync sqliteSynchronous = SqliteSync::Full;
        int batchMax = 256;
        int queueCapacity = 10'000;
        int rejectionQueueCapacity = 1'000;
        int rejectionsPerBatch = 64; // bad traffic can never crowd good events out of a batch
        int rejectionsKeep = 10'000;
        int heartbeatIntervalMs = 10'000;
        ReceiverInstance instance; // id, host, pid, version; durability is filled in here
    };

    GroupCommitWriter(std::shared_ptr<const Config> config, Options options, metrics::Registry &registry,
        const Clock &clock = Clock::system());
    ~GroupCommitWriter();
    GroupCommitWriter(const GroupCommitWriter &) = delete;
    GroupCommitWriter &operator=(const GroupCommitWriter &) = delete;

    // Set before start().
    void setOnCommitted(std::function<void(const CommitSummary &)> callback)
    {
        m_onCommitted = std::move(callback);
    }

    // Opens the connection on the writer thread, prepares the statements and records this
    // receiver in receiver_instances. Returns once the thread is ready (or failed).
    bool start(QString *error);
    // Refuses new work, commits everything already queued, then joins the thread.
    void stop();

    enum class Submit { Queued, QueueFull, Stopped };
    // Queued: `done` runs on the writer thread once the event is committed (or failed). On
    // QueueFull and Stopped neither argument is moved from, so the caller can still answer
    // through `done`.
    Submit submit(IncomingEvent &&event, Completion &&done);
    // Rejections are kept off the hot path and bounded: false when dropped (queue full).
    bool submitRejection(RejectionRecord &&rejection);

    [[nodiscard]] bool isRunning() const { return m_running.load(std::memory_order_acquire); }
    // False after a failed commit or heartbeat until the next success.
    [[nodiscard]] bool databaseHealthy() const { return m_healthy.load(std::memory_order_acquire); }
    [[nodiscard]] int queueDepth() const { return m_depth->load(std::memory_order_relaxed); }
    [[nodiscard]] QString durabilityReport() const;
    [[nodiscard]] bool powerLossDurable() const { return m_powerLossDurable.load(); }

    // Maintenance and test hook: while paused the writer takes nothing from its queue (stop()
    // still drains it).
    void setPaused(bool paused);

private:
    struct Pending {
        IncomingEvent event;
        Completion done;
        std::chrono::steady_clock::time_point enqueued;
        IngestOutcome outcome;
        int newDeliveries = 0;
    };

    void run(std::promise<QString> *ready);
    bool openDatabase(QString *error);
    bool reconnectIfNeeded();
    void commitBatch();
    bool storeOne(Pending &p, qint64 nowMs, QString *error);
    bool storeBatchMultiRow(qint64 nowMs, QString *error);
    void planDeliveries(const IncomingEvent &event, qint64 eventId, QList<DeliveryRow> *out);
    static void appendKeys(const IncomingEvent &event, qint64 eventId, QList<KeyRow> *out);
    void retryIndividually();
    void finish(Pending &p, bool ok, IngestOutcome::Failure failure = IngestOutcome::Failure::StoreFailed);
    void maintenance();
    const QStringList &routesFor(const QString &source, const QString &type);
    std::optional<QString> orderingKey(
        const DestinationConfig &destination, const QByteArray &body, std::optional<QJsonValue> &parsed);

    std::shared_ptr<const Config> m_config;
    Options m_options;
    const Clock &m_clock;
    std::function<void(const CommitSummary &)> m_onCommitted;

    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<Pending> m_queue;
    std::deque<RejectionRecord> m_rejectionQueue;
    bool m_stopRequested = false;
    bool m_paused = false;
    QString m_durability;

    std::atomic<bool> m_running { false };
    std::atomic<bool> m_healthy { false };
    std::atomic<bool> m_powerLossDurable { false };
    // Shared with the queue-depth gauge, which may be scraped after the writer is gone.
    std::shared_ptr<std::atomic<int>> m_depth = std::make_shared<std::atomic<int>>(0);
    std::thread m_thread;

    // Writer-thread state.
    std::unique_ptr<WalCheckpointer> m_checkpointer; // SQLite
    std::unique_ptr<Db> m_db;
    std::unique_ptr<IngestStore> m_store;
    std::vector<Pending> m_batch;
    std::vector<RejectionRecord> m_rejections;
    std::unordered_map<QString, QStringList> m_routeCache;
    int m_rejectionsSinceTrim = 0;
    std::chrono::steady_clock::time_point m_lastTrim;
    std::chrono::steady_clock::time_point m_lastHeartbeat;
    std::chrono::steady_clock::time_point m_lastReconnect;

    metrics::Histogram &m_commitSeconds;
    metrics::Histogram &m_ackSeconds;
    metrics::Histogram &m_batchSize;
    metrics::Counter &m_commitFailures;
    metrics::Counter &m_itemFailures;
    metrics::Counter &m_rejectionsStored;
    metrics::Counter &m_rejectionsDropped;
    metrics::Counter &m_rejectionsTrimmed;
    metrics::Gauge &m_durableGauge;
    DatabaseAvailability m_availability; // ingest's view: one log line per outage, not per request
};

} // namespace redrive::ingest
