// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "linkserver.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QLocalServer>
#include <QLocalSocket>
#include <QTimer>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

namespace redrive::ui {

namespace {
constexpr int kMaxAnswerBytes = 1024;
constexpr int kProbeMs = 500;
} // namespace

QString LinkServer::socketName()
{
    QString overridden = qEnvironmentVariable("REDRIVE_LINK_SOCKET");
    if (!overridden.isEmpty())
        return overridden;
    // The runtime directory is the user's own (0700): nobody else can take the name first.
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty() && QDir(runtime).exists())
        return QDir(runtime).filePath(QStringLiteral("redrive-links"));
#ifdef Q_OS_UNIX
    return QStringLiteral("redrive-links-%1").arg(::getuid());
#else
    return QStringLiteral("redrive-links-%1").arg(qEnvironmentVariable("USERNAME"));
#endif
}

LinkServer::LinkServer(QObject *parent)
    : QObject(parent)
    , m_server(new QLocalServer(this))
{
    m_server->setSocketOptions(QLocalServer::UserAccessOption); // only this user may hand links over
    connect(m_server, &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket *socket = m_server->nextPendingConnection())
            serve(socket);
    });
}

LinkServer::~LinkServer() = default;

LinkServer::Listen LinkServer::listen(const QString &name, QString *error)
{
    // Asked first: listening would take the name over from a console that runs (Qt replaces the
    // socket file), and links would stop reaching it.
    QLocalSocket probe;
    probe.connectToServer(name);
    if (probe.waitForConnected(kProbeMs)) {
        probe.abort();
        return Listen::OtherConsole;
    }
    if (m_server->listen(name))
        return Listen::Listening;
    if (m_server->serverError() == QAbstractSocket::AddressInUseError) {
        // Nobody answers: the socket of a console that crashed. It must not block this one.
        QLocalServer::removeServer(name);
        if (m_server->listen(name))
            return Listen::Listening;
    }
    if (error)
        *error = m_server->errorString();
    return Listen::Failed;
}

bool LinkServer::isListening() const
{
    return m_server->isListening();
}

QString LinkServer::fullServerName() const
{
    return m_server->fullServerName();
}

void LinkServer::serve(QLocalSocket *socket)
{
    connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
    // A client that connects and says nothing (or too slowly) does not keep a connection open.
    auto *timeout = new QTimer(socket);
    timeout->setSingleShot(true);
    connect(timeout, &QTimer::timeout, socket, [socket] {
        socket->abort();
        socket->deleteLater();
    });
    timeout->start(kTimeoutMs);
    connect(socket, &QLocalSocket::readyRead, this, [this, socket] { readLink(socket); });
    if (socket->bytesAvailable() > 0)
        readLink(socket);
}

void LinkServer::readLink(QLocalSocket *socket)
{
    if (socket->property("answered").toBool()) {
        socket->readAll(); // one link per connection; the rest is ignored
        return;
    }
    const auto answer = [socket](const QByteArray &text) {
        socket->setProperty("answered", true);
        socket->write(text + '\n');
        socket->disconnectFromServer(); // after the answer is written
    };
    if (!socket->canReadLine()) {
        if (socket->bytesAvailable() > kMaxLinkBytes)
            answer(QByteArrayLiteral("error: a link is at most 4096 bytes"));
        return; // the rest of the line is still coming
    }
    const QByteArray line = socket->readLine().trimmed();
    if (line.size() > kMaxLinkBytes) {
        answer(QByteArrayLiteral("error: a link is at most 4096 bytes"));
        return;
    }
    const Result<ConsoleLink> link = parseConsoleLink(QString::fromUtf8(line));
    if (!link) {
        answer("error: " + link.error().toUtf8());
        return;
    }
    answer(QByteArrayLiteral("ok"));
    Q_EMIT linkReceived(*link);
}

HandOver handLinkToRunningConsole(const QString &name, const QString &link, int timeoutMs)
{
    QLocalSocket socket;
    socket.connectToServer(name);
    if (!socket.waitForConnected(timeoutMs))
        return { HandOver::Outcome::NoConsole, socket.errorString() };
    socket.write(link.toUtf8() + '\n');
    const QDeadlineTimer deadline(timeoutMs);
    while (socket.bytesToWrite() > 0 && !deadline.hasExpired())
        socket.waitForBytesWritten(int(deadline.remainingTime()));
    QByteArray answer;
    while (!answer.contains('\n') && answer.size() < kMaxAnswerBytes && !deadline.hasExpired()) {
        if (socket.bytesAvailable() == 0 && !socket.waitForReadyRead(int(deadline.remainingTime())))
            break;
        answer += socket.read(kMaxAnswerBytes - answer.size());
    }
    const qsizetype end = answer.indexOf('\n');
    if (end < 0)
        return { HandOver::Outcome::NoAnswer, QString() };
    const QString text = QString::fromUtf8(answer.left(end)).trimmed();
    if (text == u"ok")
        return { HandOver::Outcome::Delivered, QString() };
    return { HandOver::Outcome::Refused, text.startsWith(u"error: ") ? text.mid(7) : text };
}

} // namespace redrive::ui
