// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/auditlog.h"
#include "storage/database.h"

#include <QJsonObject>

// Real, correctly chained audit entries for the console's audit tests, and the tampering an
// attacker with write access to the database file would do.
namespace redrive::test {

struct AuditSeed {
    QString actor;
    QString action;
    QString target;
    QString reason;
    qint64 atMs = 0;
    QString role = QStringLiteral("operator");
};

// Appends through core's appender (the receiver's own code path), one transaction each.
inline std::optional<audit::AuditEntry> appendAudit(Db &db, const AuditSeed &s, QString *error)
{
    const audit::AuditRecord r { s.actor, s.role, s.action, s.target, s.reason,
        QJsonObject { { QStringLiteral("reason_length"), s.reason.size() } } };
    auto e = withTransaction(db, [&] { return audit::appendAuditEntry(db, r, s.atMs); });
    if (!e)
        *error = e.error();
    return std::move(e).toOptional();
}

// Removes the append-only triggers, as someone editing the database file would.
inline bool dropAuditTriggers(Db &db, QString *error)
{
    const QString on = db.isSqlite() ? QString() : QStringLiteral(" ON audit_log");
    return succeeded(db.exec(QStringLiteral("DROP TRIGGER audit_log_no_update") + on), error)
        && succeeded(db.exec(QStringLiteral("DROP TRIGGER audit_log_no_delete") + on), error);
}

} // namespace redrive::test
