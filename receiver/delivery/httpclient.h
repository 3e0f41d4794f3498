// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "delivery/classification.h"
#include "util/headers.h"

#include <QByteArray>
#include <QString>
#include <QUrl>

#include <functional>
#include <memory>

// The outgoing HTTP/1.1 client (Boost.Beast over Asio, one I/O thread, asynchronous). One
// connection per attempt, "Connection: close": every attempt resolves again and runs each
// resolved address through the SSRF guard immediately before connecting. Redirects are never
// followed. TLS verifies the peer's chain (system roots plus the destination's ca_file) and its
// host name, and sends SNI.
namespace redrive::delivery {

class Connector;

struct HttpRequest {
    QUrl url;
    Headers headers;         // sent in order after Host
    QByteArray body;
    int timeoutMs = 10'000;  // the whole attempt: resolve, connect, TLS, write and read
    bool allowPrivate = false;
    QString caFile;
    qint64 maxResponseBytes = 256 * 1024; // more is not read; the status still counts
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

    class Impl;

private:
    std::unique_ptr<Impl> d;
};

} // namespace redrive::delivery
