// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replaywire.h"

#include "query/eventfilter.h"
#include "util/jsonvalues.h"

namespace redrive::replay {
namespace {

// A status or state name: JSON null (or absent) reads as the null Stored.
template<typename E> Stored<E> storedOf(const QJsonValue &v)
{
    return v.isString() ? Stored<E>::fromName(v.toString()) : Stored<E>();
}

template<typename E> QJsonValue storedOrNull(const Stored<E> &s)
{
    return json::textOrNull(s.name());
}

std::optional<bool> optionalBool(const QJsonValue &v)
{
    return v.isBool() ? std::optional<bool>(v.toBool()) : std::nullopt;
}

QJsonValue boolOrNull(const std::optional<bool> &b)
{
    return b ? QJsonValue(*b) : QJsonValue(QJsonValue::Null);
}

// Text that may be JSON null: null reads as a null string, so it is written back as null.
QString textOf(const QJsonValue &v)
{
    return v.isString() ? v.toString() : QString();
}

Failure missing(QLatin1String what, QLatin1String key)
{
    return Failure(QStringLiteral("the %1 has no \"%2\"").arg(what, key));
}

} // namespace

WireTime WireTime::fromMs(std::optional<qint64> ms)
{
    return ms ? WireTime { ms, isoUtc(*ms) } : WireTime {};
}

WireTime WireTime::fromJson(const QJsonValue &value)
{
    if (value.isString()) {
        const QString text = value.toString();
        return WireTime { parseTimestamp(text), text };
    }
    if (value.isDouble())
        return WireTime { value.toInteger(), QString() };
    return {};
}

QJsonValue WireTime::toJson() const
{
    if (!text.isEmpty())
        return text;
    return json::isoOrNull(ms);
}

bool ReplayRecord::canQueue() const
{
    return status == ReplayStatus::Approved || status == ReplayStatus::Executing
        || status == ReplayStatus::Completed || status == ReplayStatus::Halted;
}

bool ReplayRecord::isLive() const
{
    return status == ReplayStatus::Approved || status == ReplayStatus::Executing;
}

QJsonObject ReplayRecord::toJson() const
{
    // The summary's keys sit beside the request's own; its count is the request's count.
    QJsonObject o = summary.toJson();
    const bool rejected = status == ReplayStatus::Rejected;
    const std::initializer_list<std::pair<QString, QJsonValue>> own {
        { QStringLiteral("id"), id },
        { QStringLiteral("status"), status.name() },
        { QStringLiteral("requested_by"), requestedBy },
        { QStringLiteral("requester_role"), requesterRole },
        { QStringLiteral("requester_owner"), requesterOwner },
        { QStringLiteral("decider_owner"), json::nonEmptyOrNull(deciderOwner) },
        { QStringLiteral("approved_by"),
            rejected ? QJsonValue(QJsonValue::Null) : json::nonEmptyOrNull(decidedBy) },
        { QStringLiteral("decided_by"), json::nonEmptyOrNull(decidedBy) },
        { QStringLiteral("decided_at"), decidedAt.toJson() },
        { QStringLiteral("decision_reason"), json::nonEmptyOrNull(decisionReason) },
        { QStringLiteral("reason"), reason },
        { QStringLiteral("ticket"), json::nonEmptyOrNull(ticket) },
        { QStringLiteral("count"), count },
        { QStringLiteral("selection_hash"), selectionHash },
        { QStringLiteral("approval_expires_at"), approvalExpiresAt.toJson() },
        { QStringLiteral("created_at"), createdAt.toJson() },
        { QStringLiteral("updated_at"), updatedAt.toJson() },
        { QStringLiteral("started_at"), startedAt.toJson() },
        { QStringLiteral("finished_at"), finishedAt.toJson() },
        { QStringLiteral("queued"), queued },
        { QStringLiteral("succeeded"), succeeded },
        { QStringLiteral("failed"), failed },
        { QStringLiteral("skipped"), skipped },
        // Deliveries whose replay attempt finished; count - sent - skipped are still to go.
        { QStringLiteral("sent"), sent },
        { QStringLiteral("halt_reason"), json::nonEmptyOrNull(haltReason) },
    };
    for (const auto &[key, value] : own)
        o.insert(key, value);
    return o;
}

Result<ReplayRecord> ReplayRecord::fromJson(const QJsonObject &o)
{
    constexpr QLatin1String what("replay");
    if (!o.value(QLatin1String("id")).isDouble())
        return missing(what, QLatin1String("id"));
    if (!o.value(QLatin1String("status")).isString())
        return missing(what, QLatin1String("status"));
    if (!o.value(QLatin1String("count")).isDouble())
        return missing(what, QLatin1String("count"));
    ReplayRecord r;
    r.id = o.value(QLatin1String("id")).toInteger();
    auto summary = SelectionSummary::fromJson(o);
    if (!summary)
        return Failure(
            QStringLiteral("replay %1's summary is unreadable: %2").arg(r.id).arg(summary.error()));
    r.summary = std::move(*summary);
    r.status = Stored<ReplayStatus>::fromName(o.value(QLatin1String("status")).toString());
    r.requestedBy = o.value(QLatin1String("requested_by")).toString();
    r.requesterRole = o.value(QLatin1String("requester_role")).toString();
    r.requesterOwner = o.value(QLatin1String("requester_owner")).toString();
    r.decidedBy = o.value(QLatin1String("decided_by")).toString();
    if (r.decidedBy.isEmpty()) // receivers before "decided_by" named only the approver
        r.decidedBy = o.value(QLatin1String("approved_by")).toString();
    r.deciderOwner = o.value(QLatin1String("decider_owner")).toString();
    r.decisionReason = o.value(QLatin1String("decision_reason")).toString();
    r.reason = o.value(QLatin1String("reason")).toString();
    r.ticket = o.value(QLatin1String("ticket")).toString();
    r.count = o.value(QLatin1String("count")).toInt();
    r.selectionHash = o.value(QLatin1String("selection_hash")).toString();
    r.createdAt = WireTime::fromJson(o.value(QLatin1String("created_at")));
    r.updatedAt = WireTime::fromJson(o.value(QLatin1String("updated_at")));
    r.decidedAt = WireTime::fromJson(o.value(QLatin1String("decided_at")));
    r.approvalExpiresAt = WireTime::fromJson(o.value(QLatin1String("approval_expires_at")));
    r.startedAt = WireTime::fromJson(o.value(QLatin1String("started_at")));
    r.finishedAt = WireTime::fromJson(o.value(QLatin1String("finished_at")));
    r.queued = o.value(QLatin1String("queued")).toInt();
    r.succeeded = o.value(QLatin1String("succeeded")).toInt();
    r.failed = o.value(QLatin1String("failed")).toInt();
    r.skipped = o.value(QLatin1String("skipped")).toInt();
    // Receivers before "sent" existed: a finished attempt is a success or a failure.
    r.sent
        = o.contains(QLatin1String("sent")) ? o.value(QLatin1String("sent")).toInt() : r.succeeded + r.failed;
    r.haltReason = o.value(QLatin1String("halt_reason")).toString();
    return r;
}

QJsonObject ReplayItem::toJson() const
{
    return QJsonObject {
        { QStringLiteral("delivery_id"), deliveryId },
        { QStringLiteral("frozen_status"), frozenStatus.name() },
        { QStringLiteral("state"), state.name() },
        { QStringLiteral("current_status"), storedOrNull(currentStatus) },
        { QStringLiteral("event_id"), json::numberOrNull(eventId) },
        { QStringLiteral("destination"), json::textOrNull(destination) },
        { QStringLiteral("frozen_outcome_unknown"), boolOrNull(frozenOutcomeUnknown) },
        { QStringLiteral("skip_reason"), json::textOrNull(skipReason) },
        { QStringLiteral("outcome_unknown"), boolOrNull(outcomeUnknown) },
    };
}

Result<ReplayItem> ReplayItem::fromJson(const QJsonObject &o)
{
    constexpr QLatin1String what("replay item");
    if (!o.value(QLatin1String("delivery_id")).isDouble())
        return missing(what, QLatin1String("delivery_id"));
    if (!o.value(QLatin1String("frozen_status")).isString())
        return missing(what, QLatin1String("frozen_status"));
    ReplayItem i;
    i.deliveryId = o.value(QLatin1String("delivery_id")).toInteger();
    i.frozenStatus = storedOf<DeliveryStatus>(o.value(QLatin1String("frozen_status")));
    i.frozenOutcomeUnknown = optionalBool(o.value(QLatin1String("frozen_outcome_unknown")));
    i.state = storedOf<ReplayItemState>(o.value(QLatin1String("state")));
    i.skipReason = textOf(o.value(QLatin1String("skip_reason")));
    i.currentStatus = storedOf<DeliveryStatus>(o.value(QLatin1String("current_status")));
    const QJsonValue event = o.value(QLatin1String("event_id"));
    if (event.isDouble())
        i.eventId = event.toInteger();
    i.destination = textOf(o.value(QLatin1String("destination")));
    i.outcomeUnknown = optionalBool(o.value(QLatin1String("outcome_unknown")));
    return i;
}

} // namespace redrive::replay
