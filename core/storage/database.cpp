// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "database.h"

#include "pgstatement.h"

#include <QFileInfo>
#include <QSqlError>
#include <QUrlQuery>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <libpq-fe.h>
#include <map>
#include <mutex>

namespace redrive {

Result<StorageUrl> StorageUrl::parse(const QString &text)
{
    StorageUrl out;
    if (text.startsWith(QLatin1String("sqlite:"))) {
        out.dialect = Dialect::Sqlite;
        QString path = text.mid(7);
        if (path.startsWith(QLatin1String("//")))
            path = path.mid(2);
        if (path.isEmpty())
            return Failure(
                QStringLiteral("sqlite url needs a file path, e.g. sqlite:///var/lib/redrive/redrive.db"));
        out.sqlitePath = path;
        return out;
    }
    if (!text.startsWith(QLatin1String("postgresql://")) && !text.startsWith(QLatin1String("postgres://")))
        return Failure(QStringLiteral("storage url must start with sqlite:// or postgresql://"));
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty())
        return Failure(QStringLiteral("postgresql url must look like postgresql://user@host:5432/database"));
    out.dialect = Dialect::Postgres;
    out.host = url.host();
    out.port = url.port(5432);
    out.user = url.userName();
    out.password = url.password();
    out.database = url.path().mid(1);
    if (out.database.isEmpty())
        return Failure(QStringLiteral("postgresql url needs a database name after the host"));
    QStringList options;
    const QUrlQuery query(url);
    static const QStringList allowed = { QStringLiteral("sslmode"), QStringLiteral("sslrootcert"),
        QStringLiteral("sslcert"), QStringLiteral("sslkey"), QStringLiteral("connect_timeout"),
        QStringLiteral("application_name") };
    for (const auto &[key, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (!allowed.contains(key))
            return Failure(QStringLiteral("postgresql url option \"%1\" is not supported (use one of %2)")
                               .arg(key, allowed.join(QLatin1String(", "))));
        options.append(key + u'=' + value);
    }
    out.connectOptions = options.join(u';');
    return out;
}

QString StorageUrl::redacted() const
{
    if (dialect == Dialect::Sqlite)
        return QLatin1String("sqlite://") + sqlitePath;
    QString s = QLatin1String("postgresql://");
    if (!user.isEmpty())
        s += user + (password.isEmpty() ? QString() : QStringLiteral(":***")) + u'@';
    s += host + u':' + QString::number(port) + u'/' + database;
    return s;
}

Db::~Db()
{
    if (m_db.isValid())
        m_db.close();
    m_db = QSqlDatabase();
    if (!m_name.isEmpty())
        QSqlDatabase::removeDatabase(m_name);
}

QString Db::connectionLost()
{
    if (!m_db.isOpen())
        return QStringLiteral("the connection is closed");
    if (isSqlite())
        return {};
    PGconn *conn = PgStatement::nativeHandle(*this);
    if (!conn)
        return QStringLiteral("the connection has no PostgreSQL handle");
    // Reads what the server sent meanwhile without waiting (libpq's socket is non-blocking): a
    // server that shut down has sent its FATAL and closed, which only a read turns into
    // CONNECTION_BAD. An idle healthy connection has nothing to read.
    // Twice: the first read takes the notice, the second meets the end of the stream.
    for (int read = 0;
         read < 2 && PQstatus(conn) == CONNECTION_OK && PQtransactionStatus(conn) == PQTRANS_IDLE; ++read)
        PQconsumeInput(conn);
    if (PQstatus(conn) == CONNECTION_OK)
        return {};
    const QString text = QString::fromUtf8(PQerrorMessage(conn)).simplified();
    return text.isEmpty() ? QStringLiteral("the connection to the server was lost") : text;
}

Result<std::unique_ptr<Db>> Db::open(
    const StorageUrl &url, const QString &purpose, const OpenOptions &options)
{
    static std::atomic<int> counter { 0 };
    std::unique_ptr<Db> db(new Db);
    db->m_url = url;
    db->m_dialect = url.dialect;
    db->m_busyTimeoutMs = options.busyTimeoutMs;
    db->m_name = QStringLiteral("redrive-%1-%2").arg(purpose).arg(counter.fetch_add(1));

    if (url.dialect == Dialect::Sqlite) {
        db->m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), db->m_name);
        db->m_db.setDatabaseName(url.sqlitePath);
        QString opts = QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(options.busyTimeoutMs);
        if (options.mode == OpenMode::ReadOnly) {
            if (!QFileInfo::exists(url.sqlitePath))
                return Failure(QStringLiteral("database file %1 does not exist").arg(url.sqlitePath));
            opts += QLatin1String(";QSQLITE_OPEN_READONLY");
        }
        db->m_db.setConnectOptions(opts);
    } else {
        db->m_db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), db->m_name);
        db->m_db.setHostName(url.host);
        db->m_db.setPort(url.port);
        db->m_db.setDatabaseName(url.database);
        db->m_db.setUserName(url.user);
        if (!url.password.isEmpty())
            db->m_db.setPassword(url.password);
        QString opts = url.connectOptions;
        if (!opts.contains(QLatin1String("connect_timeout")))
            opts += (opts.isEmpty() ? QString() : QStringLiteral(";")) + QStringLiteral("connect_timeout=10");
        db->m_db.setConnectOptions(opts);
    }
    if (!db->m_db.open())
        return Failure(db->m_db.lastError().text());

    if (url.dialect == Dialect::Sqlite) {
        QSqlQuery q(db->m_db);
        if (options.mode == OpenMode::ReadWrite) {
            const char *sync = options.sqliteSynchronous == SqliteSync::Full ? "FULL" : "NORMAL";
            for (const QString &pragma : { QStringLiteral("PRAGMA journal_mode=WAL"),
                     QStringLiteral("PRAGMA synchronous=%1").arg(QLatin1String(sync)),
                     QStringLiteral("PRAGMA foreign_keys=ON") }) {
                if (!q.exec(pragma))
                    return Failure(QStringLiteral("%1 failed: %2").arg(pragma, sqlErrorText(q)));
            }
        } else {
            q.exec(QStringLiteral("PRAGMA query_only=ON"));
        }
        // Read the settings back: what the engine actually does is what we report.
        QString journal;
        int synchronous = -1;
        if (q.exec(QStringLiteral("PRAGMA journal_mode")) && q.next())
            journal = q.value(0).toString().toLower();
        if (q.exec(QStringLiteral("PRAGMA synchronous")) && q.next())
            synchronous = q.value(0).toInt();
        static const char *names[] = { "OFF", "NORMAL", "FULL", "EXTRA" };
        const QString syncName = synchronous >= 0 && synchronous <= 3 ? QLatin1String(names[synchronous])
                                                                      : QString::number(synchronous);
        db->m_powerLossDurable = journal == u"wal" && synchronous >= 2;
        db->m_durability = QStringLiteral("sqlite journal_mode=%1 synchronous=%2").arg(journal, syncName);
    } else {
        QSqlQuery q(db->m_db);
        QString value;
        if (q.exec(QStringLiteral("SHOW synchronous_commit")) && q.next())
            value = q.value(0).toString();
        db->m_powerLossDurable = value != u"off" && value != u"local";
        db->m_durability = QStringLiteral("postgresql synchronous_commit=%1").arg(value);
        if (options.mode == OpenMode::ReadOnly)
            q.exec(QStringLiteral("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY"));
    }
    return db;
}

