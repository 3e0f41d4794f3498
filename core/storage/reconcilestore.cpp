// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "reconcilestore.h"

#include "sqlrow.h"

#include <QSqlQuery>
#include <QVariant>

namespace redrive::reconcile {
namespace {

const QLatin1String kColumns(
    "id, source, provider, started_at, finished_at, status, checked, missing, recovered, "
    "error, requested_by, owner");

// Ids are bound in chunks of this many: SQLite's default limit is 32766 parameters, and a
// statement per chunk keeps each plan small.
constexpr qsizetype kChunk = 500;

Run readRow(const QSqlQuery &q)
{
    Run r;
    readColumns(q, r.id, r.source, r.provider, r.startedAtMs, r.finishedAtMs, r.status, r.checked, r.missing,
        r.recovered, r.error, r.requestedBy, r.owner);
    return r;
}

// Text bound as empty, never NULL, into NOT NULL columns.
QString text(const QString &s)
{
    return s.isNull() ? QString::fromLatin1("", 0) : s;
}

} // namespace

Result<Claim> claimRun(Db &db, const ClaimRequest &request)
{
    QSqlQuery q(db.handle());
    if (!db.isSqlite()) {
        if (auto locked = runQuery(q, QStringLiteral("SELECT pg_advisory_xact_lock(?)"), { kClaimLockKey });
            !locked)
            return Failure(locked.error());
    }
    if (auto expired = runQuery(q,
            QStringLiteral("UPDATE reconcile_runs SET status = %1, finished_at = ?, error = ? "
                           "WHERE source = ? AND status = %2 AND lease_expires_at < ?")
                .arg(sqlName(ReconcileRunStatus::Failed), sqlName(ReconcileRunStatus::Running)),
            { request.nowMs,
                QStringLiteral("the receiver running it stopped before it finished (its lease expired)"),
                request.source, request.nowMs });
        !expired)
        return Failure(expired.error());

    Claim claim;
    const auto running = selectRows(db,
        QStringLiteral("SELECT %1 FROM reconcile_runs WHERE source = ? AND status = %2")
            .arg(kColumns, sqlName(ReconcileRunStatus::Running)),
        { request.source }, readRow);
    if (!running)
        return Failure(running.error());
    if (!running->isEmpty()) {
        claim.running = running->first();
        return claim;
    }
    if (request.dueUnlessStartedSinceMs) {
        if (auto ran = runQuery(q,
                QStringLiteral("SELECT 1 FROM reconcile_runs WHERE source = ? AND started_at >= ? LIMIT 1"),
                { request.source, *request.dueUnlessStartedSinceMs });
            !ran)
            return Failure(ran.error());
        if (q.next()) {
            claim.notDue = true;
            return claim;
        }
    }
    if (auto inserted = runQuery(q,
            QStringLiteral(
                "INSERT INTO reconcile_runs (source, provider, started_at, status, requested_by, owner, "
                "lease_expires_at) VALUES (?, ?, ?, %1, ?, ?, ?) RETURNING id")
                .arg(sqlName(ReconcileRunStatus::Running)),
            { request.source, request.provider, request.nowMs, text(request.requestedBy), text(request.owner),
                request.nowMs + request.leaseMs });
        !inserted)
        return Failure(inserted.error());
    if (!q.next())
        return Failure(QStringLiteral("the new reconcile run returned no id"));
    Run run;
    run.id = q.value(0).toLongLong();
    run.source = request.source;
    run.provider = request.provider;
    run.startedAtMs = request.nowMs;
    run.status = kStatusRunning;
    run.requestedBy = request.requestedBy;
    run.owner = request.owner;
    claim.run = run;
    return claim;
}

Result<bool> renewLease(Db &db, qint64 runId, const QString &owner, qint64 leaseUntilMs)
{
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q,
            QStringLiteral("UPDATE reconcile_runs SET lease_expires_at = ? WHERE id = ? AND owner = ? AND "
                           "status = %1")
                .arg(sqlName(ReconcileRunStatus::Running)),
            { leaseUntilMs, runId, owner });
        !ran)
        return Failure(ran.error());
    return q.numRowsAffected() == 1;
}

