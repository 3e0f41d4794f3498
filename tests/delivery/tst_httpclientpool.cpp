// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "delivery/httpclient.h"
#include "scriptabledestination.h"

#include <QTest>

#include <future>

using namespace redrive;
using namespace redrive::delivery;
using namespace redrive::test;
using Transport = AttemptOutcome::Transport;
using Response = ScriptableDestination::Response;

Q_DECLARE_METATYPE(ScriptableDestination::Response)

namespace {

AttemptOutcome send(HttpClient &client, const QUrl &url, const QByteArray &body = "{}", int timeoutMs = 5'000,
    bool allowPrivate = true)
{
    HttpRequest r;
    r.url = url;
    r.body = body;
    r.timeoutMs = timeoutMs;
    r.allowPrivate = allowPrivate; // loopback
    r.headers.add("Idempotency-Key", body);
    auto promise = std::make_shared<std::promise<AttemptOutcome>>();
    auto future = promise->get_future();
    client.send(r, [promise](AttemptOutcome o) { promise->set_value(std::move(o)); });
    if (future.wait_for(std::chrono::seconds(15)) != std::future_status::ready)
        return {};
    return future.get();
}

Response keepAlive(int status = 200)
{
    Response r = ScriptableDestination::status(status, "{\"id\":\"x\"}");
    r.connection = Response::Connection::KeepAlive;
    return r;
}

} // namespace

