// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "duewakeup.h"

#include "pgstatement.h"

#include <QLoggingCategory>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <libpq-fe.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcDueListener, "redrive.delivery.listen")

namespace redrive {

namespace {

// How long the listener sits on an idle connection before it checks that the connection is
// still alive (a server that vanished without closing the socket says nothing otherwise).
constexpr int kIdleCheckMs = 15'000;

QString connError(PGconn *conn)
{
    return QString::fromUtf8(PQerrorMessage(conn)).trimmed();
}

// Runs one statement without parameters on the raw connection; false with the server's error.
bool execRaw(PGconn *conn, const char *sql, QString *error)
{
    PGresult *result = PQexec(conn, sql);
    const bool ok = result && PQresultStatus(result) == PGRES_COMMAND_OK;
    if (!ok && error)
        *error = result ? QString::fromUtf8(PQresultErrorMessage(result)).trimmed() : connError(conn);
    PQclear(result);
    return ok;
}

} // namespace

Result<> notifyDeliveriesDue(Db &db)
{
    if (db.isSqlite())
        return ok();
    return db.exec(QStringLiteral("NOTIFY ") + QLatin1String(kDeliveriesDueChannel));
}

DueListener::DueListener(StorageUrl url, std::function<void()> onDue, QByteArray ignoredOrigin)
    : m_url(std::move(url))
    , m_onDue(std::move(onDue))
    , m_ignoredOrigin(std::move(ignoredOrigin))
{ }

DueListener::~DueListener()
{
    stop();
}

Result<> DueListener::start(int retryMs)
{
    if (m_url.dialect != Dialect::Postgres)
        return Failure(QStringLiteral("wake-up notifications need PostgreSQL"));
    m_stopFd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (m_stopFd < 0)
        return Failure(QStringLiteral("eventfd: %1").arg(QString::fromLocal8Bit(strerror(errno))));
    m_thread = std::thread([this, retryMs] { run(retryMs); });
    return ok();
}

void DueListener::stop()
{
    if (!m_thread.joinable())
        return;
    const quint64 one = 1;
    [[maybe_unused]] const auto written = write(m_stopFd, &one, sizeof one);
    m_thread.join();
    close(m_stopFd);
    m_stopFd = -1;
}

bool DueListener::waitStop(int timeoutMs)
{
    pollfd fd { m_stopFd, POLLIN, 0 };
    return poll(&fd, 1, timeoutMs) > 0;
}

// A state machine of two states:
//   disconnected — open a connection and LISTEN; on failure wait retryMs (stop ends the wait)
//                  and try again. On success wake the engine once: whatever was committed while
//                  nobody listened is then claimed now, not at the next poll.
//   listening    — poll() the socket and the stop fd. Readable socket: read what arrived and
//                  wake the engine once for all notifications read. A failed read (the server
//                  restarted or the network dropped) → disconnected. Idle for kIdleCheckMs:
//                  ask the server for nothing (an empty query) to find a dead peer.
void DueListener::run(int retryMs)
{
    std::unique_ptr<Db> db;
    PGconn *conn = nullptr;
    bool outageLogged = false;
    for (;;) {
        if (!conn) {
            QString error;
            db = takeValue(Db::open(m_url, QStringLiteral("delivery-listen"), {}), &error);
            conn = db ? PgStatement::nativeHandle(*db) : nullptr;
            const QString listen = QStringLiteral("LISTEN ") + QLatin1String(kDeliveriesDueChannel);
            if (conn && !execRaw(conn, listen.toUtf8().constData(), &error))
                conn = nullptr;
            if (!conn) {
                db.reset();
                if (!outageLogged) {
                    qCWarning(lcDueListener,
                        "cannot listen for delivery wake-ups (%s); polling until the database answers",
                        qPrintable(error));
                    outageLogged = true;
                }
                if (waitStop(retryMs))
                    return;
                continue;
            }
            if (outageLogged)
                qCInfo(lcDueListener, "listening for delivery wake-ups again");
            outageLogged = false;
            m_connections.fetch_add(1, std::memory_order_relaxed);
            m_listening.store(true, std::memory_order_release);
            m_onDue();
        }

        pollfd fds[2] = { { PQsocket(conn), POLLIN, 0 }, { m_stopFd, POLLIN, 0 } };
        const int ready = poll(fds, 2, kIdleCheckMs);
        if (ready < 0 && errno == EINTR)
            continue;
        if (fds[1].revents != 0)
            break;
        bool alive = true;
        if (ready == 0) {
            PGresult *result = PQexec(conn, "");
            alive = result && PQresultStatus(result) == PGRES_EMPTY_QUERY;
            PQclear(result);
        } else {
            alive = PQconsumeInput(conn) == 1;
        }
        bool due = false;
        while (PGnotify *notice = PQnotifies(conn)) {
            if (!m_ignoredOrigin.isEmpty() && m_ignoredOrigin == notice->extra)
                m_ignored.fetch_add(1, std::memory_order_relaxed);
            else
                due = true;
            PQfreemem(notice);
        }
        if (due) {
            m_wakeups.fetch_add(1, std::memory_order_relaxed);
            m_onDue();
        }
        if (!alive || PQstatus(conn) != CONNECTION_OK) {
            qCWarning(lcDueListener, "lost the wake-up connection (%s); polling until it is back",
                qPrintable(connError(conn)));
            outageLogged = true;
            m_listening.store(false, std::memory_order_release);
            conn = nullptr;
            db.reset();
            if (waitStop(std::min(retryMs, 200)))
                return;
        }
    }
    m_listening.store(false, std::memory_order_release);
}

} // namespace redrive
