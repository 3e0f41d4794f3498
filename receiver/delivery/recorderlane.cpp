// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "recorderlane.h"

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcDelivery)

namespace redrive::delivery {

RecorderLane::RecorderLane(StorageUrl storage, QString name, Done done)
    : m_storage(std::move(storage))
    , m_name(std::move(name))
    , m_done(std::move(done))
{ }

RecorderLane::~RecorderLane()
{
    stop();
}

Result<> RecorderLane::start()
{
    auto opened = Db::open(m_storage, m_name, {});
    if (!opened)
        return Failure(opened.error());
    m_db = std::move(*opened);
    m_store = std::make_unique<DeliveryStore>(*m_db, DeliveryStore::Plans::Once);
    return m_worker.start(1, [this](int) { run(); });
}

void RecorderLane::submit(Items items)
{
    if (items.isEmpty())
        return;
    {
        auto lock = m_worker.lock();
        m_queue.append(std::move(items));
    }
    m_worker.notifyOne();
}

int RecorderLane::pending() const
{
    auto lock = m_worker.lock();
    return static_cast<int>(m_queue.size()) + m_busy;
}

void RecorderLane::stop()
{
    if (!m_worker.running())
        return;
    m_worker.stop(); // the thread records what is queued first
    m_store.reset();
    m_db.reset();
}

void RecorderLane::run()
{
    for (;;) {
        Items items;
        {
            auto lock = m_worker.lock();
            m_worker.wait(lock, [&] { return !m_queue.isEmpty() || m_worker.stopRequested(); });
            if (m_queue.isEmpty())
                return; // stopping, nothing left
            items.swap(m_queue);
            m_busy = static_cast<int>(items.size());
        }
        RecordOutcome recorded = m_store->recordMany(items);
        const bool failed = std::any_of(recorded.results.cbegin(), recorded.results.cend(),
            [](RecordResult r) { return r == RecordResult::Error; });
        m_failures = failed ? m_failures + 1 : 0;
        m_done(std::move(items), std::move(recorded.results), recorded.error);
        {
            auto lock = m_worker.lock();
            m_busy = 0;
        }
        // A connection that keeps failing (server restarted, network cut) is replaced; the
        // engine hands the unrecorded results back on its next turn.
        if (m_failures >= 3 || !m_db->handle().isOpen()) {
            QString reopenError;
            auto fresh = takeValue(Db::open(m_storage, m_name, {}), &reopenError);
            if (fresh) {
                m_store = std::make_unique<DeliveryStore>(*fresh, DeliveryStore::Plans::Once);
                m_db = std::move(fresh);
                m_failures = 0;
                qCInfo(lcDelivery, "%s: database connection re-opened", qPrintable(m_name));
            }
        }
    }
}

} // namespace redrive::delivery