// The keep-alive pool of the delivery HTTP client: what is reused, and everything that must not be.
class TstHttpClientPool final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void reusesKeptConnection()
    {
        ScriptableDestination destination;
        QString error;
        QVERIFY2(destination.start(&error), qPrintable(error));
        destination.setDefault(keepAlive());
        HttpClient client;
        for (int i = 0; i < 5; ++i) {
            const AttemptOutcome o = send(client, destination.url(), QByteArray::number(i));
            QVERIFY(o.transport == Transport::Completed);
            QCOMPARE(o.statusCode, 200);
        }
        QCOMPARE(destination.requestCount(), 5);
        QCOMPARE(destination.connectionCount(), 1);
        QCOMPARE(client.stats().connectionsOpened, quint64(1));
        QCOMPARE(client.stats().connectionsReused, quint64(4));
    }

    // After each of these first answers the connection is not reused: the second request opens
    // a new one and succeeds.
    void closesAfter_data()
    {
        QTest::addColumn<Response>("first");
        QTest::addColumn<int>("firstTimeoutMs");
        QTest::addColumn<int>("firstTransport");
        QTest::addColumn<int>("firstStatus");

        QTest::newRow("Connection: close")
            << ScriptableDestination::status(200) << 5'000 << int(Transport::Completed) << 200;
        Response redirect = keepAlive(301);
        redirect.headers.append(
            std::pair(QByteArray("Location"), QByteArray("http://127.0.0.1:1/elsewhere")));
        QTest::newRow("redirect") << redirect << 5'000 << int(Transport::Completed) << 301;
        Response slow = keepAlive();
        slow.delayAfterReadMs = 1'500; // answers after the client gave up: outcome unknown
        QTest::newRow("timeout after the request was sent") << slow << 300 << int(Transport::Timeout) << 0;
        Response http10 = keepAlive();
        http10.headers.append(std::pair(QByteArray("Connection"), QByteArray("close")));
        QTest::newRow("Connection: close, session kept open")
            << http10 << 5'000 << int(Transport::Completed) << 200;
        Response silent = keepAlive();
        silent.connection = Response::Connection::CloseSilently;
        QTest::newRow("peer closes without saying so") << silent << 5'000 << int(Transport::Completed) << 200;
    }

    void closesAfter()
    {
        QFETCH(Response, first);
        QFETCH(int, firstTimeoutMs);
        QFETCH(int, firstTransport);
        QFETCH(int, firstStatus);
        ScriptableDestination destination;
        QString error;
        QVERIFY2(destination.start(&error), qPrintable(error));
        destination.enqueue(first);
        destination.setDefault(keepAlive());
        HttpClient client;
        const AttemptOutcome a = send(client, destination.url(), "first", firstTimeoutMs);
        QCOMPARE(int(a.transport), firstTransport);
        QCOMPARE(a.statusCode, firstStatus);
        const AttemptOutcome b = send(client, destination.url(), "second");
        QVERIFY(b.transport == Transport::Completed);
        QCOMPARE(b.statusCode, 200);
        QCOMPARE(destination.requestCount(), 2);
        QCOMPARE(destination.connectionCount(), 2);
        // A silently closed connection is either noticed before use or resent on a fresh one.
        QCOMPARE(client.stats().connectionsReused, client.stats().staleRetries);
    }

    // The peer drops a kept connection just as the next request goes out (it reads it and
    // resets): the request goes once more on a fresh connection, with the same Idempotency-Key.
    void resendsOnceWhenKeptConnectionDies()
    {
        ScriptableDestination destination;
        QString error;
        QVERIFY2(destination.start(&error), qPrintable(error));
        destination.enqueue(keepAlive());
        Response reset;
        reset.reset = true;
        destination.enqueue(reset);
        destination.setDefault(keepAlive());
        HttpClient client;
        QCOMPARE(send(client, destination.url(), "one").statusCode, 200);
        const AttemptOutcome o = send(client, destination.url(), "two");
        QVERIFY(o.transport == Transport::Completed);
        QCOMPARE(o.statusCode, 200);
        const auto seen = destination.requests();
        QCOMPARE(seen.size(), 3);
        QCOMPARE(seen.at(1).headers.value("Idempotency-Key"), QByteArrayView("two"));
        QCOMPARE(seen.at(2).headers.value("Idempotency-Key"), QByteArrayView("two"));
        QCOMPARE(destination.connectionCount(), 2);
        QCOMPARE(client.stats().staleRetries, quint64(1));
    }

    // A fresh connection that dies is a failure, never resent.
    void freshConnectionResetIsNotResent()
    {
        ScriptableDestination destination;
        QString error;
        QVERIFY2(destination.start(&error), qPrintable(error));
        Response reset;
        reset.reset = true;
        destination.enqueue(reset);
        destination.setDefault(keepAlive());
        HttpClient client;
        const AttemptOutcome o = send(client, destination.url(), "one");
        QVERIFY(o.transport == Transport::Reset);
        QVERIFY(o.requestWritten);
        QCOMPARE(destination.requestCount(), 1);
        QCOMPARE(client.stats().staleRetries, quint64(0));
    }

    // A connection opened under allow_private = true never carries a request that may not
    // reach a private address: the SSRF guard runs again and refuses it.
    void policyIsPartOfTheKey()
    {
        ScriptableDestination destination;
        QString error;
        QVERIFY2(destination.start(&error), qPrintable(error));
        destination.setDefault(keepAlive());
        HttpClient client;
        QCOMPARE(send(client, destination.url(), "private ok").statusCode, 200);
        const AttemptOutcome o = send(client, destination.url(), "public only", 5'000, false);
        QVERIFY(o.transport == Transport::Blocked);
        QVERIFY(!o.requestWritten);
        QCOMPARE(destination.requestCount(), 1);
        QCOMPARE(client.stats().connectionsReused, quint64(0));
    }

    // Concurrent requests each take their own connection; afterwards they are all reused.
    void concurrentRequestsShareThePool()
    {
        ScriptableDestination destination;
        QString error;
        QVERIFY2(destination.start(&error), qPrintable(error));
        Response slow = keepAlive();
        slow.delayAfterReadMs = 50;
        destination.setDefault(slow);
        HttpClient client;
        const int parallel = 8;
        for (int round = 0; round < 3; ++round) {
            std::vector<std::future<AttemptOutcome>> futures;
            for (int i = 0; i < parallel; ++i) {
                auto promise = std::make_shared<std::promise<AttemptOutcome>>();
                futures.push_back(promise->get_future());
                HttpRequest r;
                r.url = destination.url();
                r.body = QByteArray::number(round * parallel + i);
                r.timeoutMs = 5'000;
                r.allowPrivate = true;
                client.send(r, [promise](AttemptOutcome o) { promise->set_value(std::move(o)); });
            }
            for (auto &f : futures) {
                QVERIFY(f.wait_for(std::chrono::seconds(15)) == std::future_status::ready);
                QCOMPARE(f.get().statusCode, 200);
            }
        }
        QCOMPARE(destination.requestCount(), 3 * parallel);
        QVERIFY2(destination.connectionCount() <= parallel,
            qPrintable(QString::number(destination.connectionCount())));
        QVERIFY(client.stats().connectionsReused >= quint64(2 * parallel));
    }
};

QTEST_GUILESS_MAIN(TstHttpClientPool)
#include "tst_httpclientpool.moc"
