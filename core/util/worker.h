// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "util/result.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace redrive {

// The one way a component of Redrive runs work on threads of its own: 1..N threads, each of
// which may first open what it needs (a database connection belongs to the thread that opened
// it) and report the outcome to start(); a stop flag; a wake-up; and waits under the worker's
// mutex, so the owner guards its own queue with that mutex:
//
//     m_worker.start(1, [this](int) { return openDb(); }, [this](int) { loop(); });
//     // producer:  { auto lock = m_worker.lock(); m_queue.push_back(x); } m_worker.notifyOne();
//     // consumer:  auto lock = m_worker.lock();
//     //            m_worker.wait(lock, [&] { return m_worker.stopRequested() || !m_queue.empty(); });
//     m_worker.stop(); // request, notify, join; idempotent, and done by the destructor
//
// Like std::jthread's stop_token, stopping is cooperative: a thread ends when its run function
// returns, so it can drain its queue first. start(), stop() and running() belong to the owner's
// thread; everything else may be called from any thread.
class Worker final {
public:
    using Clock = std::chrono::steady_clock;
    // Runs first on each thread; a failure ends that thread without running `run` and is what
    // start() returns. It cleans up after itself when it fails.
    using Open = std::function<Result<>(int index)>;
    using Run = std::function<void(int index)>;

    Worker() = default;
    ~Worker(); // stop()
    Worker(const Worker &) = delete;
    Worker &operator=(const Worker &) = delete;

    // Starts `threads` threads (at least one), each `open(index)` then `run(index)`, and returns
    // once every one has opened. If one fails, the others are stopped and every thread joined
    // before the first failure (by index) is returned. Clears the stop request (not a wake).
    Result<> start(int threads, Open open, Run run);
    Result<> start(int threads, Run run) { return start(threads, {}, std::move(run)); }

    // Sets the stop request and wakes every waiting thread; the threads keep running until their
    // run functions return.
    void requestStop();
    // requestStop(), then joins every thread. Safe to call twice, before start() and from the
    // destructor.
    void stop();
    // Started and not yet stopped.
    [[nodiscard]] bool running() const { return !m_threads.empty(); }
    [[nodiscard]] int threadCount() const { return static_cast<int>(m_threads.size()); }
    [[nodiscard]] bool stopRequested() const { return m_stop.load(std::memory_order_acquire); }

    // The mutex that guards the owner's shared state and the waits below.
    [[nodiscard]] std::unique_lock<std::mutex> lock() const { return std::unique_lock(m_mutex); }
    void notifyOne() { m_cv.notify_one(); }
    void notifyAll() { m_cv.notify_all(); }

    // A wake-up that is not lost when no thread is waiting yet: woken() stays true until a
    // thread takes it (takeWake() or sleepFor()).
    void wake();
    // Under lock():
    [[nodiscard]] bool woken() const { return m_woken; }
    bool takeWake() { return std::exchange(m_woken, false); }

    // Under lock(): plain condition waits on the worker's condition; they end on `pred` (and the
    // deadline) only, so put stopRequested() or woken() into `pred` when they should end the wait.
    template<class Pred> void wait(std::unique_lock<std::mutex> &lock, Pred pred)
    {
        m_cv.wait(lock, std::move(pred));
    }
    template<class Pred>
    bool waitUntil(std::unique_lock<std::mutex> &lock, Clock::time_point deadline, Pred pred)
    {
        return m_cv.wait_until(lock, deadline, std::move(pred));
    }
    template<class Rep, class Period, class Pred>
    bool waitFor(std::unique_lock<std::mutex> &lock, std::chrono::duration<Rep, Period> timeout, Pred pred)
    {
        return m_cv.wait_for(lock, timeout, std::move(pred));
    }

    // For a periodic loop (not under lock()): waits until `timeout` passed, wake() was called or
    // a stop is requested, and takes the wake-up. False when the thread should end.
    bool sleepFor(std::chrono::milliseconds timeout);

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    std::atomic<bool> m_stop { false }; // written under m_mutex, so a waiting predicate sees it
    bool m_woken = false;
    std::vector<std::thread> m_threads;
};

} // namespace redrive
