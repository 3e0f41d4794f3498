// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
//
// redrive-loadgen: a small, single-threaded epoll HTTP/1.1 load generator for the ingest
// benchmarks. It signs every request itself (GitHub scheme: X-Hub-Signature-256 over the body,
// a unique X-GitHub-Delivery per event), so the receiver does real verification work, and it
// records which event ids were acknowledged so the benchmark can check each one is stored.
//
// Closed loop (default): each connection sends its next request when the previous answer
// arrives — the maximum-throughput measurement. Open loop (--rate R): requests are scheduled at
// a fixed rate and latency is measured from the *scheduled* send time, so a server that falls
// behind is charged for the queueing it causes (no coordinated omission).
#include "benchids.h"
#include "crypto/crypto.h"

#include <algorithm>
#include <arpa/inet.h>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <map>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
    std::string host = "127.0.0.1";
    int port = 8080;
    std::string path = "/hooks/bench";
    int connections = 64;
    double seconds = 10;
    double rate = 0; // 0 = closed loop
    int bodySize = 1024;
    std::string secret = "bench-secret";
    std::string mode = "new"; // new | dup
    int dupIds = 100;
    std::string idPrefix;
    std::string idStyle = "counter"; // counter | uuid
    std::string ackLog;
    bool unsigned_ = false;
    long long maxRequests = 0;
};

struct Conn {
    int fd = -1;
    std::string out;
    size_t outPos = 0;
    std::string in;
    bool busy = false;
    std::string currentId;
    Clock::time_point scheduled;
};

[[noreturn]] void usage(const char *why)
{
    std::fprintf(stderr,
        "redrive-loadgen: %s\n"
        "usage: redrive-loadgen [--host H] [--port P] [--path /hooks/bench] [--connections 64]\n"
        "         [--seconds 10] [--rate R] [--body-size 1024] [--secret S] [--mode new|dup]\n"
        "         [--dup-ids 100] [--id-prefix X] [--id-style counter|uuid] [--ack-log FILE] [--unsigned]\n"
        "         [--max-requests N]\n",
        why);
    std::exit(2);
}

Options parse(int argc, char **argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc)
                usage(("missing value for " + a).c_str());
            return argv[++i];
        };
        if (a == "--host")
            o.host = next();
        else if (a == "--port")
            o.port = std::stoi(next());
        else if (a == "--path")
            o.path = next();
        else if (a == "--connections")
            o.connections = std::stoi(next());
        else if (a == "--seconds")
            o.seconds = std::stod(next());
        else if (a == "--rate")
            o.rate = std::stod(next());
        else if (a == "--body-size")
            o.bodySize = std::stoi(next());
        else if (a == "--secret")
            o.secret = next();
        else if (a == "--mode")
            o.mode = next();
        else if (a == "--dup-ids")
            o.dupIds = std::stoi(next());
        else if (a == "--id-prefix")
            o.idPrefix = next();
        else if (a == "--id-style")
            o.idStyle = next();
        else if (a == "--ack-log")
            o.ackLog = next();
        else if (a == "--unsigned")
            o.unsigned_ = true;
        else if (a == "--max-requests")
            o.maxRequests = std::stoll(next());
        else
            usage(("unknown option " + a).c_str());
    }
    if (o.connections < 1 || o.connections > 10000 || o.seconds <= 0 || o.bodySize < 64
        || o.bodySize > (1 << 24) || (o.mode != "new" && o.mode != "dup") || o.dupIds < 1
        || (o.idStyle != "counter" && o.idStyle != "uuid"))
        usage("invalid option value");
    if (o.idPrefix.empty())
        o.idPrefix = "lg" + std::to_string(::getpid()) + "-" + std::to_string(std::time(nullptr)) + "-";
    return o;
}

class Generator {
public:
    explicit Generator(const Options &o)
        : m_o(o)
    { }

