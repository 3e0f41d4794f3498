// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replayitem.h"

namespace redrive::ui {
namespace {

std::optional<bool> optionalBool(const QJsonValue &v)
{
    return v.isBool() ? std::optional<bool>(v.toBool()) : std::nullopt;
}

} // namespace

ReplayItem ReplayItem::fromJson(const QJsonObject &o)
{
    ReplayItem i;
    i.deliveryId = o.value(QLatin1String("delivery_id")).toInteger();
    const QJsonValue event = o.value(QLatin1String("event_id"));
    if (event.isDouble())
        i.eventId = event.toInteger();
    i.destination = o.value(QLatin1String("destination")).toString();
    i.frozenName = o.value(QLatin1String("frozen_status")).toString();
    i.stateName = o.value(QLatin1String("state")).toString();
    i.currentName = o.value(QLatin1String("current_status")).toString();
    i.frozenStatus = deliveryStatusFromString(i.frozenName);
    i.state = replayItemStateFromString(i.stateName);
    i.currentStatus = deliveryStatusFromString(i.currentName);
    i.outcomeUnknown = optionalBool(o.value(QLatin1String("frozen_outcome_unknown")));
    i.outcomeUnknownAtFreeze = i.outcomeUnknown.has_value();
    if (!i.outcomeUnknown)
        i.outcomeUnknown = optionalBool(o.value(QLatin1String("outcome_unknown")));
    i.skipReason = o.value(QLatin1String("skip_reason")).toString();
    return i;
}

QString ReplayItem::outcome() const
{
    if (!state)
        return stateName;
    switch (*state) {
    case ReplayItemState::Waiting:
        return QStringLiteral("not sent yet");
    case ReplayItemState::Queued:
        return QStringLiteral("queued for delivery");
    case ReplayItemState::Succeeded:
        return QStringLiteral("succeeded");
    case ReplayItemState::Failed:
        return QStringLiteral("failed");
    case ReplayItemState::Skipped:
        return skipReason.isEmpty() ? QStringLiteral("skipped") : QStringLiteral("skipped: ") + skipReason;
    }
    return stateName;
}

} // namespace redrive::ui
