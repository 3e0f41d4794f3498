// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "deliveryrules/classification.h"
#include "domain/types.h"
#include "storage/database.h"

#include <QByteArray>
#include <QList>
#include <QSet>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

// The delivery engine's SQL: claims with a lease and a fencing token, fenced result recording,
// the lease sweeper, and small reads for metrics. Every method runs on the Db's own thread.
//
// Claims: PostgreSQL locks due rows with FOR UPDATE SKIP LOCKED, so several redrived processes
// can share one database; SQLite runs the same claim as one UPDATE … WHERE id IN (SELECT …
// LIMIT n) RETURNING … inside BEGIN IMMEDIATE (one writer at a time). A claim increments
// lease_token; recording a result is conditional on that token and status = 'in_flight', so a
// worker that comes back after its lease expired records nothing.
//
// Cost: every statement is prepared once per connection and reused. On PostgreSQL a claim is one
// statement (the claim and the event bodies) and recording a batch is four whatever its size
// (ResultWriter), so the engine's turn — record, then claim, in one transaction — is a fixed
// number of round trips. On SQLite the hot statements run on the native handle.
class QSqlQuery;

namespace redrive::delivery {

class ResultWriter;

struct Claim {
    qint64 deliveryId = 0;
    qint64 eventId = 0;
    QString destination;
    qint64 leaseToken = 0;
    int attemptCount = 0; // attempts recorded before this claim
    qint64 scheduledAt = 0; // next_attempt_at when claimed
    qint64 claimedAt = 0;
    qint64 leaseExpiresAt = 0;
    std::optional<qint64> replayId;
    QByteArray idempotencyKey;
    // From the event row:
    QByteArray body;
    QByteArray contentType;
    QString bodySha256;
    QString source;
    bool redacted = false; // the source redacted values of this body: response excerpts are scrubbed
    // The redacted values themselves, taken from the body at launch (the body is dropped before
    // the result is recorded): what the attempt's response excerpt must not show.
    QStringList scrubValues;
};

// What recording one attempt writes.
struct AttemptRecord {
    int number = 0;
    AttemptTrigger trigger = AttemptTrigger::Automatic;
    std::optional<qint64> replayId;
    qint64 scheduledAt = 0;
    qint64 startedAt = 0;
    qint64 durationMs = 0;
    int statusCode = 0; // 0 = no HTTP status
    Classification classification;
    QByteArray responseHeadersJson = QByteArrayLiteral("[]");
    QString responseExcerpt;
    QString workerId;
    // The delivery afterwards:
    DeliveryStatus newStatus = DeliveryStatus::Retrying;
    std::optional<qint64> nextAttemptAt; // set for retrying
    std::optional<QString> downstreamRef;
    qint64 recordedAt = 0;
};

enum class RecordResult { Recorded, LeaseLost, Error };

// What recording several results did: one RecordResult per item, and the text of the last
// failure met on the way (empty when there was none).
struct RecordOutcome {
    QList<RecordResult> results;
    QString error;
};

// What the engine's turn did: one RecordResult per item, one list of claims per request.
struct TurnOutcome {
    QList<RecordResult> results;
    QList<QList<Claim>> claims;
};

// What giving many claims back did: how many were still held, and the text of the last failure
// met on the way (empty when there was none).
struct ReleaseOutcome {
    int released = 0;
    QString error;
};

// Up to `limit` due deliveries of `destination`, each leased for `leaseMs`. A probe is claimed
// while the destination's circuit is open (which holds every other claim); a pause holds both.
struct ClaimRequest {
    QString destination;
    int limit = 0;
    qint64 leaseMs = 0;
    bool probe = false;
};

// How the sweeper schedules a delivery whose lease expired: the engine's retry policy.
struct SweepDecision {
    DeliveryStatus status = DeliveryStatus::Retrying;
    std::optional<qint64> nextAttemptAt;
};
using SweepPolicy
    = std::function<SweepDecision(const QString &destination, int attemptNumber, bool replay, qint64 now)>;

class DeliveryStore final {
public:
    // PostgreSQL: how the connection plans its prepared statements (see the constructor).
    enum class Plans {
        PerExecution, // with the values bound each time: the engine's claims, sweeps and upkeep
        Once, // one generic plan per statement: a recorder lane, which only records results
    };
    explicit DeliveryStore(Db &db, Plans plans = Plans::PerExecution);
    ~DeliveryStore();
    DeliveryStore(const DeliveryStore &) = delete;
    DeliveryStore &operator=(const DeliveryStore &) = delete;

