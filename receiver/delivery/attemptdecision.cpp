// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "attemptdecision.h"

#include "deliveryrules/responsecapture.h"
#include "deliveryrules/retrypolicy.h"

namespace redrive::delivery {

AttemptRecord decideAttempt(const FinishedAttempt &f, const DestinationConfig *dest,
    const DeliveryConfig &config, const QString &workerId, qint64 nowMs, double jitterDraw, bool circuitOpen)
{
    const Claim &c = f.claim;
    AttemptRecord a;
    a.number = c.attemptCount + 1;
    a.trigger = c.replayId ? AttemptTrigger::Replay : AttemptTrigger::Automatic;
    a.replayId = c.replayId;
    a.scheduledAt = c.scheduledAt;
    a.startedAt = f.startedAt;
    a.durationMs = f.durationMs;
    a.workerId = workerId;
    a.classification = f.preset ? *f.preset : classify(f.outcome);
    a.statusCode = f.outcome.transport == AttemptOutcome::Transport::Completed ? f.outcome.statusCode : 0;
    const QByteArray refHeader = dest && dest->successRef.kind == SuccessRef::Kind::Header
        ? dest->successRef.name.toLatin1()
        : QByteArray();
    a.responseHeadersJson = selectResponseHeaders(f.outcome.responseHeaders, refHeader).toJson();
    a.responseExcerpt = responseExcerpt(f.outcome.responseBody, config.responseExcerptBytes);
    a.recordedAt = nowMs;

    Classification &cls = a.classification;
    if (cls.success) {
        a.newStatus = DeliveryStatus::Succeeded;
        if (dest)
            a.downstreamRef
                = downstreamReference(dest->successRef, f.outcome.responseHeaders, f.outcome.responseBody);
        return a;
    }
    const int maxAttempts = dest ? dest->maxAttempts : 1;
    if (c.replayId) {
        a.newStatus = DeliveryStatus::Dead;
        cls.explanation += QStringLiteral("; a replay is one attempt \u2192 dead letter again");
        return a;
    }
    if (!cls.retryable || !dest) {
        a.newStatus = DeliveryStatus::Dead;
        return a;
    }
    if (a.number >= maxAttempts && circuitOpen) {
        cls.explanation += QStringLiteral("; the circuit is open: held, not a dead letter");
    } else if (a.number >= maxAttempts) {
        a.newStatus = DeliveryStatus::Dead;
        cls.explanation += QStringLiteral("; max_attempts (%1) reached \u2192 dead letter").arg(maxAttempts);
        return a;
    }
    a.newStatus = DeliveryStatus::Retrying;
    qint64 delay = applyJitter(baseDelayMs(*dest, a.number), config.jitter, jitterDraw);
    const QByteArrayView retryAfter = f.outcome.responseHeaders.value("Retry-After");
    if (!retryAfter.isEmpty()) {
        if (const auto asked = parseRetryAfterMs(retryAfter, a.recordedAt)) {
            const qint64 used = clampRetryAfter(*asked, delay, config.retryAfterMaxMs);
            cls.explanation += QStringLiteral("; Retry-After %1 s honoured as %2 s (bounds: schedule %3 s, "
                                              "retry_after_max %4 s)")
                                   .arg(*asked / 1000)
                                   .arg(static_cast<double>(used) / 1000.0, 0, 'f', 1)
                                   .arg(static_cast<double>(delay) / 1000.0, 0, 'f', 1)
                                   .arg(config.retryAfterMaxMs / 1000);
            delay = used;
        }
    }
    a.nextAttemptAt = a.recordedAt + delay;
    return a;
}

} // namespace redrive::delivery
