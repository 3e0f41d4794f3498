// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "engine.h"

#include "connector.h"
#include "deliverystore.h"
#include "dispatcher.h"
#include "recorderlane.h"
#include "enginemetrics.h"
#include "httpclient.h"
#include "retention.h"
#include "tokenbucket.h"

#include "crypto/crypto.h"
#include "delivery/outgoingheaders.h"
#include "delivery/responsecapture.h"
#include "delivery/retrypolicy.h"

#include <QCoreApplication>
#include <QHash>
#include <QLoggingCategory>
#include <QSysInfo>

#include <algorithm>
#include <condition_variable>
#include <future>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

Q_LOGGING_CATEGORY(lcDelivery, "redrive.delivery")

namespace redrive::delivery {
namespace {

using Steady = std::chrono::steady_clock;

// Most deliveries claimed per destination per round; the cost of a claim or of recording a
// batch hardly depends on its size, so bigger batches are cheaper per delivery.
constexpr int kClaimBatch = 256;
constexpr int kSweepBatch = 200;
constexpr int kRetentionBatch = 500;
constexpr auto kRetentionInterval = std::chrono::minutes(10);
constexpr auto kRetentionFirstRun = std::chrono::seconds(5);
constexpr auto kBacklogInterval = std::chrono::seconds(2);
constexpr qint64 kLeaseMarginMs = 5'000;
constexpr qint64 kMaxResponseBytes = 256 * 1024;
// Claiming ahead: each destination keeps about this much work claimed beyond what it is
// sending (from the mean exchange time), between one and kMaxWavesAhead × concurrency, so it
// stays busy while the engine records the last batch. Bodies claimed ahead are capped in bytes.
constexpr double kAheadTargetMs = 1000;
constexpr int kMaxWavesAhead = 16;
constexpr qint64 kAheadBodyBytes = 32LL * 1024 * 1024;
// PostgreSQL: results are recorded on this many connections at once (the engine's own and
// kRecordLanes - 1 recorder lanes). No new claims while a lane has this many results waiting.
constexpr int kRecordLanes = 4;
constexpr int kLaneBacklog = 4096;
constexpr qint64 kMaxResponseBytesJsonRef = 1024 * 1024;

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
    std::mutex mutex;
    std::condition_variable cv;
    QList<Finished> finished;
    QList<Recorded> recorded;
    bool wake = false;
    bool stopping = false;
    Steady::time_point graceDeadline;

    void push(Finished f)
    {
        bool first = false;
        {
            std::lock_guard lock(mutex);
            first = finished.isEmpty();
            finished.append(std::move(f));
        }
        if (first) // the engine wakes for the first result and takes all that arrived meanwhile
            cv.notify_one();
    }

    void push(Recorded r)
    {
        {
            std::lock_guard lock(mutex);
            recorded.append(std::move(r));
        }
        cv.notify_one();
    }
};

QString defaultWorkerId()
{
    static std::atomic<int> sequence{0};
    return QStringLiteral("%1:%2:%3")
        .arg(QSysInfo::machineHostName())
        .arg(QCoreApplication::applicationPid())
        .arg(sequence.fetch_add(1));
}

struct DestinationState {
    const DestinationConfig *config = nullptr;
    int inFlight = 0; // claimed and not yet recorded: queued, sending, or waiting to be recorded
    TokenBucket bucket;
};

} // namespace

class DeliveryEngine::Private {
public:
    Private(const Config &cfg, const StorageUrl &url, const Clock &clk, metrics::Registry &registry,
            std::shared_ptr<Connector> conn)
        : config(cfg)
        , storage(url)
        , clock(clk)
        , metrics(registry, [&] {
            QStringList names;
            for (const auto &d : cfg.destinations)
                names.append(d.name);
            return names;
        }())
        , connector(std::move(conn))
        , worker(cfg.delivery.workerId.isEmpty() ? defaultWorkerId() : cfg.delivery.workerId)
        , inbox(std::make_shared<Inbox>())
        , rng(std::random_device{}())
    {
        for (const auto &d : config.destinations) {
            DestinationState s;
            s.config = &d;
            s.bucket = TokenBucket(d.ratePerSecond);
            destinations.insert(d.name, s);
            order.append(d.name);
        }
    }

