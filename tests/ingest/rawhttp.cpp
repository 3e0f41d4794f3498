// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "rawhttp.h"

#include <QElapsedTimer>
#include <QFile>

#include <arpa/inet.h>
#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace redrive::test {
namespace {
qint64 monotonicMs()
{
    static QElapsedTimer timer = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
    return timer.elapsed();
}
} // namespace

RawConnection::~RawConnection()
{
    close();
}

RawConnection::RawConnection(RawConnection &&other) noexcept
    : m_fd(std::exchange(other.m_fd, -1))
    , m_in(std::move(other.m_in))
{ }

RawConnection &RawConnection::operator=(RawConnection &&other) noexcept
{
    if (this != &other) {
        close();
        m_fd = std::exchange(other.m_fd, -1);
        m_in = std::move(other.m_in);
    }
    return *this;
}

bool RawConnection::connect(quint16 port, int timeoutMs)
{
    return connectFrom(QByteArray(), QByteArrayLiteral("127.0.0.1"), port, timeoutMs);
}

bool RawConnection::connectFrom(const QByteArray &from, const QByteArray &to, quint16 port, int timeoutMs)
{
    close();
    // Both ends are numeric loopback addresses (127.x.y.z, ::1): binding the source address before
    // connect lets one test speak as several clients.
    sockaddr_storage target {};
    sockaddr_storage source {};
    socklen_t length = 0;
    const bool v6 = to.contains(':');
    if (v6) {
        auto *t = reinterpret_cast<sockaddr_in6 *>(&target);
        auto *s = reinterpret_cast<sockaddr_in6 *>(&source);
        t->sin6_family = s->sin6_family = AF_INET6;
        t->sin6_port = htons(port);
        length = sizeof(sockaddr_in6);
        if (::inet_pton(AF_INET6, to.constData(), &t->sin6_addr) != 1
            || (!from.isEmpty() && ::inet_pton(AF_INET6, from.constData(), &s->sin6_addr) != 1)) {
            m_error = QStringLiteral("not an IPv6 address");
            return false;
        }
    } else {
        auto *t = reinterpret_cast<sockaddr_in *>(&target);
        auto *s = reinterpret_cast<sockaddr_in *>(&source);
        t->sin_family = s->sin_family = AF_INET;
        t->sin_port = htons(port);
        length = sizeof(sockaddr_in);
        if (::inet_pton(AF_INET, to.constData(), &t->sin_addr) != 1
            || (!from.isEmpty() && ::inet_pton(AF_INET, from.constData(), &s->sin_addr) != 1)) {
            m_error = QStringLiteral("not an IPv4 address");
            return false;
        }
    }
    m_fd = ::socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (m_fd < 0) {
        m_error = QStringLiteral("socket: %1").arg(errno);
        return false;
    }
    const int one = 1;
    ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (!from.isEmpty() && ::bind(m_fd, reinterpret_cast<sockaddr *>(&source), length) != 0) {
        m_error = QStringLiteral("bind %1: errno %2").arg(QString::fromLatin1(from)).arg(errno);
        close();
        return false;
    }
    if (::connect(m_fd, reinterpret_cast<sockaddr *>(&target), length) != 0 && errno != EINPROGRESS) {
        m_error = QStringLiteral("connect: errno %1").arg(errno);
        close();
        return false;
    }
    pollfd p { m_fd, POLLOUT, 0 };
    if (::poll(&p, 1, timeoutMs) != 1) {
        m_error = QStringLiteral("connect timed out");
        close();
        return false;
    }
    int soError = 0;
    socklen_t len = sizeof soError;
    ::getsockopt(m_fd, SOL_SOCKET, SO_ERROR, &soError, &len);
    if (soError != 0) {
        m_error = QStringLiteral("connect: errno %1").arg(soError);
        close();
        return false;
    }
    return true;
}

bool RawConnection::send(QByteArrayView bytes)
{
    qsizetype done = 0;
    const qint64 deadline = monotonicMs() + 10'000;
    while (done < bytes.size()) {
        if (m_fd < 0)
            return false;
        const auto n
            = ::send(m_fd, bytes.data() + done, static_cast<size_t>(bytes.size() - done), MSG_NOSIGNAL);
        if (n > 0) {
            done += n;
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            pollfd p { m_fd, POLLOUT, 0 };
            const qint64 left = deadline - monotonicMs();
            if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) <= 0) {
                m_error = QStringLiteral("send timed out");
                return false;
            }
            continue;
        }
        m_error = QStringLiteral("send: errno %1").arg(errno);
        return false;
    }
    return true;
}

