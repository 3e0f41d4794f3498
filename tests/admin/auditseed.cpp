// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "auditseed.h"

#include "audit/auditentry.h"
#include "audit/auditlog.h"

#include <QJsonObject>
#include <QSqlQuery>
#include <QStringList>

namespace redrive::test {

bool seedAuditChain(Db &db, int count, QString *error, qint64 startAtMs)
{
    const auto head = audit::auditHead(db);
    if (!head) {
        *error = head.error();
        return false;
    }
    QString prev = head->hash;
    qint64 seq = head->seq;
    constexpr int kPerInsert = 400;
    Transaction tx(db);
    if (!succeeded(tx.begin(), error))
        return false;
    static const char *const actions[]
        = { "replay_requested", "replay_approved", "note_added", "destination_paused" };
    for (int done = 0; done < count;) {
        const int n = qMin(kPerInsert, count - done);
        QSqlQuery q(db.handle());
        q.prepare(QStringLiteral("INSERT INTO audit_log (%1) VALUES %2")
                      .arg(QLatin1String(audit::kAuditColumns),
                          QStringList(n, QStringLiteral("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")).join(u',')));
        for (int i = 0; i < n; ++i) {
            audit::AuditEntry e;
            e.seq = ++seq;
            e.atMs = startAtMs + seq * 1000;
            e.actor = QStringLiteral("user%1").arg(seq % 7);
            e.role = QStringLiteral("operator");
            e.action = QLatin1String(actions[seq % 4]);
            e.target = QStringLiteral("replay:%1").arg(seq / 3);
            e.reason = QStringLiteral("reason %1").arg(seq);
            e.details = audit::canonicalJson(QJsonObject { { QStringLiteral("n"), seq } });
            e.prevHash = prev;
            e.hash = audit::computeEntryHash(e);
            prev = e.hash;
            for (const QVariant &v : { QVariant(e.seq), QVariant(e.atMs), QVariant(e.actor), QVariant(e.role),
                     QVariant(e.action), QVariant(e.target), QVariant(e.reason), QVariant(e.details),
                     QVariant(e.prevHash), QVariant(e.hash) })
                q.addBindValue(v);
        }
        if (!q.exec()) {
            *error = sqlErrorText(q);
            return false;
        }
        done += n;
    }
    return succeeded(tx.commit(), error);
}

bool dropAuditTriggers(Db &db, QString *error)
{
    if (db.isSqlite()) {
        return succeeded(db.exec(QStringLiteral("DROP TRIGGER audit_log_no_update")), error)
            && succeeded(db.exec(QStringLiteral("DROP TRIGGER audit_log_no_delete")), error);
    }
    return succeeded(db.exec(QStringLiteral("DROP TRIGGER audit_log_no_update ON audit_log")), error)
        && succeeded(db.exec(QStringLiteral("DROP TRIGGER audit_log_no_delete ON audit_log")), error);
}

bool rehashAuditEntry(Db &db, qint64 seq, QString *error)
{
    QSqlQuery q(db.handle());
    q.prepare(
        QStringLiteral("SELECT %1 FROM audit_log WHERE seq = ?").arg(QLatin1String(audit::kAuditColumns)));
    q.addBindValue(seq);
    if (!q.exec() || !q.next()) {
        *error = QStringLiteral("no entry %1").arg(seq);
        return false;
    }
    const audit::AuditEntry e = audit::auditEntryFromQuery(q);
    q.finish();
    QSqlQuery u(db.handle());
    u.prepare(QStringLiteral("UPDATE audit_log SET hash = ? WHERE seq = ?"));
    u.addBindValue(audit::computeEntryHash(e));
    u.addBindValue(seq);
    if (!u.exec()) {
        *error = sqlErrorText(u);
        return false;
    }
    return true;
}

} // namespace redrive::test