Result<QSqlQuery> Db::prepare(const QString &sql)
{
    QSqlQuery q(m_db);
    if (!q.prepare(sql))
        return Failure(sqlErrorText(q));
    return q;
}

Result<> Db::exec(const QString &sql)
{
    QSqlQuery q(m_db);
    if (!q.exec(sql))
        return Failure(sqlErrorText(q));
    return ok();
}

namespace {

// The in-process queue of SQLite writers for one database file (see Transaction).
class WriteGate {
public:
    static WriteGate &forPath(const QString &path)
    {
        static std::mutex mutex;
        static std::map<QString, std::unique_ptr<WriteGate>> gates; // lives as long as the process
        std::lock_guard lock(mutex);
        auto &gate = gates[path];
        if (!gate)
            gate = std::make_unique<WriteGate>();
        return *gate;
    }

    bool acquire(std::chrono::milliseconds timeout)
    {
        std::unique_lock lock(m_mutex);
        const quint64 ticket = m_nextTicket++;
        m_waiting.push_back(ticket);
        const bool mine
            = m_cv.wait_for(lock, timeout, [&] { return !m_held && m_waiting.front() == ticket; });
        m_waiting.erase(std::find(m_waiting.begin(), m_waiting.end(), ticket));
        if (mine)
            m_held = true;
        else
            m_cv.notify_all(); // the next in line may be able to go now
        return mine;
    }