    void run(std::promise<QString> started);
    using Items = QList<std::pair<Claim, AttemptRecord>>;
    Items collect(QList<Finished> batch);
    Items toLanes(Items items);
    void takeRecorded(QList<Recorded> recorded);
    void startLanes();
    void recordFinished(QList<Finished> batch);
    QList<ClaimRequest> claimRequests(Steady::time_point *rateDeadline);
    bool turn(Items items, const QList<ClaimRequest> &requests);
    void noteRecorded(const Items &items, const QList<RecordResult> &results, const QString &error);
    int claimCapacity(const QString &name, const DestinationState &state) const;
    void launch(const Claim &claim);
    void maintenance(Steady::time_point now);
    void drain();
    qint64 leaseFor(const DestinationConfig &d) const
    {
        return std::max<qint64>(config.delivery.leaseMs, d.timeoutMs + kLeaseMarginMs);
    }
    double draw() { return std::uniform_real_distribution<double>(-1.0, 1.0)(rng); }
    AttemptRecord decide(const Finished &f, const DestinationConfig *dest);
    void adjustInFlight(const QString &destination, int delta);

    Config config;
    StorageUrl storage;
    const Clock &clock;
    EngineMetrics metrics;
    std::shared_ptr<Connector> connector;
    QString worker;
    std::shared_ptr<Inbox> inbox;
    std::function<void(const ClaimEvent &)> observer;

    std::thread thread;
    bool running = false;
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
    bool retentionBacklog = false;
    QList<std::pair<Claim, AttemptRecord>> unrecorded; // results a busy database refused; retried next turn
    int dbFailures = 0; // consecutive failed database operations
    Steady::time_point nextReopen;

    void noteDb(bool ok) { dbFailures = ok ? 0 : dbFailures + 1; }
    void reopenIfBroken(Steady::time_point now);
};

// A connection that keeps failing (PostgreSQL restarted, network cut) is replaced; QtSql does
// not reconnect by itself. Claims in flight keep their leases and are recorded afterwards.
void DeliveryEngine::Private::reopenIfBroken(Steady::time_point now)
{
    if (dbFailures < 3 || now < nextReopen)
        return;
    nextReopen = now + std::chrono::seconds(2);
    QString error;
    auto fresh = Db::open(storage, QStringLiteral("delivery"), {}, &error);
    if (!fresh) {
        qCWarning(lcDelivery, "database still unavailable: %s", qPrintable(error));
        return;
    }
    store.reset();
    db = std::move(fresh);
    store = std::make_unique<DeliveryStore>(*db);
    dbFailures = 0;
    qCInfo(lcDelivery, "database connection re-opened");
}

void DeliveryEngine::Private::run(std::promise<QString> started)
{
    QString error;
    db = Db::open(storage, QStringLiteral("delivery"), {}, &error);
    if (!db) {
        started.set_value(error.isEmpty() ? QStringLiteral("cannot open the database") : error);
        return;
    }
    store = std::make_unique<DeliveryStore>(*db);
    http = std::make_unique<HttpClient>(connector);
    dispatcher = std::make_unique<Dispatcher>(*http, clock, config.delivery.maxInFlight, kLeaseMarginMs);
    for (const QString &name : std::as_const(order))
        dispatcher->setConcurrency(name, destinations.value(name).config->concurrency);
    startLanes();
    started.set_value({});

    const auto begin = Steady::now();
    nextSweep = begin;
    nextBacklog = begin;
    nextRetention = begin + kRetentionFirstRun;
    bool more = false;
    Steady::time_point rateDeadline = Steady::time_point::max();
    for (;;) {
        QList<Finished> batch;
        QList<Recorded> recorded;
        bool stopping = false;
        {
            std::unique_lock lock(inbox->mutex);
            auto deadline = Steady::now() + std::chrono::milliseconds(std::max(10, config.delivery.pollIntervalMs));
            deadline = std::min({deadline, nextSweep, nextBacklog, rateDeadline,
                                 retentionBacklog ? Steady::now() : nextRetention});
            if (!unrecorded.isEmpty())
                deadline = std::min(deadline, Steady::now() + std::chrono::milliseconds(50));
            if (!more) {
                inbox->cv.wait_until(lock, deadline, [&] {
                    return inbox->wake || !inbox->finished.isEmpty() || !inbox->recorded.isEmpty() || inbox->stopping;
                });
            }
            batch.swap(inbox->finished);
            recorded.swap(inbox->recorded);
            inbox->wake = false;
            stopping = inbox->stopping;
        }
        takeRecorded(std::move(recorded));
        if (stopping) {
            recordFinished(std::move(batch));
            break;
        }
        Items items = toLanes(collect(std::move(batch)));
        maintenance(Steady::now());
        rateDeadline = Steady::time_point::max();
        // One transaction per turn: the results that came in, then the next claims.
        more = turn(std::move(items), claimRequests(&rateDeadline));
    }
    drain();
    http.reset(); // ends the I/O thread: no callback reaches the dispatcher afterwards
    dispatcher.reset();
    store.reset();
    db.reset();
}

