// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "dbexecutor.h"

namespace redrive::ui {

// The object living on the worker thread; it owns the connection, which QtSql requires to be
// used only on the thread that opened it.
class DbWorker final : public QObject {
public:
    std::unique_ptr<Db> db;
    bool lostReported = false; // connectionLost was emitted for this db

    // A new connection replaces the old one only once it is open.
    QString openNew(const StorageUrl &url, const QString &name)
    {
        QString error;
        OpenOptions options;
        options.mode = OpenMode::ReadOnly;
        options.busyTimeoutMs = 2'000;
        if (auto fresh = takeValue(Db::open(url, name, options), &error)) {
            db = std::move(fresh);
            lostReported = false;
        }
        return error;
    }
};

DbExecutor::DbExecutor(const QString &purpose, QObject *parent)
    : QObject(parent)
{
    m_thread.setObjectName(QLatin1String("db-") + purpose);
    m_worker = new DbWorker;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
}

DbExecutor::~DbExecutor()
{
    // Close the connection on its own thread, then stop; queued jobs left behind are discarded
    // with the worker.
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->db.reset(); }, Qt::QueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

void DbExecutor::enqueue(std::function<void(Db *)> job)
{
    ++m_pending;
    QMetaObject::invokeMethod(
        m_worker,
        [this, w = m_worker, job = std::move(job)] {
            job(w->db.get());
            // Asked after the job, without a round trip: did it find the connection gone?
            QString lost;
            if (w->db && !w->lostReported) {
                lost = w->db->connectionLost();
                w->lostReported = !lost.isEmpty();
            }
            QMetaObject::invokeMethod(
                this,
                [this, lost] {
                    if (!lost.isEmpty())
                        Q_EMIT connectionLost(lost);
                    if (--m_pending == 0)
                        Q_EMIT idle();
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void DbExecutor::reconnect(QObject *context, std::function<void(const QString &)> done)
{
    open(m_url, context, std::move(done));
}

void DbExecutor::open(const StorageUrl &url, QObject *context, std::function<void(const QString &)> done)
{
    m_url = url;
    QPointer<QObject> guard(context);
    ++m_pending;
    QMetaObject::invokeMethod(
        m_worker,
        [this, w = m_worker, url, guard, done = std::move(done), name = m_thread.objectName()]() mutable {
            const QString error = w->openNew(url, name);
            QMetaObject::invokeMethod(
                this,
                [this, guard, done = std::move(done), error] {
                    if (guard)
                        done(error);
                    if (--m_pending == 0)
                        Q_EMIT idle();
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

} // namespace redrive::ui
