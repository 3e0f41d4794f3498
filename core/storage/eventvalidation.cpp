// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "eventvalidation.h"

#include <QSqlQuery>

namespace redrive {

Result<> storeValidationErrors(Db &db, qint64 eventId, const QByteArray &errorsJson, qint64 checkedAtMs)
{
    QSqlQuery q(db.handle());
    q.prepare(QStringLiteral("INSERT INTO event_validation (event_id, errors, checked_at) VALUES (?, ?, ?) "
                             "ON CONFLICT (event_id) DO UPDATE SET errors = excluded.errors, "
                             "checked_at = excluded.checked_at"));
    q.addBindValue(eventId);
    q.addBindValue(QString::fromUtf8(errorsJson));
    q.addBindValue(checkedAtMs);
    if (!q.exec())
        return Failure(sqlErrorText(q));
    return ok();
}

Result<> clearValidationErrors(Db &db, qint64 eventId)
{
    QSqlQuery q(db.handle());
    q.prepare(QStringLiteral("DELETE FROM event_validation WHERE event_id = ?"));
    q.addBindValue(eventId);
    if (!q.exec())
        return Failure(sqlErrorText(q));
    return ok();
}

Result<std::optional<QByteArray>> fetchValidationErrors(Db &db, qint64 eventId)
{
    QSqlQuery q(db.handle());
    q.prepare(QStringLiteral("SELECT errors FROM event_validation WHERE event_id = ?"));
    q.addBindValue(eventId);
    if (!q.exec())
        return Failure(sqlErrorText(q));
    if (!q.next())
        return std::optional<QByteArray>();
    return std::optional<QByteArray>(q.value(0).toString().toUtf8());
}

} // namespace redrive
