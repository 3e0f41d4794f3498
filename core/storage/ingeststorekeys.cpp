// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// The business keys of new events. On SQLite they are written in the event's transaction as one
// pending row per event and moved into the index (event_keys) in batches; see kMigration9 in
// schema.cpp for why. On PostgreSQL they go straight into event_keys: measured both ways, the
// batches cost PostgreSQL more than they save (docs/performance.md, Business keys).
#include "ingeststore.h"

namespace redrive {
namespace {

// All pending keys whose event exists. SQLite runs one writer at a time: nothing is added between
// this and the DELETE after it.
const QString kIndexPendingKeys = QStringLiteral(
    "INSERT INTO event_keys (event_id, name, value) SELECT p.event_id, j.key, j.value FROM event_keys_pending p "
    "JOIN events e ON e.id = p.event_id, json_each(p.keys) j");
const QString kClearPendingKeys = QStringLiteral("DELETE FROM event_keys_pending");

void appendJsonString(QByteArray &out, const QString &text)
{
    static const char hex[] = "0123456789abcdef";
    out.append('"');
    const QByteArray utf8 = text.toUtf8();
    for (const char c : utf8) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out.append('\\').append(c);
        } else if (u < 0x20) {
            out.append("\\u00").append(hex[u >> 4]).append(hex[u & 0xf]);
        } else {
            out.append(c);
        }
    }
    out.append('"');
}

} // namespace

QByteArray encodePendingKeys(const QList<EventKey> &keys)
{
    QByteArray out;
    out.reserve(16 + 32 * keys.size());
    out.append('{');
    for (const EventKey &key : keys) {
        if (out.size() > 1)
            out.append(',');
        appendJsonString(out, key.name);
        out.append(':');
        appendJsonString(out, key.value);
    }
    out.append('}');
    return out;
}

Result<> IngestStore::prepareKeys()
{
    if (m_db.isSqlite())
        return m_fastInsertKey.prepare(
            m_db, QStringLiteral("INSERT INTO event_keys_pending (event_id, keys) VALUES (?, ?)"));
    m_multiKeys = std::make_unique<MultiRowInsert>(m_db,
        QStringLiteral("INSERT INTO event_keys (event_id, name, value) VALUES"), QStringLiteral("(?, ?, ?)"),
        3, QString());
    return ok();
}

Result<> IngestStore::insertKeys(const QList<KeyRow> &rows)
{
    if (rows.isEmpty())
        return ok();
    if (m_fastInsertKey.isValid()) {
        SqliteStatement &s = m_fastInsertKey;
        for (const KeyRow &r : rows) {
            const QByteArray json = encodePendingKeys(r.keys);
            s.bindInt64(1, r.eventId);
            s.bindUtf8(2, json);
            if (auto stored = s.execute(); !stored)
                return stored;
        }
        return ok();
    }
    if (m_pgInsertDeliveries.isValid())
        return pgInsertDeliveries({}, rows, 0);
    QList<std::pair<qint64, const EventKey *>> flat;
    for (const KeyRow &r : rows) {
        for (const EventKey &key : r.keys)
            flat.append({ r.eventId, &key });
    }
    return m_multiKeys->exec(static_cast<int>(flat.size()),
        [&flat](int row, QSqlQuery &q, int i) {
            q.bindValue(i++, flat[row].first);
            q.bindValue(i++, flat[row].second->name);
            q.bindValue(i++, flat[row].second->value);
        },
        {});
}

Result<int> IngestStore::indexPendingKeys()
{
    if (!keysGoPending())
        return 0;
    const auto move = [this]() -> Result<int> {
        QSqlQuery q(m_db.handle());
        if (auto ran = runQuery(q, kIndexPendingKeys, {}); !ran)
            return Failure(ran.error());
        const int indexed = q.numRowsAffected();
        q.finish();
        if (auto cleared = runQuery(q, kClearPendingKeys, {}); !cleared)
            return Failure(cleared.error());
        return indexed;
    };
    // Two pragmas, set outside the transaction (where they take effect) and restored before
    // anything else runs on this connection:
    // - SQLite checks event_keys' foreign key with a lookup per key that halves the batch's speed;
    //   the batch joins events itself, so the check could never fail.
    // - The batch needs no fsync of its own: lost to a power cut, it is rolled back whole and the
    //   keys are pending again; the next event commit (FULL) syncs the WAL it was written to.
    const QString restoreSync = m_db.powerLossDurable() ? QStringLiteral("PRAGMA synchronous=FULL")
                                                        : QStringLiteral("PRAGMA synchronous=NORMAL");
    for (const QString &pragma :
        { QStringLiteral("PRAGMA foreign_keys=OFF"), QStringLiteral("PRAGMA synchronous=NORMAL") }) {
        if (auto set = m_db.exec(pragma); !set)
            return Failure(set.error());
    }
    auto indexed = withTransaction(m_db, move);
    for (const QString &pragma : { QStringLiteral("PRAGMA foreign_keys=ON"), restoreSync }) {
        if (auto set = m_db.exec(pragma); !set)
            return Failure(set.error()); // only on a broken connection, which the writer then reopens
    }
    return indexed;
}

Result<> IngestStore::insertDeliveriesAndKeys(
    const QList<DeliveryRow> &deliveries, const QList<KeyRow> &keys, qint64 nowMs)
{
    if (m_pgInsertDeliveries.isValid())
        return pgInsertDeliveries(deliveries, keys, nowMs);
    if (!deliveries.isEmpty()) {
        if (auto inserted = insertDeliveries(deliveries, nowMs); !inserted)
            return inserted;
    }
    return insertKeys(keys);
}

} // namespace redrive
