// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"

#include <QByteArrayView>
#include <QList>

#include <optional>

// When the next attempt of a delivery happens: the destination's retry_schedule (or an
// exponential default), bounded jitter, and a Retry-After answer honoured within bounds. Pure
// functions of their inputs; the engine supplies "now" from the injected clock and the random
// draw, so tests can check every bound exactly.
namespace redrive::delivery {

// Exponential default when a destination has no retry_schedule: 5 s · 2^(n-1), capped.
inline constexpr qint64 kExponentialBaseMs = 5'000;
inline constexpr qint64 kExponentialCapMs = 2LL * 3600 * 1000;

// The scheduled delay (before jitter) after attempt number `attemptNumber` (1-based) failed.
// With a retry_schedule, entry n-1 is used and its last entry repeats when max_attempts asks for
// more retries than it lists.
qint64 baseDelayMs(const DestinationConfig &destination, int attemptNumber);

// `baseMs` moved by `draw · jitter · baseMs`, where draw ∈ [-1, 1] (clamped) and jitter ∈ [0, 0.5].
// The result always lies in [baseMs·(1-jitter), baseMs·(1+jitter)].
qint64 applyJitter(qint64 baseMs, double jitter, double draw);

// A Retry-After value as a delay from `nowMs`: delta-seconds ("120") or an HTTP-date
// (IMF-fixdate, RFC 850 or asctime form, RFC 9110 §10.2.3). A date in the past gives 0.
// nullopt when the value is neither.
std::optional<qint64> parseRetryAfterMs(QByteArrayView value, qint64 nowMs);

// The delay actually used when the destination asked for `retryAfterMs`: never sooner than the
// schedule (`scheduledMs`, already jittered) and never later than `retryAfterMaxMs` (unless the
// schedule itself is later).
qint64 clampRetryAfter(qint64 retryAfterMs, qint64 scheduledMs, qint64 retryAfterMaxMs);

// One future attempt of a delivery, as the console draws it.
struct ProjectedAttempt {
    int number = 0; // attempt number (1-based)
    qint64 earliestMs = 0; // jitter band
    qint64 expectedMs = 0;
    qint64 latestMs = 0;
};

struct ProjectedSchedule {
    QList<ProjectedAttempt> attempts; // remaining automatic attempts, in order
    // When the delivery becomes a dead letter if every remaining attempt fails (at the last
    // attempt's time band; the attempt's own duration is not included). Unset when the
    // delivery has nothing left to schedule.
    std::optional<ProjectedAttempt> deadLetter;
};

// The remaining automatic schedule of a delivery in state pending or retrying that has made
// `attemptsMade` attempts and whose next attempt is due at `nextAttemptAtMs` (already jittered,
// so exact). Later attempts carry accumulated jitter bands. Empty for other states or when the
// budget is spent.
ProjectedSchedule projectSchedule(
    const DestinationConfig &destination, double jitter, int attemptsMade, qint64 nextAttemptAtMs);

} // namespace redrive::delivery
