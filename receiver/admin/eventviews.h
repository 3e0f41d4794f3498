// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/auditentry.h"
#include "config/config.h"
#include "storage/database.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>

// Database rows → the admin API's JSON shapes (design brief §3): event, delivery, attempt,
// audit entry. Times are rendered as ISO-8601 UTC.
namespace redrive::admin {

inline constexpr char kEventColumns[]
    = "e.id, e.source, e.provider_event_id, e.weak_id, e.event_type, s.status, e.received_at, e.occurred_at, "
      "e.last_seen_at, e.seen_count";
// Read FROM kEventTables (eventfilter.h): events "e" with their summary status "s".
QJsonObject eventJson(const QSqlQuery &query); // columns of kEventColumns, from index 0

inline constexpr char kDeliveryColumns[]
    = "d.id, d.event_id, d.destination, d.status, d.attempt_count, d.next_attempt_at, d.downstream_ref, "
      "d.outcome_unknown, d.last_status_code, d.last_category, d.last_error, d.idempotency_key, d.replay_id, "
      "d.succeeded_at, d.dead_at, d.created_at, d.updated_at";
QJsonObject deliveryJson(const QSqlQuery &query, const Config &config);

// Deliveries of the given events, keyed by event id, in delivery id order. With attempts, each
// delivery carries its "attempts" array.
bool loadDeliveries(Db &db, const Config &config, const QList<qint64> &eventIds, bool withAttempts,
    QHash<qint64, QJsonArray> *out, QString *error);
// Attempts of the given deliveries, keyed by delivery id, by attempt number.
bool loadAttempts(Db &db, const QList<qint64> &deliveryIds, QHash<qint64, QJsonArray> *out, QString *error);

// {"seq", "at", "actor", "role", "action", "target", "reason", "details" (object),
//  "details_json" (the exact hashed text), "prev_hash", "hash"}
QJsonObject auditEntryJson(const audit::AuditEntry &entry);

} // namespace redrive::admin
