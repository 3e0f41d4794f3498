// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// The business keys of new events, written in the event's transaction.
#include "ingeststore.h"

namespace redrive {
namespace {

const QString kKeyColumns = QStringLiteral("INSERT INTO event_keys (event_id, name, value) VALUES");

} // namespace

bool IngestStore::prepareKeys(QString *error)
{
    if (m_db.isSqlite())
        return m_fastInsertKey.prepare(m_db, kKeyColumns + QStringLiteral(" (?, ?, ?)"), error);
    m_multiKeys
        = std::make_unique<MultiRowInsert>(m_db, kKeyColumns, QStringLiteral("(?, ?, ?)"), 3, QString());
    return true;
}

bool IngestStore::insertKeys(const QList<KeyRow> &rows, QString *error)
{
    if (rows.isEmpty())
        return true;
    if (m_fastInsertKey.isValid()) {
        SqliteStatement &s = m_fastInsertKey;
        for (const KeyRow &r : rows) {
            s.bindInt64(1, r.eventId);
            s.bindText(2, r.name);
            s.bindText(3, r.value);
            const bool ok = s.step() == SqliteStatement::Step::Done;
            if (!ok && error)
                *error = s.errorText();
            s.reset();
            if (!ok)
                return false;
        }
        return true;
    }
    if (m_pgInsertDeliveries.isValid())
        return pgInsertDeliveries({}, rows, 0, error);
    return m_multiKeys->exec(
        static_cast<int>(rows.size()),
        [&rows](int row, QSqlQuery &q, int i) {
            const KeyRow &r = rows[row];
            q.bindValue(i++, r.eventId);
            q.bindValue(i++, r.name);
            q.bindValue(i++, r.value);
        },
        {}, error);
}

bool IngestStore::insertDeliveriesAndKeys(
    const QList<DeliveryRow> &deliveries, const QList<KeyRow> &keys, qint64 nowMs, QString *error)
{
    if (m_pgInsertDeliveries.isValid())
        return pgInsertDeliveries(deliveries, keys, nowMs, error);
    return (deliveries.isEmpty() || insertDeliveries(deliveries, nowMs, error)) && insertKeys(keys, error);
}

} // namespace redrive
