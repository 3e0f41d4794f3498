// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "dbexecutor.h"

namespace redrive::ui {

// The object living on the worker thread; it owns the connection, which QtSql requires to be
// used only on the thread that opened it.
class DbWorker final : public QObject {
public:
    std::unique_ptr<Db> db;
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
            QMetaObject::invokeMethod(
                this,
                [this] {
                    if (--m_pending == 0)
                        Q_EMIT idle();
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void DbExecutor::open(const StorageUrl &url, QObject *context, std::function<void(const QString &)> done)
{
    QPointer<QObject> guard(context);
    ++m_pending;
    QMetaObject::invokeMethod(
        m_worker,
        [this, w = m_worker, url, guard, done = std::move(done), name = m_thread.objectName()]() mutable {
            QString error;
            OpenOptions options;
            options.mode = OpenMode::ReadOnly;
            options.busyTimeoutMs = 2'000;
            w->db = Db::open(url, name, options, &error);
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
