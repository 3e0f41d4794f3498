// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "query/downstream.h"
#include "storage/database.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

// The one reader of delivery and attempt rows. The console's events list and detail panel,
// evidence bundles and the admin API's events and deliveries endpoints all read through here,
// so a column added to what a delivery shows is read in one place.
namespace redrive {

// What the events list shows about one delivery of an event.
struct DeliverySummary {
    qint64 id = 0;
    qint64 eventId = 0;
    QString destination;
    Stored<DeliveryStatus> status;
    int attemptCount = 0;
    Stored<FailureCategory> lastCategory; // null when no attempt has ended yet
    bool outcomeUnknown = false;
    QString downstreamRef; // a null string when none was recorded
    std::optional<qint64> nextAttemptAt;
    qint64 updatedAt = 0;
    DownstreamState downstream = DownstreamState::Pending;
    QString lastError; // the last attempt's one-line explanation, empty when none
};

struct AttemptRecord {
    qint64 id = 0;
    int number = 0;
    Stored<AttemptTrigger> trigger;
    std::optional<qint64> replayId;
    std::optional<qint64> scheduledAt;
    qint64 startedAt = 0;
    int durationMs = 0;
    std::optional<int> statusCode;
    Stored<FailureCategory> category;
    QString explanation;
    bool outcomeUnknown = false;
    QString responseExcerpt;
};

// Everything stored about one delivery.
// How a resolved delivery was resolved without a replay (delivery_resolutions).
struct DeliveryResolution {
    Stored<Resolution> resolution;
    QString reason;
    QString ticket; // empty when none was given
    QString actor;
    QString role;
    qint64 resolvedAt = 0;
};

struct DeliveryRecord {
    DeliverySummary summary;
    QString idempotencyKey;
    std::optional<int> lastStatusCode;
    QString lastError; // a null string when none was recorded
    std::optional<qint64> replayId; // the replay that last queued it
    std::optional<qint64> succeededAt;
    std::optional<qint64> deadAt;
    qint64 createdAt = 0;
    std::optional<DeliveryResolution> resolution; // set for a resolved delivery
    QList<AttemptRecord> attempts; // by number; empty unless asked for
};

// The columns readDeliverySummary() reads, from deliveries "d", starting at its `first` index.
inline constexpr char kDeliverySummaryColumns[]
    = "d.id, d.event_id, d.destination, d.status, d.attempt_count, d.last_category, d.outcome_unknown, "
      "d.downstream_ref, d.next_attempt_at, d.updated_at, d.last_error";
inline constexpr int kDeliverySummaryColumnCount = 11;
DeliverySummary readDeliverySummary(const QSqlQuery &query, int first = 0);

enum class WithAttempts { No, Yes };

// The deliveries of these events, by event id then delivery id.
Result<QList<DeliveryRecord>> fetchDeliveriesOfEvents(
    Db &db, const QList<qint64> &eventIds, WithAttempts withAttempts);

// Which deliveries a deliveries page lists; every set field must match.
struct DeliveryFilter {
    QList<DeliveryStatus> statuses; // any of
    QString destination;
    QString category; // last failure category
    std::optional<qint64> eventId;
};

// Up to `limit` matching deliveries with id < beforeId (all when unset), newest first, without
// attempts: a keyset page, the same cost at any depth.
Result<QList<DeliveryRecord>> fetchDeliveryPage(
    Db &db, const DeliveryFilter &filter, std::optional<qint64> beforeId, int limit);

// One delivery with its attempts; a nullopt value when it does not exist.
Result<std::optional<DeliveryRecord>> fetchDelivery(Db &db, qint64 deliveryId);

// {"number", "trigger", "replay_id", "scheduled_at", "started_at", "duration_ms", "status_code",
//  "category", "explanation", "outcome_unknown", "response_excerpt"}: one attempt as the admin
// API and evidence bundles show it.
QJsonObject attemptJson(const AttemptRecord &attempt);

} // namespace redrive
