// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "deliveryrules/classification.h"
#include "util/headers.h"

#include <QByteArray>
#include <QString>
#include <QUrl>

#include <functional>
#include <memory>

// The outgoing HTTP/1.1 client (Boost.Beast over Asio, one I/O thread, asynchronous). Redirects
// are never followed. TLS verifies the peer's chain (system roots plus the destination's ca_file)
// and its host name, and sends SNI.
//
// Connections: a new connection resolves the host and runs each resolved address through the
// SSRF guard immediately before connecting. After a whole, in-time answer that is not a
// redirect and does not say "Connection: close", the connection is kept for the next request to
// the same origin (same scheme, host, port, allow_private and ca_file) for up to 4 s idle. Its
// peer address passed the guard at connect time, so reuse is as safe as the connect was. Any
// error, timeout or cancel closes the connection — a request whose outcome is unknown never
// shares a connection with the next. An idle connection the peer closed is noticed before use;
// if a reused one still fails before any byte of an answer (the peer closed it just as the
// request went out) the request is sent once more on a fresh connection, as HTTP clients do for
// requests that carry an Idempotency-Key.
namespace redrive::delivery {

class Connector;

struct HttpRequest {
    QUrl url;
    // Deliveries POST; reconciliation also GETs the provider's lists (receiver/reconcile).
    enum class Method { Post, Get };
    Method method = Method::Post;
    Headers headers; // sent in order after Host
    QByteArray body;
    int timeoutMs = 10'000; // the whole attempt: resolve, connect, TLS, write and read
    bool allowPrivate = false;
    QString caFile;
    qint64 maxResponseBytes = 256LL * 1024; // more is not read; the status still counts
};

class HttpClient final {
public:
    // `connector` = {} uses the system resolver and a plain TCP connect.
    explicit HttpClient(std::shared_ptr<Connector> connector = {});
    ~HttpClient();
    HttpClient(const HttpClient &) = delete;
    HttpClient &operator=(const HttpClient &) = delete;

    using Done = std::function<void(AttemptOutcome)>;
    // Starts one exchange; `done` runs exactly once, on the client's I/O thread. Thread-safe.
    void send(HttpRequest request, Done done);
    // Ends every running exchange; each reports Transport::Cancelled (with requestWritten telling
    // whether the destination may have acted). Thread-safe.
    void cancelAll();

    struct Stats {
        quint64 connectionsOpened = 0; // TCP connects that succeeded
        quint64 connectionsReused = 0; // exchanges that started on a kept connection
        quint64 staleRetries = 0; // reused connections the peer had closed; resent on a fresh one
    };
    [[nodiscard]] Stats stats() const; // thread-safe

    class Impl;

private:
    std::unique_ptr<Impl> d;
};

} // namespace redrive::delivery
