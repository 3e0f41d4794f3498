// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "util/headers.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QUrl>

#include <memory>

namespace redrive::test {

// A loopback HTTP/1.1 server whose answers a test scripts request by request: 500 × k then
// 200, delays before or after reading the body, Retry-After, redirects, 410, a slow trickle,
// a connection that hangs or resets. It records every request it saw (headers and body).
class ScriptableDestination final {
public:
    struct Response {
        int status = 200;
        QList<std::pair<QByteArray, QByteArray>> headers;
        QByteArray body;
        int delayBeforeBodyMs = 0; // pause after the request headers, before reading the body
        int delayAfterReadMs = 0; // pause after the whole request, before answering
        int trickleIntervalMs = 0; // send the response one byte per interval
        bool hang = false; // read the request and never answer
        bool reset = false; // read the request and reset the connection
        // After the answer: Close sends "Connection: close" and closes; KeepAlive keeps the
        // connection for the next request; CloseSilently closes without saying so (a peer that
        // drops a kept connection).
        enum class Connection { Close, KeepAlive, CloseSilently };
        Connection connection = Connection::Close;
    };
    struct Request {
        QByteArray method;
        QByteArray target;
        Headers headers;
        QByteArray body;
        qint64 arrivedMs = 0; // monotonic, for spacing checks
    };

    ScriptableDestination();
    ~ScriptableDestination();

    // Listens on 127.0.0.1 (or ::1) on a free port. `receiveBuffer` > 0 shrinks SO_RCVBUF so a
    // large body cannot be written while the server does not read.
    bool start(QString *error, bool ipv6 = false, int receiveBuffer = 0);
    // The same over TLS on 127.0.0.1 with the given PEM certificate chain and key.
    bool startTls(const QString &certPem, const QString &keyPem, QString *error);
    void stop();

    [[nodiscard]] quint16 port() const;
    [[nodiscard]] QUrl url(const QString &path = QStringLiteral("/hook")) const;

    void setDefault(const Response &response);
    void enqueue(const Response &response); // answers in order; the default when the queue is empty
    void enqueue(int status, int times = 1);

    [[nodiscard]] QList<Request> requests() const;
    [[nodiscard]] int requestCount() const;
    // The most requests that were read but not yet answered at the same time.
    [[nodiscard]] int maxConcurrent() const;
    // TCP connections accepted so far.
    [[nodiscard]] int connectionCount() const;
    // Waits (bounded) until at least `count` requests arrived.
    bool waitForRequests(int count, int timeoutMs) const;

    static Response status(int code, QByteArray body = {});

    class Impl;

private:
    std::unique_ptr<Impl> d;
};

} // namespace redrive::test