void DeliveryEngine::Private::drain()
{
    // Claims still queued were never sent: give them back now. Let running attempts finish
    // until the grace deadline, then interrupt the rest.
    dispatcher->dropQueued();
    Steady::time_point graceDeadline;
    {
        std::lock_guard lock(inbox->mutex);
        graceDeadline = inbox->graceDeadline;
    }
    bool cancelled = false;
    const auto hardDeadline = std::max(graceDeadline, Steady::now()) + std::chrono::seconds(3);
    while (inFlight > 0 && Steady::now() < hardDeadline) {
        QList<Finished> batch;
        {
            std::unique_lock lock(inbox->mutex);
            inbox->cv.wait_until(lock, cancelled ? hardDeadline : graceDeadline,
                                 [&] { return !inbox->finished.isEmpty(); });
            batch.swap(inbox->finished);
        }
        recordFinished(std::move(batch));
        if (!cancelled && Steady::now() >= graceDeadline && inFlight > 0) {
            http->cancelAll();
            cancelled = true;
        }
    }
    if (inFlight > 0)
        qCWarning(lcDelivery, "%d attempts did not finish at shutdown; their leases will expire", inFlight);
    // The lanes record what they were given, then report it.
    for (auto &lane : lanes)
        lane->stop();
    lanes.clear();
    QList<Recorded> recorded;
    {
        std::lock_guard lock(inbox->mutex);
        recorded.swap(inbox->recorded);
    }
    takeRecorded(std::move(recorded));
}

void DeliveryEngine::Private::startLanes()
{
    if (db->isSqlite())
        return; // one writer at a time: lanes would only wait for each other
    for (int i = 1; i < kRecordLanes; ++i) {
        auto lane = std::make_unique<RecorderLane>(
            storage, QStringLiteral("delivery-lane-%1").arg(i),
            [box = inbox](RecorderLane::Items items, QList<RecordResult> results, QString error) {
                box->push(Recorded{std::move(items), std::move(results), std::move(error)});
            });
        QString error;
        if (!lane->start(&error)) {
            qCWarning(lcDelivery, "recording on one connection only: %s", qPrintable(error));
            return;
        }
        lanes.push_back(std::move(lane));
    }
}

// Results of one event always go to the same place (the engine's own connection or one lane).
DeliveryEngine::Private::Items DeliveryEngine::Private::toLanes(Items items)
{
    if (lanes.empty() || items.isEmpty())
        return items;
    const qint64 ways = static_cast<qint64>(lanes.size()) + 1;
    std::vector<Items> parts(lanes.size());
    Items own;
    for (auto &item : items) {
        const qint64 way = item.first.eventId % ways;
        if (way == 0)
            own.append(std::move(item));
        else
            parts[static_cast<std::size_t>(way - 1)].append(std::move(item));
    }
    for (std::size_t i = 0; i < lanes.size(); ++i)
        lanes[i]->submit(std::move(parts[i]));
    return own;
}

void DeliveryEngine::Private::takeRecorded(QList<Recorded> recorded)
{
    for (const Recorded &r : recorded)
        noteRecorded(r.items, r.results, r.error);
}

void DeliveryEngine::Private::adjustInFlight(const QString &destination, int delta)
{
    inFlight += delta;
    auto it = destinations.find(destination);
    if (it != destinations.end())
        it->inFlight += delta;
    metrics.inFlight(destination, delta);
}

