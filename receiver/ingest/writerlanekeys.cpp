// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// A writer lane's business keys: a new event's keys go into its transaction as one pending row,
// and the lane moves pending rows into the key index in batches (IngestStore::indexPendingKeys).
#include "writerlane.h"

#include <QLoggingCategory>

namespace redrive::ingest {

using SteadyClock = std::chrono::steady_clock;

// A new event's business keys, stored in its transaction (a duplicate carries the same body); on
// SQLite as one pending row that indexKeysIfDue() moves into the index in a batch.
void WriterLane::appendKeys(const IncomingEvent &event, qint64 eventId, QList<KeyRow> *out)
{
    if (!event.keys.isEmpty())
        out->append(KeyRow { eventId, event.keys });
}

SteadyClock::time_point WriterLane::nextMaintenance() const
{
    const auto heartbeat = nextHeartbeat();
    return m_unindexedEvents > 0 ? std::min(heartbeat, m_oldestUnindexed + kKeyIndexDelay) : heartbeat;
}

void WriterLane::noteUnindexedKeys(SteadyClock::time_point committedAt)
{
    if (!m_store || !m_store->keysGoPending())
        return;
    if (m_unindexedEvents++ == 0)
        m_oldestUnindexed = committedAt;
}

// Pending keys go into the index once kKeyIndexBatch events carry them or the oldest has waited
// kKeyIndexDelay: searches read the pending rows too, so this bounds how many they scan.
void WriterLane::indexKeysIfDue(SteadyClock::time_point now)
{
    if (m_db && m_unindexedEvents > 0
        && (m_unindexedEvents >= kKeyIndexBatch || now - m_oldestUnindexed >= kKeyIndexDelay))
        indexKeys();
}

void WriterLane::indexKeys()
{
    const auto indexed = m_store->indexPendingKeys();
    if (!indexed) {
        // Nothing is lost: the keys stay pending (and searchable) and the next turn tries again.
        if (m_shared.availability.isUp())
            qCWarning(lcWriter, "indexing business keys failed: %s", qUtf8Printable(indexed.error()));
        m_oldestUnindexed = SteadyClock::now();
        return;
    }
    m_shared.keysIndexed.inc(*indexed);
    m_unindexedEvents = 0;
}

} // namespace redrive::ingest
