// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "duenotifier.h"

#include "duewakeup.h"
#include "pgstatement.h"

#include <QLoggingCategory>

#include <cerrno>
#include <chrono>
#include <libpq-fe.h>
#include <poll.h>

Q_LOGGING_CATEGORY(lcDueNotifier, "redrive.ingest.notify")

namespace redrive {

namespace {

// A NOTIFY waits this long for its answer at stop() before the notifier gives up on it (a hung
// server must not hold up shutdown; the listeners' poll covers the wake-up).
constexpr auto kStopGrace = std::chrono::milliseconds(1'000);
constexpr int kPollSliceMs = 100;

QString connError(PGconn *conn)
{
    return QString::fromUtf8(PQerrorMessage(conn)).trimmed();
}

} // namespace

DueNotifier::DueNotifier(StorageUrl url, QByteArray origin)
    : m_url(std::move(url))
    , m_origin(std::move(origin))
{ }

DueNotifier::~DueNotifier()
{
    stop();
}

Result<> DueNotifier::start(int retryMs)
{
    if (m_url.dialect != Dialect::Postgres)
        return Failure(QStringLiteral("wake-up notifications need PostgreSQL"));
    if (m_thread.joinable())
        return ok();
    {
        std::lock_guard lock(m_mutex);
        m_stop = false;
    }
    m_thread = std::thread([this, retryMs] { run(retryMs); });
    return ok();
}

void DueNotifier::stop()
{
    if (!m_thread.joinable())
        return;
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_cv.notify_all();
    m_thread.join();
}

void DueNotifier::poke()
{
    {
        std::lock_guard lock(m_mutex);
        if (m_pending)
            return; // the NOTIFY still to come answers this poke too
        m_pending = true;
    }
    m_cv.notify_one();
}

namespace {

// Sends one NOTIFY and waits for its answer; while it waits, `stopping` is asked every slice and
// once it says yes the wait ends kStopGrace later at the latest. False with the reason.
template<class Stopping>
bool sendNotify(PGconn *conn, const QByteArray &origin, Stopping stopping, QString *error)
{
    const char *values[2] = { kDeliveriesDueChannel, origin.constData() };
    if (PQsendQueryParams(conn, "SELECT pg_notify($1, $2)", 2, nullptr, values, nullptr, nullptr, 0) != 1) {
        *error = connError(conn);
        return false;
    }
    std::chrono::steady_clock::time_point giveUp = std::chrono::steady_clock::time_point::max();
    while (PQisBusy(conn)) {
        if (giveUp == std::chrono::steady_clock::time_point::max() && stopping())
            giveUp = std::chrono::steady_clock::now() + kStopGrace;
        if (std::chrono::steady_clock::now() >= giveUp) {
            *error = QStringLiteral("no answer before shutdown");
            return false;
        }
        pollfd fd { PQsocket(conn), POLLIN, 0 };
        if (poll(&fd, 1, kPollSliceMs) < 0 && errno != EINTR) {
            *error = QStringLiteral("poll failed");
            return false;
        }
        if (PQconsumeInput(conn) != 1) {
            *error = connError(conn);
            return false;
        }
    }
    bool sent = false;
    while (PGresult *result = PQgetResult(conn)) {
        if (PQresultStatus(result) == PGRES_TUPLES_OK)
            sent = true;
        else
            *error = QString::fromUtf8(PQresultErrorMessage(result)).trimmed();
        PQclear(result);
    }
    return sent && error->isEmpty();
}

} // namespace

// Waits for a poke, sends one NOTIFY for every poke that came in meanwhile, and repeats. Without
// a connection it opens one first; a failure drops the connection and keeps the poke, to be
// tried again after retryMs (stop() ends that wait with one last attempt).
void DueNotifier::run(int retryMs)
{
    std::unique_ptr<Db> db;
    PGconn *conn = nullptr;
    bool outageLogged = false;
    const auto stopping = [this] {
        std::lock_guard lock(m_mutex);
        return m_stop;
    };
    for (;;) {
        bool last = false;
        {
            std::unique_lock lock(m_mutex);
            m_cv.wait(lock, [&] { return m_pending || m_stop; });
            if (!m_pending)
                return;
            m_pending = false;
            last = m_stop;
        }
        QString error;
        if (!conn) {
            db = takeValue(Db::open(m_url, QStringLiteral("ingest-notify"), {}), &error);
            conn = db ? PgStatement::nativeHandle(*db) : nullptr;
            // Only a wake-up rides on this commit: it need not wait for the flush (see the header).
            if (conn && !succeeded(db->exec(QStringLiteral("SET synchronous_commit = off")), &error))
                conn = nullptr;
        }
        if (conn && sendNotify(conn, m_origin, stopping, &error)) {
            m_sent.fetch_add(1, std::memory_order_relaxed);
            if (outageLogged)
                qCInfo(lcDueNotifier, "sending delivery wake-ups again");
            outageLogged = false;
            if (last)
                return;
            continue;
        }
        conn = nullptr;
        db.reset();
        if (!outageLogged) {
            qCWarning(lcDueNotifier,
                "cannot wake the other receivers' delivery engines (%s); they poll until the database "
                "answers",
                qPrintable(error.isEmpty() ? QStringLiteral("the database connection is closed") : error));
            outageLogged = true;
        }
        if (last)
            return;
        std::unique_lock lock(m_mutex);
        m_pending = true;
        m_cv.wait_for(lock, std::chrono::milliseconds(retryMs), [&] { return m_stop; });
    }
}

} // namespace redrive
