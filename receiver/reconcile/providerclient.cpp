// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "providerclient.h"

#include "delivery/httpclient.h"
#include "providerpages.h"

#include <QDateTime>
#include <QHostAddress>

#include <future>

namespace redrive::reconcile {
namespace {

using Transport = delivery::AttemptOutcome::Transport;

QString transportText(Transport t)
{
    switch (t) {
    case Transport::Completed:
        return QStringLiteral("answered");
    case Transport::InvalidUrl:
        return QStringLiteral("the URL cannot be requested");
    case Transport::Dns:
        return QStringLiteral("the host name did not resolve");
    case Transport::Blocked:
        return QStringLiteral("every address of the host is refused by the address policy");
    case Transport::Refused:
        return QStringLiteral("connection refused");
    case Transport::Reset:
        return QStringLiteral("connection reset");
    case Transport::Tls:
        return QStringLiteral("TLS handshake or certificate verification failed");
    case Transport::ConnectTimeout:
        return QStringLiteral("no connection within the time allowed");
    case Transport::Timeout:
        return QStringLiteral("timed out");
    case Transport::Network:
        return QStringLiteral("network error");
    case Transport::Cancelled:
        return QStringLiteral("cancelled");
    }
    return {};
}

// The provider's own host may be loopback only in tests and demos (config allows http:// there);
// any other private address stays refused by the SSRF guard.
bool loopbackHost(const QUrl &url)
{
    const QString host = url.host();
    QHostAddress address;
    return host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0
        || (address.setAddress(host) && address.isLoopback());
}

// How long the provider asks us to wait, when this answer is a rate limit; nullopt otherwise.
std::optional<qint64> rateLimitWaitMs(const ApiAnswer &a, qint64 nowMs)
{
    const QByteArrayView retryAfter = a.headers.value("Retry-After");
    const QByteArrayView remaining = a.headers.value("X-RateLimit-Remaining");
    const QByteArrayView reset = a.headers.value("X-RateLimit-Reset");
    const bool limited
        = a.status == 429 || (a.status == 403 && (!retryAfter.isEmpty() || remaining.trimmed() == "0"));
    if (!limited)
        return std::nullopt;
    bool ok = false;
    if (!retryAfter.isEmpty()) {
        const qint64 seconds = retryAfter.trimmed().toLongLong(&ok);
        if (ok && seconds >= 0)
            return seconds * 1000;
        const QDateTime at
            = QDateTime::fromString(QString::fromLatin1(retryAfter.trimmed()), Qt::RFC2822Date);
        if (at.isValid())
            return std::max<qint64>(0, at.toMSecsSinceEpoch() - nowMs);
    }
    if (!reset.isEmpty()) {
        const qint64 epoch = reset.trimmed().toLongLong(&ok);
        if (ok)
            return std::max<qint64>(0, epoch * 1000 - nowMs);
    }
    return 1000;
}

} // namespace

ProviderClient::ProviderClient(
    delivery::HttpClient &http, const ReconcileConfig &config, ApiOptions options, Sleep sleep)
    : m_http(http)
    , m_config(config)
    , m_options(options)
    , m_sleep(std::move(sleep))
{ }

Result<ApiAnswer> ProviderClient::get(const QUrl &url)
{
    return exchange(false, url);
}

Result<ApiAnswer> ProviderClient::post(const QUrl &url)
{
    return exchange(true, url);
}

QString ProviderClient::clean(QString text) const
{
    // A provider that echoes the key (or a stand-in that misbehaves) must not carry it into a row.
    const QString key = QString::fromUtf8(m_config.credential.key);
    if (!key.isEmpty())
        text.replace(key, QLatin1String("***"));
    return text;
}

Result<ApiAnswer> ProviderClient::exchange(bool post, const QUrl &url)
{
    const QString what = QStringLiteral("%1 %2").arg(post ? QLatin1String("POST") : QLatin1String("GET"),
        url.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemoveQuery));
    for (;;) {
        delivery::HttpRequest request;
        request.url = url;
        request.method = post ? delivery::HttpRequest::Method::Post : delivery::HttpRequest::Method::Get;
        request.timeoutMs = m_options.timeoutMs;
        request.allowPrivate = loopbackHost(url);
        request.maxResponseBytes = m_options.maxResponseBytes;
        request.headers.add(QByteArrayLiteral("Authorization"), "Bearer " + m_config.credential.key);
        request.headers.add(QByteArrayLiteral("Accept"),
            m_config.provider == ReconcileConfig::Provider::GitHub
                ? QByteArrayLiteral("application/vnd.github+json")
                : QByteArrayLiteral("application/json"));
        request.headers.add(QByteArrayLiteral("User-Agent"), QByteArrayLiteral("redrive-reconcile"));
        if (m_config.provider == ReconcileConfig::Provider::GitHub)
            request.headers.add(QByteArrayLiteral("X-GitHub-Api-Version"), QByteArrayLiteral("2022-11-28"));
        std::promise<delivery::AttemptOutcome> promise;
        auto future = promise.get_future();
        m_http.send(std::move(request),
            [&promise](delivery::AttemptOutcome outcome) { promise.set_value(std::move(outcome)); });
        const delivery::AttemptOutcome outcome = future.get(); // the client bounds it by timeoutMs
        if (outcome.transport != Transport::Completed)
            return Failure(clean(
                QStringLiteral("%1: %2%3")
                    .arg(what, transportText(outcome.transport),
                        outcome.detail.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(outcome.detail))));
        ApiAnswer answer { outcome.statusCode, outcome.responseHeaders, outcome.responseBody };
        if (!outcome.responseComplete)
            return Failure(QStringLiteral("%1: HTTP %2 answer incomplete or larger than %3 bytes")
                               .arg(what)
                               .arg(answer.status)
                               .arg(m_options.maxResponseBytes));
        if (const auto waitMs = rateLimitWaitMs(answer, QDateTime::currentMSecsSinceEpoch())) {
            if (*waitMs > m_options.maxWait.count())
                return Failure(
                    QStringLiteral("%1: rate limited by the provider for %2 s, longer than the %3 s a run "
                                   "waits; the next run tries again")
                        .arg(what)
                        .arg((*waitMs + 999) / 1000)
                        .arg(m_options.maxWait.count() / 1000));
            if (++m_waits > m_options.maxWaits)
                return Failure(QStringLiteral("%1: rate limited more than %2 times in one run")
                                   .arg(what)
                                   .arg(m_options.maxWaits));
            if (!m_sleep(std::chrono::milliseconds(*waitMs)))
                return Failure(QStringLiteral("the receiver stopped during the run"));
            continue;
        }
        if (answer.status < 200 || answer.status >= 300) {
            const QString message = providerMessage(answer.body);
            return Failure(
                clean(QStringLiteral("%1: HTTP %2%3")
                          .arg(what)
                          .arg(answer.status)
                          .arg(message.isEmpty() ? QString() : QStringLiteral(" \"%1\"").arg(message))));
        }
        return answer;
    }
}

} // namespace redrive::reconcile
