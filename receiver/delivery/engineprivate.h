// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

// The delivery engine's private state, shared by engine.cpp (the turn: collect results,
// record, claim, send) and enginemaintenance.cpp (sweeps, retention, metrics, shutdown). Not a
// public header.

#include "circuitbreaker.h"
#include "connector.h"
#include "deliverystore.h"
#include "dispatcher.h"
#include "engine.h"
#include "enginemetrics.h"
#include "httpclient.h"
#include "recorderlane.h"
#include "storage/databaseavailability.h"
#include "storage/duewakeup.h"
#include "tokenbucket.h"
#include "util/worker.h"

#include <QHash>
#include <QLoggingCategory>

#include <chrono>
#include <mutex>
#include <optional>
#include <random>
#include <vector>

Q_DECLARE_LOGGING_CATEGORY(lcDelivery)

namespace redrive::notify {
struct Notification;
}

namespace redrive::delivery {

using Steady = std::chrono::steady_clock;

// Most deliveries claimed per destination per round; the cost of a claim or of recording a
// batch hardly depends on its size, so bigger batches are cheaper per delivery.
inline constexpr int kClaimBatch = 256;
inline constexpr int kSweepBatch = 200;
inline constexpr int kRetentionBatch = 500;
inline constexpr auto kRetentionInterval = std::chrono::minutes(10);
inline constexpr auto kRetentionFirstRun = std::chrono::seconds(5);
inline constexpr auto kBacklogInterval = std::chrono::seconds(2);
// How often the engine looks for pauses whose end has passed (a read while none has).
inline constexpr auto kPauseCheckInterval = std::chrono::seconds(1);
// A dead letter brings the incident check forward, but checks stay this far apart: a burst of
// dead letters is one check, and one incident.
inline constexpr auto kIncidentMinInterval = std::chrono::seconds(1);
// A claim is sent only while its lease outlasts the whole exchange plus this margin for
// recording the result (the Dispatcher's test at send time)...
inline constexpr qint64 kLeaseMarginMs = 5'000;
// ... and a lease is never shorter than that plus this much time waiting in the Dispatcher's
// queue, so a claim can be sent at all. (A lease of exactly timeout + margin expired at the
// first millisecond after the claim: every claim was given back unsent, in a loop.)
inline constexpr qint64 kLeaseQueueAllowanceMs = 2'000;
inline constexpr qint64 kMaxResponseBytes = 256LL * 1024;
// Claiming ahead: each destination keeps about this much work claimed beyond what it is
// sending (from the mean exchange time), between one and kMaxWavesAhead × concurrency, so it
// stays busy while the engine records the last batch. Bodies claimed ahead are capped in bytes.
inline constexpr double kAheadTargetMs = 1000;
inline constexpr int kMaxWavesAhead = 16;
inline constexpr qint64 kAheadBodyBytes = 32LL * 1024 * 1024;
// PostgreSQL: results are recorded on this many connections at once (the engine's own and
// kRecordLanes - 1 recorder lanes). No new claims while a lane has this many results waiting.
inline constexpr int kRecordLanes = 4;
inline constexpr int kLaneBacklog = 4096;
inline constexpr qint64 kMaxResponseBytesJsonRef = 1024LL * 1024;
// After the connection was re-opened (a database restart or outage), expired leases are left
// alone this long, so that results held through the outage (here and on other receivers) are
// recorded before the sweeper would count their attempts as lost.
inline constexpr auto kSweepGraceAfterReopen = std::chrono::seconds(10);

// One finished attempt (or one never sent), handed from the I/O thread to the engine thread.
struct Finished {
    Claim claim;
    AttemptOutcome outcome;
    std::optional<Classification> preset; // integrity failures never reach the network
    qint64 startedAt = 0;
    qint64 durationMs = 0;
    qint64 bodyBytes = 0; // of the claim's body, held while it was claimed
};

// What a recorder lane reports back: the results it recorded (or could not).
struct Recorded {
    QList<std::pair<Claim, AttemptRecord>> items;
    QList<RecordResult> results;
    QString error;
};

// Shared with the HTTP callbacks, so a late callback after the engine is gone is harmless.
struct Inbox {
    Worker worker; // the engine thread; its mutex guards what follows
    QList<Finished> finished;
    QList<Recorded> recorded;
    Steady::time_point graceDeadline;

    void push(Finished f)
    {
        bool first = false;
        {
            auto lock = worker.lock();
            first = finished.isEmpty();
            finished.append(std::move(f));
        }
        if (first) // the engine wakes for the first result and takes all that arrived meanwhile
            worker.notifyOne();
    }

    void wakeUp() { worker.wake(); }

    void push(Recorded r)
    {
        {
            auto lock = worker.lock();
            recorded.append(std::move(r));
        }
        worker.notifyOne();
    }
};

struct DestinationState {
    const DestinationConfig *config = nullptr;
    int inFlight = 0; // claimed and not yet recorded: queued, sending, or waiting to be recorded
    TokenBucket bucket;
    std::optional<CircuitBreaker> circuit; // when the destination has a breaker
};

QString defaultWorkerId();

class DeliveryEngine::Private {
public:
    Private(const Config &cfg, const StorageUrl &url, const Clock &clk, metrics::Registry &registry,
        std::shared_ptr<Connector> conn)
        : config(cfg)
        , storage(url)
        , clock(clk)
        , metrics(registry,
              [&] {
                  QStringList names;
                  for (const auto &dest : cfg.destinations)
                      names.append(dest.name);
                  return names;
              }())
        , connector(std::move(conn))
        , worker(cfg.delivery.workerId.isEmpty() ? defaultWorkerId() : cfg.delivery.workerId)
        , inbox(std::make_shared<Inbox>())
        , rng(std::random_device {}())
        , availability(registry, QStringLiteral("delivery"))
    {
        for (const auto &dest : config.destinations) {
            DestinationState s;
            s.config = &dest;
            s.bucket = TokenBucket(dest.ratePerSecond);
            if (dest.circuit)
                s.circuit.emplace(*dest.circuit);
            destinations.insert(dest.name, s);
            order.append(dest.name);
        }
    }

