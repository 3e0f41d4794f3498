// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"
#include "util/headers.h"
#include "util/result.h"

#include <QByteArray>
#include <QUrl>

#include <chrono>
#include <functional>

namespace redrive::delivery {
class HttpClient;
}

// One provider API exchange at a time, on the reconciler's thread, over the receiver's outgoing
// HTTP client (delivery/httpclient.h: SSRF guard at connect time, no redirects followed, TLS
// verified). The credential goes out as `Authorization: Bearer`, and nowhere else: every error
// text is built from the status, the method and URL (which never hold it) and the provider's
// message with the credential cut out.
//
// Rate limits: a 429, or a 403 that carries Retry-After or X-RateLimit-Remaining: 0, is waited
// out (Retry-After seconds, else X-RateLimit-Reset minus now, else 1 s) and the request is sent
// again. A wait longer than maxWait, or more than maxWaits of them in one run, fails the run.
namespace redrive::reconcile {

struct ApiOptions {
    int timeoutMs = 30'000; // one request: connect, send, read
    std::chrono::milliseconds maxWait { 60'000 };
    int maxWaits = 20;
    qint64 maxResponseBytes = 32LL * 1024 * 1024;
};

struct ApiAnswer {
    int status = 0;
    Headers headers;
    QByteArray body;
};

class ProviderClient final {
public:
    // `sleep` waits (interruptibly) and returns false when the run must stop (shutdown).
    using Sleep = std::function<bool(std::chrono::milliseconds)>;
    ProviderClient(
        delivery::HttpClient &http, const ReconcileConfig &config, ApiOptions options, Sleep sleep);

    // A 2xx answer, or a failure saying why (HTTP status and the provider's message, a timeout,
    // a refused connection, a rate limit that would last too long).
    Result<ApiAnswer> get(const QUrl &url);
    Result<ApiAnswer> post(const QUrl &url);

    [[nodiscard]] int waits() const { return m_waits; }

private:
    Result<ApiAnswer> exchange(bool post, const QUrl &url);
    [[nodiscard]] QString clean(QString text) const;

    delivery::HttpClient &m_http;
    const ReconcileConfig &m_config;
    ApiOptions m_options;
    Sleep m_sleep;
    int m_waits = 0;
};

} // namespace redrive::reconcile
