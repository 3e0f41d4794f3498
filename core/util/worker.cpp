// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "worker.h"

#include <algorithm>
#include <future>

namespace redrive {

Worker::~Worker()
{
    stop();
}

Result<> Worker::start(int threads, Open open, Run run)
{
    if (running())
        return Failure(QStringLiteral("already started"));
    {
        std::lock_guard lock(m_mutex);
        m_stop.store(false, std::memory_order_release);
    }
    const int n = std::max(1, threads);
    std::vector<std::promise<Result<>>> opened(static_cast<std::size_t>(n));
    m_threads.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        m_threads.emplace_back([&open, &run, i, ready = &opened[static_cast<std::size_t>(i)]] {
            Result<> result = open ? open(i) : ok();
            const bool good = result.has_value();
            // `ready`, `open` and `run` are start()'s: after this only the copy below is used.
            Run body = good ? run : Run();
            ready->set_value(std::move(result));
            if (body)
                body(i);
        });
    }
    Result<> outcome = ok();
    for (auto &r : opened) {
        Result<> one = r.get_future().get();
        if (!one && outcome)
            outcome = std::move(one);
    }
    if (!outcome)
        stop();
    return outcome;
}

void Worker::requestStop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop.store(true, std::memory_order_release);
    }
    m_cv.notify_all();
}

void Worker::stop()
{
    requestStop();
    for (auto &t : m_threads) {
        if (t.get_id() == std::this_thread::get_id())
            t.detach(); // stopped from its own thread (a last reference dropped there): it ends on return
        else if (t.joinable())
            t.join();
    }
    m_threads.clear();
}

void Worker::wake()
{
    {
        std::lock_guard lock(m_mutex);
        m_woken = true;
    }
    m_cv.notify_all();
}

bool Worker::sleepFor(std::chrono::milliseconds timeout)
{
    std::unique_lock lock(m_mutex);
    m_cv.wait_for(lock, timeout, [this] { return m_woken || stopRequested(); });
    m_woken = false;
    return !stopRequested();
}

} // namespace redrive