int RawConnection::fill(qint64 deadline)
{
    if (m_fd < 0)
        return 0;
    for (;;) {
        char buf[16384];
        const auto n = ::recv(m_fd, buf, sizeof buf, 0);
        if (n > 0) {
            m_in.append(buf, n);
            return 1;
        }
        if (n == 0)
            return 0;
        if (errno != EAGAIN && errno != EWOULDBLOCK)
            return 0; // reset
        const qint64 left = deadline - monotonicMs();
        if (left <= 0)
            return -1;
        pollfd p { m_fd, POLLIN, 0 };
        ::poll(&p, 1, static_cast<int>(left));
    }
}

std::optional<RawResponse> RawConnection::readResponse(int timeoutMs, bool skipInterim, bool headRequest)
{
    const qint64 deadline = monotonicMs() + timeoutMs;
    qsizetype headerEnd = -1;
    for (;;) {
        headerEnd = m_in.indexOf("\r\n\r\n");
        if (headerEnd >= 0)
            break;
        const int r = fill(deadline);
        if (r <= 0) {
            m_error = r == 0 ? QStringLiteral("connection closed before a response")
                             : QStringLiteral("timed out waiting for a response");
            return std::nullopt;
        }
    }
    RawResponse response;
    const QList<QByteArray> lines = m_in.first(headerEnd).split('\n');
    const QList<QByteArray> statusParts = lines.value(0).trimmed().split(' ');
    if (statusParts.size() < 2 || !statusParts[0].startsWith("HTTP/1.")) {
        m_error = QStringLiteral("malformed status line");
        return std::nullopt;
    }
    response.status = statusParts[1].toInt();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines[i].trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon > 0)
            response.headers.add(line.first(colon).trimmed(), line.sliced(colon + 1).trimmed());
    }
    m_in.remove(0, headerEnd + 4);
    if (response.status == 100 && skipInterim) // interim answer: the final one follows
        return readResponse(
            static_cast<int>(std::max<qint64>(1, deadline - monotonicMs())), true, headRequest);
    const qsizetype length = headRequest ? 0 : response.header("Content-Length").toLongLong();
    while (m_in.size() < length) {
        if (fill(deadline) <= 0) {
            m_error = QStringLiteral("body cut short");
            return std::nullopt;
        }
    }
    response.body = m_in.first(length);
    m_in.remove(0, length);
    return response;
}

bool RawConnection::waitClosed(int timeoutMs)
{
    const qint64 deadline = monotonicMs() + timeoutMs;
    for (;;) {
        // Data is not a close: it is kept for readResponse() and the wait goes on.
        const int r = fill(deadline);
        if (r == 0)
            return true;
        if (r < 0)
            return false;
    }
}

void RawConnection::close()
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
}

QByteArray buildRequest(const QByteArray &method, const QByteArray &target,
    const QList<std::pair<QByteArray, QByteArray>> &headers, const QByteArray &body, bool close)
{
    QByteArray out = method + ' ' + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    bool hasLength = false;
    for (const auto &[name, value] : headers) {
        out += name + ": " + value + "\r\n";
        if (name.compare("Content-Length", Qt::CaseInsensitive) == 0
            || name.compare("Transfer-Encoding", Qt::CaseInsensitive) == 0)
            hasLength = true;
    }
    if (!hasLength && (!body.isEmpty() || method == "POST"))
        out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    if (close)
        out += "Connection: close\r\n";
    out += "\r\n";
    out += body;
    return out;
}

std::optional<RawResponse> roundTripFrom(
    const QByteArray &from, const QByteArray &to, quint16 port, const QByteArray &request, int timeoutMs)
{
    RawConnection c;
    if (!c.connectFrom(from, to, port) || !c.send(request)) {
        qWarning(
            "cannot send from %s to %s: %s", from.constData(), to.constData(), qPrintable(c.lastError()));
        return std::nullopt;
    }
    return c.readResponse(timeoutMs);
}

std::optional<RawResponse> roundTrip(quint16 port, const QByteArray &request, int timeoutMs)
{
    RawConnection c;
    if (!c.connect(port) || !c.send(request))
        return std::nullopt;
    return c.readResponse(timeoutMs);
}

namespace {
qint64 statusField(const char *name)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray prefix = QByteArray(name) + ':';
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith(prefix))
            return line.sliced(prefix.size()).trimmed().split(' ').value(0).toLongLong();
    }
    return 0;
}
} // namespace

qint64 peakRssKiB()
{
    return statusField("VmHWM");
}

qint64 currentRssKiB()
{
    return statusField("VmRSS");
}

} // namespace redrive::test