Result<bool> finishRun(Db &db, const Run &run, qint64 nowMs)
{
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q,
            QStringLiteral("UPDATE reconcile_runs SET status = ?, finished_at = ?, checked = ?, missing = ?, "
                           "recovered = ?, error = ?, lease_expires_at = NULL WHERE id = ? AND owner = ? AND "
                           "status = %1")
                .arg(sqlName(ReconcileRunStatus::Running)),
            { run.status.name(), nowMs, run.checked, run.missing, run.recovered, text(run.error), run.id,
                run.owner });
        !ran)
        return Failure(ran.error());
    return q.numRowsAffected() == 1;
}

Result<std::optional<Run>> fetchRun(Db &db, qint64 id)
{
    return selectRow(
        db, QStringLiteral("SELECT %1 FROM reconcile_runs WHERE id = ?").arg(kColumns), { id }, readRow);
}

Result<QList<Run>> listRuns(Db &db, const QString &source, std::optional<qint64> beforeId, int limit)
{
    QString sql = QStringLiteral("SELECT %1 FROM reconcile_runs WHERE 1=1").arg(kColumns);
    QVariantList binds;
    if (!source.isEmpty()) {
        sql += QLatin1String(" AND source = ?");
        binds.append(source);
    }
    if (beforeId) {
        sql += QLatin1String(" AND id < ?");
        binds.append(*beforeId);
    }
    sql += QLatin1String(" ORDER BY id DESC LIMIT ?");
    binds.append(limit);
    return selectRows(db, sql, binds, readRow);
}

Result<QList<Run>> lastRunPerSource(Db &db)
{
    return selectRows(db,
        QStringLiteral(
            "SELECT %1 FROM reconcile_runs WHERE id IN (SELECT MAX(id) FROM reconcile_runs GROUP BY "
            "source) ORDER BY source")
            .arg(kColumns),
        {}, readRow);
}

Result<QSet<QString>> storedIds(Db &db, const QString &source, const QStringList &ids)
{
    QSet<QString> out;
    QSqlQuery q(db.handle());
    for (qsizetype at = 0; at < ids.size(); at += kChunk) {
        const QStringList chunk = ids.mid(at, kChunk);
        QVariantList binds { source };
        for (const QString &id : chunk)
            binds.append(id);
        if (auto ran = runQuery(q,
                QStringLiteral(
                    "SELECT provider_event_id FROM events WHERE source = ? AND provider_event_id IN (%1)")
                    .arg(sqlPlaceholders(chunk.size())),
                binds);
            !ran)
            return Failure(ran.error());
        while (q.next())
            out.insert(q.value(0).toString());
    }
    return out;
}

Result<QHash<QString, int>> redeliveryAttempts(Db &db, const QString &source, const QStringList &guids)
{
    QHash<QString, int> out;
    QSqlQuery q(db.handle());
    for (qsizetype at = 0; at < guids.size(); at += kChunk) {
        const QStringList chunk = guids.mid(at, kChunk);
        QVariantList binds { source };
        for (const QString &guid : chunk)
            binds.append(guid);
        if (auto ran = runQuery(q,
                QStringLiteral(
                    "SELECT guid, attempts FROM reconcile_redeliveries WHERE source = ? AND guid IN (%1)")
                    .arg(sqlPlaceholders(chunk.size())),
                binds);
            !ran)
            return Failure(ran.error());
        while (q.next())
            out.insert(q.value(0).toString(), q.value(1).toInt());
    }
    return out;
}

Result<> countRedelivery(Db &db, const QString &source, const QString &guid, qint64 nowMs)
{
    QSqlQuery q(db.handle());
    return runQuery(q,
        QStringLiteral(
            "INSERT INTO reconcile_redeliveries (source, guid, attempts, last_at) VALUES (?, ?, 1, ?) "
            "ON CONFLICT (source, guid) DO UPDATE SET attempts = reconcile_redeliveries.attempts + 1, "
            "last_at = excluded.last_at"),
        { source, guid, nowMs });
}

} // namespace redrive::reconcile
