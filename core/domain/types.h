// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QString>

#include <optional>

// The vocabulary shared by the receiver, the admin API and the console. The string forms are
// stored in the database and appear in the admin API; they are a contract and never change.
namespace redrive {

enum class DeliveryStatus { Pending, InFlight, Retrying, Succeeded, Dead };
// An event's status summarises its deliveries; NoRoute marks an event no route matched.
enum class EventStatus { Pending, InFlight, Retrying, Succeeded, Dead, NoRoute };
enum class ReplayStatus {
    PendingApproval,
    Approved,
    Rejected,
    Cancelled,
    Expired,
    Executing,
    Halted,
    Completed
};
// Where one delivery of a replay request stands: waiting its turn, queued for the delivery engine,
// or finished (the replay attempt succeeded or failed; skipped when the delivery vanished, was in
// flight or was queued by another replay when its turn came).
enum class ReplayItemState { Waiting, Queued, Succeeded, Failed, Skipped };
enum class Role { Support, Operator, Auditor, Admin };
enum class Risk { Low, High };
enum class AttemptTrigger { Automatic, Replay };

// Why an attempt ended as it did. Each category has a fixed retry disposition (see
// retrypolicy.h); the attempt also stores a one-line explanation naming the rule that applied.
enum class FailureCategory {
    None, // success
    HttpRetryable, // 408, 429, 500, 502, 503, 504
    HttpPermanent, // 410 and other 4xx, and 5xx outside the retryable list
    Redirect, // 3xx: a failure, never followed
    Timeout, // no answer in time; see outcome_unknown for whether the request was fully sent
    ConnectionRefused, // retryable
    ConnectionReset, // retryable
    Dns, // name did not resolve; retryable
    Tls, // certificate or handshake failure; permanent configuration error
    BlockedAddress, // SSRF guard refused the resolved address; permanent configuration error
    InvalidUrl, // destination URL unusable; permanent configuration error
    Integrity, // stored body no longer matches its SHA-256; never sent
    LeaseExpired, // the worker holding the claim vanished; outcome unknown
    Network, // other transport error; retryable
};

QString toString(DeliveryStatus s);
QString toString(EventStatus s);
QString toString(ReplayStatus s);
QString toString(ReplayItemState s);
QString toString(Role r);
QString toString(Risk r);
QString toString(AttemptTrigger t);
QString toString(FailureCategory c);

std::optional<DeliveryStatus> deliveryStatusFromString(QStringView s);
std::optional<EventStatus> eventStatusFromString(QStringView s);
std::optional<ReplayStatus> replayStatusFromString(QStringView s);
std::optional<ReplayItemState> replayItemStateFromString(QStringView s);
std::optional<Role> roleFromString(QStringView s);
std::optional<Risk> riskFromString(QStringView s);
std::optional<AttemptTrigger> attemptTriggerFromString(QStringView s);
std::optional<FailureCategory> failureCategoryFromString(QStringView s);

// All values, for validation messages and UI lists.
QStringList allDeliveryStatusNames();
QStringList allEventStatusNames();
QStringList allReplayStatusNames();
QStringList allRoleNames();
QStringList allFailureCategoryNames();

// One business key of an event (a source's `keys`): "order" = "1042". Stored in event_keys and
// searched with `key=order:1042`.
struct EventKey {
    QString name;
    QString value;
    bool operator==(const EventKey &) const = default;
};

} // namespace redrive
