// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "downstream.h"

#include <QCoreApplication>

namespace redrive {
namespace {

int urgency(DownstreamState s)
{
    switch (s) {
    case DownstreamState::None:
        return 0;
    case DownstreamState::SucceededWithRef:
        return 1;
    case DownstreamState::Resolved:
        return 2;
    case DownstreamState::Succeeded:
        return 3;
    case DownstreamState::Pending:
        return 4;
    case DownstreamState::Failed:
        return 5;
    case DownstreamState::OutcomeUnknown:
        return 6;
    }
    return 0;
}

} // namespace

QString toString(DownstreamState state)
{
    switch (state) {
    case DownstreamState::None:
        return QStringLiteral("none");
    case DownstreamState::Pending:
        return QStringLiteral("pending");
    case DownstreamState::Succeeded:
        return QStringLiteral("succeeded");
    case DownstreamState::SucceededWithRef:
        return QStringLiteral("succeeded_ref");
    case DownstreamState::Failed:
        return QStringLiteral("failed");
    case DownstreamState::OutcomeUnknown:
        return QStringLiteral("outcome_unknown");
    case DownstreamState::Resolved:
        return QStringLiteral("resolved");
    }
    return {};
}

QString describe(DownstreamState state)
{
    switch (state) {
    case DownstreamState::None:
        return QCoreApplication::translate("redrive::DownstreamState", "No destination");
    case DownstreamState::Pending:
        return QCoreApplication::translate("redrive::DownstreamState", "Pending");
    case DownstreamState::Succeeded:
        return QCoreApplication::translate("redrive::DownstreamState", "Succeeded (no reference)");
    case DownstreamState::SucceededWithRef:
        return QCoreApplication::translate("redrive::DownstreamState", "Succeeded");
    case DownstreamState::Failed:
        return QCoreApplication::translate("redrive::DownstreamState", "Failed");
    case DownstreamState::OutcomeUnknown:
        return QCoreApplication::translate("redrive::DownstreamState", "Outcome unknown");
    case DownstreamState::Resolved:
        return QCoreApplication::translate("redrive::DownstreamState", "Resolved by hand");
    }
    return {};
}

DownstreamState downstreamState(
    const Stored<DeliveryStatus> &deliveryStatus, bool outcomeUnknown, const QString &downstreamRef)
{
    if (deliveryStatus == DeliveryStatus::Succeeded)
        return downstreamRef.isEmpty() ? DownstreamState::Succeeded : DownstreamState::SucceededWithRef;
    // Someone decided what the destination's side needs; the flag no longer asks for attention.
    if (deliveryStatus == DeliveryStatus::Resolved)
        return DownstreamState::Resolved;
    if (outcomeUnknown)
        return DownstreamState::OutcomeUnknown;
    if (deliveryStatus == DeliveryStatus::Dead)
        return DownstreamState::Failed;
    return DownstreamState::Pending;
}

DownstreamState summariseDownstream(const QList<DownstreamState> &deliveries)
{
    DownstreamState worst = DownstreamState::None;
    for (DownstreamState s : deliveries) {
        if (urgency(s) > urgency(worst))
            worst = s;
    }
    return worst;
}

} // namespace redrive
