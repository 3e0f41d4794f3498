// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QString>

#include <optional>

// Whether the database a reader is connected to is a PostgreSQL hot standby, and how far behind
// its primary it is. SQLite and a PostgreSQL primary are never behind (standby = false).
namespace redrive {

struct ReplicaState {
    bool standby = false; // pg_is_in_recovery()
    bool streaming = false; // a WAL receiver is connected to the primary
    bool replayPaused = false; // pg_wal_replay_pause() was called on the standby
    // Everything received was replayed while streaming. Only then is "no lag" a fact: the time
    // since the last replayed transaction grows on an idle primary too.
    bool caughtUp = false;
    // now() − pg_last_xact_replay_timestamp() on the standby; nullopt when nothing was replayed
    // since it started. Meaningful only while not caught up.
    std::optional<qint64> lagMs;
    QString replayLsn; // pg_last_wal_replay_lsn(), e.g. "0/3000148"
};

// One round trip; fails when the read fails.
Result<ReplicaState> fetchReplicaState(Db &db);

// True when this database already shows every change the primary had committed at WAL
// position `lsn` (as the admin API reports it in Redrive-Commit-LSN): always on a primary and on
// SQLite, on a standby once pg_last_wal_replay_lsn() >= lsn. Fails when the read fails or
// `lsn` is not a WAL position.
Result<bool> replicaHasReplayed(Db &db, const QString &lsn);

// "16/B374D848" (two hexadecimal halves of at most eight digits) as a comparable number.
std::optional<quint64> parseWalPosition(const QString &lsn);

} // namespace redrive
