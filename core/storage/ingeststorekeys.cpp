// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// The business keys of new events: written in the event's transaction as one pending row per
// event, moved into the index (event_keys) in batches. See kMigration9 in schema.cpp for why.
#include "ingeststore.h"

namespace redrive {
namespace {

const QString kPendingColumns = QStringLiteral("INSERT INTO event_keys_pending (event_id, keys) VALUES");

// All pending keys whose event exists. SQLite runs one writer at a time: nothing is added between
// this and the DELETE after it.
const QString kSqliteIndexKeys = QStringLiteral(
    "INSERT INTO event_keys (event_id, name, value) SELECT p.event_id, j.key, j.value FROM event_keys_pending p "
    "JOIN events e ON e.id = p.event_id, json_each(p.keys) j");
const QString kSqliteClearPending = QStringLiteral("DELETE FROM event_keys_pending");
// PostgreSQL: the DELETE takes the rows this statement sees (a concurrent move waits for them, then
// skips them as deleted); rows another transaction commits later wait for the next move.
const QString kPgIndexKeys = QStringLiteral(
    "WITH moved AS (DELETE FROM event_keys_pending RETURNING event_id, keys) "
    "INSERT INTO event_keys (event_id, name, value) SELECT m.event_id, j.key, j.value FROM moved m "
    "JOIN events e ON e.id = m.event_id, jsonb_each_text(m.keys::jsonb) j ON CONFLICT DO NOTHING");

void appendJsonString(QByteArray &out, const QString &text)
{
    static const char hex[] = "0123456789abcdef";
    out.append('"');
    for (const char c : text.toUtf8()) {
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
        return m_fastInsertKey.prepare(m_db, kPendingColumns + QStringLiteral(" (?, ?)"));
    m_multiKeys
        = std::make_unique<MultiRowInsert>(m_db, kPendingColumns, QStringLiteral("(?, ?)"), 2, QString());
    return ok();
}

Result<> IngestStore::insertKeys(const QList<KeyRow> &rows)
{
    if (rows.isEmpty())
        return ok();
    if (m_fastInsertKey.isValid()) {
        SqliteStatement &s = m_fastInsertKey;
        for (const KeyRow &r : rows) {
            s.bindInt64(1, r.eventId);
            s.bindUtf8(2, r.keysJson);
            const bool stored = s.step() == SqliteStatement::Step::Done;
            const QString why = stored ? QString() : s.errorText();
            s.reset();
            if (!stored)
                return Failure(why);
        }
        return ok();
    }
    if (m_pgInsertDeliveries.isValid())
        return pgInsertDeliveries({}, rows, 0);
    return m_multiKeys->exec(static_cast<int>(rows.size()),
        [&rows](int row, QSqlQuery &q, int i) {
            const KeyRow &r = rows[row];
            q.bindValue(i++, r.eventId);
            q.bindValue(i++, QString::fromUtf8(r.keysJson));
        },
        {});
}

Result<int> IngestStore::indexPendingKeys()
{
    const auto move = [this]() -> Result<int> {
        QSqlQuery q(m_db.handle());
        if (auto ran = runQuery(q, m_db.isSqlite() ? kSqliteIndexKeys : kPgIndexKeys, {}); !ran)
            return Failure(ran.error());
        const int indexed = q.numRowsAffected();
        q.finish();
        if (m_db.isSqlite()) {
            if (auto cleared = runQuery(q, kSqliteClearPending, {}); !cleared)
                return Failure(cleared.error());
        }
        return indexed;
    };
    if (!m_db.isSqlite())
        return withTransaction(m_db, move);
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
