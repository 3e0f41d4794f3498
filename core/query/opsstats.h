// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "storage/database.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// Aggregates for the console's dead-letter, rejection and overview views. Each is bounded by an
// index or a time window; none reads payloads.
namespace redrive {

struct DeadLetterGroup {
    Stored<FailureCategory> category; // null when none was recorded
    QString destination;
    qint64 count = 0;
    qint64 oldestAt = 0; // earliest dead_at in the group
    qint64 newestAt = 0;
    QString latestError; // the explanation of the group's most recent dead letter
};
Result<QList<DeadLetterGroup>> fetchDeadLetterGroups(Db &db);

struct RejectionRow {
    qint64 id = 0;
    QString source;
    QString reason;
    QString detail;
    int statusCode = 0;
    QString remoteAddr;
    qint64 receivedAt = 0;
};
// Newest first, keyset-paged: rows with id < beforeId (0 = from the newest).
Result<QList<RejectionRow>> fetchRejections(Db &db, qint64 beforeId, int limit);

// Counts per time bucket over [fromMs, toMs).
struct OverviewBucket {
    qint64 startMs = 0;
    qint64 received = 0;
    qint64 succeeded = 0; // attempts that succeeded
    qint64 retried = 0; // attempts that failed and were retryable (the delivery carried on)
    qint64 dead = 0; // deliveries dead-lettered
};

struct DestinationHealth {
    QString destination;
    qint64 attempts = 0;
    qint64 succeeded = 0;
    double meanLatencyMs = 0;
    [[nodiscard]] double successRate() const { return attempts ? double(succeeded) / double(attempts) : 0.0; }
};

struct Overview {
    qint64 fromMs = 0;
    qint64 bucketMs = 0;
    QList<OverviewBucket> buckets;
    QList<std::pair<Stored<FailureCategory>, qint64>>
        failureCategories; // failed attempts in the window, most first
    QList<DestinationHealth> destinations;
    std::optional<qint64> oldestPendingSince; // created_at of the oldest undelivered delivery
    qint64 backlog = 0; // deliveries not yet succeeded or dead
};

// The values filters offer: sources and types by a loose index scan (one probe per distinct
// value, not a table scan), destinations from the deliveries.
struct FilterFacets {
    QStringList sources;
    QStringList types;
    QStringList destinations;
};
Result<FilterFacets> fetchFilterFacets(Db &db);

Result<Overview> fetchOverview(Db &db, qint64 fromMs, qint64 toMs, int bucketCount);

// When the oldest stored event was received, for sizing the overview's time range: one probe of
// the events_received index. `firstReceivedAt` stays empty when no event is stored.
struct StoredSpan {
    std::optional<qint64> firstReceivedAt;
};
Result<StoredSpan> fetchStoredSpan(Db &db);

} // namespace redrive
