// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
//
// redrive-demo-sink: the demo's downstream services, flaky on purpose so the console has real
// failures to explain. One loopback HTTP/1.1 server, one behaviour per path:
//   /fulfillment  mostly 200 {"id": "ful_…"}; sometimes 500, 503/429 with Retry-After, 422,
//                 a reset connection, or an answer slower than the receiver's timeout (the
//                 "outcome unknown" case: the order may have been created after all)
//   /crm          200 with an X-CRM-Ref header, occasionally 502
//   /email        200, occasionally a 301 redirect (never followed by the receiver)
//   /legacy       410 Gone (a permanently retired endpoint)
//   /warehouse    503 with Retry-After (down for maintenance: its circuit breaker opens)
//   /chat         200 "ok" (an incoming-webhook chat channel the receiver notifies)
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QHostAddress>
#include <QPointer>
#include <QRandomGenerator>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <cstdio>

namespace {

struct Answer {
    int status = 200;
    QByteArray body;
    QList<std::pair<QByteArray, QByteArray>> headers;
    int delayMs = 0;
    bool reset = false;
};

QByteArray reason(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 301:
        return "Moved Permanently";
    case 410:
        return "Gone";
    case 422:
        return "Unprocessable Entity";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    default:
        return "Status";
    }
}

Answer decide(const QByteArray &path, QRandomGenerator &rng, quint64 &counter)
{
    const int roll = static_cast<int>(rng.bounded(100));
    Answer a;
    ++counter;
    if (path.startsWith("/fulfillment")) {
        if (roll < 62) {
            a.body = "{\"id\":\"ful_" + QByteArray::number(100000 + counter) + "\",\"status\":\"created\"}";
        } else if (roll < 74) {
            a.status = 500;
            a.body = "{\"error\":\"database is locked\"}";
        } else if (roll < 80) {
            a.status = 503;
            a.headers.emplaceBack("Retry-After", "20");
            a.body = "{\"error\":\"maintenance\"}";
        } else if (roll < 85) {
            a.status = 429;
            a.headers.emplaceBack("Retry-After", "10");
            a.body = "{\"error\":\"rate limited\"}";
        } else if (roll < 90) {
            a.delayMs = 15'000; // longer than the destination's timeout: outcome unknown
            a.body = "{\"id\":\"ful_" + QByteArray::number(100000 + counter) + "\",\"status\":\"created\"}";
        } else if (roll < 95) {
            a.status = 422;
            a.body = "{\"error\":\"shipping address is incomplete\"}";
        } else {
            a.reset = true;
        }
    } else if (path.startsWith("/crm")) {
        if (roll < 94) {
            a.headers.emplaceBack("X-CRM-Ref", "crm_" + QByteArray::number(5000 + counter));
            a.body = "{\"ok\":true}";
        } else {
            a.status = 502;
            a.body = "<html>bad gateway</html>";
        }
    } else if (path.startsWith("/email")) {
        if (roll < 97) {
            a.body = "{\"queued\":true}";
        } else {
            a.status = 301;
            a.headers.emplaceBack("Location", "http://127.0.0.1:1/moved");
        }
    } else if (path.startsWith("/warehouse")) {
        a.status = 503;
        a.headers.emplaceBack("Retry-After", "5");
        a.body = "{\"error\":\"down for maintenance\"}";
    } else if (path.startsWith("/chat")) {
        a.body = "ok";
    } else if (path.startsWith("/legacy")) {
        a.status = 410;
        a.body = "{\"error\":\"this endpoint was retired\"}";
    } else {
        a.status = 404;
        a.body = "{\"error\":\"no such endpoint\"}";
    }
    return a;
}

class Sink final : public QObject {
public:
    explicit Sink(QObject *parent = nullptr)
        : QObject(parent)
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, this, [this, s] { onData(s); });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    bool listen(quint16 port) { return m_server.listen(QHostAddress::LocalHost, port); }
    quint16 port() const { return m_server.serverPort(); }

private:
    void onData(QTcpSocket *s)
    {
        QByteArray &buf = m_buffers[s];
        buf += s->readAll();
        while (true) {
            const qsizetype headerEnd = buf.indexOf("\r\n\r\n");
            if (headerEnd < 0) {
                if (buf.size() > 64 * 1024)
                    s->abort();
                return;
            }
            const QByteArray head = buf.left(headerEnd);
            qsizetype length = 0;
            for (const QByteArray &line : head.split('\n')) {
                if (line.toLower().startsWith("content-length:"))
                    length = line.mid(15).trimmed().toLongLong();
            }
            if (length < 0 || length > 32 * 1024 * 1024) {
                s->abort();
                return;
            }
            if (buf.size() < headerEnd + 4 + length)
                return;
            const QByteArray requestLine = head.left(head.indexOf('\r'));
            const QList<QByteArray> parts = requestLine.split(' ');
            const QByteArray path = parts.size() > 1 ? parts[1] : QByteArray("/");
            buf.remove(0, headerEnd + 4 + length);
            respond(s, decide(path, m_rng, m_counter));
        }
    }

    void respond(QTcpSocket *s, const Answer &a)
    {
        if (a.reset) {
            s->abort();
            return;
        }
        QByteArray out = "HTTP/1.1 " + QByteArray::number(a.status) + ' ' + reason(a.status) + "\r\n";
        out += "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(a.body.size())
            + "\r\n";
        for (const auto &[k, v] : a.headers)
            out += k + ": " + v + "\r\n";
        out += "\r\n" + a.body;
        QPointer<QTcpSocket> guard(s);
        auto send = [guard, out] {
            if (guard)
                guard->write(out);
        };
        if (a.delayMs > 0)
            QTimer::singleShot(a.delayMs, this, send);
        else
            send();
    }

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
    QRandomGenerator m_rng = QRandomGenerator::securelySeeded();
    quint64 m_counter = 0;
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Flaky loopback destinations for the Redrive demo."));
    parser.addHelpOption();
    QCommandLineOption portOpt(QStringLiteral("port"), QStringLiteral("Loopback port to listen on."),
        QStringLiteral("port"), QStringLiteral("9090"));
    parser.addOption(portOpt);
    parser.process(app);
    bool ok = false;
    const uint port = parser.value(portOpt).toUInt(&ok);
    if (!ok || port > 65535) {
        std::fprintf(stderr, "redrive-demo-sink: --port must be 0-65535\n");
        return 2;
    }
    Sink sink;
    if (!sink.listen(static_cast<quint16>(port))) {
        std::fprintf(stderr, "redrive-demo-sink: cannot listen on 127.0.0.1:%u\n", port);
        return 1;
    }
    std::fprintf(stderr, "redrive-demo-sink: listening on 127.0.0.1:%u\n", sink.port());
    return app.exec();
}
