// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

// A deliberately dumb blocking HTTP/1.1 client over a POSIX socket, for tests that must control
// every byte on the wire (partial headers, trickled bytes, pipelining, lying Content-Length).
// Each call takes a deadline; nothing blocks unbounded.

#include "util/headers.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace redrive::test {

struct RawResponse {
    int status = 0;
    Headers headers;
    QByteArray body;
    [[nodiscard]] QByteArray header(QByteArrayView name) const { return headers.value(name).toByteArray(); }
};

class RawConnection final {
public:
    RawConnection() = default;
    ~RawConnection();
    RawConnection(const RawConnection &) = delete;
    RawConnection &operator=(const RawConnection &) = delete;
    RawConnection(RawConnection &&other) noexcept;
    RawConnection &operator=(RawConnection &&other) noexcept;

    bool connect(quint16 port, int timeoutMs = 5000);
    // Connects to `to` (numeric, IPv4 or IPv6) from the source address `from` (any when empty),
    // e.g. from 127.0.0.2 to 127.0.0.1 to test what the receiver does with another client.
    bool connectFrom(const QByteArray &from, const QByteArray &to, quint16 port, int timeoutMs = 5000);
    [[nodiscard]] bool isOpen() const { return m_fd >= 0; }
    // Writes everything (false when the peer reset the connection).
    bool send(QByteArrayView bytes);
    // One response: status line, headers, and a Content-Length body. nullopt on timeout, on a
    // closed connection, or on a malformed answer (see lastError()). Interim 1xx answers are
    // skipped unless `skipInterim` is false. `headRequest`: the answer to HEAD has no body,
    // whatever Content-Length says.
    std::optional<RawResponse> readResponse(
        int timeoutMs = 10'000, bool skipInterim = true, bool headRequest = false);
    // True when the server closes the connection (EOF or reset) within the time; data that
    // arrives meanwhile is kept for readResponse().
    bool waitClosed(int timeoutMs);
    void close();
    [[nodiscard]] QString lastError() const { return m_error; }

private:
    // Reads more bytes into m_in; 1 = got data, 0 = EOF/reset, -1 = timeout.
    int fill(qint64 deadline);

    int m_fd = -1;
    QByteArray m_in;
    QString m_error;
};

QByteArray buildRequest(const QByteArray &method, const QByteArray &target,
    const QList<std::pair<QByteArray, QByteArray>> &headers, const QByteArray &body, bool close = false);

// One request on a fresh connection.
std::optional<RawResponse> roundTrip(quint16 port, const QByteArray &request, int timeoutMs = 10'000);
// The same from source address `from` to address `to`.
std::optional<RawResponse> roundTripFrom(const QByteArray &from, const QByteArray &to, quint16 port,
    const QByteArray &request, int timeoutMs = 10'000);

// Peak resident set size of this process in KiB (VmHWM), 0 if unknown.
qint64 peakRssKiB();
// Current resident set size in KiB (VmRSS).
qint64 currentRssKiB();

} // namespace redrive::test
