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

Result<> AuditAppendLock::acquire()
{
    if (m_held || m_db.isSqlite())
        return ok();
    QSqlQuery q(m_db.handle());
    q.prepare(QStringLiteral("SELECT pg_advisory_lock(?)"));
    q.addBindValue(kAuditAppendLockKey);
    if (!q.exec())
        return Failure(sqlErrorText(q));
    m_held = true;
    return ok();
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
