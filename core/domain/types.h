// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QString>

#include <initializer_list>
#include <optional>
#include <type_traits>

// The vocabulary shared by the receiver, the admin API and the console. The string forms are
// stored in the database and appear in the admin API; they are a contract and never change.
namespace redrive {

// Resolved: a dead letter someone handled another way ("handled_manually", "not_needed"); it is
// no dead letter any more and no replay takes it (sending it again would act twice).
enum class DeliveryStatus { Pending, InFlight, Retrying, Succeeded, Dead, Resolved };
// An event's status summarises its deliveries; NoRoute marks an event no route matched, Invalid
// one that failed its source's JSON Schema and was quarantined without deliveries; Resolved one
// whose deliveries all ended and at least one was resolved by hand instead of delivered.
enum class EventStatus { Pending, InFlight, Retrying, Succeeded, Dead, NoRoute, Invalid, Resolved };
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
// A reconciliation run: running while its lease is held, then ok or failed (reconcile_runs).
enum class ReconcileRunStatus { Running, Ok, Failed };
// How a dead letter was resolved without a replay (POST deliveries/resolve).
enum class Resolution { HandledManually, NotNeeded };

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
QString toString(ReconcileRunStatus s);
QString toString(FailureCategory c);
QString toString(Resolution r);

std::optional<DeliveryStatus> deliveryStatusFromString(QStringView s);
std::optional<EventStatus> eventStatusFromString(QStringView s);
std::optional<ReplayStatus> replayStatusFromString(QStringView s);
std::optional<ReplayItemState> replayItemStateFromString(QStringView s);
std::optional<Role> roleFromString(QStringView s);
std::optional<Risk> riskFromString(QStringView s);
std::optional<AttemptTrigger> attemptTriggerFromString(QStringView s);
std::optional<ReconcileRunStatus> reconcileRunStatusFromString(QStringView s);
std::optional<FailureCategory> failureCategoryFromString(QStringView s);
std::optional<Resolution> resolutionFromString(QStringView s);

// All values, for validation messages and UI lists.
QStringList allDeliveryStatusNames();
QStringList allEventStatusNames();
QStringList allReplayStatusNames();
QStringList allRoleNames();
QStringList allFailureCategoryNames();
QStringList allResolutionNames();

// The stored names as SQL text, from the same tables as toString: sqlName(DeliveryStatus::Dead) is
// `'dead'` and sqlNames({DeliveryStatus::Pending, DeliveryStatus::Retrying}) is
// `('pending', 'retrying')`. Queries spell states only this way, so a query and the rows it
// reads cannot disagree about a name. The names are the tables' own (lower case, digits and
// underscores), never input, so quoting them is all the escaping they need.
template<typename E> QString sqlName(E value)
{
    return u'\'' + toString(value) + u'\'';
}

template<typename E> QString sqlNames(std::initializer_list<E> values)
{
    QString list;
    for (const E value : values)
        list += (list.isEmpty() ? QStringLiteral("(") : QStringLiteral(", ")) + sqlName(value);
    return list + u')';
}

// A state as read from a stored row. Rows are parsed once, where they are read (core/query, the
// delivery and replay stores); everything past that compares enums, never names.
//
// A name this build does not know (a newer receiver's, or a hand-edited row) must neither crash
// nor be folded into a known state, and must still be shown and exported exactly as stored. So
// it is kept as its raw text: value() is nullopt, name() returns the stored text unchanged (the
// admin API, evidence bundles and CSV carry it through), and it equals no enum value. A NULL or
// empty column (last_category before any attempt ended) reads as the null Stored: isNull(), and
// name() is that empty text. A known value's name() is its entry in the name table, so the stored and wire
// strings are the table's and nothing else.
template<typename E> class Stored {
public:
    Stored() = default;
    // Implicit so that `status = DeliveryStatus::Dead` and `status == DeliveryStatus::Dead` read naturally.
    constexpr Stored(E value) // NOLINT(google-explicit-constructor,hicpp-explicit-conversions)
        : m_value(value)
    { }
    static Stored fromName(const QString &name);

    [[nodiscard]] std::optional<E> value() const { return m_value; }
    [[nodiscard]] bool isKnown() const { return m_value.has_value(); }
    [[nodiscard]] bool isNull() const { return !m_value && m_unknown.isEmpty(); }
    [[nodiscard]] QString name() const;

    friend bool operator==(const Stored &a, E b) { return a.m_value == b; }
    bool operator==(const Stored &) const = default;

private:
    std::optional<E> m_value;
    QString m_unknown; // the stored text, only when it names no value
};

namespace detail {
// The name tables' parsers, chosen by type for Stored<E>::fromName.
inline std::optional<DeliveryStatus> parseName(QStringView s, std::type_identity<DeliveryStatus>)
{
    return deliveryStatusFromString(s);
}
inline std::optional<EventStatus> parseName(QStringView s, std::type_identity<EventStatus>)
{
    return eventStatusFromString(s);
}
inline std::optional<ReplayStatus> parseName(QStringView s, std::type_identity<ReplayStatus>)
{
    return replayStatusFromString(s);
}
inline std::optional<ReplayItemState> parseName(QStringView s, std::type_identity<ReplayItemState>)
{
    return replayItemStateFromString(s);
}
inline std::optional<AttemptTrigger> parseName(QStringView s, std::type_identity<AttemptTrigger>)
{
    return attemptTriggerFromString(s);
}
inline std::optional<FailureCategory> parseName(QStringView s, std::type_identity<FailureCategory>)
{
    return failureCategoryFromString(s);
}
inline std::optional<ReconcileRunStatus> parseName(QStringView s, std::type_identity<ReconcileRunStatus>)
{
    return reconcileRunStatusFromString(s);
}
inline std::optional<Resolution> parseName(QStringView s, std::type_identity<Resolution>)
{
    return resolutionFromString(s);
}
} // namespace detail

template<typename E> Stored<E> Stored<E>::fromName(const QString &name)
{
    Stored s;
    s.m_value = detail::parseName(name, std::type_identity<E> {});
    if (!s.m_value)
        s.m_unknown = name;
    return s;
}

template<typename E> QString Stored<E>::name() const
{
    return m_value ? toString(*m_value) : m_unknown;
}

template<typename E> QString toString(const Stored<E> &s)
{
    return s.name();
}

// One business key of an event (a source's `keys`): "order" = "1042". Stored in event_keys and
// searched with `key=order:1042`.
// A value shown in place of a redacted one (a source's `redact`), everywhere a reader sees it.
inline constexpr QLatin1StringView kRedactedText("[redacted]");

struct EventKey {
    QString name;
    QString value;
    bool operator==(const EventKey &) const = default;
};

} // namespace redrive
