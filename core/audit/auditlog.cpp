// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "auditlog.h"

#include "storage/sqlrow.h"
#include "storage/storedtext.h"

#include <QSqlQuery>

namespace redrive::audit {
namespace {
// A null QString binds as SQL NULL; the audit columns are NOT NULL and hash "" for absent text.
// A target names what a request's path named, and a refused request's path is anyone's text: it
// is made safe before it is hashed, so the chain covers exactly what is stored (a NUL would fail
// the insert on PostgreSQL and leave the refusal unaudited).
QString nonNull(const QString &s)
{
    return s.isNull() ? QStringLiteral("") : storedtext::safeText(s);
}
} // namespace

AuditEntry auditEntryFromQuery(const QSqlQuery &q)
{
    AuditEntry e;
    readColumns(
        q, e.seq, e.atMs, e.actor, e.role, e.action, e.target, e.reason, e.details, e.prevHash, e.hash);
    return e;
}

Result<AuditHead> auditHead(Db &db)
{
    QSqlQuery q(db.handle());
    if (!q.exec(QStringLiteral("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1")))
        return Failure(sqlErrorText(q));
    AuditHead head;
    if (q.next())
        readColumns(q, head.seq, head.hash);
    return head;
}

Result<AuditEntry> appendAuditEntry(Db &db, const AuditRecord &record, qint64 atMs)
{
    if (!db.isSqlite()) {
        QSqlQuery lock(db.handle());
        if (auto locked
            = runQuery(lock, QStringLiteral("SELECT pg_advisory_xact_lock(?)"), { kAuditAppendLockKey });
            !locked)
            return Failure(locked.error());
    }
    const auto head = auditHead(db);
    if (!head)
        return Failure(head.error());

    AuditEntry e;
    e.seq = head->seq + 1;
    e.atMs = atMs;
    e.actor = nonNull(record.actor);
    e.role = nonNull(record.role);
    e.action = nonNull(record.action);
    e.target = nonNull(record.target);
    e.reason = nonNull(record.reason);
    e.details = canonicalJson(record.details);
    e.prevHash = head->hash;
    e.hash = computeEntryHash(e);

    QSqlQuery q(db.handle());
    if (auto inserted = runQuery(q,
            QStringLiteral("INSERT INTO audit_log (%1) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                .arg(QLatin1String(kAuditColumns)),
            { e.seq, e.atMs, e.actor, e.role, e.action, e.target, e.reason, e.details, e.prevHash, e.hash });
        !inserted)
        return Failure(QStringLiteral("audit append failed: ") + inserted.error());
    return e;
}

Result<QList<AuditEntry>> readAuditEntries(Db &db, const AuditQuery &query)
{
    QString sql = QStringLiteral("SELECT %1 FROM audit_log WHERE seq > ?").arg(QLatin1String(kAuditColumns));
    QVariantList binds { query.afterSeq };
    for (const auto &[column, value] : { std::pair { "target", &query.target },
             std::pair { "actor", &query.actor }, std::pair { "action", &query.action } }) {
        if (value->isEmpty())
            continue;
        sql += QStringLiteral(" AND %1 = ?").arg(QLatin1String(column));
        binds.append(*value);
    }
    if (query.sinceMs) {
        sql += QLatin1String(" AND at >= ?");
        binds.append(*query.sinceMs);
    }
    if (query.untilMs) {
        sql += QLatin1String(" AND at < ?");
        binds.append(*query.untilMs);
    }
    if (!query.text.isEmpty()) {
        // LIKE with the wildcards in the user's text escaped, so "50%" means the characters.
        // SQLite's LIKE ignores ASCII case and PostgreSQL's does not: LOWER() on both sides
        // gives one answer on both engines.
        QString pattern = query.text;
        pattern.replace(u'\\', QLatin1String("\\\\"))
            .replace(u'%', QLatin1String("\\%"))
            .replace(u'_', QLatin1String("\\_"));
        sql += QLatin1String(" AND LOWER(reason) LIKE LOWER(?) ESCAPE '\\'");
        binds.append(QString(u'%' + pattern + u'%'));
    }
    sql += QStringLiteral(" ORDER BY seq LIMIT %1").arg(qMax(1, query.limit));
    return selectRows(db, sql, binds, auditEntryFromQuery);
}

} // namespace redrive::audit