AttemptRecord DeliveryEngine::Private::decide(const Finished &f, const DestinationConfig *dest)
{
    const Claim &c = f.claim;
    AttemptRecord a;
    a.number = c.attemptCount + 1;
    a.trigger = c.replayId ? AttemptTrigger::Replay : AttemptTrigger::Automatic;
    a.replayId = c.replayId;
    a.scheduledAt = c.scheduledAt;
    a.startedAt = f.startedAt;
    a.durationMs = f.durationMs;
    a.workerId = worker;
    a.classification = f.preset ? *f.preset : classify(f.outcome);
    a.statusCode = f.outcome.transport == AttemptOutcome::Transport::Completed ? f.outcome.statusCode : 0;
    const QByteArray refHeader = dest && dest->successRef.kind == SuccessRef::Kind::Header
                                     ? dest->successRef.name.toLatin1()
                                     : QByteArray();
    a.responseHeadersJson = selectResponseHeaders(f.outcome.responseHeaders, refHeader).toJson();
    a.responseExcerpt = responseExcerpt(f.outcome.responseBody, config.delivery.responseExcerptBytes);
    a.recordedAt = clock.nowMs();

    Classification &cls = a.classification;
    if (cls.success) {
        a.newStatus = DeliveryStatus::Succeeded;
        if (dest)
            a.downstreamRef = downstreamReference(dest->successRef, f.outcome.responseHeaders, f.outcome.responseBody);
        return a;
    }
    const int maxAttempts = dest ? dest->maxAttempts : 1;
    if (c.replayId) {
        a.newStatus = DeliveryStatus::Dead;
        cls.explanation += QStringLiteral("; a replay is one attempt \u2192 dead letter again");
        return a;
    }
    if (!cls.retryable || !dest) {
        a.newStatus = DeliveryStatus::Dead;
        return a;
    }
    if (a.number >= maxAttempts) {
        a.newStatus = DeliveryStatus::Dead;
        cls.explanation += QStringLiteral("; max_attempts (%1) reached \u2192 dead letter").arg(maxAttempts);
        return a;
    }
    a.newStatus = DeliveryStatus::Retrying;
    qint64 delay = applyJitter(baseDelayMs(*dest, a.number), config.delivery.jitter, draw());
    const QByteArrayView retryAfter = f.outcome.responseHeaders.value("Retry-After");
    if (!retryAfter.isEmpty()) {
        if (const auto asked = parseRetryAfterMs(retryAfter, a.recordedAt)) {
            const qint64 used = clampRetryAfter(*asked, delay, config.delivery.retryAfterMaxMs);
            cls.explanation += QStringLiteral("; Retry-After %1 s honoured as %2 s (bounds: schedule %3 s, "
                                              "retry_after_max %4 s)")
                                   .arg(*asked / 1000)
                                   .arg(used / 1000.0, 0, 'f', 1)
                                   .arg(delay / 1000.0, 0, 'f', 1)
                                   .arg(config.delivery.retryAfterMaxMs / 1000);
            delay = used;
        }
    }
    a.nextAttemptAt = a.recordedAt + delay;
    return a;
}

// Turns finished attempts into records (with the unrecorded ones from earlier turns). Claims
// that were never sent are given back at once.
DeliveryEngine::Private::Items DeliveryEngine::Private::collect(QList<Finished> batch)
{
    Items items;
    items.swap(unrecorded);
    QList<Claim> unsent;
    for (Finished &f : batch) {
        adjustInFlight(f.claim.destination, -1);
        claimedBodyBytes -= f.bodyBytes;
        const auto it = destinations.constFind(f.claim.destination);
        const DestinationConfig *dest = it == destinations.constEnd() ? nullptr : it->config;
        if (!f.preset && f.outcome.transport == AttemptOutcome::Transport::Cancelled && !f.outcome.requestWritten) {
            unsent.append(f.claim);
            continue;
        }
        if (!f.preset)
            metrics.attemptFinished(f.claim.destination, static_cast<double>(f.durationMs) / 1000.0);
        items.append({f.claim, decide(f, dest)});
    }
    if (!unsent.isEmpty()) {
        QString error;
        const int released = store->releaseMany(unsent, clock.nowMs(), &error);
        std::lock_guard lock(countersMutex);
        counters.released += static_cast<quint64>(std::max(0, released));
    }
    return items;
}

