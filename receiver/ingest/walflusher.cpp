// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "walflusher.h"

#include <QFile>
#include <QLoggingCategory>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace redrive::ingest {
namespace {

Q_LOGGING_CATEGORY(lcFlush, "redrive.ingest.flush")

QString errnoText(const char *what, const QString &path, int err)
{
    return QStringLiteral("%1 %2: %3")
        .arg(QLatin1String(what), path, QString::fromLocal8Bit(std::strerror(err)));
}

int openForSync(const QString &path)
{
    int fd = -1;
    do
        fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    return fd;
}

bool syncFd(int fd, const QString &path, QString *error)
{
    int rc = 0;
    do
        rc = ::fdatasync(fd);
    while (rc != 0 && errno == EINTR);
    if (rc != 0)
        *error = errnoText("fdatasync", path, errno);
    return rc == 0;
}

} // namespace

WalFlusher::WalFlusher(QString databasePath, QString walPath)
    : m_databasePath(std::move(databasePath))
    , m_walPath(std::move(walPath))
{ }

WalFlusher::~WalFlusher()
{
    stop();
    if (m_fd >= 0)
        ::close(m_fd);
}

bool WalFlusher::start(QString *error)
{
    if (m_thread.joinable())
        return true;
    m_fd = openForSync(m_walPath);
    if (m_fd < 0) {
        *error = errnoText("cannot open the WAL file", m_walPath, errno);
        return false;
    }
    m_thread = std::thread([this] { run(); });
    return true;
}

void WalFlusher::stop()
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_thread.joinable())
            return;
        m_stop = true;
    }
    m_work.notify_all();
    m_thread.join();
}

void WalFlusher::enqueue(AfterFlush done)
{
    {
        std::lock_guard lock(m_mutex);
        m_queue.push_back(std::move(done));
        ++m_unflushed;
    }
    m_work.notify_one();
}

void WalFlusher::waitUntilAtMost(int limit)
{
    std::unique_lock lock(m_mutex);
    m_flushed.wait(lock, [&] { return m_unflushed <= limit; });
}

// SQLite deletes the WAL only when its last connection closes, after copying it into the
// database; the checkpointer keeps a connection open for the life of the writer, so the file
// should never change under us. Checked anyway, per flush (one stat): a flush of a replaced
// file would silently acknowledge nothing.
bool WalFlusher::reopenIfReplaced(QString *error)
{
    struct stat byPath { };
    struct stat byFd { };
    if (::stat(QFile::encodeName(m_walPath).constData(), &byPath) != 0) {
        if (errno != ENOENT) {
            *error = errnoText("stat", m_walPath, errno);
            return false;
        }
        // The WAL went back into the database: flush that instead.
        const int fd = openForSync(m_databasePath);
        if (fd < 0) {
            *error = errnoText("cannot open", m_databasePath, errno);
            return false;
        }
        const bool ok = syncFd(fd, m_databasePath, error);
        ::close(fd);
        return ok;
    }
    if (m_fd >= 0 && ::fstat(m_fd, &byFd) == 0 && byFd.st_ino == byPath.st_ino
        && byFd.st_dev == byPath.st_dev)
        return true;
    qCWarning(lcFlush, "the WAL file %s was replaced; reopening it", qUtf8Printable(m_walPath));
    const int fd = openForSync(m_walPath);
    if (fd < 0) {
        *error = errnoText("cannot reopen the WAL file", m_walPath, errno);
        return false;
    }
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = fd;
    return true;
}

bool WalFlusher::flush(QString *error)
{
    if (m_beforeFlush)
        m_beforeFlush();
    return reopenIfReplaced(error) && syncFd(m_fd, m_walPath, error);
}

void WalFlusher::run()
{
    std::deque<AfterFlush> batch;
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            m_work.wait(lock, [this] { return m_stop || !m_queue.empty(); });
            if (m_queue.empty())
                break; // stopping, and nothing left to flush
            batch.swap(m_queue);
        }
        bool flushed = false;
        if (!failed()) {
            QString error;
            flushed = flush(&error);
            if (flushed) {
                m_flushes.fetch_add(1, std::memory_order_relaxed);
            } else {
                m_failed.store(true, std::memory_order_release);
                qCCritical(lcFlush,
                    "flushing the WAL failed (%s): nothing written since the last good flush can be trusted "
                    "to be on disk; every event from now on is answered 503 until redrived is restarted",
                    qUtf8Printable(error));
            }
        }
        const int completed = static_cast<int>(batch.size());
        for (auto &done : batch)
            done(flushed);
        batch.clear();
        {
            std::lock_guard lock(m_mutex);
            m_unflushed -= completed;
        }
        m_flushed.notify_all();
    }
    {
        std::lock_guard lock(m_mutex);
        m_unflushed = 0;
    }
    m_flushed.notify_all();
}

} // namespace redrive::ingest
