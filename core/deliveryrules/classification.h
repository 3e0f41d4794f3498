// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "util/headers.h"

#include <QByteArray>
#include <QString>

// How one delivery attempt ended, and what that means: the category stored on the attempt, its
// retry disposition, whether the destination may have acted although we saw no answer, and a
// one-line explanation that names the rule which applied (docs/operations.md, "Configuration reference" ›
// `[[destinations]]`).
namespace redrive::delivery {

// What the HTTP client observed, before any interpretation.
struct AttemptOutcome {
    enum class Transport {
        Completed, // a response status line and headers arrived (see statusCode)
        InvalidUrl, // the destination URL cannot be requested (scheme, host)
        Dns, // the host name did not resolve
        Blocked, // every resolved address was refused by the address policy
        Refused, // connection refused
        Reset, // connection reset or closed early
        Tls, // handshake or certificate verification failed
        ConnectTimeout, // no connection (incl. TLS) within the time allowed
        Timeout, // connected, but the exchange did not finish in time
        Network, // any other transport error
        Cancelled, // the engine stopped while the attempt ran
    };
    Transport transport = Transport::Network;
    bool requestWritten = false; // the whole request reached the socket
    int statusCode = 0; // when transport == Completed
    Headers responseHeaders;
    QByteArray responseBody; // what was read (bounded, possibly truncated)
    bool responseComplete = false;
    QString detail; // transport error text for humans; never a secret
    qint64 timeoutMs = 0; // the limit that expired, for Timeout/ConnectTimeout
};

struct Classification {
    FailureCategory category = FailureCategory::Network;
    bool success = false;
    bool retryable = false;
    // The destination may have acted on the request although we have no answer.
    bool outcomeUnknown = false;
    QString explanation; // "HTTP 503 → retryable (rule: 408/429/500/502/503/504 are retried)"
};

Classification classify(const AttemptOutcome &outcome);

// The attempt that never sends because the stored body no longer matches its digest.
Classification integrityFailure(const QString &expectedSha256, const QString &actualSha256);

// The attempt recorded by the sweeper for a claim whose worker vanished.
Classification leaseExpired(const QString &workerId);

// True for the statuses that are retried: 408, 429, 500, 502, 503, 504.
bool isRetryableStatus(int statusCode);

} // namespace redrive::delivery