    std::string request(long long n, std::string &idOut)
    {
        if (m_o.mode == "dup")
            idOut = m_o.idPrefix + "dup-" + std::to_string(n % m_o.dupIds);
        else
            idOut = redrive::bench::eventId(m_o.idPrefix, m_o.idStyle, n);
        const std::string body = redrive::bench::eventBody(idOut, m_o.bodySize);
        std::string req;
        req.reserve(body.size() + 512);
        req += "POST " + m_o.path + " HTTP/1.1\r\nHost: " + m_o.host
            + "\r\nContent-Type: application/json\r\n";
        req += "X-GitHub-Event: pull_request\r\nX-GitHub-Delivery: " + idOut + "\r\n";
        if (!m_o.unsigned_) {
            const QByteArray mac = redrive::crypto::hmacSha256(
                QByteArrayView(m_o.secret.data(), static_cast<qsizetype>(m_o.secret.size())),
                QByteArrayView(body.data(), static_cast<qsizetype>(body.size())));
            req += "X-Hub-Signature-256: sha256=" + mac.toHex().toStdString() + "\r\n";
        }
        req += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
        req += body;
        return req;
    }

private:
    const Options &m_o;
};

int connectTo(const Options &o)
{
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(o.port));
    if (::inet_pton(AF_INET, o.host.c_str(), &addr.sin_addr) != 1) {
        ::close(fd);
        return -1;
    }
    if (::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) < 0 && errno != EINPROGRESS) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// Returns the length of one complete response at the start of `in` (0 if incomplete) and its status.
size_t completeResponse(const std::string &in, int &status)
{
    const size_t headerEnd = in.find("\r\n\r\n");
    if (headerEnd == std::string::npos)
        return 0;
    status = std::atoi(in.c_str() + 9);
    size_t contentLength = 0;
    size_t pos = 0;
    while ((pos = in.find('\n', pos)) != std::string::npos && pos < headerEnd) {
        ++pos;
        if (strncasecmp(in.c_str() + pos, "content-length:", 15) == 0)
            contentLength = static_cast<size_t>(std::atoll(in.c_str() + pos + 15));
    }
    const size_t total = headerEnd + 4 + contentLength;
    return in.size() >= total ? total : 0;
}

} // namespace

