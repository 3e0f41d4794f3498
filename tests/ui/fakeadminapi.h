// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QSslServer>
#include <QTcpServer>
#include <QUrl>

#include <functional>

namespace redrive::test {

// A small stand-in for the receiver's admin API on 127.0.0.1: it checks the bearer token,
// answers `whoami` and records every request. Tests add routes for anything else.
class FakeAdminApi final : public QObject {
    Q_OBJECT
public:
    struct Request {
        QByteArray method;
        QByteArray path; // without the query
        QByteArray query;
        QByteArray authorization;
        QByteArray body;
    };
    struct Response {
        int status = 200;
        QByteArray json = "{}";
    };
    using Handler = std::function<Response(const Request &)>;

    explicit FakeAdminApi(QObject *parent = nullptr);
    bool listen();
    // HTTPS with this certificate and key (PEM files).
    bool listenTls(const QString &certFile, const QString &keyFile);
    [[nodiscard]] QUrl url() const;

    void setToken(const QByteArray &token) { m_token = token; }
    void setIdentity(const QString &name, const QString &role);
    void route(const QByteArray &method, const QByteArray &path, Handler handler);
    [[nodiscard]] const QList<Request> &requests() const { return m_requests; }

private:
    void serve(QTcpSocket *socket);
    Response answer(const Request &request);

    QTcpServer m_server;
    QSslServer m_tlsServer;
    bool m_tls = false;
    QByteArray m_token = "test-token";
    QString m_name = QStringLiteral("alice");
    QString m_role = QStringLiteral("support");
    QHash<QByteArray, Handler> m_routes;
    QList<Request> m_requests;
};

} // namespace redrive::test
