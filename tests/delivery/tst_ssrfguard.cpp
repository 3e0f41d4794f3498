// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "delivery/connector.h"
#include "delivery/httpclient.h"
#include "scriptabledestination.h"

#include <QTest>

#include <boost/asio/post.hpp>

#include <future>
#include <map>
#include <mutex>

using namespace redrive;
using namespace redrive::delivery;
using namespace redrive::test;
namespace net = boost::asio;
using Transport = AttemptOutcome::Transport;

namespace {

// Scripted DNS and a connect() that only ever reaches loopback: every other address is
// recorded and answered with "connection refused" without a packet being sent.
class FakeConnector final : public Connector {
public:
    void answer(const std::string &host, std::vector<QString> addresses)
    {
        std::lock_guard lock(m_mutex);
        std::vector<net::ip::address> parsed;
        for (const QString &a : addresses)
            parsed.push_back(net::ip::make_address(a.toStdString()));
        m_answers[host].push_back(parsed);
    }

    void asyncResolve(
        net::io_context &io, const std::string &host, unsigned short, ResolveHandler handler) override
    {
        std::vector<net::ip::address> result;
        boost::system::error_code ec;
        {
            std::lock_guard lock(m_mutex);
            ++m_resolves;
            auto it = m_answers.find(host);
            if (it == m_answers.end() || it->second.empty()) {
                ec = net::error::host_not_found;
            } else {
                result = it->second.front();
                if (it->second.size() > 1)
                    it->second.erase(it->second.begin()); // successive lookups see the next answer
            }
        }
        net::post(io, [handler = std::move(handler), ec, result] { handler(ec, result); });
    }

    void asyncConnect(
        net::ip::tcp::socket &socket, const net::ip::tcp::endpoint &endpoint, ConnectHandler handler) override
    {
        {
            std::lock_guard lock(m_mutex);
            m_connects.push_back(endpoint);
        }
        if (endpoint.address().is_loopback()) {
            socket.async_connect(endpoint, std::move(handler));
            return;
        }
        net::post(socket.get_executor(),
            [handler = std::move(handler)] { handler(net::error::connection_refused); });
    }

    std::vector<net::ip::tcp::endpoint> connects()
    {
        std::lock_guard lock(m_mutex);
        return m_connects;
    }
    int resolves()
    {
        std::lock_guard lock(m_mutex);
        return m_resolves;
    }

private:
    std::mutex m_mutex;
    std::map<std::string, std::vector<std::vector<net::ip::address>>> m_answers;
    std::vector<net::ip::tcp::endpoint> m_connects;
    int m_resolves = 0;
};

AttemptOutcome send(
    HttpClient &client, const QString &url, bool allowPrivate = false, const QString &caFile = {})
{
    HttpRequest r;
    r.url = QUrl(url);
    r.body = "{}";
    r.timeoutMs = 3'000;
    r.allowPrivate = allowPrivate;
    r.caFile = caFile;
    auto promise = std::make_shared<std::promise<AttemptOutcome>>();
    auto future = promise->get_future();
    client.send(r, [promise](AttemptOutcome o) { promise->set_value(std::move(o)); });
    if (future.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
        AttemptOutcome none;
        none.detail = QStringLiteral("no outcome within 10 s");
        return none;
    }
    return future.get();
}

} // namespace

Q_DECLARE_METATYPE(AttemptOutcome::Transport)

