// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

// The HTTP edge shared by ingest (/hooks) and the admin API (/admin/v1), built on Boost.Beast.
// Beast stays behind this header: handlers see plain Qt types, so nothing else in Redrive
// includes Boost. Guarantees (each covered by tests/ingest):
//   - the body limit is enforced from Content-Length (and while reading chunked bodies) before
//     the body is buffered → 413; header block above max_header_bytes → 431;
//   - a request must arrive completely within read_timeout, an idle keep-alive connection is
//     closed after idle_timeout (slowloris cannot hold a slot); a new connection must start its
//     first request within read_timeout;
//   - at most max_connections connections; more are answered 503 and closed;
//   - HTTP/1.1 keep-alive and pipelining; graceful stop finishes in-flight requests.

#include "config/config.h"
#include "util/headers.h"
#include "util/result.h"

#include <QByteArray>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace redrive::http {

struct Request {
    QByteArray method; // "POST"
    QByteArray target; // raw request target, "/hooks/github?x=1"
    QByteArray path; // decoded path without the query, "/hooks/github"
    QByteArray query; // raw query string without '?'
    Headers headers;
    QByteArray body;
    QString remoteAddress; // peer IP, for rejection rows
};

struct Response {
    int status = 200;
    QByteArray contentType = QByteArrayLiteral("application/json");
    QByteArray body;
    QList<std::pair<QByteArray, QByteArray>> headers; // extra headers, e.g. Retry-After
    bool closeConnection = false;

    static Response json(int status, const QByteArray &body);
    // {"error": code, "message": message[, "field": field]}
    static Response error(int status, const QString &code, const QString &message, const QString &field = {});
};

// Invoked exactly once per request, from any thread; safe to call after the connection closed
// (the response is then dropped).
using Responder = std::function<void(Response)>;
// Called on an I/O thread. Must not block: hand slow work (database) to another thread and
// answer through the responder.
using Handler = std::function<void(Request &&, Responder)>;

// What the server knows before reading the body.
struct RequestHead {
    QByteArray method;
    QByteArray path;
    Headers headers;
    std::optional<qint64> contentLength;
    QString remoteAddress;
};

// Why the edge itself refused a request (the handler never saw it).
struct EdgeRejection {
    int status = 0; // 400, 408, 413, 431, 503
    QString reason; // "too_large", "headers_too_large", "read_timeout", "malformed", "connection_limit"
    QByteArray path; // when known
    Headers headers; // when known (redact before storing)
    QString remoteAddress;
};

struct ServerOptions {
    Endpoint listen;
    qint64 maxBodyBytes = 1'048'576;
    int maxHeaderBytes = 16'384;
    int maxConnections = 1024;
    int readTimeoutMs = 10'000;
    int idleTimeoutMs = 60'000;
    // Longest a handler may take to answer once the request is in; past it the client gets
    // onReplyTimeout()'s response (or a plain 503) and the handler's late answer is dropped.
    // 0: no bound. Keeps a sender from timing out while a hung dependency holds the handler.
    int replyTimeoutMs = 0;
    std::function<Response()> onReplyTimeout;
    int threads = 2;
    QString tlsCertFile; // both set → HTTPS
    QString tlsKeyFile;
    QString name = QStringLiteral("http"); // for logs: "ingest", "admin"

    // Optional early check once the header block is in: return a response to answer without
    // reading the body (e.g. 404 unknown source, 405 wrong method). The connection is then closed
    // if a body was announced and not read.
    std::function<std::optional<Response>(const RequestHead &)> onHead;
    // Optional observer of edge-level rejections (metrics, rejections table). Any thread.
    std::function<void(const EdgeRejection &)> onRejected;
};

class Server {
public:
    Server(ServerOptions options, Handler handler);
    ~Server(); // stops (gracefully, bounded) if still running
    Server(const Server &) = delete;
    Server &operator=(const Server &) = delete;

    // Binds and starts the I/O threads. Port 0 picks a free port (see port()).
    Result<> start();
    [[nodiscard]] quint16 port() const;
    // Stops accepting, lets requests in progress finish for up to `graceMs` (their responses are
    // still written), then closes every connection and joins the threads.
    void stop(int graceMs = 10'000);

    [[nodiscard]] int openConnections() const;

private:
    class Impl;
    std::unique_ptr<Impl> d;
};

} // namespace redrive::http
