// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "reconcilestore.h"

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
    r.id = q.value(0).toLongLong();
    r.source = q.value(1).toString();
    r.provider = q.value(2).toString();
    r.startedAtMs = q.value(3).toLongLong();
    if (!q.value(4).isNull())
        r.finishedAtMs = q.value(4).toLongLong();
    r.status = Stored<ReconcileRunStatus>::fromName(q.value(5).toString());
    r.checked = q.value(6).toLongLong();
    r.missing = q.value(7).toLongLong();
    r.recovered = q.value(8).toLongLong();
    r.error = q.value(9).toString();
    r.requestedBy = q.value(10).toString();
    r.owner = q.value(11).toString();
    return r;
}

Result<QList<Run>> readRuns(Db &db, const QString &sql, const QVariantList &binds)
{
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q, sql, binds); !ran)
        return Failure(ran.error());
    QList<Run> out;
    while (q.next())
        out.append(readRow(q));
    return out;
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
    const auto running = readRuns(db,
        QStringLiteral("SELECT %1 FROM reconcile_runs WHERE source = ? AND status = %2")
            .arg(kColumns, sqlName(ReconcileRunStatus::Running)),
        { request.source });
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
    const auto rows
        = readRuns(db, QStringLiteral("SELECT %1 FROM reconcile_runs WHERE id = ?").arg(kColumns), { id });
    if (!rows)
        return Failure(rows.error());
    if (rows->isEmpty())
        return std::optional<Run>();
    return std::optional<Run>(rows->first());
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
    return readRuns(db, sql, binds);
}

Result<QList<Run>> lastRunPerSource(Db &db)
{
    return readRuns(db,
        QStringLiteral(
            "SELECT %1 FROM reconcile_runs WHERE id IN (SELECT MAX(id) FROM reconcile_runs GROUP BY "
            "source) ORDER BY source")
            .arg(kColumns),
        {});
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
