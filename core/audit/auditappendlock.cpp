// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "auditappendlock.h"

#include "audit/auditlog.h"

#include <QSqlQuery>

namespace redrive::audit {

AuditAppendLock::AuditAppendLock(Db &db)
    : m_db(db)
{ }

AuditAppendLock::~AuditAppendLock()
{
    release();
}

bool AuditAppendLock::acquire(QString *error)
{
    if (m_held || m_db.isSqlite())
        return true;
    QSqlQuery q(m_db.handle());
    q.prepare(QStringLiteral("SELECT pg_advisory_lock(?)"));
    q.addBindValue(kAuditAppendLockKey);
    if (!q.exec()) {
        *error = sqlErrorText(q);
        return false;
    }
    m_held = true;
    return true;
}

void AuditAppendLock::release()
{
    if (!m_held)
        return;
    m_held = false;
    QSqlQuery q(m_db.handle());
    q.prepare(QStringLiteral("SELECT pg_advisory_unlock(?)"));
    q.addBindValue(kAuditAppendLockKey);
    // A connection that cannot even unlock is broken; the server drops its locks with it.
    if (!q.exec())
        qWarning("audit: releasing the append lock failed: %s", qPrintable(sqlErrorText(q)));
}

} // namespace redrive::audit