    // Claims up to `limit` due deliveries of `destination` (pending or retrying, next_attempt_at
    // <= now, destination not paused, its circuit closed unless `probe`, no older unfinished
    // delivery with the same ordering key), with their event bodies. Sets status 'in_flight',
    // lease_owner, lease_expires_at and lease_token + 1 in one transaction.
    Result<QList<Claim>> claim(const QString &destination, const QString &workerId, qint64 now,
        qint64 leaseMs, int limit, bool probe = false);

    // Records one attempt and the delivery's new state in one transaction (with the replay
    // item and counters, and the event's status). LeaseLost when the claim was no longer held;
    // never Error (a failure is the Result's).
    Result<RecordResult> record(const Claim &claim, const AttemptRecord &attempt);
    // The same for several results in one transaction; falls back to one transaction each when
    // the batch fails, so an item's result may be Error while others are recorded.
    RecordOutcome recordMany(const QList<std::pair<Claim, AttemptRecord>> &items);

    // The engine's turn in one transaction (one commit, one fsync): records `items` as
    // recordMany() does, then claims for each request in order. Fails on any error, with
    // nothing recorded and nothing claimed; the caller then falls back to recordMany() and
    // claim(), which isolate a bad row.
    Result<TurnOutcome> recordAndClaim(const QList<std::pair<Claim, AttemptRecord>> &items,
        const QList<ClaimRequest> &requests, const QString &workerId, qint64 now);

    // Gives a claim back without an attempt (the request was never sent): status returns to
    // pending/retrying, next_attempt_at unchanged. The value is false when the claim was no
    // longer held.
    Result<bool> release(const Claim &claim, qint64 now);
    // The same for many claims in one transaction (one at a time when that fails).
    ReleaseOutcome releaseMany(const QList<Claim> &claims, qint64 now);

    // Rescues up to `limit` in_flight deliveries whose lease expired before `now`: each gets an
    // attempt with category lease_expired and outcome_unknown = 1, and is rescheduled by
    // `policy`. How many were rescued.
    Result<int> sweepExpired(qint64 now, int limit, const SweepPolicy &policy);

    // Destinations an admin paused (destination_state.paused = 1). The claim query checks this
    // too; reading it first spares a paused destination's backlog from being scanned every poll.
    Result<QSet<QString>> pausedDestinations();

    struct Backlog {
        QString destination;
        qint64 due = 0; // pending/retrying rows with next_attempt_at <= now
        qint64 waiting = 0; // pending/retrying rows not yet due
        qint64 oldestDueAt = 0; // smallest next_attempt_at among due rows (0 = none)
    };
    Result<QList<Backlog>> backlog(qint64 now);

private:
    // Inside an open transaction: the fenced updates, attempt rows, replay bookkeeping and event
    // statuses of all items. Recorded or LeaseLost per item; fails on a database error (the
    // caller rolls back). Each delivery may appear once.
    Result<QList<RecordResult>> recordInTransaction(const QList<std::pair<Claim, AttemptRecord>> &items);
    Result<> refreshEventStatuses(const QList<qint64> &eventIds);
    Result<> loadBodies(QList<Claim> &claims);
    // The claimed rows (unsorted); inside the caller's transaction on SQLite.
    Result<QList<Claim>> claimInTransaction(const ClaimRequest &request, const QString &workerId, qint64 now);
    // Whether the claim was still held.
    Result<bool> releaseInTransaction(const Claim &claim, qint64 now);

    enum class Stmt;
    Result<QSqlQuery *> statement(Stmt which, const std::function<QString()> &sql);

    Db &m_db;
    struct Statements;
    std::unique_ptr<Statements> m_s;
    std::unique_ptr<ResultWriter> m_writer;
};

} // namespace redrive::delivery
