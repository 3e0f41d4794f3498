// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "walcheckpointer.h"

#include <QLoggingCategory>
#include <QSqlQuery>

#include <future>

namespace redrive::ingest {
namespace {
Q_LOGGING_CATEGORY(lcCheckpoint, "redrive.ingest.checkpoint")
}

WalCheckpointer::WalCheckpointer(StorageUrl url, SqliteSync synchronous)
    : m_url(std::move(url))
    , m_synchronous(synchronous)
{ }

WalCheckpointer::~WalCheckpointer()
{
    stop();
}

bool WalCheckpointer::start(QString *error)
{
    std::promise<QString> ready;
    auto result = ready.get_future();
    m_thread = std::thread([this, &ready] {
        OpenOptions options;
        options.sqliteSynchronous = m_synchronous;
        QString openError;
        m_db = takeValue(Db::open(m_url, QStringLiteral("checkpoint"), options), &openError);
        ready.set_value(m_db ? QString() : openError);
        if (m_db)
            run();
        m_db.reset();
    });
    const QString failure = result.get();
    if (!failure.isEmpty()) {
        m_thread.join();
        *error = QStringLiteral("WAL checkpointer: %1").arg(failure);
        return false;
    }
    return true;
}

void WalCheckpointer::stop()
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_thread.joinable())
            return;
        m_stop = true;
    }
    m_cv.notify_all();
    m_thread.join();
}

void WalCheckpointer::run()
{
    QSqlQuery q(m_db->handle());
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            m_cv.wait_for(lock, std::chrono::milliseconds(kIntervalMs), [this] { return m_stop; });
            if (m_stop)
                break;
        }
        if (!m_dirty.exchange(false, std::memory_order_relaxed))
            continue;
        // Result row: (busy, frames in the WAL, frames copied into the database).
        if (!q.exec(QStringLiteral("PRAGMA wal_checkpoint(PASSIVE)")) || !q.next()) {
            qCWarning(lcCheckpoint, "passive checkpoint failed: %s", qUtf8Printable(sqlErrorText(q)));
            continue;
        }
        const int frames = q.value(1).toInt();
        q.finish();
        if (frames >= kRestartFrames) {
            // RESTART blocks writers while it runs; holding the in-process write gate makes the
            // group-commit writer wait on it and resume the moment it ends, rather than poll
            // SQLite's lock with sleeps (measured: 15 restarts in 10 s cost the writer 0.8 s).
            const SqliteWriteGateHold gate(*m_db);
            if (!q.exec(QStringLiteral("PRAGMA wal_checkpoint(RESTART)")))
                qCWarning(lcCheckpoint, "restart checkpoint failed: %s", qUtf8Printable(sqlErrorText(q)));
            q.finish();
        }
    }
}

} // namespace redrive::ingest