    void release()
    {
        {
            std::lock_guard lock(m_mutex);
            m_held = false;
        }
        m_cv.notify_all();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<quint64> m_waiting;
    quint64 m_nextTicket = 0;
    bool m_held = false;
};

} // namespace

SqliteWriteGateHold::SqliteWriteGateHold(Db &db)
    : m_path(db.url().sqlitePath)
{
    if (db.isSqlite())
        m_held
            = WriteGate::forPath(m_path).acquire(std::chrono::milliseconds(std::max(0, db.busyTimeoutMs())));
}

SqliteWriteGateHold::~SqliteWriteGateHold()
{
    if (m_held)
        WriteGate::forPath(m_path).release();
}

Transaction::Transaction(Db &db, Kind kind)
    : m_db(db)
    , m_kind(kind)
{ }

Transaction::~Transaction()
{
    if (m_active)
        rollback();
}

Result<> Transaction::begin()
{
    QString sql;
    if (m_db.isSqlite()) {
        sql = m_kind == Kind::Write ? QStringLiteral("BEGIN IMMEDIATE") : QStringLiteral("BEGIN");
        if (m_kind == Kind::Write && !m_gated)
            m_gated = WriteGate::forPath(m_db.url().sqlitePath)
                          .acquire(std::chrono::milliseconds(std::max(0, m_db.busyTimeoutMs())));
    } else {
        sql = QStringLiteral("BEGIN");
    }
    if (auto begun = m_db.exec(sql); !begun) {
        leaveGate();
        return begun;
    }
    m_active = true;
    return ok();
}

Result<> Transaction::commit()
{
    if (!m_active)
        return Failure(QString());
    if (auto committed = m_db.exec(QStringLiteral("COMMIT")); !committed) {
        rollback();
        return committed;
    }
    m_active = false;
    leaveGate();
    return ok();
}

void Transaction::rollback()
{
    if (!m_active)
        return;
    m_active = false;
    static_cast<void>(m_db.exec(QStringLiteral("ROLLBACK"))); // ROLLBACK failing leaves nothing to undo
    leaveGate();
}

void Transaction::leaveGate()
{
    if (!m_gated)
        return;
    m_gated = false;
    WriteGate::forPath(m_db.url().sqlitePath).release();
}

QString sqlErrorText(const QSqlQuery &query)
{
    const QSqlError e = query.lastError();
    QString text = e.databaseText().trimmed();
    if (text.isEmpty())
        text = e.driverText().trimmed();
    if (!e.nativeErrorCode().isEmpty())
        text += QStringLiteral(" (code %1)").arg(e.nativeErrorCode());
    // On a PostgreSQL hot standby a read can fail for reasons a primary never gives: say so.
    if (text.contains(QLatin1String("conflict with recovery")))
        text += QStringLiteral(
            ". The database is a standby: it cancelled this read to keep replaying the primary's "
            "changes. Try again; if it recurs, the standby needs a longer max_standby_streaming_delay "
            "or hot_standby_feedback = on.");
    else if (e.nativeErrorCode() == u"25006" || text.contains(QLatin1String("during recovery")))
        text += QStringLiteral(
            ". The database is read-only (a standby, or a read-only connection): changes go through "
            "the admin API on the primary.");
    return text;
}

QString sqlPlaceholders(qsizetype n)
{
    QString out;
    out.reserve(n * 2);
    for (qsizetype i = 0; i < n; ++i)
        out += i ? QLatin1String(",?") : QLatin1String("?");
    return out;
}

Result<> runQuery(QSqlQuery &q, const QString &sql, const QVariantList &binds)
{
    q.setForwardOnly(true);
    if (!q.prepare(sql))
        return Failure(sqlErrorText(q));
    for (const QVariant &v : binds)
        q.addBindValue(v);
    if (!q.exec())
        return Failure(sqlErrorText(q));
    return ok();
}

} // namespace redrive
