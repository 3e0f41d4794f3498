// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// The Beast edge on real loopback sockets: limits before buffering, timeouts, the connection
// cap, keep-alive and pipelining, graceful stop, responder lifetime and TLS.

#include "http/server.h"
#include "rawhttp.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <future>
#include <mutex>
#include <thread>

using namespace redrive;
using namespace redrive::test;

namespace {

// Records what the server saw; every member is safe to touch from the I/O threads.
struct Recorder {
    std::mutex mutex;
    QList<http::Request> requests;
    QList<http::EdgeRejection> rejections;
    std::optional<http::Responder> held;
    std::atomic<int> handled { 0 };

    void record(const http::Request &r)
    {
        std::lock_guard lock(mutex);
        requests.append(r);
        handled.fetch_add(1);
    }
    QStringList rejectionReasons()
    {
        std::lock_guard lock(mutex);
        QStringList out;
        for (const auto &r : rejections)
            out.append(r.reason);
        return out;
    }
    std::optional<http::Responder> takeHeld()
    {
        std::lock_guard lock(mutex);
        auto r = std::move(held);
        held.reset();
        return r;
    }
    bool hasHeld()
    {
        std::lock_guard lock(mutex);
        return held.has_value();
    }
};

http::Response echo(const http::Request &r)
{
    return http::Response::json(200,
        "{\"method\":\"" + r.method + "\",\"path\":\"" + r.path
            + "\",\"size\":" + QByteArray::number(r.body.size()) + "}");
}

} // namespace

class TstHttpServer final : public QObject {
    Q_OBJECT

private:
    Recorder m_rec;
    std::unique_ptr<http::Server> m_server;
    quint16 m_port = 0;

