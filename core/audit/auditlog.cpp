// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "auditlog.h"

#include <QSqlQuery>

namespace redrive::audit {
namespace {
// A null QString binds as SQL NULL; the audit columns are NOT NULL and hash "" for absent text.
QString nonNull(const QString &s)
{
    return s.isNull() ? QStringLiteral("") : s;
}

bool fail(QString *error, const QString &text)
{
    if (error)
        *error = text;
    return false;
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

std::optional<AuditHead> auditHead(Db &db, QString *error)
{
    QSqlQuery q(db.handle());
    if (!q.exec(QStringLiteral("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1"))) {
        fail(error, sqlErrorText(q));
        return std::nullopt;
    }
    AuditHead head;
    if (q.next()) {
        head.seq = q.value(0).toLongLong();
        head.hash = q.value(1).toString();
    }
    return head;
}

std::optional<AuditEntry> appendAuditEntry(Db &db, const AuditRecord &record, qint64 atMs, QString *error)
{
    if (!db.isSqlite()) {
        QSqlQuery lock(db.handle());
        lock.prepare(QStringLiteral("SELECT pg_advisory_xact_lock(?)"));
        lock.addBindValue(kAuditAppendLockKey);
        if (!lock.exec()) {
            fail(error, sqlErrorText(lock));
            return std::nullopt;
        }
    }
    const auto head = auditHead(db, error);
    if (!head)
        return std::nullopt;

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
    if (!q.exec()) {
        fail(error, QStringLiteral("audit append failed: ") + sqlErrorText(q));
        return std::nullopt;
    }
    return e;
}

bool readAuditEntries(Db &db, const AuditQuery &query, QList<AuditEntry> *out, QString *error)
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
        return fail(error, sqlErrorText(q));
    for (const QVariant &b : binds)
        q.addBindValue(b);
    if (!q.exec())
        return fail(error, sqlErrorText(q));
    while (q.next())
        out->append(auditEntryFromQuery(q));
    return true;
}

} // namespace redrive::audit
