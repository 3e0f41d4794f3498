// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "attemptdecision.h"
#include "crypto/crypto.h"
#include "deliveryrules/outgoingheaders.h"
#include "engineprivate.h"
#include "privacy/redaction.h"

#include <QCoreApplication>
#include <QSysInfo>

#include <algorithm>

Q_LOGGING_CATEGORY(lcDelivery, "redrive.delivery")

namespace redrive::delivery {

QString defaultWorkerId()
{
    static std::atomic<int> sequence { 0 };
    return QStringLiteral("%1:%2:%3")
        .arg(QSysInfo::machineHostName())
        .arg(QCoreApplication::applicationPid())
        .arg(sequence.fetch_add(1));
}

Result<> DeliveryEngine::Private::open()
{
    QString error;
    db = takeValue(Db::open(storage, QStringLiteral("delivery"), {}), &error);
    if (!db)
        return Failure(error.isEmpty() ? QStringLiteral("cannot open the database") : error);
    store = std::make_unique<DeliveryStore>(*db);
    http = std::make_unique<HttpClient>(connector);
    dispatcher = std::make_unique<Dispatcher>(*http, clock, config.delivery.maxInFlight, kLeaseMarginMs);
    for (const QString &name : std::as_const(order))
        dispatcher->setConcurrency(name, destinations.value(name).config->concurrency);
    startLanes();
    return ok();
}

void DeliveryEngine::Private::run()
{
    Worker &thread = inbox->worker;
    const auto begin = Steady::now();
    nextSweep = begin;
    nextBacklog = begin;
    nextPauseCheck = begin;
    nextIncidentCheck = begin;
    nextRetention = begin + kRetentionFirstRun;
    bool more = false;
    Steady::time_point rateDeadline = Steady::time_point::max();
    for (;;) {
        QList<Finished> batch;
        QList<Recorded> recorded;
        bool stopping = false;
        {
            auto lock = thread.lock();
            auto deadline
                = Steady::now() + std::chrono::milliseconds(std::max(10, config.delivery.pollIntervalMs));
            deadline = std::min({ deadline, nextSweep, nextBacklog, nextPauseCheck, rateDeadline,
                incidentsDue ? lastIncidentCheck + kIncidentMinInterval : nextIncidentCheck,
                retentionBacklog ? Steady::now() : nextRetention });
            if (!unrecorded.isEmpty())
                deadline = std::min(deadline, Steady::now() + std::chrono::milliseconds(50));
            if (!more) {
                thread.waitUntil(lock, deadline, [&] {
                    return thread.woken() || !inbox->finished.isEmpty() || !inbox->recorded.isEmpty()
                        || thread.stopRequested();
                });
            }
            batch.swap(inbox->finished);
            recorded.swap(inbox->recorded);
            thread.takeWake();
            stopping = thread.stopRequested();
        }
        takeRecorded(recorded);
        if (stopping) {
            recordFinished(batch);
            break;
        }
        // While the connection is failing, results stay on the engine (a lane on a dead
        // connection would hand them straight back, over and over).
        Items items = collect(batch);
        if (dbFailures == 0)
            items = toLanes(std::move(items));
        maintenance(Steady::now());
        rateDeadline = Steady::time_point::max();
        // A turn records the results that stayed on the engine and claims the next deliveries.
        more = turn(std::move(items), claimRequests(&rateDeadline));
    }
    drain();
    http.reset(); // ends the I/O thread: no callback reaches the dispatcher afterwards
    dispatcher.reset();
    store.reset();
    db.reset();
}

// With recorder lanes (PostgreSQL), results are recorded there and the engine's own connection
// only claims: a turn that records nothing is shorter, and new deliveries wait for shorter turns.
// Results of one event always go to the same lane.
DeliveryEngine::Private::Items DeliveryEngine::Private::toLanes(Items items)
{
    if (lanes.empty() || items.isEmpty())
        return items;
    const auto ways = static_cast<qint64>(lanes.size());
    std::vector<Items> parts(lanes.size());
    for (auto &item : items)
        parts[static_cast<std::size_t>(item.first.eventId % ways)].append(std::move(item));
    for (std::size_t i = 0; i < lanes.size(); ++i)
        lanes[i]->submit(std::move(parts[i]));
    return {};
}

void DeliveryEngine::Private::takeRecorded(const QList<Recorded> &recorded)
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

AttemptRecord DeliveryEngine::Private::decide(
    const Finished &f, const DestinationConfig *dest, bool circuitOpen)
{
    FinishedAttempt attempt { f.claim, f.outcome, f.preset, f.startedAt, f.durationMs };
    AttemptRecord record
        = decideAttempt(attempt, dest, config.delivery, worker, clock.nowMs(), draw(), circuitOpen);
    // A destination may echo what it was sent ("customer ana@example.com already exists"): the
    // excerpt everyone reads loses the values the source redacts, as the body's shown copy did.
    if (!f.claim.scrubValues.isEmpty() && !record.responseExcerpt.isEmpty())
        record.responseExcerpt = privacy::scrub(record.responseExcerpt, f.claim.scrubValues);
    return record;
}

// Turns finished attempts into records (with the unrecorded ones from earlier turns). Claims
// that were never sent are given back at once.
DeliveryEngine::Private::Items DeliveryEngine::Private::collect(const QList<Finished> &batch)
{
    Items items;
    items.swap(unrecorded);
    QList<Claim> unsent;
    for (const Finished &f : batch) {
        adjustInFlight(f.claim.destination, -1);
        claimedBodyBytes -= f.bodyBytes;
        const auto it = destinations.constFind(f.claim.destination);
        const DestinationConfig *dest = it == destinations.constEnd() ? nullptr : it->config;
        if (!f.preset && f.outcome.transport == AttemptOutcome::Transport::Cancelled
            && !f.outcome.requestWritten) {
            unsent.append(f.claim);
            continue;
        }
        if (!f.preset)
            metrics.attemptFinished(f.claim.destination, static_cast<double>(f.durationMs) / 1000.0);
        AttemptRecord attempt = decide(f, dest, circuitOpen(f.claim.destination));
        noteForCircuit(f, dest, attempt);
        items.append({ f.claim, std::move(attempt) });
    }
    if (!unsent.isEmpty()) {
        const int released = store->releaseMany(unsent, clock.nowMs()).released;
        std::lock_guard lock(countersMutex);
        counters.released += static_cast<quint64>(std::max(0, released));
    }
    return items;
}

void DeliveryEngine::Private::recordFinished(const QList<Finished> &batch)
{
    Items items = collect(batch);
    if (items.isEmpty())
        return;
    const RecordOutcome recorded = store->recordMany(items);
    noteRecorded(items, recorded.results, recorded.error);
}

void DeliveryEngine::Private::noteRecorded(
    const Items &items, const QList<RecordResult> &results, const QString &error)
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
            qCWarning(lcDelivery,
                "delivery %lld: result of attempt %d refused, the lease (token %lld) was lost",
                claim.deliveryId, attempt.number, claim.leaseToken);
            std::lock_guard lock(countersMutex);
            ++counters.refused;
            continue;
        }
        case RecordResult::Error:
            noteDb(false);
            // A busy database, or one that is down or restarting. Keep the result and try again
            // on the next turn (see holdUnrecorded); if the lease runs out while the database
            // answers, the sweeper takes over and this record is refused.
            if (dbFailures <= 1 && availability.isUp())
                qCWarning(lcDelivery, "delivery %lld: cannot record attempt %d yet: %s", claim.deliveryId,
                    attempt.number, qPrintable(error));
            if (holdUnrecorded(claim))
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
            incidentsDue = true;
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
    // Claims queued ahead must still be sendable when their turn comes: no more waves ahead
    // than the lease's slack covers at the measured pace (none when one exchange outlasts it).
    const double aheadMs = std::min(kAheadTargetMs, static_cast<double>(queueSlackFor(*state.config)));
    if (meanMs > aheadMs)
        return concurrency;
    const int waves
        = meanMs <= 0 ? 1 : std::clamp(static_cast<int>(aheadMs / std::max(meanMs, 1.0)), 1, kMaxWavesAhead);
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
        if (state.circuit && state.circuit->isOpen()) {
            // Held: nothing but one probe per interval, which waits for the last to be recorded.
            if (const auto probe = probeRequest(name, state, rateDeadline)) {
                requests.append(*probe);
                --globalFree;
            }
            continue;
        }
        int wanted = std::min({ claimCapacity(name, state) - state.inFlight, kClaimBatch, globalFree });
        if (wanted <= 0)
            continue;
        wanted = state.bucket.available(steadyNow, wanted);
        if (wanted <= 0) {
            *rateDeadline = std::min(*rateDeadline, steadyNow + state.bucket.untilNext(steadyNow));
            continue;
        }
        // A paused destination is asked too: the claim tests the pause before reading any row.
        requests.append({ name, wanted, leaseFor(*state.config) });
        globalFree -= wanted;
    }
    roundRobin = (roundRobin + 1) % order.size();
    return requests;
}

