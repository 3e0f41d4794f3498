// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/auditentry.h"
#include "storage/database.h"

#include <QList>

#include <optional>

namespace redrive::audit {

// The newest entry's seq and hash; {0, genesis} for an empty log.
struct AuditHead {
    qint64 seq = 0;
    QString hash = QLatin1String(kGenesisHash);
};

// The PostgreSQL advisory lock key every Redrive process takes to append (appendAuditEntry).
inline constexpr qint64 kAuditAppendLockKey = 4'242'002;

// Appends one entry inside the caller's open write transaction, so the entry commits or rolls
// back together with the action it records. On PostgreSQL a transaction-scoped advisory lock
// serialises appenders across processes (the chain cannot fork); on SQLite the caller's
// BEGIN IMMEDIATE already does. Append the audit entry as the LAST write of a transaction: the
// lock is then held only for the insert, and no appender waits on a row lock while holding it.
Result<AuditEntry> appendAuditEntry(Db &db, const AuditRecord &record, qint64 atMs);

Result<AuditHead> auditHead(Db &db);

// Which entries to read. Every filter that is set must match; an empty one matches all.
struct AuditQuery {
    qint64 afterSeq = 0; // entries with seq > afterSeq, ascending
    int limit = 100;
    QString target; // exact match when set
    QString actor; // exact
    QString action; // exact
    std::optional<qint64> sinceMs; // at >= since
    std::optional<qint64> untilMs; // at < until (half-open, so adjacent ranges never overlap)
    QString text; // a substring of the reason, case-insensitive for ASCII on both engines

    [[nodiscard]] bool isFiltered() const
    {
        return !target.isEmpty() || !actor.isEmpty() || !action.isEmpty() || sinceMs || untilMs
            || !text.isEmpty();
    }
};
Result<QList<AuditEntry>> readAuditEntries(Db &db, const AuditQuery &query);

// Row mapping shared by the readers and the verifier (column order of kAuditColumns).
inline constexpr char kAuditColumns[]
    = "seq, at, actor, role, action, target, reason, details, prev_hash, hash";
AuditEntry auditEntryFromQuery(const QSqlQuery &query);

} // namespace redrive::audit
