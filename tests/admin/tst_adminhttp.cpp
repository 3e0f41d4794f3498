// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// End to end through the real HTTP edge (http::Server on loopback) with the executor thread on:
// authentication, a read, and 50 concurrent approvals of one replay over 50 connections.
#include "adminfixture.h"
#include "http/server.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <arpa/inet.h>
#include <atomic>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace redrive;
using namespace redrive::test;

namespace {
struct HttpReply {
    int status = 0;
    QJsonObject json;
};

// One request on a fresh loopback connection ("Connection: close"), with a deadline.
HttpReply request(quint16 port, const QByteArray &method, const QByteArray &target, const QString &token,
    const QByteArray &body = {})
{
    HttpReply reply;
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return reply;
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<const sockaddr *>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return reply;
    }
    QByteArray out = method + ' ' + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
    if (!token.isEmpty())
        out += "Authorization: Bearer " + token.toLatin1() + "\r\n";
    if (!body.isEmpty())
        out += "Content-Type: application/json\r\n";
    out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    qsizetype sent = 0;
    while (sent < out.size()) {
        const ssize_t n
            = ::send(fd, out.constData() + sent, static_cast<size_t>(out.size() - sent), MSG_NOSIGNAL);
        if (n <= 0) {
            ::close(fd);
            return reply;
        }
        sent += n;
    }
    QByteArray in;
    const qint64 deadline = QDateTime::currentMSecsSinceEpoch() + 30'000;
    for (;;) {
        const qint64 left = deadline - QDateTime::currentMSecsSinceEpoch();
        if (left <= 0)
            break;
        pollfd p { fd, POLLIN, 0 };
        if (::poll(&p, 1, static_cast<int>(left)) <= 0)
            break;
        char buf[8192];
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0)
            break;
        in.append(buf, n);
    }
    ::close(fd);
    const qsizetype headerEnd = in.indexOf("\r\n\r\n");
    if (!in.startsWith("HTTP/1.1 ") || headerEnd < 0)
        return reply;
    reply.status = in.mid(9, 3).toInt();
    reply.json = QJsonDocument::fromJson(in.mid(headerEnd + 4)).object();
    return reply;
}
} // namespace

class TstAdminHttp : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void authenticationAndReads();
    void fiftyConcurrentApprovalsExecuteOnce();

private:
    std::unique_ptr<AdminFixture> f;
    std::unique_ptr<http::Server> server;
    quint16 port = 0;
};

void TstAdminHttp::initTestCase()
{
    QString error;
    f = AdminFixture::create(&error);
    QVERIFY2(f, qPrintable(error));
    QVERIFY2(f->startApi(&error, /*withExecutor=*/true), qPrintable(error));
    http::ServerOptions options;
    options.listen = Endpoint { QStringLiteral("127.0.0.1"), 0 };
    options.name = QStringLiteral("admin");
    options.maxConnections = 256;
    admin::AdminApi *api = f->api.get();
    server = std::make_unique<http::Server>(options,
        [api](http::Request &&r, http::Responder respond) { api->handle(std::move(r), std::move(respond)); });
    const auto listening = server->start();
    QVERIFY2(listening, qPrintable(listening.error()));
    port = server->port();
    QVERIFY(port != 0);
}

void TstAdminHttp::cleanupTestCase()
{
    if (server)
        server->stop(2'000);
    server.reset();
    f.reset();
}

void TstAdminHttp::authenticationAndReads()
{
    const auto anonymous = request(port, "GET", "/admin/v1/whoami", {});
    QCOMPARE(anonymous.status, 401);
    QCOMPARE(anonymous.json.value(QLatin1String("error")).toString(), QStringLiteral("unauthorized"));
    const QString token = f->token(QStringLiteral("ada"), Role::Auditor);
    const auto who = request(port, "GET", "/admin/v1/whoami", token);
    QCOMPARE(who.status, 200);
    QCOMPARE(who.json.value(QLatin1String("role")).toString(), QStringLiteral("auditor"));
    const qint64 event = f->insertEvent(QStringLiteral("http"));
    f->insertDelivery(event, QStringLiteral("crm"), DeliveryStatus::Dead);
    const auto events = request(port, "GET", "/admin/v1/events?source=http&status=dead", token);
    QCOMPARE(events.status, 200);
    QCOMPARE(events.json.value(QLatin1String("items")).toArray().size(), 1);
    const auto denied
        = request(port, "POST", "/admin/v1/destinations/crm/pause", token, "{\"reason\":\"x\"}");
    QCOMPARE(denied.status, 403);
    const auto verify = request(port, "GET", "/admin/v1/audit/verify", token);
    QCOMPARE(verify.status, 200);
    QCOMPARE(verify.json.value(QLatin1String("ok")).toBool(), true);
}

void TstAdminHttp::fiftyConcurrentApprovalsExecuteOnce()
{
    const QString requester = f->token(QStringLiteral("rita"), Role::Support);
    QList<qint64> ids;
    for (int i = 0; i < 10; ++i)
        ids.append(f->seedDelivery(QStringLiteral("fulfillment"), DeliveryStatus::Dead));
    AdminFixture::Reply r;
    const qint64 id = f->requestReplay(requester, ids, QStringLiteral("end to end"), &r);
    QVERIFY2(id > 0, r.body.constData());
    const QByteArray body = QJsonDocument(
        QJsonObject { { QStringLiteral("selection_hash"), r.json.value(QLatin1String("selection_hash")) },
            { QStringLiteral("reason"), QStringLiteral("looks right") } })
                                .toJson(QJsonDocument::Compact);
    QStringList approvers;
    for (int i = 0; i < 5; ++i)
        approvers.append(f->token(QStringLiteral("op-%1").arg(i), Role::Operator));

    constexpr int kCallers = 50;
    std::atomic<bool> go { false };
    std::atomic<int> ok { 0 }, conflict { 0 }, other { 0 };
    std::vector<std::thread> threads;
    for (int i = 0; i < kCallers; ++i) {
        threads.emplace_back([&, i] {
            while (!go.load())
                std::this_thread::yield();
            const auto reply = request(port, "POST",
                "/admin/v1/replays/" + QByteArray::number(id) + "/approve", approvers[i % 5], body);
            (reply.status == 200 ? ok : reply.status == 409 ? conflict : other)++;
        });
    }
    go.store(true);
    for (auto &t : threads)
        t.join();
    QCOMPARE(other.load(), 0);
    QCOMPARE(ok.load(), 1);
    QCOMPARE(conflict.load(), kCallers - 1);
    // The API's own executor thread picks it up at once and queues every item exactly once.
    QTRY_COMPARE_WITH_TIMEOUT(f->count(QStringLiteral("replay_items"),
                                  QStringLiteral("replay_id = %1 AND state = 'queued'").arg(id)),
        10, 15'000);
    QCOMPARE(f->count(QStringLiteral("audit_log"),
                 QStringLiteral("action = 'replay_approved' AND target = 'replay:%1'").arg(id)),
        1);
    QCOMPARE(f->count(QStringLiteral("audit_log"),
                 QStringLiteral("action = 'replay_executed' AND target = 'replay:%1'").arg(id)),
        1);
    QCOMPARE(f->count(QStringLiteral("deliveries"), QStringLiteral("replay_id = %1").arg(id)), 10);
    QCOMPARE(f->count(QStringLiteral("replays"), QStringLiteral("id = %1 AND queued_count = 10").arg(id)), 1);
}

QTEST_GUILESS_MAIN(TstAdminHttp)
#include "tst_adminhttp.moc"
