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
    // `results` gets Recorded (the claim still held its lease token) or LeaseLost per item.
    // False on a database error; the caller rolls back. Each delivery may appear once.
    bool write(const Items &items, QList<RecordResult> *results, QString *error);
    // refreshEventStatus() for many events (each once).
    bool refreshEventStatuses(const QList<qint64> &eventIds, QString *error);

private:
    // The fenced updates, attempt rows and event statuses; `recorded` gets the deliveries whose
    // claim still held its lease token.
    bool recordSqlite(const Items &items, QSet<qint64> *recorded, QString *error);
    bool recordPostgres(const Items &items, QSet<qint64> *recorded, QString *error);
    bool replayBookkeeping(const Items &items, const QList<int> &rows, QString *error);

    Db &m_db;
    struct Statements;
    std::unique_ptr<Statements> m_s;
};

} // namespace redrive::delivery
