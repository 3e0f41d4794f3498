// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "storage/database.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <optional>

// The rows of reconciliation (migration 13): runs with their lease, and the GitHub redeliveries
// asked so far. Both receivers and the console read these; only receiver/reconcile and the admin
// API write them. Every call runs inside the caller's transaction unless it says otherwise.
namespace redrive::reconcile {

inline const Stored<ReconcileRunStatus> kStatusRunning = ReconcileRunStatus::Running;
inline const Stored<ReconcileRunStatus> kStatusOk = ReconcileRunStatus::Ok;
inline const Stored<ReconcileRunStatus> kStatusFailed = ReconcileRunStatus::Failed;

// A GitHub delivery still missing is asked again in later runs, at most this many times in all.
inline constexpr int kMaxRedeliveries = 3;

// PostgreSQL transaction-scoped advisory lock key that serialises claims of every receiver.
inline constexpr qint64 kClaimLockKey = 4'242'013;

struct Run {
    qint64 id = 0;
    QString source;
    QString provider; // stripe | github
    qint64 startedAtMs = 0;
    std::optional<qint64> finishedAtMs;
    Stored<ReconcileRunStatus> status;
    qint64 checked = 0; // listed by the provider inside the lookback
    qint64 missing = 0; // listed but never stored for the source
    qint64 recovered = 0; // Stripe: recorded now; GitHub: redelivery asked
    QString error; // why it failed; never the credential
    QString requestedBy; // token name for a run asked through the API, empty for the schedule
    QString owner; // the receiver running it
};

struct Claim {
    std::optional<Run> run; // the new running run, when claimed
    std::optional<Run> running; // when another run of the source is running (its lease alive)
    bool notDue = false; // a scheduled claim found a run that started recently enough
};

struct ClaimRequest {
    QString source;
    QString provider;
    QString owner; // receiver instance id
    QString requestedBy;
    qint64 nowMs = 0;
    qint64 leaseMs = 0;
    // Scheduled claims: claim only when no run of the source started at or after this time.
    std::optional<qint64> dueUnlessStartedSinceMs;
};

// Fails the source's running runs whose lease expired (their receiver stopped), then inserts a
// running run unless one is still running. Needs a write transaction; on PostgreSQL it takes
// kClaimLockKey so two receivers never both decide "none is running"; the partial unique index
// reconcile_runs_one_running refuses a second running row even so.
Result<Claim> claimRun(Db &db, const ClaimRequest &request);

// Extends the lease of a run this owner still holds; false when it lost it (then it must stop).
Result<bool> renewLease(Db &db, qint64 runId, const QString &owner, qint64 leaseUntilMs);

// Ends a run (status ok or failed) with its counts, if this owner still holds it; false if not.
Result<bool> finishRun(Db &db, const Run &run, qint64 nowMs);

Result<std::optional<Run>> fetchRun(Db &db, qint64 id);

// Newest first; `source` empty = every source; ids below `beforeId` when set. At most `limit`.
Result<QList<Run>> listRuns(Db &db, const QString &source, std::optional<qint64> beforeId, int limit);

// The newest run of each source (the console's "last run" per source).
Result<QList<Run>> lastRunPerSource(Db &db);

// Which of `ids` the source stored (events.provider_event_id), read in chunks. Reads only.
Result<QSet<QString>> storedIds(Db &db, const QString &source, const QStringList &ids);

// How often each of `guids` was asked again so far (absent: never).
Result<QHash<QString, int>> redeliveryAttempts(Db &db, const QString &source, const QStringList &guids);
// One more redelivery asked for `guid`.
Result<> countRedelivery(Db &db, const QString &source, const QString &guid, qint64 nowMs);

} // namespace redrive::reconcile
