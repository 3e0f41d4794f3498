// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "auditlog.h"

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
    e.seq = q.value(0).toLongLong();
    e.atMs = q.value(1).toLongLong();
    e.actor = q.value(2).toString();
    e.role = q.value(3).toString();
    e.action = q.value(4).toString();
    e.target = q.value(5).toString();
    e.reason = q.value(6).toString();
    e.details = q.value(7).toString();
    e.prevHash = q.value(8).toString();
    e.hash = q.value(9).toString();
    return e;
}

Result<AuditHead> auditHead(Db &db)
{
    QSqlQuery q(db.handle());
    if (!q.exec(QStringLiteral("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1")))
        return Failure(sqlErrorText(q));
    AuditHead head;
    if (q.next()) {
        head.seq = q.value(0).toLongLong();
        head.hash = q.value(1).toString();
    }
    return head;
}

Result<AuditEntry> appendAuditEntry(Db &db, const AuditRecord &record, qint64 atMs)
{
    if (!db.isSqlite()) {
        QSqlQuery lock(db.handle());
        lock.prepare(QStringLiteral("SELECT pg_advisory_xact_lock(?)"));
        lock.addBindValue(kAuditAppendLockKey);
        if (!lock.exec())
            return Failure(sqlErrorText(lock));
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
    q.prepare(QStringLiteral("INSERT INTO audit_log (%1) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                  .arg(QLatin1String(kAuditColumns)));
    q.addBindValue(e.seq);
    q.addBindValue(e.atMs);
    q.addBindValue(e.actor);
    q.addBindValue(e.role);
    q.addBindValue(e.action);
    q.addBindValue(e.target);
    q.addBindValue(e.reason);
    q.addBindValue(e.details);
    q.addBindValue(e.prevHash);
    q.addBindValue(e.hash);
    if (!q.exec())
        return Failure(QStringLiteral("audit append failed: ") + sqlErrorText(q));
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
    QSqlQuery q(db.handle());
    q.setForwardOnly(true);
    if (!q.prepare(sql))
        return Failure(sqlErrorText(q));
    for (const QVariant &b : binds)
        q.addBindValue(b);
    if (!q.exec())
        return Failure(sqlErrorText(q));
    QList<AuditEntry> out;
    while (q.next())
        out.append(auditEntryFromQuery(q));
    return out;
}

} // namespace redrive::audit
