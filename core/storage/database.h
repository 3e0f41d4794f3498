// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"
#include "util/result.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QVariant>

#include <memory>
#include <optional>
#include <type_traits>

namespace redrive {

enum class Dialect { Sqlite, Postgres };

// A parsed [storage] url: "sqlite:///abs/path.db" or
// "postgresql://user[:password]@host[:port]/database[?sslmode=...&connect_timeout=...]".
// The password may also come from PGPASSWORD or ~/.pgpass, which libpq reads itself.
struct StorageUrl {
    Dialect dialect = Dialect::Sqlite;
    QString sqlitePath;
    QString host;
    int port = 5432;
    QString database;
    QString user;
    QString password;
    QString connectOptions; // "sslmode=require;connect_timeout=5" in QPSQL's syntax

    static Result<StorageUrl> parse(const QString &url);
    // The url with any password replaced by "***", for logs and messages.
    [[nodiscard]] QString redacted() const;
};

enum class OpenMode { ReadWrite, ReadOnly };

struct OpenOptions {
    OpenMode mode = OpenMode::ReadWrite;
    SqliteSync sqliteSynchronous = SqliteSync::Full;
    int busyTimeoutMs = 10'000;
};

// One database connection, owned by one thread. QtSql connections are not thread-safe, so every
// thread that touches the database opens its own Db (qBittorrent's pattern), and the connection
// is removed from Qt's registry when the Db is destroyed.
class Db final {
public:
    ~Db();
    Db(const Db &) = delete;
    Db &operator=(const Db &) = delete;

    // `purpose` only makes the Qt connection name readable ("writer", "worker-2", ...).
    static Result<std::unique_ptr<Db>> open(
        const StorageUrl &url, const QString &purpose, const OpenOptions &options);

    [[nodiscard]] QSqlDatabase &handle() { return m_db; }
    [[nodiscard]] Dialect dialect() const { return m_dialect; }
    [[nodiscard]] bool isSqlite() const { return m_dialect == Dialect::Sqlite; }
    [[nodiscard]] const StorageUrl &url() const { return m_url; }

    // A prepared query on this connection.
    Result<QSqlQuery> prepare(const QString &sql);
    // Runs a statement without parameters.
    Result<> exec(const QString &sql);

    // Why this connection can no longer be used (PostgreSQL: the server closed it or is gone,
    // which QtSql never repairs by itself: a new Db must be opened); empty while it is usable.
    // Costs no round trip (it reads, without waiting, what the server may have sent while the
    // connection was idle, e.g. its shutdown notice). A SQLite file connection is never lost.
    [[nodiscard]] QString connectionLost();

    // What the engine reports about durability, read back after the pragmas were set:
    // e.g. "sqlite journal_mode=wal synchronous=FULL" or "postgresql synchronous_commit=on".
    [[nodiscard]] QString durabilityReport() const { return m_durability; }
    // False for SQLite synchronous=NORMAL and PostgreSQL synchronous_commit=off.
    [[nodiscard]] bool powerLossDurable() const { return m_powerLossDurable; }
    [[nodiscard]] int busyTimeoutMs() const { return m_busyTimeoutMs; }

private:
    Db() = default;
    QSqlDatabase m_db;
    QString m_name;
    Dialect m_dialect = Dialect::Sqlite;
    StorageUrl m_url;
    QString m_durability;
    bool m_powerLossDurable = false;
    int m_busyTimeoutMs = 10'000;
};

// RAII transaction. On SQLite a transaction that will write starts with BEGIN IMMEDIATE (Qt's
// own transaction() issues a deferred BEGIN, which fails with SQLITE_BUSY_SNAPSHOT when a
// read-then-write races another writer). Rolls back unless committed.
//
// SQLite write transactions of one process on one file also queue, first come first served, on
// an in-process gate before BEGIN IMMEDIATE. SQLite's busy handler polls the lock with growing
// sleeps, so a writer that commits back to back (the ingest group-commit writer) would win
// nearly every time and starve the others (the delivery engine). A writer that waited longer
// than the connection's busy timeout goes ahead without the gate, as before.
class Transaction final {
public:
    enum class Kind { Write, Read };
    explicit Transaction(Db &db, Kind kind = Kind::Write);
    ~Transaction();
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;

    Result<> begin();
    Result<> commit();
    void rollback();
    [[nodiscard]] bool active() const { return m_active; }

private:
    void leaveGate();

    Db &m_db;
    Kind m_kind;
    bool m_active = false;
    bool m_gated = false; // holds the in-process SQLite write gate
};

// Runs `body` (returning Result<> or Result<T>) inside a Transaction of `kind` (so a SQLite
// write keeps the write gate and BEGIN IMMEDIATE): commits when it succeeds, rolls back and
// returns its failure when it fails. A failing BEGIN or COMMIT is returned as the failure.
template<class Body>
auto withTransaction(Db &db, Body &&body, Transaction::Kind kind = Transaction::Kind::Write)
    -> std::invoke_result_t<Body &>
{
    using R = std::invoke_result_t<Body &>;
    Transaction tx(db, kind);
    if (auto begun = tx.begin(); !begun)
        return Failure(begun.error());
    R result = body();
    if (!result) {
        tx.rollback();
        return result;
    }
    if (auto committed = tx.commit(); !committed)
        return Failure(committed.error());
    return result;
}

// Holds the in-process SQLite write gate of `db`'s file (see Transaction) without opening a
// transaction, for work that blocks writers anyway (a RESTART checkpoint): they then wait on the
// gate and start the moment it is released, instead of polling SQLite's lock with sleeps of up
// to 100 ms. Waits at most the connection's busy timeout; held() tells whether it got the gate.
class SqliteWriteGateHold final {
public:
    explicit SqliteWriteGateHold(Db &db);
    ~SqliteWriteGateHold();
    SqliteWriteGateHold(const SqliteWriteGateHold &) = delete;
    SqliteWriteGateHold &operator=(const SqliteWriteGateHold &) = delete;
    [[nodiscard]] bool held() const { return m_held; }

private:
    QString m_path;
    bool m_held = false;
};

// Human-readable text of the last error on a query, without bound values (which may hold
// payloads or secrets).
QString sqlErrorText(const QSqlQuery &query);

// Prepares `sql` forward-only, binds `binds` in order and executes it; fails with sqlErrorText().
Result<> runQuery(QSqlQuery &q, const QString &sql, const QVariantList &binds);

// "?,?,…,?" with `n` marks, for an IN (…) list whose values are bound in order.
QString sqlPlaceholders(qsizetype n);

} // namespace redrive
