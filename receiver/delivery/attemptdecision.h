// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"
#include "deliveryrules/classification.h"
#include "deliverystore.h"

#include <optional>

// What one finished attempt means for its delivery: the attempt record (classification, the
// selected response headers, a bounded redacted excerpt, the downstream reference on success)
// and the delivery's next state — succeeded; retrying at the schedule's jittered delay, with
// Retry-After honoured within bounds; or dead (permanent failure, max_attempts spent, a failed
// replay, or a destination no longer configured). While the destination's circuit is open
// (`circuitOpen`) a retryable failure is never a dead letter: the delivery waits with the rest.
namespace redrive::delivery {

struct FinishedAttempt {
    const Claim &claim;
    const AttemptOutcome &outcome;
    std::optional<Classification> preset; // set when the attempt never reached the network
    qint64 startedAt = 0;
    qint64 durationMs = 0;
};

// `dest` is null when the destination left the configuration; `jitterDraw` is uniform in [-1, 1].
AttemptRecord decideAttempt(const FinishedAttempt &f, const DestinationConfig *dest,
    const DeliveryConfig &config, const QString &workerId, qint64 nowMs, double jitterDraw,
    bool circuitOpen = false);

} // namespace redrive::delivery
