// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"
#include "storage/database.h"
#include "util/clock.h"
#include "util/metrics.h"

#include <QString>

#include <functional>
#include <memory>

// The delivery engine: claims due deliveries with a lease and a fencing token, sends each
// attempt (byte-exact body, Idempotency-Key/webhook-id, Standard Webhooks signature) through
// the SSRF-guarded HTTP client, classifies the outcome, records it with the delivery's next
// state in one transaction, and schedules retries or dead-letters. A sweeper rescues expired
// leases; a retention job purges old finished events. See docs/architecture.md "Lifecycle of a
// delivery" and "Replay execution contract".
//
// Threads: one engine thread owns a database connection (claims, records, sweeps, retention);
// one I/O thread runs the HTTP exchanges (Dispatcher, HttpClient, keep-alive connections). Each
// turn of the engine thread is one transaction: the results that came in, then the next claims.
// On PostgreSQL three recorder lanes (own connections and threads) record part of the results,
// each event's always on the same lane, because recording costs the server more than ingesting.
// Limits per process: delivery.max_in_flight requests in flight overall, and per destination
// `concurrency` requests in flight and `rate_per_second` (token bucket, taken at claim time);
// several redrived processes sharing a PostgreSQL database each apply their own limits.
//
// Claiming ahead: a destination may hold more claims than its concurrency — about a second of
// exchanges at its measured pace (1 to 16 extra waves; bodies claimed ahead capped at 32 MiB) —
// so it stays busy while the engine thread is in the database. A queued claim is sent only if
// its lease outlasts the exchange (timeout + 5 s); otherwise, and at shutdown, it is given back
// unsent. "In flight" in the metrics counts claims held by this engine.
//
// Leases: a claim holds its delivery for max(delivery.lease, timeout_ms + 5 s + 2 s), so an
// attempt that runs to its full timeout is never rescued while it is still running, and a claim
// has 2 s or more to wait in the send queue (claiming ahead stays within that slack). A rescued delivery
// (category lease_expired, outcome unknown) is retried at once; the lost attempt counts
// against max_attempts.
//
// Only destinations in this process's configuration are claimed: deliveries for a destination
// that was removed from the configuration stay pending (visible, never silently dropped).
// Paused destinations (destination_state.paused = 1) are not claimed; wake() after a resume.
namespace redrive::delivery {

class Connector;

class DeliveryEngine final {
public:
    // `connector` = {} uses real DNS and TCP; tests pass a fake resolver/connect seam.
    DeliveryEngine(const Config &config, const StorageUrl &storage, const Clock &clock,
        metrics::Registry &metrics, std::shared_ptr<Connector> connector = {});
    ~DeliveryEngine(); // stop(0) when still running
    DeliveryEngine(const DeliveryEngine &) = delete;
    DeliveryEngine &operator=(const DeliveryEngine &) = delete;

    // Opens the engine's own database connection and starts the threads. Fails when the
    // database cannot be opened.
    Result<> start();
    // Stops claiming, lets running attempts finish for up to `graceMs`, then interrupts the
    // rest: an interrupted attempt that had not been sent is given back untouched, one that had
    // been sent is recorded as outcome unknown and retried. Returns when the threads have ended.
    void stop(int graceMs = 10'000);
    // New due deliveries were committed (ingest, replay executor, resume) or the clock moved:
    // look now instead of at the next poll. On PostgreSQL the engine also wakes by itself when
    // any receiver on the database commits due deliveries (LISTEN/NOTIFY, storage/duewakeup.h).
    void wake();
    // PostgreSQL: true while the engine's LISTEN connection is up. Always false on SQLite.
    [[nodiscard]] bool listeningForWakeUps() const;
    // PostgreSQL: notifications sent by this receiver's own ingest writer (its DueNotifier's
    // origin, the receiver's instance id) are ignored: they were woken in-process already.
    // Set before start().
    void setOwnWakeOrigin(const QByteArray &origin);

    // delivery.worker_id, or "host:pid:n" when not configured. Stored on leases and attempts.
    [[nodiscard]] QString workerId() const;

    // Diagnostics and tests: called on the engine thread for every claim it makes. Set before start().
    struct ClaimEvent {
        qint64 deliveryId = 0;
        qint64 leaseToken = 0;
        QString workerId;
        qint64 claimedAtMs = 0;
    };
    void setClaimObserver(std::function<void(const ClaimEvent &)> observer);

    struct Counters {
        quint64 claimed = 0;
        quint64 recorded = 0;
        quint64 refused = 0; // results refused because the lease was lost
        quint64 released = 0; // claims given back unsent at shutdown
        quint64 rescued = 0; // expired leases rescued by this engine's sweeper
        quint64 purged = 0; // events removed by retention
        quint64 wakeNotifications = 0; // PostgreSQL NOTIFY batches that woke this engine
        quint64 ownWakeNotifications = 0; // PostgreSQL NOTIFYs of this receiver's own, ignored
    };
    [[nodiscard]] Counters counters() const;

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace redrive::delivery
