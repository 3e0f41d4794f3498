// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "util/worker.h"

#include <QTest>

#include <atomic>
#include <deque>
#include <future>
#include <set>

using namespace redrive;
using namespace std::chrono_literals;

// Worker runs every background thread of the receiver: start with an opening step, waits under
// its mutex, wake-ups, and a stop that lets the threads drain before they are joined. Every
// test synchronises on the worker's own condition or a future; the long timeouts only guard
// against a hang.
class TstWorker : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void startFailureIsReportedAndJoined();
    void wakeEndsASleepBeforeItsTimeout();
    void wakeBeforeTheWaitIsKept();
    void waitUntilTimesOut();
    void stopDrainsTheOwnersQueue();
    void stopIsIdempotentAndDestructorSafe();
    void runsNThreads();
    void restartsAfterStop();
};

void TstWorker::startFailureIsReportedAndJoined()
{
    Worker w;
    std::atomic<int> opened { 0 };
    std::atomic<int> ran { 0 };
    std::atomic<int> ended { 0 };
    const Result<> started = w.start(
        3,
        [&](int index) -> Result<> {
            ++opened;
            if (index == 1)
                return Failure(QStringLiteral("lane %1 cannot open").arg(index));
            return ok();
        },
        [&](int) {
            ++ran;
            auto lock = w.lock();
            w.wait(lock, [&] { return w.stopRequested(); });
            ++ended;
        });
    QVERIFY(!started);
    QCOMPARE(started.error(), QStringLiteral("lane 1 cannot open"));
    QVERIFY(!w.running());
    QCOMPARE(opened.load(), 3);
    QCOMPARE(ran.load(), 2); // the failed thread never runs
    QCOMPARE(ended.load(), 2); // the others were stopped and joined before start() returned
}

void TstWorker::wakeEndsASleepBeforeItsTimeout()
{
    Worker w;
    std::promise<bool> slept;
    auto sleptFuture = slept.get_future();
    QVERIFY(w.start(1, [&](int) {
        slept.set_value(w.sleepFor(std::chrono::hours(1)));
        auto lock = w.lock();
        w.wait(lock, [&] { return w.stopRequested(); });
    }));
    w.wake();
    QCOMPARE(sleptFuture.wait_for(60s), std::future_status::ready); // not the hour
    QVERIFY(sleptFuture.get()); // woken, not stopped
    {
        auto lock = w.lock();
        QVERIFY(!w.woken()); // sleepFor took the wake-up
    }
    w.stop();
}

void TstWorker::wakeBeforeTheWaitIsKept()
{
    Worker w;
    w.wake();
    {
        auto lock = w.lock();
        QVERIFY(w.woken());
        QVERIFY(w.waitFor(lock, 1h, [&] { return w.woken(); }));
        QVERIFY(w.takeWake());
        QVERIFY(!w.takeWake());
    }
    QVERIFY(w.sleepFor(0ms)); // nothing pending, not stopping: the thread carries on
}

void TstWorker::waitUntilTimesOut()
{
    Worker w;
    auto lock = w.lock();
    QVERIFY(!w.waitUntil(lock, Worker::Clock::now() + 1ms, [] { return false; }));
    QVERIFY(!w.waitFor(lock, 0ms, [] { return false; }));
}

void TstWorker::stopDrainsTheOwnersQueue()
{
    Worker w;
    std::deque<int> queue; // guarded by w.lock()
    std::vector<int> done; // consumer thread only, read after stop()
    QVERIFY(w.start(1, [&](int) {
        for (;;) {
            auto lock = w.lock();
            w.wait(lock, [&] { return w.stopRequested() || !queue.empty(); });
            if (queue.empty())
                return; // stopping, nothing left
            done.push_back(queue.front());
            queue.pop_front();
        }
    }));
    for (int i = 0; i < 1000; ++i) {
        {
            auto lock = w.lock();
            queue.push_back(i);
        }
        w.notifyOne();
    }
    w.stop();
    QVERIFY(!w.running());
    QCOMPARE(done.size(), std::size_t(1000));
    for (int i = 0; i < 1000; ++i)
        QCOMPARE(done[static_cast<std::size_t>(i)], i);
    QVERIFY(queue.empty());
}

void TstWorker::stopIsIdempotentAndDestructorSafe()
{
    std::atomic<int> ended { 0 };
    {
        Worker w;
        w.stop(); // before start: nothing to do
        QVERIFY(!w.running());
        QVERIFY(w.start(1, [&](int) {
            while (w.sleepFor(1h)) { }
            ++ended;
        }));
        QVERIFY(w.running());
        w.stop();
        QCOMPARE(ended.load(), 1);
        w.stop();
        QVERIFY(!w.running());
        QVERIFY(w.start(2, [&](int) {
            while (w.sleepFor(1h)) { }
            ++ended;
        }));
    } // the destructor stops and joins
    QCOMPARE(ended.load(), 3);
}

void TstWorker::runsNThreads()
{
    Worker w;
    std::set<int> seen; // guarded by w.lock()
    QVERIFY(w.start(4, [&](int index) {
        auto lock = w.lock();
        seen.insert(index);
        w.notifyAll();
        w.wait(lock, [&] { return w.stopRequested(); });
    }));
    QCOMPARE(w.threadCount(), 4);
    {
        auto lock = w.lock();
        QVERIFY(w.waitFor(lock, 60s, [&] { return seen.size() == 4; }));
    }
    w.stop();
    QCOMPARE(seen, (std::set<int> { 0, 1, 2, 3 }));
    QCOMPARE(w.threadCount(), 0);
}

void TstWorker::restartsAfterStop()
{
    Worker w;
    QVERIFY(w.start(1, [&](int) {
        while (w.sleepFor(1h)) { }
    }));
    const Result<> twice = w.start(1, [](int) {});
    QVERIFY(!twice);
    QCOMPARE(twice.error(), QStringLiteral("already started"));
    w.stop();
    QVERIFY(w.stopRequested());
    std::promise<bool> stopSeen;
    auto stopSeenFuture = stopSeen.get_future();
    QVERIFY(w.start(1, [&](int) {
        stopSeen.set_value(w.stopRequested()); // start() cleared the old request
        while (w.sleepFor(1h)) { }
    }));
    QVERIFY(!stopSeenFuture.get());
    w.stop();
}

QTEST_GUILESS_MAIN(TstWorker)
#include "tst_worker.moc"