void DeliveryEngine::Private::recordFinished(QList<Finished> batch)
{
    Items items = collect(std::move(batch));
    if (items.isEmpty())
        return;
    QList<RecordResult> results;
    QString error;
    store->recordMany(items, &results, &error);
    noteRecorded(items, results, error);
}

void DeliveryEngine::Private::noteRecorded(const Items &items, const QList<RecordResult> &results,
                                           const QString &error)
{
    for (qsizetype i = 0; i < items.size() && i < results.size(); ++i) {
        const auto &[claim, attempt] = items.at(i);
        switch (results.at(i)) {
        case RecordResult::Recorded: {
            std::lock_guard lock(countersMutex);
            ++counters.recorded;
            break;
        }
        case RecordResult::LeaseLost: {
            metrics.leaseRefused();
            qCWarning(lcDelivery, "delivery %lld: result of attempt %d refused, the lease (token %lld) was lost",
                      claim.deliveryId, attempt.number, claim.leaseToken);
            std::lock_guard lock(countersMutex);
            ++counters.refused;
            continue;
        }
        case RecordResult::Error:
            noteDb(false);
            // Typically a busy database. Keep the result and try again on the next turn; if the
            // lease runs out meanwhile the sweeper takes over and this record is refused.
            qCWarning(lcDelivery, "delivery %lld: cannot record attempt %d yet: %s", claim.deliveryId, attempt.number,
                      qPrintable(error));
            if (clock.nowMs() < claim.leaseExpiresAt)
                unrecorded.append(items.at(i));
            continue;
        }
        switch (attempt.newStatus) {
        case DeliveryStatus::Succeeded:
            metrics.delivered(claim.destination);
            break;
        case DeliveryStatus::Retrying:
            metrics.retried(claim.destination);
            break;
        case DeliveryStatus::Dead:
            metrics.deadLettered(claim.destination, attempt.classification.category);
            break;
        default:
            break;
        }
    }
}

// How many claimed-and-unrecorded deliveries a destination may hold: its concurrency, plus
// about kAheadTargetMs of exchanges queued behind it (at least one more wave).
int DeliveryEngine::Private::claimCapacity(const QString &name, const DestinationState &state) const
{
    const int concurrency = state.config->concurrency;
    if (claimedBodyBytes >= kAheadBodyBytes)
        return concurrency;
    const double meanMs = dispatcher->load(name).meanExchangeMs;
    const int waves = meanMs <= 0 ? 1 : std::clamp(static_cast<int>(kAheadTargetMs / std::max(meanMs, 1.0)), 1,
                                                   kMaxWavesAhead);
    return concurrency * (1 + waves);
}

QList<ClaimRequest> DeliveryEngine::Private::claimRequests(Steady::time_point *rateDeadline)
{
    QList<ClaimRequest> requests;
    if (order.isEmpty())
        return requests;
    for (const auto &lane : lanes) {
        if (lane->pending() > kLaneBacklog)
            return requests; // recording is behind: claim again once it caught up
    }
    const auto steadyNow = Steady::now();
    int globalFree = config.delivery.maxInFlight * (1 + kMaxWavesAhead) - inFlight;
    for (qsizetype i = 0; i < order.size() && globalFree > 0; ++i) {
        const QString &name = order.at((roundRobin + i) % order.size());
        DestinationState &state = destinations[name];
        int wanted = std::min({claimCapacity(name, state) - state.inFlight, kClaimBatch, globalFree});
        if (wanted <= 0)
            continue;
        wanted = state.bucket.available(steadyNow, wanted);
        if (wanted <= 0) {
            *rateDeadline = std::min(*rateDeadline, steadyNow + state.bucket.untilNext(steadyNow));
            continue;
        }
        // A paused destination is asked too: the claim tests the pause before reading any row.
        requests.append({name, wanted, leaseFor(*state.config)});
        globalFree -= wanted;
    }
    roundRobin = (roundRobin + 1) % order.size();
    return requests;
}

