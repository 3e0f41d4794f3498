// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "classification.h"

#include <algorithm>

namespace redrive::delivery {
namespace {

const QString kArrow = QStringLiteral(" \u2192 ");

Classification make(
    FailureCategory category, bool retryable, bool unknown, const QString &what, const QString &rule)
{
    Classification c;
    c.category = category;
    c.retryable = retryable;
    c.outcomeUnknown = unknown;
    QString verdict;
    if (category == FailureCategory::None)
        verdict = QStringLiteral("delivered");
    else if (retryable)
        verdict = unknown ? QStringLiteral("retryable, outcome unknown") : QStringLiteral("retryable");
    else if (category == FailureCategory::Tls || category == FailureCategory::BlockedAddress
        || category == FailureCategory::InvalidUrl)
        verdict = QStringLiteral("permanent configuration error");
    else
        verdict = unknown ? QStringLiteral("permanent, outcome unknown") : QStringLiteral("permanent");
    c.explanation = what + kArrow + verdict + QStringLiteral(" (rule: ") + rule + u')';
    return c;
}

QString withDetail(const QString &what, const QString &detail)
{
    return detail.isEmpty() ? what : what + QStringLiteral(": ") + detail;
}

Classification classifyStatus(const AttemptOutcome &o)
{
    const int code = o.statusCode;
    const QString what = QStringLiteral("HTTP %1").arg(code);
    if (code >= 200 && code <= 299) {
        Classification c = make(FailureCategory::None, false, false, what, QStringLiteral("2xx is success"));
        c.success = true;
        return c;
    }
    if (isRetryableStatus(code))
        return make(FailureCategory::HttpRetryable, true, false, what,
            QStringLiteral("408/429/500/502/503/504 are retried"));
    if (code >= 300 && code <= 399) {
        const QByteArrayView location = o.responseHeaders.value("Location");
        const QString target = location.isEmpty()
            ? QString()
            : QStringLiteral(" to %1").arg(
                QString::fromUtf8(location.first(std::min<qsizetype>(location.size(), 200))));
        return make(FailureCategory::Redirect, false, false,
            what + QStringLiteral(" redirect") + target + QStringLiteral(" not followed"),
            QStringLiteral("3xx is a failure and redirects are never followed"));
    }
    if (code == 410)
        return make(FailureCategory::HttpPermanent, false, false, what + QStringLiteral(" Gone"),
            QStringLiteral("410 means the endpoint is gone; not retried"));
    if (code >= 400 && code <= 499)
        return make(FailureCategory::HttpPermanent, false, false, what,
            QStringLiteral("4xx other than 408/429 is permanent"));
    if (code >= 500 && code <= 599)
        return make(FailureCategory::HttpPermanent, false, false, what,
            QStringLiteral("5xx other than 500/502/503/504 is permanent"));
    return make(FailureCategory::HttpPermanent, false, false, what,
        QStringLiteral("a status outside 2xx-5xx is not a valid answer"));
}

} // namespace

bool isRetryableStatus(int statusCode)
{
    switch (statusCode) {
    case 408:
    case 429:
    case 500:
    case 502:
    case 503:
    case 504:
        return true;
    default:
        return false;
    }
}

Classification classify(const AttemptOutcome &o)
{
    using T = AttemptOutcome::Transport;
    switch (o.transport) {
    case T::Completed:
        if (!o.responseComplete && o.statusCode >= 200 && o.statusCode <= 299) {
            // A 2xx whose body never finished: the destination acted, but we cannot read its
            // reference. It counts as delivered; the missing body is noted.
            Classification c = classifyStatus(o);
            c.explanation += QStringLiteral("; the response body was cut short");
            return c;
        }
        return classifyStatus(o);
    case T::InvalidUrl:
        return make(FailureCategory::InvalidUrl, false, false,
            withDetail(QStringLiteral("unusable destination URL"), o.detail),
            QStringLiteral("only absolute http and https URLs are delivered to"));
    case T::Dns:
        return make(FailureCategory::Dns, true, false,
            withDetail(QStringLiteral("DNS lookup failed"), o.detail),
            QStringLiteral("DNS failures are retried"));
    case T::Blocked:
        return make(FailureCategory::BlockedAddress, false, false,
            withDetail(QStringLiteral("address refused by the SSRF guard"), o.detail),
            QStringLiteral(
                "loopback, private, link-local, multicast and metadata addresses are refused unless "
                "the destination sets allow_private = true"));
    case T::Refused:
        return make(FailureCategory::ConnectionRefused, true, false,
            withDetail(QStringLiteral("connection refused"), o.detail),
            QStringLiteral("refused connections are retried"));
    case T::Reset:
        if (o.requestWritten)
            return make(FailureCategory::ConnectionReset, true, true,
                withDetail(QStringLiteral("connection reset after the request was sent"), o.detail),
                QStringLiteral("reset connections are retried; the destination may have acted"));
        return make(FailureCategory::ConnectionReset, true, false,
            withDetail(QStringLiteral("connection reset before the request was sent"), o.detail),
            QStringLiteral("reset connections are retried"));
    case T::Tls:
        return make(FailureCategory::Tls, false, false, withDetail(QStringLiteral("TLS failed"), o.detail),
            QStringLiteral("TLS and certificate errors are not retried"));
    case T::ConnectTimeout:
        return make(FailureCategory::Timeout, true, false,
            QStringLiteral("no connection within %1 ms").arg(o.timeoutMs),
            QStringLiteral("timeouts are retried"));
    case T::Timeout:
        if (o.requestWritten) {
            const QString what = o.statusCode > 0
                ? QStringLiteral("HTTP %1 arrived but the response did not finish within %2 ms")
                      .arg(o.statusCode)
                      .arg(o.timeoutMs)
                : QStringLiteral("no response within %1 ms after the request was sent").arg(o.timeoutMs);
            return make(FailureCategory::Timeout, true, true, what,
                QStringLiteral(
                    "a timeout after the whole request was sent is retried, and the destination may "
                    "have acted"));
        }
        return make(FailureCategory::Timeout, true, false,
            QStringLiteral("the request could not be sent within %1 ms").arg(o.timeoutMs),
            QStringLiteral("timeouts are retried"));
    case T::Cancelled:
        return make(FailureCategory::Network, true, o.requestWritten,
            o.requestWritten ? QStringLiteral("shutdown interrupted the attempt after the request was sent")
                             : QStringLiteral("shutdown interrupted the attempt"),
            QStringLiteral("interrupted attempts are retried"));
    case T::Network:
        break;
    }
    return make(FailureCategory::Network, true, o.requestWritten,
        withDetail(QStringLiteral("network error"), o.detail),
        o.requestWritten ? QStringLiteral("transport errors are retried; the destination may have acted")
                         : QStringLiteral("transport errors are retried"));
}

Classification integrityFailure(const QString &expectedSha256, const QString &actualSha256)
{
    return make(FailureCategory::Integrity, false, false,
        QStringLiteral("stored body SHA-256 %1\u2026 does not match the recorded %2\u2026; not sent")
            .arg(actualSha256.left(12), expectedSha256.left(12)),
        QStringLiteral("a body that fails its integrity check is never sent"));
}

Classification leaseExpired(const QString &workerId)
{
    return make(FailureCategory::LeaseExpired, true, true,
        QStringLiteral("worker %1 lost its lease before recording a result").arg(workerId),
        QStringLiteral("an expired lease is retried; the lost worker may have sent the request"));
}

} // namespace redrive::delivery