class TstSsrfGuard final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Address literals in the URL (every form a resolver would accept) never reach the resolver
    // or connect().
    void literalVectorsRefusedBeforeConnect_data()
    {
        QTest::addColumn<QString>("url");
        for (const char *u : { "http://169.254.169.254/latest/meta-data/", "http://[::ffff:127.0.0.1]/",
                 "http://[::ffff:7f00:1]/", "http://[64:ff9b::a00:1]/", "http://[64:ff9b::a9fe:a9fe]/",
                 "http://[2002:c0a8:101::1]/", "http://[2002:7f00:1::]/", "http://[fd00:ec2::254]/",
                 "http://2130706433/", "http://0177.0.0.1/", "http://0x7f.1/", "http://10.1.2.3/",
                 "http://172.16.0.1/", "http://192.168.1.1/", "http://100.64.0.1/", "http://[fe80::1]/",
                 "http://[fc00::]/", "http://[::]/", "http://[::1]:8080/", "http://0.0.0.0/",
                 "http://224.0.0.1/", "http://255.255.255.255/", "http://127.0.0.1:9/",
                 "https://[fd00:ec2::254]/" })
            QTest::newRow(u) << QString::fromLatin1(u);
    }
    void literalVectorsRefusedBeforeConnect()
    {
        QFETCH(QString, url);
        auto fake = std::make_shared<FakeConnector>();
        HttpClient client(fake);
        const AttemptOutcome o = send(client, url);
        QVERIFY2(o.transport == Transport::Blocked, qPrintable(o.detail));
        QVERIFY(!o.requestWritten);
        QVERIFY2(fake->connects().empty(), qPrintable(url));
        QCOMPARE(fake->resolves(), 0);
    }

    // The same vectors as DNS answers for an innocent-looking name.
    void resolvedVectorsRefusedBeforeConnect_data()
    {
        QTest::addColumn<QString>("address");
        for (const char *a : { "169.254.169.254", "::ffff:127.0.0.1", "64:ff9b::a00:1", "2002:c0a8:101::1",
                 "fd00:ec2::254", "10.0.0.1", "172.31.0.1", "192.168.0.1", "100.127.255.255", "fe80::1",
                 "fc00::", "::", "0.0.0.0", "224.0.0.1", "255.255.255.255", "127.0.0.1", "::1" })
            QTest::newRow(a) << QString::fromLatin1(a);
    }
    void resolvedVectorsRefusedBeforeConnect()
    {
        QFETCH(QString, address);
        auto fake = std::make_shared<FakeConnector>();
        fake->answer("hooks.example.test", { address });
        HttpClient client(fake);
        const AttemptOutcome o = send(client, QStringLiteral("https://hooks.example.test/in"));
        QVERIFY2(o.transport == Transport::Blocked, qPrintable(o.detail));
        QVERIFY2(o.detail.contains(QStringLiteral("hooks.example.test resolved to")), qPrintable(o.detail));
        QCOMPARE(fake->resolves(), 1);
        QVERIFY(fake->connects().empty());
    }

    // Every resolved address is checked: only the allowed one is dialled.
    void mixedAnswerDialsOnlyAllowedAddresses()
    {
        auto fake = std::make_shared<FakeConnector>();
        fake->answer("mixed.example.test",
            { QStringLiteral("10.0.0.5"), QStringLiteral("93.184.216.34"),
                QStringLiteral("169.254.169.254") });
        HttpClient client(fake);
        const AttemptOutcome o = send(client, QStringLiteral("http://mixed.example.test/"));
        QVERIFY2(
            o.transport == Transport::Refused, qPrintable(o.detail)); // the fake refuses public addresses
        const auto connects = fake->connects();
        QCOMPARE(int(connects.size()), 1);
        QCOMPARE(connects[0].address().to_string(), std::string("93.184.216.34"));
        QCOMPARE(connects[0].port(), 80);
    }

    // DNS rebinding: the name answered with a public address, then with loopback. The check runs
    // at connect time, on every attempt, so the second attempt is refused.
    void answerChangingToPrivateIsRefusedAtConnectTime()
    {
        auto fake = std::make_shared<FakeConnector>();
        fake->answer("rebind.example.test", { QStringLiteral("93.184.216.34") });
        fake->answer("rebind.example.test", { QStringLiteral("127.0.0.1") });
        HttpClient client(fake);
        const AttemptOutcome first = send(client, QStringLiteral("http://rebind.example.test/"));
        QVERIFY(first.transport == Transport::Refused);
        const AttemptOutcome second = send(client, QStringLiteral("http://rebind.example.test/"));
        QVERIFY2(second.transport == Transport::Blocked, qPrintable(second.detail));
        QVERIFY(second.detail.contains(QStringLiteral("loopback")));
        QCOMPARE(fake->resolves(), 2);
        const auto connects = fake->connects();
        QCOMPARE(int(connects.size()), 1);
        QCOMPARE(connects[0].address().to_string(), std::string("93.184.216.34"));
    }

    void allowPrivateReachesLoopback_data()
    {
        QTest::addColumn<bool>("ipv6");
        QTest::newRow("127.0.0.1") << false;
        QTest::newRow("::1") << true;
    }
    void allowPrivateReachesLoopback()
    {
        QFETCH(bool, ipv6);
        ScriptableDestination destination;
        QString error;
        if (!destination.start(&error, ipv6))
            QSKIP(qPrintable(QStringLiteral("no loopback listener: %1").arg(error)));
        auto fake = std::make_shared<FakeConnector>();
        fake->answer("internal.example.test", { ipv6 ? QStringLiteral("::1") : QStringLiteral("127.0.0.1") });
        HttpClient client(fake);
        const QString url = QStringLiteral("http://internal.example.test:%1/hook").arg(destination.port());
        const AttemptOutcome refused = send(client, url, false);
        QVERIFY(refused.transport == Transport::Blocked);
        QCOMPARE(destination.requestCount(), 0);
        const AttemptOutcome ok = send(client, url, true);
        QVERIFY2(ok.transport == Transport::Completed, qPrintable(ok.detail));
        QCOMPARE(ok.statusCode, 200);
        QCOMPARE(destination.requestCount(), 1);
        QCOMPARE(destination.requests().first().headers.value("Host"),
            QByteArrayView(QStringLiteral("internal.example.test:%1").arg(destination.port()).toUtf8()));
        // Even with allow_private, addresses no TCP peer can have stay refused.
        fake->answer("zero.example.test", { QStringLiteral("0.0.0.0") });
        QVERIFY(send(client, QStringLiteral("http://zero.example.test:%1/").arg(destination.port()), true)
                    .transport
            == Transport::Blocked);
    }

    void onlyHttpAndHttps_data()
    {
        QTest::addColumn<QString>("url");
        QTest::newRow("ftp") << "ftp://files.example.test/x";
        QTest::newRow("file") << "file:///etc/passwd";
        QTest::newRow("gopher") << "gopher://127.0.0.1:70/";
        QTest::newRow("relative") << "/hooks";
    }
    void onlyHttpAndHttps()
    {
        QFETCH(QString, url);
        auto fake = std::make_shared<FakeConnector>();
        HttpClient client(fake);
        const AttemptOutcome o = send(client, url, true);
        QVERIFY2(o.transport == Transport::InvalidUrl, qPrintable(o.detail));
        QCOMPARE(fake->resolves(), 0);
        QVERIFY(fake->connects().empty());
    }

    void unresolvableNameIsDnsFailure()
    {
        auto fake = std::make_shared<FakeConnector>();
        HttpClient client(fake);
        const AttemptOutcome o = send(client, QStringLiteral("http://nowhere.example.test/"));
        QVERIFY(o.transport == Transport::Dns);
        QVERIFY(o.detail.contains(QStringLiteral("nowhere.example.test")));
    }

    // TLS failures are configuration errors: a plain-HTTP peer behind https, an unreadable CA file.
    void tlsFailures()
    {
        ScriptableDestination destination;
        QString error;
        QVERIFY2(destination.start(&error), qPrintable(error));
        HttpClient client; // the real connector: loopback only
        const AttemptOutcome handshake
            = send(client, QStringLiteral("https://127.0.0.1:%1/hook").arg(destination.port()), true);
        QVERIFY2(handshake.transport == Transport::Tls || handshake.transport == Transport::Reset,
            qPrintable(handshake.detail));
        QVERIFY(!handshake.requestWritten);
        const AttemptOutcome badCa
            = send(client, QStringLiteral("https://127.0.0.1:%1/hook").arg(destination.port()), true,
                QStringLiteral("/nonexistent/ca.pem"));
        QVERIFY(badCa.transport == Transport::Tls);
        QVERIFY(badCa.detail.contains(QStringLiteral("ca_file")));
    }
};

QTEST_GUILESS_MAIN(TstSsrfGuard)
#include "tst_ssrfguard.moc"
