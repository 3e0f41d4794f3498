// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "eventvalidation.h"

#include <QSqlQuery>

namespace redrive {

Result<> storeValidationErrors(Db &db, qint64 eventId, const QByteArray &errorsJson, qint64 checkedAtMs)
{
    QSqlQuery q(db.handle());
    return runQuery(q,
        QStringLiteral("INSERT INTO event_validation (event_id, errors, checked_at) VALUES (?, ?, ?) "
                       "ON CONFLICT (event_id) DO UPDATE SET errors = excluded.errors, "
                       "checked_at = excluded.checked_at"),
        { eventId, QString::fromUtf8(errorsJson), checkedAtMs });
}

Result<> clearValidationErrors(Db &db, qint64 eventId)
{
    QSqlQuery q(db.handle());
    return runQuery(q, QStringLiteral("DELETE FROM event_validation WHERE event_id = ?"), { eventId });
}

Result<std::optional<QByteArray>> fetchValidationErrors(Db &db, qint64 eventId)
{
    QSqlQuery q(db.handle());
    if (auto ran
        = runQuery(q, QStringLiteral("SELECT errors FROM event_validation WHERE event_id = ?"), { eventId });
        !ran)
        return Failure(ran.error());
    if (!q.next())
        return std::optional<QByteArray>();
    return std::optional<QByteArray>(q.value(0).toString().toUtf8());
}

} // namespace redrive
