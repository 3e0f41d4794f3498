// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/auditentry.h"
#include "config/config.h"
#include "query/eventdetail.h"

#include <QJsonArray>
#include <QJsonObject>

// What core/query reads → the admin API's JSON shapes (docs/admin-api.md): delivery, attempt,
// note, audit entry; an event is core's eventRowJson(). Rendering only: every read is in
// core/query. Times are ISO-8601 UTC.
namespace redrive::admin {

// Without "attempts"; "risk" from the destination's configuration (null when it is gone).
QJsonObject deliveryJson(const DeliveryRecord &record, const Config &config);
QJsonArray attemptsJson(const QList<AttemptRecord> &attempts);
QJsonArray notesJson(const QList<NoteRecord> &notes);

// audit::auditEntryJson() with "details" parsed into an object and the exact hashed text kept
// as "details_json".
QJsonObject auditEntryApiJson(const audit::AuditEntry &entry);

} // namespace redrive::admin