// Records `items` and claims for `requests` in one transaction (a PostgreSQL turn with nothing
// to record claims without one); on failure records and claims separately (which isolates a bad
// row). True when some destination may have more due now.
bool DeliveryEngine::Private::turn(Items items, const QList<ClaimRequest> &requests)
{
    if (items.isEmpty() && requests.isEmpty())
        return false;
    if (!db->handle().isOpen()) {
        // The connection broke (QtSql closed it): hold the results, claim nothing, and wait
        // for reopenIfBroken() instead of failing every statement on a closed handle.
        noteDb(false);
        for (const auto &item : std::as_const(items))
            unrecorded.append(item);
        return false;
    }
    RecordOutcome recorded;
    QList<QList<Claim>> claims;
    const qint64 now = clock.nowMs();
    // On PostgreSQL a turn with no results to record (they go to the lanes) claims with one
    // statement per destination, each its own transaction: no BEGIN and COMMIT round trips.
    const bool claimOnly = items.isEmpty() && !db->isSqlite();
    bool together = false;
    if (!claimOnly) {
        if (auto turn = store->recordAndClaim(items, requests, worker, now)) {
            together = true;
            recorded.results = std::move(turn->results);
            claims = std::move(turn->claims);
        }
    }
    if (!together) {
        // The failed turn was rolled back: record one by one, which isolates a bad row and
        // reports its own failures.
        if (!items.isEmpty()) {
            recorded = store->recordMany(items);
        }
        claims = claimEach(requests, now);
    } else {
        noteDb(true);
    }
    noteRecorded(items, recorded.results, recorded.error);
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

// Claims for each request in its own statement, until one fails.
QList<QList<Claim>> DeliveryEngine::Private::claimEach(const QList<ClaimRequest> &requests, qint64 now)
{
    QList<QList<Claim>> claims;
    for (const ClaimRequest &r : requests) {
        auto taken = store->claim(r.destination, worker, now, r.leaseMs, r.limit, r.probe);
        claims.append(taken ? std::move(*taken) : QList<Claim>());
        noteDb(taken.has_value());
        if (!taken) {
            if (dbFailures <= 3) // then reopenIfBroken() reports, every 2 s
                qCWarning(lcDelivery, "claiming deliveries for %s failed: %s", qPrintable(r.destination),
                    qPrintable(taken.error()));
            break;
        }
    }
    return claims;
}

void DeliveryEngine::Private::launch(const Claim &claim)
{
    if (observer)
        observer({ claim.deliveryId, claim.leaseToken, worker, claim.claimedAt });
    adjustInFlight(claim.destination, +1);
    const qint64 bodyBytes = claim.body.size();
    claimedBodyBytes += bodyBytes;
    const DestinationConfig &dest = *destinations.value(claim.destination).config;
    const QByteArray actual = crypto::sha256Hex(claim.body);
    if (claim.bodySha256.isEmpty()
        || QString::fromLatin1(actual).compare(claim.bodySha256, Qt::CaseInsensitive) != 0) {
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
    job.request.maxResponseBytes = dest.successRef.kind == SuccessRef::Kind::JsonPointer
        ? kMaxResponseBytesJsonRef
        : kMaxResponseBytes;
    Claim recorded = claim;
    recorded.body.clear(); // the body is not needed to record the result
    if (claim.redacted) {
        if (const SourceConfig *source = config.source(claim.source))
            recorded.scrubValues = privacy::redactedValues(claim.body, source->redact);
    }
    job.done = [box = inbox, claim = std::move(recorded), bodyBytes](
                   AttemptOutcome outcome, qint64 startedAt, qint64 durationMs) {
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

DeliveryEngine::DeliveryEngine(const Config &config, const StorageUrl &storage, const Clock &clock,
    metrics::Registry &registry, std::shared_ptr<Connector> connector)
    : d(std::make_unique<Private>(config, storage, clock, registry, std::move(connector)))
{ }

DeliveryEngine::~DeliveryEngine()
{
    stop(0);
}

Result<> DeliveryEngine::start()
{
    if (d->inbox->worker.running())
        return ok();
    const Result<> started = d->inbox->worker.start(
        1, [this](int) { return d->open(); }, [this](int) { d->run(); });
    if (!started)
        return Failure(QStringLiteral("delivery engine: %1").arg(started.error()));
    // PostgreSQL: commits of every receiver on the database (and replays queued by any admin
    // executor) wake this engine through LISTEN/NOTIFY; the poll stays as the fallback.
    if (d->storage.dialect == Dialect::Postgres) {
        d->listener = std::make_unique<DueListener>(
            d->storage, [box = d->inbox] { box->wakeUp(); }, d->ownWakeOrigin);
        if (const auto listening = d->listener->start(); !listening) {
            qCWarning(lcDelivery, "no wake-up notifications (%s); polling every %d ms",
                qPrintable(listening.error()), d->config.delivery.pollIntervalMs);
            d->listener.reset();
        }
    }
    return ok();
}

void DeliveryEngine::stop(int graceMs)
{
    if (!d->inbox->worker.running())
        return;
    d->listener.reset(); // stops its thread
    {
        auto lock = d->inbox->worker.lock();
        d->inbox->graceDeadline = Steady::now() + std::chrono::milliseconds(std::max(0, graceMs));
    }
    d->inbox->worker.stop(); // the engine drains, within the grace period, before it ends
}

void DeliveryEngine::wake()
{
    d->inbox->wakeUp();
}

QString DeliveryEngine::workerId() const
{
    return d->worker;
}

void DeliveryEngine::setClaimObserver(std::function<void(const ClaimEvent &)> observer)
{
    d->observer = std::move(observer);
}

void DeliveryEngine::setOwnWakeOrigin(const QByteArray &origin)
{
    d->ownWakeOrigin = origin;
}

bool DeliveryEngine::listeningForWakeUps() const
{
    return d->listener && d->listener->listening();
}

DeliveryEngine::Counters DeliveryEngine::counters() const
{
    Counters c;
    {
        std::lock_guard lock(d->countersMutex);
        c = d->counters;
    }
    if (d->listener) {
        c.wakeNotifications = d->listener->wakeups();
        c.ownWakeNotifications = d->listener->ignored();
    }
    return c;
}

} // namespace redrive::delivery
