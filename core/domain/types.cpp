// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "types.h"

#include <QStringList>

#include <array>
#include <utility>

namespace redrive {
namespace {

template<typename E, std::size_t N> using NameTable = std::array<std::pair<E, QStringView>, N>;

constexpr NameTable<DeliveryStatus, 6> kDeliveryStatus { {
    { DeliveryStatus::Pending, u"pending" },
    { DeliveryStatus::InFlight, u"in_flight" },
    { DeliveryStatus::Retrying, u"retrying" },
    { DeliveryStatus::Succeeded, u"succeeded" },
    { DeliveryStatus::Dead, u"dead" },
    { DeliveryStatus::Resolved, u"resolved" },
} };

constexpr NameTable<EventStatus, 8> kEventStatus { {
    { EventStatus::Pending, u"pending" },
    { EventStatus::InFlight, u"in_flight" },
    { EventStatus::Retrying, u"retrying" },
    { EventStatus::Succeeded, u"succeeded" },
    { EventStatus::Dead, u"dead" },
    { EventStatus::NoRoute, u"no_route" },
    { EventStatus::Invalid, u"invalid" },
    { EventStatus::Resolved, u"resolved" },
} };

constexpr NameTable<ReplayStatus, 8> kReplayStatus { {
    { ReplayStatus::PendingApproval, u"pending_approval" },
    { ReplayStatus::Approved, u"approved" },
    { ReplayStatus::Rejected, u"rejected" },
    { ReplayStatus::Cancelled, u"cancelled" },
    { ReplayStatus::Expired, u"expired" },
    { ReplayStatus::Executing, u"executing" },
    { ReplayStatus::Halted, u"halted" },
    { ReplayStatus::Completed, u"completed" },
} };

constexpr NameTable<ReplayItemState, 5> kReplayItemState { {
    { ReplayItemState::Waiting, u"waiting" },
    { ReplayItemState::Queued, u"queued" },
    { ReplayItemState::Succeeded, u"succeeded" },
    { ReplayItemState::Failed, u"failed" },
    { ReplayItemState::Skipped, u"skipped" },
} };

constexpr NameTable<Role, 4> kRole { {
    { Role::Support, u"support" },
    { Role::Operator, u"operator" },
    { Role::Auditor, u"auditor" },
    { Role::Admin, u"admin" },
} };

constexpr NameTable<Risk, 2> kRisk { {
    { Risk::Low, u"low" },
    { Risk::High, u"high" },
} };

constexpr NameTable<AttemptTrigger, 2> kTrigger { {
    { AttemptTrigger::Automatic, u"automatic" },
    { AttemptTrigger::Replay, u"replay" },
} };

constexpr NameTable<ReconcileRunStatus, 3> kReconcileRunStatus { {
    { ReconcileRunStatus::Running, u"running" },
    { ReconcileRunStatus::Ok, u"ok" },
    { ReconcileRunStatus::Failed, u"failed" },
} };

constexpr NameTable<Resolution, 2> kResolution { {
    { Resolution::HandledManually, u"handled_manually" },
    { Resolution::NotNeeded, u"not_needed" },
} };

constexpr NameTable<FailureCategory, 14> kCategory { {
    { FailureCategory::None, u"success" },
    { FailureCategory::HttpRetryable, u"http_retryable" },
    { FailureCategory::HttpPermanent, u"http_permanent" },
    { FailureCategory::Redirect, u"redirect" },
    { FailureCategory::Timeout, u"timeout" },
    { FailureCategory::ConnectionRefused, u"connection_refused" },
    { FailureCategory::ConnectionReset, u"connection_reset" },
    { FailureCategory::Dns, u"dns" },
    { FailureCategory::Tls, u"tls" },
    { FailureCategory::BlockedAddress, u"blocked_address" },
    { FailureCategory::InvalidUrl, u"invalid_url" },
    { FailureCategory::Integrity, u"integrity" },
    { FailureCategory::LeaseExpired, u"lease_expired" },
    { FailureCategory::Network, u"network" },
} };

template<typename E, std::size_t N> QString nameOf(const NameTable<E, N> &table, E value)
{
    for (const auto &[e, name] : table) {
        if (e == value)
            return name.toString();
    }
    return {};
}

template<typename E, std::size_t N> std::optional<E> valueOf(const NameTable<E, N> &table, QStringView name)
{
    for (const auto &[e, n] : table) {
        if (n == name)
            return e;
    }
    return std::nullopt;
}

template<typename E, std::size_t N> QStringList namesOf(const NameTable<E, N> &table)
{
    QStringList out;
    for (const auto &entry : table)
        out.append(entry.second.toString());
    return out;
}

} // namespace

QString toString(DeliveryStatus s)
{
    return nameOf(kDeliveryStatus, s);
}
QString toString(EventStatus s)
{
    return nameOf(kEventStatus, s);
}
QString toString(ReplayStatus s)
{
    return nameOf(kReplayStatus, s);
}
QString toString(ReplayItemState s)
{
    return nameOf(kReplayItemState, s);
}
QString toString(Role r)
{
    return nameOf(kRole, r);
}
QString toString(Risk r)
{
    return nameOf(kRisk, r);
}
QString toString(AttemptTrigger t)
{
    return nameOf(kTrigger, t);
}
QString toString(FailureCategory c)
{
    return nameOf(kCategory, c);
}
QString toString(Resolution r)
{
    return nameOf(kResolution, r);
}
QString toString(ReconcileRunStatus s)
{
    return nameOf(kReconcileRunStatus, s);
}

std::optional<DeliveryStatus> deliveryStatusFromString(QStringView s)
{
    return valueOf(kDeliveryStatus, s);
}
std::optional<EventStatus> eventStatusFromString(QStringView s)
{
    return valueOf(kEventStatus, s);
}
std::optional<ReplayStatus> replayStatusFromString(QStringView s)
{
    return valueOf(kReplayStatus, s);
}
std::optional<ReplayItemState> replayItemStateFromString(QStringView s)
{
    return valueOf(kReplayItemState, s);
}
std::optional<Role> roleFromString(QStringView s)
{
    return valueOf(kRole, s);
}
std::optional<Risk> riskFromString(QStringView s)
{
    return valueOf(kRisk, s);
}
std::optional<AttemptTrigger> attemptTriggerFromString(QStringView s)
{
    return valueOf(kTrigger, s);
}
std::optional<FailureCategory> failureCategoryFromString(QStringView s)
{
    return valueOf(kCategory, s);
}
std::optional<Resolution> resolutionFromString(QStringView s)
{
    return valueOf(kResolution, s);
}
std::optional<ReconcileRunStatus> reconcileRunStatusFromString(QStringView s)
{
    return valueOf(kReconcileRunStatus, s);
}

QStringList allDeliveryStatusNames()
{
    return namesOf(kDeliveryStatus);
}
QStringList allEventStatusNames()
{
    return namesOf(kEventStatus);
}
QStringList allReplayStatusNames()
{
    return namesOf(kReplayStatus);
}
QStringList allRoleNames()
{
    return namesOf(kRole);
}
QStringList allFailureCategoryNames()
{
    return namesOf(kCategory);
}
QStringList allResolutionNames()
{
    return namesOf(kResolution);
}

} // namespace redrive