// Records `items` and claims for `requests` in one transaction; on failure records and claims
// separately (which isolates a bad row). True when some destination may have more due now.
bool DeliveryEngine::Private::turn(Items items, const QList<ClaimRequest> &requests)
{
    if (items.isEmpty() && requests.isEmpty())
        return false;
    QList<RecordResult> results;
    QList<QList<Claim>> claims;
    QString error;
    const qint64 now = clock.nowMs();
    if (!store->recordAndClaim(items, &results, requests, worker, now, &claims, &error)) {
        if (!items.isEmpty()) {
            store->recordMany(items, &results, &error);
        }
        claims.clear();
        for (const ClaimRequest &r : requests) {
            QString claimError;
            claims.append(store->claim(r.destination, worker, now, r.leaseMs, r.limit, &claimError));
            noteDb(claimError.isEmpty());
            if (!claimError.isEmpty()) {
                if (dbFailures <= 3) // then reopenIfBroken() reports, every 2 s
                    qCWarning(lcDelivery, "claiming deliveries for %s failed: %s", qPrintable(r.destination),
                              qPrintable(claimError));
                break;
            }
        }
    } else {
        noteDb(true);
    }
    noteRecorded(items, results, error);
    bool more = false;
    for (qsizetype i = 0; i < claims.size() && i < requests.size(); ++i) {
        const QList<Claim> &taken = claims.at(i);
        DestinationState &state = destinations[requests.at(i).destination];
        state.bucket.take(static_cast<int>(taken.size()));
        {
            std::lock_guard lock(countersMutex);
            counters.claimed += static_cast<quint64>(taken.size());
        }
        for (const Claim &c : taken)
            launch(c);
        if (taken.size() == requests.at(i).limit)
            more = true;
    }
    return more;
}

void DeliveryEngine::Private::launch(const Claim &claim)
{
    if (observer)
        observer({claim.deliveryId, claim.leaseToken, worker, claim.claimedAt});
    adjustInFlight(claim.destination, +1);
    const qint64 bodyBytes = claim.body.size();
    claimedBodyBytes += bodyBytes;
    const DestinationConfig &dest = *destinations.value(claim.destination).config;
    const QByteArray actual = crypto::sha256Hex(claim.body);
    if (claim.bodySha256.isEmpty() || QString::fromLatin1(actual).compare(claim.bodySha256, Qt::CaseInsensitive) != 0) {
        Finished f;
        f.claim = claim;
        f.claim.body.clear();
        f.preset = integrityFailure(claim.bodySha256, QString::fromLatin1(actual));
        f.startedAt = clock.nowMs();
        f.bodyBytes = bodyBytes;
        inbox->push(std::move(f));
        return;
    }
    OutgoingMessage message;
    message.idempotencyKey = claim.idempotencyKey;
    message.contentType = claim.contentType;
    message.body = claim.body;
    message.timestampSeconds = clock.nowSeconds();
    message.signingSecret = dest.signingSecret;
    message.deliveryId = claim.deliveryId;
    message.attemptNumber = claim.attemptCount + 1;

    Dispatcher::Job job;
    job.destination = claim.destination;
    job.leaseExpiresAt = claim.leaseExpiresAt;
    job.request.url = dest.url;
    job.request.headers = composeOutgoingHeaders(message);
    job.request.body = claim.body;
    job.request.timeoutMs = dest.timeoutMs;
    job.request.allowPrivate = dest.allowPrivate;
    job.request.caFile = dest.caFile;
    job.request.maxResponseBytes =
        dest.successRef.kind == SuccessRef::Kind::JsonPointer ? kMaxResponseBytesJsonRef : kMaxResponseBytes;
    Claim recorded = claim;
    recorded.body.clear(); // the body is not needed to record the result
    job.done = [box = inbox, claim = std::move(recorded), bodyBytes](AttemptOutcome outcome, qint64 startedAt,
                                                                     qint64 durationMs) {
        Finished f;
        f.claim = claim;
        f.outcome = std::move(outcome);
        f.startedAt = startedAt;
        f.durationMs = durationMs;
        f.bodyBytes = bodyBytes;
        box->push(std::move(f));
    };
    dispatcher->submit(std::move(job));
}