    // On the engine thread: open() its connection, HTTP client and lanes, then run() until stop.
    Result<> open();
    void run();
    using Items = QList<std::pair<Claim, AttemptRecord>>;
    Items collect(const QList<Finished> &batch);
    Items toLanes(Items items);
    QList<QList<Claim>> claimEach(const QList<ClaimRequest> &requests, qint64 now);
    void takeRecorded(const QList<Recorded> &recorded);
    void startLanes();
    void recordFinished(const QList<Finished> &batch);
    QList<ClaimRequest> claimRequests(Steady::time_point *rateDeadline);
    bool turn(Items items, const QList<ClaimRequest> &requests);
    void noteRecorded(const Items &items, const QList<RecordResult> &results, const QString &error);
    int claimCapacity(const QString &name, const DestinationState &state) const;
    void launch(const Claim &claim);
    void maintenance(Steady::time_point now);
    void drain();
    qint64 leaseFor(const DestinationConfig &dest) const
    {
        return std::max<qint64>(
            config.delivery.leaseMs, dest.timeoutMs + kLeaseMarginMs + kLeaseQueueAllowanceMs);
    }
    // How long a claim of `dest` may wait in the Dispatcher's queue and still be sent.
    qint64 queueSlackFor(const DestinationConfig &dest) const
    {
        return leaseFor(dest) - dest.timeoutMs - kLeaseMarginMs;
    }
    double draw() { return std::uniform_real_distribution<double>(-1.0, 1.0)(rng); }
    AttemptRecord decide(const Finished &f, const DestinationConfig *dest, bool circuitOpen = false);
    // The circuit breaker (enginecircuits.cpp): counts a decided attempt, opening the circuit
    // after its failures or closing it on a success; may re-decide `attempt` as held.
    void noteForCircuit(const Finished &f, const DestinationConfig *dest, AttemptRecord &attempt);
    [[nodiscard]] bool circuitOpen(const QString &destination) const;
    // A due probe of an open circuit, when this receiver took its slot; pushes `deadline` to the
    // next probe otherwise. Nothing when the destination's circuit is closed or absent.
    std::optional<ClaimRequest> probeRequest(
        const QString &name, DestinationState &state, Steady::time_point *deadline);
    void refreshCircuits(); // the shared state, read back every kPauseCheckInterval
    void setCircuitOpen(const QString &name, DestinationState &state, bool open, qint64 nextProbeAt);
    void adjustInFlight(const QString &destination, int delta);
    // Inside the caller's transaction (the one that records what it announces): stores a
    // notification for the targets that want it ([[notifications]]); the engine then delivers it
    // to `notify:<name>` like any delivery.
    Result<> storeNotification(const notify::Notification &notification);

    Config config;
    StorageUrl storage;
    const Clock &clock;
    EngineMetrics metrics;
    std::shared_ptr<Connector> connector;
    QString worker;
    std::shared_ptr<Inbox> inbox;
    std::function<void(const ClaimEvent &)> observer;

    std::unique_ptr<DueListener> listener; // PostgreSQL only
    QByteArray ownWakeOrigin; // the listener ignores these notifications
    mutable std::mutex countersMutex;
    Counters counters;

    // Engine thread only:
    std::unique_ptr<Db> db;
    std::unique_ptr<DeliveryStore> store;
    std::unique_ptr<HttpClient> http;
    std::unique_ptr<Dispatcher> dispatcher;
    std::vector<std::unique_ptr<RecorderLane>> lanes;
    QHash<QString, DestinationState> destinations;
    QStringList order;
    qsizetype roundRobin = 0;
    int inFlight = 0;
    qint64 claimedBodyBytes = 0;
    std::mt19937_64 rng;
    Steady::time_point nextSweep;
    Steady::time_point nextRetention;
    Steady::time_point nextBacklog;
    Steady::time_point nextPauseCheck;
    void resumeEndedPauses(Steady::time_point now); // pauses with an end that has passed
    bool retentionBacklog = false;
    void purgeExpired(Steady::time_point now); // events and closed incidents past retention
    Steady::time_point nextIncidentCheck; // the periodic check ([incidents] check_interval)
    Steady::time_point lastIncidentCheck;
    bool incidentsDue = false; // something was dead-lettered since the last check
    void checkIncidents(Steady::time_point now);
    QList<std::pair<Claim, AttemptRecord>> unrecorded; // results a busy database refused; retried next turn
    int dbFailures = 0; // consecutive failed database operations
    Steady::time_point nextReopen;
    Steady::time_point sweepHeldUntil; // see kSweepGraceAfterReopen
    DatabaseAvailability availability;

    void noteDb(bool ok)
    {
        dbFailures = ok ? 0 : dbFailures + 1;
        if (ok)
            availability.reportUp();
    }
    // A result the database would not take yet is held while its lease is valid, and for as
    // long as the database is unreachable: recording is conditional on the lease token, so a
    // late record is either right or refused, and a dropped one would become a lost attempt.
    [[nodiscard]] bool holdUnrecorded(const Claim &claim) const
    {
        return clock.nowMs() < claim.leaseExpiresAt || dbFailures > 0 || !availability.isUp();
    }
    void reopenIfBroken(Steady::time_point now);
};

} // namespace redrive::delivery
