// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QObject>
#include <QPointer>
#include <QThread>

#include <functional>
#include <memory>
#include <type_traits>

namespace redrive::ui {

// A counter a view bumps whenever what it asked for changes (a new filter, a new event), so
// answers to older questions are recognised and dropped when they arrive.
class Generation final {
public:
    [[nodiscard]] quint64 value() const { return m_value; }
    quint64 advance() { return ++m_value; }

private:
    quint64 m_value = 0;
};

// Keeps one read of a refreshing view in flight: a refresh asked for while one is running is
// remembered, and that running read's answer is dropped in favour of one more read, since what it
// read may already be stale.
//
//     if (!m_gate.enter()) return;            // at the start of refresh()
//     ... submit(..., [this](Result<T> r) {
//         if (m_gate.leave()) { refresh(); return; }   // first thing in the answer
class RefreshGate final {
public:
    // True when a read may start now; false (and noted) when one is already running.
    [[nodiscard]] bool enter()
    {
        if (m_busy) {
            m_again = true;
            return false;
        }
        m_busy = true;
        m_again = false;
        return true;
    }
    // The running read has answered; true when a refresh was asked for meanwhile.
    [[nodiscard]] bool leave()
    {
        m_busy = false;
        return m_again;
    }
    // The running read's answer will never arrive (its Generation was advanced): a read may start.
    void abandon()
    {
        m_busy = false;
        m_again = false;
    }

private:
    bool m_busy = false;
    bool m_again = false;
};

class DbWorker;

// Runs database work on a thread that owns its own read-only connection, and hands each result
// back on the GUI thread through one guarded path: the answer is dropped when the asking object
// is gone or its Generation has moved on. Jobs run one at a time, in order.
class DbExecutor final : public QObject {
    Q_OBJECT
public:
    explicit DbExecutor(const QString &purpose, QObject *parent = nullptr);
    ~DbExecutor() override;

    // Opens the connection on the worker thread. `done(error)` gets an empty string on success.
    void open(const StorageUrl &url, QObject *context, std::function<void(const QString &error)> done);
    // Opens a new connection to the same database, after the jobs queued before it, and uses it
    // from then on; on failure the old one stays (broken: jobs on it fail at once with an error
    // rather than never answering). QtSql never reconnects a lost PostgreSQL connection itself.
    void reconnect(QObject *context, std::function<void(const QString &error)> done);

    // Runs `work(Db &)` on the worker thread; `done(result)` runs on this object's thread unless
    // `context` was destroyed or `generation` (owned by context, may be null) has advanced since
    // this call.
    template<typename Work, typename Done>
    void submit(QObject *context, const Generation *generation, Work work, Done done)
    {
        using Result = std::invoke_result_t<Work &, Db &>;
        const quint64 asked = generation ? generation->value() : 0;
        QPointer<QObject> guard(context);
        auto deliver = [this, guard, generation, asked, done = std::move(done)](Result result) mutable {
            QMetaObject::invokeMethod(
                this,
                [guard, generation, asked, done = std::move(done), result = std::move(result)]() mutable {
                    if (!guard || (generation && generation->value() != asked))
                        return;
                    done(std::move(result));
                },
                Qt::QueuedConnection);
        };
        enqueue([work = std::move(work), deliver = std::move(deliver)](Db *db) mutable {
            if (!db)
                return; // closed; nobody is waiting for this anymore
            deliver(work(*db));
        });
    }

    // Work queued but not yet finished; tests and the benchmark wait for it to reach zero.
    [[nodiscard]] int pending() const { return m_pending; }

Q_SIGNALS:
    void idle();
    // A job found the connection lost (the database restarted, stopped or went away); emitted
    // once per connection, with the driver's reason. Jobs keep running and fail fast until
    // reconnect() succeeds.
    void connectionLost(const QString &reason);

private:
    void enqueue(std::function<void(Db *)> job);
    QThread m_thread;
    DbWorker *m_worker = nullptr; // lives on m_thread
    StorageUrl m_url; // as given to open()
    int m_pending = 0;
};

} // namespace redrive::ui