int main(int argc, char **argv)
{
    const Options o = parse(argc, argv);
    Generator gen(o);
    const int ep = ::epoll_create1(EPOLL_CLOEXEC);
    std::vector<Conn> conns(static_cast<size_t>(o.connections));
    for (size_t i = 0; i < conns.size(); ++i) {
        conns[i].fd = connectTo(o);
        if (conns[i].fd < 0) {
            std::fprintf(stderr, "redrive-loadgen: cannot connect to %s:%d\n", o.host.c_str(), o.port);
            return 1;
        }
        epoll_event ev {};
        ev.events = EPOLLIN | EPOLLOUT | EPOLLET;
        ev.data.u64 = i;
        ::epoll_ctl(ep, EPOLL_CTL_ADD, conns[i].fd, &ev);
    }

    std::vector<double> latenciesMs;
    latenciesMs.reserve(1 << 20);
    std::map<int, long long> statuses;
    long long sent = 0, ok = 0, errors = 0;
    std::vector<std::string> acked;
    std::deque<Clock::time_point> backlog; // open loop: scheduled sends waiting for a free connection
    const auto start = Clock::now();
    const auto end
        = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.seconds));
    long long scheduledCount = 0;

    auto launch = [&](Conn &c, Clock::time_point scheduled) {
        c.out = gen.request(sent++, c.currentId);
        c.outPos = 0;
        c.busy = true;
        c.scheduled = scheduled;
        const ssize_t n = ::send(c.fd, c.out.data(), c.out.size(), MSG_NOSIGNAL);
        if (n > 0)
            c.outPos = static_cast<size_t>(n);
    };
    auto limitReached = [&] { return o.maxRequests > 0 && sent >= o.maxRequests; };

    if (o.rate <= 0) {
        for (auto &c : conns)
            if (!limitReached())
                launch(c, Clock::now());
    }

    std::vector<epoll_event> events(static_cast<size_t>(o.connections));
    char buf[65536];
    while (true) {
        const auto now = Clock::now();
        const bool stopping = now >= end || limitReached();
        if (o.rate > 0 && !stopping) {
            const double elapsed = std::chrono::duration<double>(now - start).count();
            const long long due = static_cast<long long>(elapsed * o.rate);
            while (scheduledCount < due) {
                backlog.push_back(start
                    + std::chrono::duration_cast<Clock::duration>(
                        std::chrono::duration<double>(static_cast<double>(scheduledCount) / o.rate)));
                ++scheduledCount;
            }
            for (auto &c : conns) {
                if (backlog.empty())
                    break;
                if (!c.busy) {
                    launch(c, backlog.front());
                    backlog.pop_front();
                }
            }
        }
        bool anyBusy = false;
        for (auto &c : conns)
            anyBusy = anyBusy || c.busy;
        if (stopping && !anyBusy)
            break;
        if (stopping && now >= end + std::chrono::seconds(30))
            break; // answers that never come are counted as errors below
        const int timeoutMs = o.rate > 0 ? 1 : 100;
        const int n = ::epoll_wait(ep, events.data(), static_cast<int>(events.size()), timeoutMs);
        for (int k = 0; k < n; ++k) {
            Conn &c = conns[events[static_cast<size_t>(k)].data.u64];
            if (c.busy && c.outPos < c.out.size()) {
                const ssize_t w
                    = ::send(c.fd, c.out.data() + c.outPos, c.out.size() - c.outPos, MSG_NOSIGNAL);
                if (w > 0)
                    c.outPos += static_cast<size_t>(w);
            }
            while (true) {
                const ssize_t r = ::recv(c.fd, buf, sizeof buf, 0);
                if (r > 0) {
                    c.in.append(buf, static_cast<size_t>(r));
                    continue;
                }
                if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
                    // Connection closed: count the request in flight as an error and reconnect.
                    if (c.busy) {
                        ++errors;
                        c.busy = false;
                    }
                    ::close(c.fd);
                    c.in.clear();
                    c.fd = connectTo(o);
                    epoll_event ev {};
                    ev.events = EPOLLIN | EPOLLOUT | EPOLLET;
                    ev.data.u64 = static_cast<uint64_t>(&c - conns.data());
                    ::epoll_ctl(ep, EPOLL_CTL_ADD, c.fd, &ev);
                }
                break;
            }
            int status = 0;
            while (size_t len = completeResponse(c.in, status)) {
                c.in.erase(0, len);
                if (!c.busy)
                    continue;
                const auto done = Clock::now();
                latenciesMs.push_back(std::chrono::duration<double, std::milli>(done - c.scheduled).count());
                ++statuses[status];
                if (status >= 200 && status < 300) {
                    ++ok;
                    if (!o.ackLog.empty())
                        acked.push_back(c.currentId);
                }
                c.busy = false;
                if (o.rate <= 0 && done < end && !limitReached())
                    launch(c, done);
            }
        }
    }
    for (auto &c : conns) {
        if (c.busy)
            ++errors;
        ::close(c.fd);
    }
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    std::sort(latenciesMs.begin(), latenciesMs.end());
    auto pct = [&](double p) {
        if (latenciesMs.empty())
            return 0.0;
        return latenciesMs[std::min(
            latenciesMs.size() - 1, static_cast<size_t>(p * static_cast<double>(latenciesMs.size())))];
    };
    if (!o.ackLog.empty()) {
        FILE *f = std::fopen(o.ackLog.c_str(), "w");
        if (!f) {
            std::fprintf(stderr, "redrive-loadgen: cannot write %s\n", o.ackLog.c_str());
            return 1;
        }
        for (const auto &id : acked)
            std::fprintf(f, "%s\n", id.c_str());
        std::fclose(f);
    }
    std::string statusJson;
    for (const auto &[s, count] : statuses)
        statusJson += (statusJson.empty() ? "" : ",") + std::string("\"") + std::to_string(s)
            + "\":" + std::to_string(count);
    const double measured = std::min(elapsed, o.seconds);
    std::printf("{\"sent\":%lld,\"ok\":%lld,\"errors\":%lld,\"seconds\":%.3f,\"ok_per_second\":%.1f,"
                "\"p50_ms\":%.3f,\"p90_ms\":%.3f,\"p99_ms\":%.3f,\"max_ms\":%.3f,\"statuses\":{%s},"
                "\"offered_rate\":%.1f,\"backlog_left\":%zu}\n",
        sent, ok, errors, elapsed, static_cast<double>(ok) / measured, pct(0.50), pct(0.90), pct(0.99),
        latenciesMs.empty() ? 0.0 : latenciesMs.back(), statusJson.c_str(), o.rate, backlog.size());
    return 0;
}