void DeliveryEngine::Private::maintenance(Steady::time_point now)
{
    reopenIfBroken(now);
    QString error;
    if (now >= nextSweep) {
        nextSweep = now + std::chrono::milliseconds(std::max(100, config.delivery.sweepIntervalMs));
        const SweepPolicy policy = [this](const QString &destination, int attemptNumber, bool replay, qint64 at) {
            const auto it = destinations.constFind(destination);
            const int maxAttempts = it == destinations.constEnd() ? 1 : it->config->maxAttempts;
            // The lost attempt already waited a whole lease: retry at once, within the budget.
            if (replay || attemptNumber >= maxAttempts)
                return SweepDecision{DeliveryStatus::Dead, std::nullopt};
            return SweepDecision{DeliveryStatus::Retrying, at};
        };
        const int rescued = store->sweepExpired(clock.nowMs(), kSweepBatch, policy, &error);
        noteDb(rescued >= 0);
        if (rescued < 0) {
            if (dbFailures <= 3)
                qCWarning(lcDelivery, "lease sweep failed: %s", qPrintable(error));
        } else if (rescued > 0) {
            metrics.leasesRescued(rescued);
            qCInfo(lcDelivery, "rescued %d deliveries whose lease expired", rescued);
            std::lock_guard lock(countersMutex);
            counters.rescued += static_cast<quint64>(rescued);
        }
    }
    if (retentionBacklog || now >= nextRetention) {
        nextRetention = now + kRetentionInterval;
        const qint64 cutoff = clock.nowMs() - qint64(config.storage.retentionDays) * 86'400'000;
        const int purged = purgeExpiredEvents(*db, cutoff, kRetentionBatch, &error);
        retentionBacklog = purged == kRetentionBatch; // more to do: one batch per loop turn
        noteDb(purged >= 0);
        if (purged < 0) {
            retentionBacklog = false;
            qCWarning(lcDelivery, "retention failed: %s", qPrintable(error));
        } else if (purged > 0) {
            metrics.purged(purged);
            std::lock_guard lock(countersMutex);
            counters.purged += static_cast<quint64>(purged);
        }
    }
    if (now >= nextBacklog) {
        nextBacklog = now + kBacklogInterval;
        const qint64 at = clock.nowMs();
        const auto rows = store->backlog(at, &error);
        QSet<QString> seen;
        for (const auto &row : rows) {
            seen.insert(row.destination);
            metrics.backlog(row.destination, row.due + row.waiting,
                            row.oldestDueAt > 0 ? static_cast<double>(at - row.oldestDueAt) / 1000.0 : 0.0);
        }
        for (const QString &name : std::as_const(order)) {
            if (!seen.contains(name))
                metrics.backlog(name, 0, 0);
        }
    }
}

DeliveryEngine::DeliveryEngine(const Config &config, const StorageUrl &storage, const Clock &clock,
                               metrics::Registry &registry, std::shared_ptr<Connector> connector)
    : d(std::make_unique<Private>(config, storage, clock, registry, std::move(connector)))
{}

DeliveryEngine::~DeliveryEngine()
{
    stop(0);
}

bool DeliveryEngine::start(QString *error)
{
    if (d->running)
        return true;
    {
        std::lock_guard lock(d->inbox->mutex);
        d->inbox->stopping = false;
    }
    std::promise<QString> started;
    auto result = started.get_future();
    d->thread = std::thread([this, p = std::move(started)]() mutable { d->run(std::move(p)); });
    const QString failure = result.get();
    if (!failure.isEmpty()) {
        d->thread.join();
        if (error)
            *error = QStringLiteral("delivery engine: %1").arg(failure);
        return false;
    }
    d->running = true;
    return true;
}

void DeliveryEngine::stop(int graceMs)
{
    if (!d->running)
        return;
    {
        std::lock_guard lock(d->inbox->mutex);
        d->inbox->stopping = true;
        d->inbox->graceDeadline = Steady::now() + std::chrono::milliseconds(std::max(0, graceMs));
    }
    d->inbox->cv.notify_all();
    d->thread.join();
    d->running = false;
}

void DeliveryEngine::wake()
{
    {
        std::lock_guard lock(d->inbox->mutex);
        d->inbox->wake = true;
    }
    d->inbox->cv.notify_all();
}

QString DeliveryEngine::workerId() const
{
    return d->worker;
}

void DeliveryEngine::setClaimObserver(std::function<void(const ClaimEvent &)> observer)
{
    d->observer = std::move(observer);
}

DeliveryEngine::Counters DeliveryEngine::counters() const
{
    std::lock_guard lock(d->countersMutex);
    return d->counters;
}

} // namespace redrive::delivery
