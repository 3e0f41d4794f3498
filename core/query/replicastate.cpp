// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replicastate.h"

#include <QRegularExpression>
#include <QSqlQuery>

namespace redrive {

std::optional<quint64> parseWalPosition(const QString &lsn)
{
    static const QRegularExpression pattern(QStringLiteral("^([0-9A-Fa-f]{1,8})/([0-9A-Fa-f]{1,8})$"));
    const auto m = pattern.match(lsn);
    if (!m.hasMatch())
        return std::nullopt;
    return (m.captured(1).toULongLong(nullptr, 16) << 32) | m.captured(2).toULongLong(nullptr, 16);
}

Result<ReplicaState> fetchReplicaState(Db &db)
{
    ReplicaState s;
    if (db.isSqlite())
        return s;
    QSqlQuery q(db.handle());
    q.setForwardOnly(true);
    // pg_is_wal_replay_paused() raises an error on a primary: only asked in recovery. The WAL
    // receiver's row is visible (pid only) to roles without pg_read_all_stats.
    const bool ok = q.exec(
        QStringLiteral("SELECT pg_is_in_recovery(),"
                       " EXISTS (SELECT 1 FROM pg_stat_wal_receiver),"
                       " CASE WHEN pg_is_in_recovery() THEN pg_is_wal_replay_paused() ELSE false END,"
                       " COALESCE(pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn(), false),"
                       " (EXTRACT(EPOCH FROM (now() - pg_last_xact_replay_timestamp())) * 1000)::bigint,"
                       " COALESCE(pg_last_wal_replay_lsn()::text, '')"));
    if (!ok || !q.next())
        return Failure(sqlErrorText(q));
    s.standby = q.value(0).toBool();
    if (!s.standby)
        return s;
    s.streaming = q.value(1).toBool();
    s.replayPaused = q.value(2).toBool();
    s.caughtUp = s.streaming && !s.replayPaused && q.value(3).toBool();
    if (!q.value(4).isNull())
        s.lagMs = std::max<qint64>(0, q.value(4).toLongLong());
    s.replayLsn = q.value(5).toString();
    return s;
}

Result<bool> replicaHasReplayed(Db &db, const QString &lsn)
{
    if (!parseWalPosition(lsn))
        return Failure(QStringLiteral("\"%1\" is not a WAL position").arg(lsn));
    if (db.isSqlite())
        return true;
    QSqlQuery q(db.handle());
    q.setForwardOnly(true);
    if (!q.prepare(QStringLiteral(
            "SELECT NOT pg_is_in_recovery() OR COALESCE(pg_last_wal_replay_lsn() >= CAST(? AS pg_lsn), false)")))
        return Failure(sqlErrorText(q));
    q.addBindValue(lsn);
    if (!q.exec() || !q.next())
        return Failure(sqlErrorText(q));
    return q.value(0).toBool();
}

} // namespace redrive
