// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// The business keys of new events, written in the event's transaction.
#include "ingeststore.h"

namespace redrive {
namespace {

const QString kKeyColumns = QStringLiteral("INSERT INTO event_keys (event_id, name, value) VALUES");

} // namespace

Result<> IngestStore::prepareKeys()
{
    if (m_db.isSqlite())
        return m_fastInsertKey.prepare(m_db, kKeyColumns + QStringLiteral(" (?, ?, ?)"));
    m_multiKeys
        = std::make_unique<MultiRowInsert>(m_db, kKeyColumns, QStringLiteral("(?, ?, ?)"), 3, QString());
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
            s.bindText(2, r.name);
            s.bindText(3, r.value);
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
            q.bindValue(i++, r.name);
            q.bindValue(i++, r.value);
        },
        {});
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
