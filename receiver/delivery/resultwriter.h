// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "deliverystore.h"

#include <QList>
#include <QSet>

#include <memory>

// Writes a batch of attempt results inside the caller's open transaction: the fenced delivery
// updates, the attempt rows, the replay bookkeeping and the events' statuses.
//
// The cost per batch is what matters on the engine thread. PostgreSQL gets one statement
// whatever the batch size — each column travels as one array parameter and is unnested by the
// server — so a batch costs one round trip. SQLite, where a statement
// is a function call, runs statements prepared once on the native handle, one row at a time:
// QtSql's per-value binding (and QSQLITE's placeholder-name lookup, quadratic in the number of
// parameters) cost more than the SQL itself.
namespace redrive::delivery {

class ResultWriter final {
public:
    explicit ResultWriter(Db &db);
    ~ResultWriter();
    ResultWriter(const ResultWriter &) = delete;
    ResultWriter &operator=(const ResultWriter &) = delete;

    using Items = QList<std::pair<Claim, AttemptRecord>>;
    // Recorded (the claim still held its lease token) or LeaseLost per item. Fails on a database
    // error; the caller rolls back. Each delivery may appear once.
    Result<QList<RecordResult>> write(const Items &items);
    // refreshEventStatus() for many events (each once).
    Result<> refreshEventStatuses(const QList<qint64> &eventIds);

private:
    // The fenced updates, attempt rows and event statuses; the deliveries whose claim still held
    // its lease token.
    Result<QSet<qint64>> recordSqlite(const Items &items);
    Result<QSet<qint64>> recordPostgres(const Items &items);
    Result<> replayBookkeeping(const Items &items, const QList<int> &rows);

    Db &m_db;
    struct Statements;
    std::unique_ptr<Statements> m_s;
};

} // namespace redrive::delivery