    // Starts a server whose handler echoes, unless `handler` is given.
    bool startServer(http::ServerOptions options, http::Handler handler = {})
    {
        options.listen = Endpoint { QStringLiteral("127.0.0.1"), 0 };
        options.name = QStringLiteral("test");
        if (!options.onRejected) {
            options.onRejected = [this](const http::EdgeRejection &r) {
                std::lock_guard lock(m_rec.mutex);
                m_rec.rejections.append(r);
            };
        }
        if (!handler) {
            handler = [this](http::Request &&r, http::Responder respond) {
                m_rec.record(r);
                respond(echo(r));
            };
        }
        m_server = std::make_unique<http::Server>(std::move(options), std::move(handler));
        if (const auto started = m_server->start(); !started) {
            qWarning("start failed: %s", qPrintable(started.error()));
            return false;
        }
        m_port = m_server->port();
        return m_port != 0;
    }

private Q_SLOTS:
    void cleanup()
    {
        if (m_server)
            m_server->stop(2'000);
        m_server.reset();
        std::lock_guard lock(m_rec.mutex);
        m_rec.requests.clear();
        m_rec.rejections.clear();
        m_rec.held.reset();
        m_rec.handled = 0;
    }

    void roundTripAndKeepAlive()
    {
        QVERIFY(startServer({}));
        RawConnection c;
        QVERIFY(c.connect(m_port));
        for (int i = 0; i < 3; ++i) {
            QVERIFY(c.send(buildRequest("POST", "/hooks/a%20b?x=1", {}, "hello")));
            auto r = c.readResponse();
            QVERIFY2(r, qPrintable(c.lastError()));
            QCOMPARE(r->status, 200);
            QCOMPARE(r->body, QByteArray("{\"method\":\"POST\",\"path\":\"/hooks/a b\",\"size\":5}"));
            QVERIFY(r->header("Connection").isEmpty()); // kept alive
        }
        QCOMPARE(m_rec.handled.load(), 3);
        std::lock_guard lock(m_rec.mutex);
        QCOMPARE(m_rec.requests[0].query, QByteArray("x=1"));
        QCOMPARE(m_rec.requests[0].target, QByteArray("/hooks/a%20b?x=1"));
        QCOMPARE(m_rec.requests[0].remoteAddress, QStringLiteral("127.0.0.1"));
    }

    void headAnswersWithoutBody()
    {
        QVERIFY(startServer({}));
        RawConnection c;
        QVERIFY(c.connect(m_port));
        QVERIFY(c.send(QByteArray(buildRequest("HEAD", "/x", {}, {}) + buildRequest("GET", "/y", {}, {}))));
        auto head = c.readResponse(3'000, true, true);
        QVERIFY(head);
        QCOMPARE(head->status, 200);
        // Content-Length describes the GET body; none follows, so the next answer parses cleanly.
        QVERIFY(head->header("Content-Length").toInt() > 0);
        auto get = c.readResponse(3'000);
        QVERIFY2(get, qPrintable(c.lastError()));
        QVERIFY(get->body.contains("\"path\":\"/y\""));
    }

    void connectionCloseIsHonoured()
    {
        QVERIFY(startServer({}));
        RawConnection c;
        QVERIFY(c.connect(m_port));
        QVERIFY(c.send(buildRequest("GET", "/x", {}, {}, true)));
        auto r = c.readResponse();
        QVERIFY(r);
        QCOMPARE(r->header("Connection"), QByteArray("close"));
        QVERIFY(c.waitClosed(3'000));
    }

    // A 200 MB Content-Length is refused from the header alone: fast, and without the memory.
    void oversizedContentLengthRefusedBeforeBody()
    {
        http::ServerOptions o;
        o.maxBodyBytes = 1'048'576;
        QVERIFY(startServer(o));
        const qint64 peakBefore = peakRssKiB();
        QElapsedTimer t;
        t.start();
        RawConnection c;
        QVERIFY(c.connect(m_port));
        QVERIFY(c.send(
            "POST /hooks/x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 209715200\r\n\r\n"));
        auto r = c.readResponse(5'000);
        QVERIFY2(r, qPrintable(c.lastError()));
        QCOMPARE(r->status, 413);
        QVERIFY(r->body.contains("\"error\":\"too_large\""));
        QVERIFY2(t.elapsed() < 2'000, qPrintable(QString::number(t.elapsed())));
        QVERIFY(c.waitClosed(5'000));
        QCOMPARE(m_rec.handled.load(), 0);
        QTRY_COMPARE(m_rec.rejectionReasons(), QStringList { QStringLiteral("too_large") });
        {
            std::lock_guard lock(m_rec.mutex);
            QCOMPARE(m_rec.rejections[0].status, 413);
            QCOMPARE(m_rec.rejections[0].path, QByteArray("/hooks/x"));
            QCOMPARE(m_rec.rejections[0].headers.value("Content-Type"), QByteArrayView("application/json"));
        }
        const qint64 growth = peakRssKiB() - peakBefore;
        QVERIFY2(growth < 16 * 1024, qPrintable(QStringLiteral("peak RSS grew by %1 KiB").arg(growth)));
    }

    // The client does not wait: body bytes are already on the wire when the 413 goes out. The
    // lingering close still lets it read the answer.
    void oversizedBodyAlreadySentStillGets413()
    {
        http::ServerOptions o;
        o.maxBodyBytes = 1'024;
        QVERIFY(startServer(o));
        RawConnection c;
        QVERIFY(c.connect(m_port));
        QVERIFY(c.send(QByteArray(QByteArray("POST /h HTTP/1.1\r\nHost: x\r\nContent-Length: 65536\r\n\r\n")
            + QByteArray(65536, 'a'))));
        auto r = c.readResponse(5'000);
        QVERIFY2(r, qPrintable(c.lastError()));
        QCOMPARE(r->status, 413);
        QCOMPARE(m_rec.handled.load(), 0);
    }

    void chunkedOversizedBody()
    {
        http::ServerOptions o;
        o.maxBodyBytes = 1'000;
        QVERIFY(startServer(o));
        RawConnection c;
        QVERIFY(c.connect(m_port));
        QByteArray req = "POST /h HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
        for (int i = 0; i < 3; ++i)
            req += "190\r\n" + QByteArray(400, 'x') + "\r\n"; // 3 × 400 bytes > 1000
        req += "0\r\n\r\n";
        QVERIFY(c.send(req));
        auto r = c.readResponse(5'000);
        QVERIFY2(r, qPrintable(c.lastError()));
        QCOMPARE(r->status, 413);
        QVERIFY(c.waitClosed(5'000));
        QCOMPARE(m_rec.handled.load(), 0);
    }

    void chunkedWithinLimitIsAccepted()
    {
        http::ServerOptions o;
        o.maxBodyBytes = 1'000;
        QVERIFY(startServer(o));
        auto r = roundTrip(m_port,
            "POST /h HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n");
        QVERIFY(r);
        QCOMPARE(r->status, 200);
        std::lock_guard lock(m_rec.mutex);
        QCOMPARE(m_rec.requests.value(0).body, QByteArray("hello world"));
    }

    void hugeHeadersGet431()
    {
        http::ServerOptions o;
        o.maxHeaderBytes = 2'048;
        QVERIFY(startServer(o));
        RawConnection c;
        QVERIFY(c.connect(m_port));
        QVERIFY(c.send(buildRequest("POST", "/h", { { "X-Big", QByteArray(4'000, 'b') } }, "x")));
        auto r = c.readResponse(5'000);
        QVERIFY2(r, qPrintable(c.lastError()));
        QCOMPARE(r->status, 431);
        QVERIFY(r->body.contains("headers_too_large"));
        QVERIFY(c.waitClosed(5'000));
        QCOMPARE(m_rec.handled.load(), 0);
        QTRY_COMPARE(m_rec.rejectionReasons(), QStringList { QStringLiteral("headers_too_large") });
    }

    // Bytes trickled below any sane rate cannot hold a connection past read_timeout.
    void slowlorisClosedAfterReadTimeout()
    {
        http::ServerOptions o;
        o.readTimeoutMs = 600;
        QVERIFY(startServer(o));
        RawConnection c;
        QVERIFY(c.connect(m_port));
        QElapsedTimer t;
        t.start();
        QVERIFY(c.send("POST /h HTTP/1.1\r\n"));
        const QByteArray trickle = "X-Slow: " + QByteArray(200, 'z');
        bool closed = false;
        for (int i = 0; i < trickle.size() && !closed; ++i) {
            c.send(trickle.mid(i, 1));
            closed = c.waitClosed(100); // one byte per 100 ms
        }
        QVERIFY(closed);
        QVERIFY2(t.elapsed() < 2'500, qPrintable(QString::number(t.elapsed())));
        QVERIFY2(t.elapsed() >= 500, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(m_rec.handled.load(), 0);
        QTRY_COMPARE(m_rec.rejectionReasons(), QStringList { QStringLiteral("read_timeout") });
        QTRY_COMPARE(m_server->openConnections(), 0);
    }

    void slowBodyClosedAfterReadTimeout()
    {
        http::ServerOptions o;
        o.readTimeoutMs = 500;
        QVERIFY(startServer(o));
        RawConnection c;
        QVERIFY(c.connect(m_port));
        QVERIFY(c.send("POST /h HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc"));
        QVERIFY(c.waitClosed(3'000));
        QCOMPARE(m_rec.handled.load(), 0);
    }

    void idleKeepAliveClosed()
    {
        http::ServerOptions o;
        o.idleTimeoutMs = 400;
        QVERIFY(startServer(o));
        RawConnection c;
        QVERIFY(c.connect(m_port));
        QVERIFY(c.send(buildRequest("GET", "/x", {}, {})));
        QVERIFY(c.readResponse());
        QElapsedTimer t;
        t.start();
        QVERIFY(c.waitClosed(5'000));
        QVERIFY2(t.elapsed() >= 300 && t.elapsed() < 3'000, qPrintable(QString::number(t.elapsed())));
        QVERIFY(m_rec.rejectionReasons().isEmpty()); // idling between requests is not a rejection
        QTRY_COMPARE(m_server->openConnections(), 0);
    }

    void connectionCap()
    {
        http::ServerOptions o;
        o.maxConnections = 3;
        QVERIFY(startServer(o));
        std::vector<RawConnection> open(3);
        for (auto &c : open) {
            QVERIFY(c.connect(m_port));
            QVERIFY(c.send(buildRequest("GET", "/x", {}, {})));
            QVERIFY(c.readResponse());
        }
        QCOMPARE(m_server->openConnections(), 3);
        RawConnection extra;
        QVERIFY(extra.connect(m_port));
        auto r = extra.readResponse(5'000);
        QVERIFY2(r, qPrintable(extra.lastError()));
        QCOMPARE(r->status, 503);
        QCOMPARE(r->header("Retry-After"), QByteArray("1"));
        QVERIFY(r->body.contains("connection_limit"));
        QVERIFY(extra.waitClosed(3'000));
        open[0].close();
        QTRY_COMPARE(m_server->openConnections(), 2);
        auto ok = roundTrip(m_port, buildRequest("GET", "/again", {}, {}));
        QVERIFY(ok);
        QCOMPARE(ok->status, 200);
    }

    void pipelinedRequestsAnsweredInOrder()
    {
        // Answers come from another thread after a delay that shrinks with each request, so an
        // implementation that answered out of order would show it.
        std::mutex threadsMutex;
        std::vector<std::thread> threads;
        std::atomic<int> index { 0 };
        QVERIFY(startServer({}, [&](http::Request &&r, http::Responder respond) {
            const int i = index.fetch_add(1);
            std::lock_guard lock(threadsMutex);
            threads.emplace_back([r = std::move(r), respond = std::move(respond), i]() mutable {
                std::this_thread::sleep_for(std::chrono::milliseconds(30 - 10 * std::min(i, 2)));
                respond(http::Response::json(200, r.path));
            });
        }));
        RawConnection c;
        QVERIFY(c.connect(m_port));
        const QByteArray pipelined = buildRequest("POST", "/one", {}, "1")
            + buildRequest("GET", "/two", {}, {}) + buildRequest("POST", "/three", {}, "333");
        QVERIFY(c.send(pipelined));
        for (const char *expected : { "/one", "/two", "/three" }) {
            auto r = c.readResponse();
            QVERIFY2(r, qPrintable(c.lastError()));
            QCOMPARE(r->body, QByteArray(expected));
        }
        std::lock_guard lock(threadsMutex);
        for (auto &t : threads)
            t.join();
    }

    void earlyAnswerFromOnHead()
    {
        http::ServerOptions o;
        o.onHead = [](const http::RequestHead &head) -> std::optional<http::Response> {
            if (head.path == "/nope")
                return http::Response::error(
                    404, QStringLiteral("not_found"), QStringLiteral("no such path"));
            return std::nullopt;
        };
        QVERIFY(startServer(o));
        // No body announced: the connection stays usable.
        RawConnection c;
        QVERIFY(c.connect(m_port));
        QVERIFY(c.send(buildRequest("GET", "/nope", {}, {})));
        auto r = c.readResponse();
        QVERIFY(r);
        QCOMPARE(r->status, 404);
        QVERIFY(c.send(buildRequest("GET", "/yes", {}, {})));
        r = c.readResponse();
        QVERIFY(r);
        QCOMPARE(r->status, 200);
        // A body announced and never read: answered at once, then closed.
        RawConnection d;
        QVERIFY(d.connect(m_port));
        QVERIFY(d.send("POST /nope HTTP/1.1\r\nHost: x\r\nContent-Length: 50000\r\n\r\n"));
        r = d.readResponse(3'000);
        QVERIFY(r);
        QCOMPARE(r->status, 404);
        QCOMPARE(r->header("Connection"), QByteArray("close"));
        QVERIFY(d.waitClosed(5'000));
        QCOMPARE(m_rec.handled.load(), 1);
    }

    void expectContinue()
    {
        QVERIFY(startServer({}));
        RawConnection c;
        QVERIFY(c.connect(m_port));
        QVERIFY(c.send("POST /h HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n"));
        auto interim = c.readResponse(3'000, false);
        QVERIFY2(interim, qPrintable(c.lastError()));
        QCOMPARE(interim->status, 100);
        QVERIFY(c.send("body"));
        auto r = c.readResponse();
        QVERIFY(r);
        QCOMPARE(r->status, 200);
        QVERIFY(r->body.contains("\"size\":4"));
    }

    void malformedRequest400()
    {
        QVERIFY(startServer({}));
        RawConnection c;
        QVERIFY(c.connect(m_port));
        QVERIFY(c.send("THIS IS NOT HTTP\r\n\r\n"));
        auto r = c.readResponse(3'000);
        QVERIFY2(r, qPrintable(c.lastError()));
        QCOMPARE(r->status, 400);
        QVERIFY(c.waitClosed(3'000));
        QCOMPARE(m_rec.handled.load(), 0);
        QTRY_COMPARE(m_rec.rejectionReasons(), QStringList { QStringLiteral("malformed") });
    }

    // Request smuggling (RFC 9112 §6.1): framing that a proxy in front and this server could
    // read differently is refused with 400 and the connection closed, so the bytes after it can
    // never be taken as a second request.
    void ambiguousFramingIsRefused_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::newRow("gzip with Content-Length: 0")
            << QByteArray("Transfer-Encoding: gzip\r\nContent-Length: 0\r\n");
        QTest::newRow("gzip alone") << QByteArray("Transfer-Encoding: gzip\r\n");
        QTest::newRow("chunked with Content-Length")
            << QByteArray("Transfer-Encoding: chunked\r\nContent-Length: 5\r\n");
        QTest::newRow("Content-Length before chunked")
            << QByteArray("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n");
        QTest::newRow("gzip, chunked") << QByteArray("Transfer-Encoding: gzip, chunked\r\n");
        QTest::newRow("chunked, gzip") << QByteArray("Transfer-Encoding: chunked, gzip\r\n");
        QTest::newRow("two Transfer-Encoding headers")
            << QByteArray("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n");
        QTest::newRow("identity") << QByteArray("Transfer-Encoding: identity\r\nContent-Length: 0\r\n");
        QTest::newRow("empty coding") << QByteArray("Transfer-Encoding: \r\nContent-Length: 0\r\n");
        QTest::newRow("xchunked") << QByteArray("Transfer-Encoding: xchunked\r\n");
        QTest::newRow("two different lengths") << QByteArray("Content-Length: 0\r\nContent-Length: 44\r\n");
    }
    void ambiguousFramingIsRefused()
    {
        QFETCH(QByteArray, head);
        QVERIFY(startServer({}));
        RawConnection c;
        QVERIFY(c.connect(m_port));
        // What follows the head is a complete second request: it must never be answered.
        const QByteArray bytes = QByteArray("POST /first HTTP/1.1\r\nHost: x\r\n") + head
            + QByteArray("\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n");
        QVERIFY(c.send(bytes));
        auto r = c.readResponse(3'000);
        QVERIFY2(r, qPrintable(c.lastError()));
        QCOMPARE(r->status, 400);
        QVERIFY(c.waitClosed(3'000));
        QCOMPARE(m_rec.handled.load(), 0);
        QTRY_COMPARE(m_rec.rejectionReasons().size(), 1);
    }

    // The ordinary framings still work: one chunked coding (any case), or a length.
    void plainFramingIsAccepted_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::newRow("chunked") << QByteArray(
            "POST /h HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n");
        QTest::newRow("Chunked, mixed case") << QByteArray(
            "POST /h HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: ChUnKeD\r\n\r\n3\r\nabc\r\n0\r\n\r\n");
        QTest::newRow("length") << QByteArray("POST /h HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc");
    }
    void plainFramingIsAccepted()
    {
        QFETCH(QByteArray, request);
        QVERIFY(startServer({}));
        auto r = roundTrip(m_port, request, 3'000);
        QVERIFY(r);
        QCOMPARE(r->status, 200);
        QVERIFY(r->body.contains("\"size\":3"));
    }

    void truncatedBodyNeverReachesHandler()
    {
        QVERIFY(startServer({}));
        {
            RawConnection c;
            QVERIFY(c.connect(m_port));
            QVERIFY(c.send("POST /h HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789"));
        } // client goes away mid-body
        QTRY_COMPARE(m_server->openConnections(), 0);
        QCOMPARE(m_rec.handled.load(), 0);
        QVERIFY(m_rec.rejectionReasons().isEmpty());
    }

    void invalidUtf8BodyIsByteExact()
    {
        QVERIFY(startServer({}));
        const QByteArray body("\xff\xfe\x00\x80{\"a\":\"\xc3\x28\"}", 14);
        auto r = roundTrip(
            m_port, buildRequest("POST", "/h", { { "Content-Type", "application/octet-stream" } }, body));
        QVERIFY(r);
        QCOMPARE(r->status, 200);
        std::lock_guard lock(m_rec.mutex);
        QCOMPARE(m_rec.requests.value(0).body, body);
    }

    void handlerThrowsOrDropsResponder()
    {
        std::atomic<int> n { 0 };
        QVERIFY(startServer({}, [&](http::Request &&, http::Responder respond) {
            if (n.fetch_add(1) == 0)
                throw std::runtime_error("boom");
            Q_UNUSED(respond); // dropped without answering
        }));
        RawConnection c;
        QVERIFY(c.connect(m_port));
        for (int i = 0; i < 2; ++i) {
            QVERIFY(c.send(buildRequest("GET", "/x", {}, {})));
            auto r = c.readResponse(3'000);
            QVERIFY2(r, qPrintable(c.lastError()));
            QCOMPARE(r->status, 500);
            QVERIFY(!r->body.contains("boom"));
        }
    }

    // A handler still waiting (a hung database) past reply_timeout: the client gets the server's
    // timeout answer, the handler's late answer is dropped, and the connection carries on.
    void replyTimeoutAnswersForAWaitingHandler()
    {
        http::ServerOptions o;
        o.replyTimeoutMs = 300;
        std::atomic<int> timeouts { 0 };
        o.onReplyTimeout = [&timeouts] {
            timeouts.fetch_add(1);
            auto r = http::Response::error(503, QStringLiteral("reply_timeout"), QStringLiteral("slow"));
            r.headers.append({ QByteArrayLiteral("Retry-After"), QByteArrayLiteral("2") });
            return r;
        };
        QVERIFY(startServer(o, [this](http::Request &&r, http::Responder respond) {
            if (r.path == "/fast") {
                respond(http::Response::json(200, "fast"));
                return;
            }
            std::lock_guard lock(m_rec.mutex);
            m_rec.held = std::move(respond);
        }));
        RawConnection c;
        QVERIFY(c.connect(m_port));
        QVERIFY(c.send(buildRequest("POST", "/slow", {}, "x")));
        auto r = c.readResponse(5'000);
        QVERIFY2(r, qPrintable(c.lastError()));
        QCOMPARE(r->status, 503);
        QCOMPARE(r->header("Retry-After"), QByteArray("2"));
        QVERIFY(r->body.contains("reply_timeout"));
        QCOMPARE(timeouts.load(), 1);
        QVERIFY(r->header("Connection").isEmpty()); // kept alive

        // The late answer goes nowhere; the next request on the same connection is its own.
        QVERIFY(m_rec.hasHeld());
        auto late = *m_rec.takeHeld();
        late(http::Response::json(200, "late"));
        QVERIFY(c.send(buildRequest("GET", "/fast", {}, {})));
        r = c.readResponse(5'000);
        QVERIFY2(r, qPrintable(c.lastError()));
        QCOMPARE(r->status, 200);
        QCOMPARE(r->body, QByteArray("fast"));
        QCOMPARE(timeouts.load(), 1); // an answer in time arms no second timeout answer
    }

    void responderIsCalledOnceAndSafeAfterClose()
    {
        QVERIFY(startServer({}, [this](http::Request &&, http::Responder respond) {
            std::lock_guard lock(m_rec.mutex);
            m_rec.held = std::move(respond);
        }));
        RawConnection c;
        QVERIFY(c.connect(m_port));
        QVERIFY(c.send(buildRequest("GET", "/x", {}, {})));
        QTRY_VERIFY(m_rec.hasHeld());
        auto respond = *m_rec.takeHeld();
        std::thread other([respond] { respond(http::Response::json(200, "first")); });
        other.join();
        respond(http::Response::json(200, "second")); // ignored: exactly once
        auto r = c.readResponse();
        QVERIFY(r);
        QCOMPARE(r->body, QByteArray("first"));

        // Now the client vanishes before the answer.
        QVERIFY(c.send(buildRequest("GET", "/y", {}, {})));
        QTRY_VERIFY(m_rec.hasHeld());
        c.close();
        auto late = *m_rec.takeHeld();
        late(http::Response::json(200, "late"));
        QTRY_COMPARE(m_server->openConnections(), 0);

        // And a responder that outlives the server.
        RawConnection d;
        QVERIFY(d.connect(m_port));
        QVERIFY(d.send(buildRequest("GET", "/z", {}, {})));
        QTRY_VERIFY(m_rec.hasHeld());
        auto orphan = *m_rec.takeHeld();
        m_server->stop(100);
        m_server.reset();
        orphan(http::Response::json(200, "nobody listens"));
        QVERIFY(d.waitClosed(3'000));
    }

    // stop() refuses new connections, lets the request in progress finish and flushes its
    // response, closes idle keep-alive connections, then returns.
    void gracefulStopFinishesInFlight()
    {
        QVERIFY(startServer({}, [this](http::Request &&r, http::Responder respond) {
            if (r.path == "/slow") {
                std::lock_guard lock(m_rec.mutex);
                m_rec.held = std::move(respond);
                return;
            }
            respond(echo(r));
        }));
        RawConnection idle;
        QVERIFY(idle.connect(m_port));
        QVERIFY(idle.send(buildRequest("GET", "/fast", {}, {})));
        QVERIFY(idle.readResponse());
        RawConnection busy;
        QVERIFY(busy.connect(m_port));
        QVERIFY(busy.send(buildRequest("POST", "/slow", {}, "payload")));
        QTRY_VERIFY(m_rec.hasHeld());

        QElapsedTimer t;
        t.start();
        auto stopped = std::async(std::launch::async, [this] { m_server->stop(10'000); });
        QVERIFY(idle.waitClosed(3'000));
        QTRY_VERIFY_WITH_TIMEOUT(!RawConnection().connect(m_port, 200), 3'000);
        QVERIFY(stopped.wait_for(std::chrono::milliseconds(0)) == std::future_status::timeout);

        (*m_rec.takeHeld())(http::Response::json(200, "done"));
        auto r = busy.readResponse(5'000);
        QVERIFY2(r, qPrintable(busy.lastError()));
        QCOMPARE(r->body, QByteArray("done"));
        QCOMPARE(r->header("Connection"), QByteArray("close"));
        QVERIFY(stopped.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
        QVERIFY2(t.elapsed() < 8'000, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(m_server->openConnections(), 0);
    }

    void tlsWithSelfSignedCertificate()
    {
        if (!QSslSocket::supportsSsl())
            QFAIL("Qt has no TLS backend: install the Qt OpenSSL plugin");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString cert = dir.filePath(QStringLiteral("cert.pem"));
        const QString key = dir.filePath(QStringLiteral("key.pem"));
        QProcess openssl;
        openssl.start(QStringLiteral("openssl"),
            { QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"),
                QStringLiteral("-nodes"), QStringLiteral("-subj"), QStringLiteral("/CN=localhost"),
                QStringLiteral("-days"), QStringLiteral("1"), QStringLiteral("-keyout"), key,
                QStringLiteral("-out"), cert });
        QVERIFY(openssl.waitForFinished(30'000));
        QCOMPARE(openssl.exitCode(), 0);

        http::ServerOptions o;
        o.tlsCertFile = cert;
        o.tlsKeyFile = key;
        QVERIFY(startServer(o));

        QSslSocket socket;
        socket.setPeerVerifyMode(QSslSocket::VerifyNone);
        socket.connectToHostEncrypted(QStringLiteral("127.0.0.1"), m_port);
        QVERIFY2(socket.waitForEncrypted(10'000), qPrintable(socket.errorString()));
        socket.write(buildRequest("POST", "/secure", {}, "tls-body", true));
        QByteArray answer;
        QElapsedTimer t;
        t.start();
        // Connection: close was asked for, so the answer ends when the server closes.
        while (socket.state() == QAbstractSocket::ConnectedState && t.elapsed() < 10'000) {
            if (socket.waitForReadyRead(500))
                answer += socket.readAll();
        }
        answer += socket.readAll();
        QVERIFY2(answer.startsWith("HTTP/1.1 200"), answer.constData());
        QVERIFY(answer.contains("\"path\":\"/secure\",\"size\":8"));

        // Plain HTTP against the TLS port is refused without harm.
        RawConnection plain;
        QVERIFY(plain.connect(m_port));
        QVERIFY(plain.send(buildRequest("GET", "/x", {}, {})));
        QVERIFY(!plain.readResponse(3'000));
        QCOMPARE(m_rec.handled.load(), 1);
    }

    void badTlsFilesFailToStart()
    {
        http::ServerOptions o;
        o.tlsCertFile = QStringLiteral("/nonexistent/cert.pem");
        o.tlsKeyFile = QStringLiteral("/nonexistent/key.pem");
        o.listen = Endpoint { QStringLiteral("127.0.0.1"), 0 };
        http::Server s(o, [](http::Request &&, http::Responder r) { r(http::Response::json(200, {})); });
        const auto started = s.start();
        QVERIFY(!started);
        QVERIFY(started.error().contains(QLatin1String("/nonexistent/cert.pem")));
    }

    void portInUseFailsToStart()
    {
        QVERIFY(startServer({}));
        http::ServerOptions o;
        o.listen = Endpoint { QStringLiteral("127.0.0.1"), m_port };
        http::Server second(o, [](http::Request &&, http::Responder r) { r(http::Response::json(200, {})); });
        const auto started = second.start();
        QVERIFY(!started);
        QVERIFY2(started.error().contains(QLatin1String("cannot listen on 127.0.0.1:")),
            qPrintable(started.error()));
    }
};

QTEST_GUILESS_MAIN(TstHttpServer)
#include "tst_httpserver.moc"
