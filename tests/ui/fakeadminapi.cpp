// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "fakeadminapi.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSslKey>
#include <QTcpSocket>

namespace redrive::test {

FakeAdminApi::FakeAdminApi(QObject *parent)
    : QObject(parent)
{
    connect(&m_server, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket *socket = m_server.nextPendingConnection())
            serve(socket);
    });
}

bool FakeAdminApi::listen()
{
    return m_server.listen(QHostAddress::LocalHost, 0);
}

bool FakeAdminApi::listenTls(const QString &certFile, const QString &keyFile)
{
    QFile cert(certFile);
    QFile key(keyFile);
    if (!cert.open(QIODevice::ReadOnly) || !key.open(QIODevice::ReadOnly))
        return false;
    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    ssl.setLocalCertificate(QSslCertificate(cert.readAll(), QSsl::Pem));
    ssl.setPrivateKey(QSslKey(key.readAll(), QSsl::Rsa, QSsl::Pem));
    m_tlsServer.setSslConfiguration(ssl);
    connect(&m_tlsServer, &QSslServer::pendingConnectionAvailable, this, [this] {
        while (QTcpSocket *socket = m_tlsServer.nextPendingConnection())
            serve(socket);
    });
    m_tls = true;
    return m_tlsServer.listen(QHostAddress::LocalHost, 0);
}

QUrl FakeAdminApi::url() const
{
    return m_tls ? QUrl(QStringLiteral("https://127.0.0.1:%1").arg(m_tlsServer.serverPort()))
                 : QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort()));
}

void FakeAdminApi::setIdentity(const QString &name, const QString &role)
{
    m_name = name;
    m_role = role;
}

void FakeAdminApi::route(const QByteArray &method, const QByteArray &path, Handler handler)
{
    m_routes.insert(method + ' ' + path, std::move(handler));
}

void FakeAdminApi::serve(QTcpSocket *socket)
{
    auto buffer = std::make_shared<QByteArray>();
    connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    connect(socket, &QTcpSocket::readyRead, this, [this, socket, buffer] {
        buffer->append(socket->readAll());
        const qsizetype end = buffer->indexOf("\r\n\r\n");
        if (end < 0)
            return;
        Request request;
        const QList<QByteArray> lines = buffer->left(end).split('\n');
        const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
        request.method = first.value(0);
        const QByteArray target = first.value(1);
        const qsizetype q = target.indexOf('?');
        request.path = q < 0 ? target : target.left(q);
        request.query = q < 0 ? QByteArray() : target.mid(q + 1);
        qsizetype length = 0;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines[i].trimmed();
            const qsizetype colon = line.indexOf(':');
            if (colon < 0)
                continue;
            const QByteArray name = line.left(colon).trimmed().toLower();
            const QByteArray value = line.mid(colon + 1).trimmed();
            if (name == "content-length")
                length = value.toLongLong();
            else if (name == "authorization")
                request.authorization = value;
        }
        if (buffer->size() < end + 4 + length)
            return; // body still arriving
        request.body = buffer->mid(end + 4, length);
        buffer->clear();
        m_requests.append(request);
        const Response response = answer(request);
        static const QHash<int, QByteArray> reasons = { { 200, "OK" }, { 201, "Created" },
            { 401, "Unauthorized" }, { 403, "Forbidden" }, { 404, "Not Found" }, { 409, "Conflict" } };
        QByteArray out = "HTTP/1.1 " + QByteArray::number(response.status) + ' '
            + reasons.value(response.status, "Status")
            + "\r\nContent-Type: application/json\r\nContent-Length: "
            + QByteArray::number(response.json.size()) + "\r\nConnection: close\r\n\r\n" + response.json;
        socket->write(out);
        socket->disconnectFromHost();
    });
}

FakeAdminApi::Response FakeAdminApi::answer(const Request &request)
{
    if (request.authorization != "Bearer " + m_token)
        return { 401, R"({"error":"unauthorized","message":"no or bad token"})" };
    if (request.method == "GET" && request.path == "/admin/v1/whoami")
        return { 200,
            QJsonDocument(
                QJsonObject { { QStringLiteral("name"), m_name }, { QStringLiteral("role"), m_role } })
                .toJson(QJsonDocument::Compact) };
    const Handler handler = m_routes.value(request.method + ' ' + request.path);
    if (handler)
        return handler(request);
    return { 404, R"({"error":"not_found","message":"no such route"})" };
}

} // namespace redrive::test
