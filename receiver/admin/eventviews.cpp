// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "eventviews.h"

#include "util/clock.h"
#include "util/jsonvalues.h"

#include <QJsonDocument>

namespace redrive::admin {

using json::isoOrNull;
using json::numberOrNull;
using json::textOrNull; // a nullable text column: NULL → null, anything stored (even "") → the text

QJsonValue resolutionJson(const std::optional<DeliveryResolution> &r)
{
    if (!r)
        return QJsonValue::Null;
    return QJsonObject { { QStringLiteral("resolution"), r->resolution.name() },
        { QStringLiteral("reason"), r->reason },
        { QStringLiteral("ticket"),
            r->ticket.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(r->ticket) },
        { QStringLiteral("by"), r->actor }, { QStringLiteral("role"), r->role },
        { QStringLiteral("at"), isoUtc(r->resolvedAt) } };
}

QJsonObject deliveryJson(const DeliveryRecord &rec, const Config &config)
{
    const DeliverySummary &s = rec.summary;
    const DestinationConfig *dc = config.destination(s.destination);
    return QJsonObject {
        { QStringLiteral("id"), s.id },
        { QStringLiteral("event_id"), s.eventId },
        { QStringLiteral("destination"), s.destination },
        { QStringLiteral("risk"), dc ? QJsonValue(toString(dc->risk)) : QJsonValue(QJsonValue::Null) },
        { QStringLiteral("status"), s.status.name() },
        { QStringLiteral("attempt_count"), s.attemptCount },
        { QStringLiteral("next_attempt_at"), isoOrNull(s.nextAttemptAt) },
        { QStringLiteral("downstream_ref"), textOrNull(s.downstreamRef) },
        { QStringLiteral("outcome_unknown"), s.outcomeUnknown },
        { QStringLiteral("last_status_code"), numberOrNull(rec.lastStatusCode) },
        { QStringLiteral("last_category"), textOrNull(s.lastCategory.name()) },
        { QStringLiteral("last_error"), textOrNull(rec.lastError) },
        { QStringLiteral("idempotency_key"), rec.idempotencyKey },
        { QStringLiteral("replay_id"), numberOrNull(rec.replayId) },
        { QStringLiteral("succeeded_at"), isoOrNull(rec.succeededAt) },
        { QStringLiteral("dead_at"), isoOrNull(rec.deadAt) },
        { QStringLiteral("created_at"), isoUtc(rec.createdAt) },
        { QStringLiteral("updated_at"), isoUtc(s.updatedAt) },
        { QStringLiteral("resolution"), resolutionJson(rec.resolution) },
    };
}

QJsonArray attemptsJson(const QList<AttemptRecord> &attempts)
{
    QJsonArray out;
    for (const AttemptRecord &a : attempts)
        out.append(attemptJson(a));
    return out;
}

QJsonArray notesJson(const QList<NoteRecord> &notes)
{
    QJsonArray out;
    for (const NoteRecord &n : notes) {
        out.append(QJsonObject { { QStringLiteral("id"), n.id }, { QStringLiteral("author"), n.author },
            { QStringLiteral("body"), n.body }, { QStringLiteral("created_at"), isoUtc(n.createdAt) } });
    }
    return out;
}

QJsonObject auditEntryApiJson(const audit::AuditEntry &e)
{
    QJsonObject o = audit::auditEntryJson(e);
    o.insert(QStringLiteral("details"), QJsonDocument::fromJson(e.details.toUtf8()).object());
    o.insert(QStringLiteral("details_json"), e.details);
    return o;
}

} // namespace redrive::admin
