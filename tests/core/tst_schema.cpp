// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "storage/schema.h"
#include "testdb.h"

#include <QSqlQuery>
#include <QTest>

#include <atomic>
#include <thread>

using namespace redrive;
using namespace redrive::test;

class TstSchema : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void migratesAnEmptyDatabase();
    void migrateIsIdempotent();
    void upgradesVersion1KeepingEachEventsStatus();
    void auditLogRefusesUpdateAndDelete();
    void uniqueEventKeyIsEnforcedByTheDatabase();
    void durabilityIsReadBack();
    void writeGateHoldQueuesWriters();
    void version3DropsTheProviderIdIndex();
    void version6GivesExistingTokensTheirNameAsOwner();
    void version7KeysAreRemovedWithTheirEvent();
    void version8AllowsOneOpenIncidentPerGroup();
    void version11KeysFollowABatchDelete();
};

void TstSchema::migratesAnEmptyDatabase()
{
    QString error;
    auto t = TestDatabase::create(&error, /*migrated=*/false);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    QVERIFY(db);
    QCOMPARE(schemaVersion(*db).value_or(-1), 0);
    auto migrated = migrate(*db);
    QVERIFY2(migrated, qPrintable(migrated.error()));
    QCOMPARE(migrated->fromVersion, 0);
    QCOMPARE(migrated->toVersion, kSchemaVersion);
    QCOMPARE(schemaVersion(*db).value_or(-1), kSchemaVersion);
}

void TstSchema::migrateIsIdempotent()
{
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    auto migrated = migrate(*db);
    QVERIFY2(migrated, qPrintable(migrated.error()));
    QCOMPARE(migrated->fromVersion, kSchemaVersion);
    QSqlQuery q(db->handle());
    // Applied once each (the list may skip a number: migrations are built on parallel branches).
    QVERIFY(q.exec(
        QStringLiteral("SELECT MAX(version), COUNT(*) - COUNT(DISTINCT version) FROM schema_version")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), kSchemaVersion);
    QCOMPARE(q.value(1).toInt(), 0);
}

void TstSchema::upgradesVersion1KeepingEachEventsStatus()
{
    QString error;
    auto t = TestDatabase::create(&error, /*migrated=*/false);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    QVERIFY(db);
    auto migrated = migrateTo(*db, 1);
    QVERIFY2(migrated, qPrintable(migrated.error()));
    QCOMPARE(migrated->fromVersion, 0);
    QCOMPARE(migrated->toVersion, 1);
    QCOMPARE(schemaVersion(*db).value_or(-1), 1);
    // Version 1 kept the summary in events.status.
    const QStringList statuses { QStringLiteral("dead"), QStringLiteral("succeeded"),
        QStringLiteral("no_route") };
    for (int i = 0; i < statuses.size(); ++i) {
        QSqlQuery q(db->handle());
        q.prepare(QStringLiteral(
            "INSERT INTO events (source, provider_event_id, status, received_at, last_seen_at, "
            "body, body_sha256, body_size) VALUES ('shop', ?, ?, 0, 0, ?, '', 2)"));
        q.addBindValue(QStringLiteral("v1-%1").arg(i));
        q.addBindValue(statuses[i]);
        q.addBindValue(QByteArray("{}"));
        QVERIFY2(q.exec(), qPrintable(sqlErrorText(q)));
    }
    migrated = migrate(*db);
    QVERIFY2(migrated, qPrintable(migrated.error()));
    QCOMPARE(migrated->fromVersion, 1);
    QCOMPARE(migrated->toVersion, kSchemaVersion);
    QSqlQuery q(db->handle());
    QVERIFY(q.exec(QStringLiteral("SELECT e.provider_event_id, s.status FROM events e "
                                  "JOIN event_status s ON s.event_id = e.id ORDER BY e.id")));
    QStringList moved;
    while (q.next())
        moved.append(q.value(0).toString() + u'=' + q.value(1).toString());
    QCOMPARE(moved,
        (QStringList { QStringLiteral("v1-0=dead"), QStringLiteral("v1-1=succeeded"),
            QStringLiteral("v1-2=no_route") }));
    // The wide row no longer carries the summary, and deleting an event removes its summary.
    QVERIFY(!q.exec(QStringLiteral("SELECT status FROM events")));
    QVERIFY2(
        succeeded(db->exec(QStringLiteral("DELETE FROM events WHERE provider_event_id = 'v1-0'")), &error),
        qPrintable(error));
    QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM event_status")) && q.next());
    QCOMPARE(q.value(0).toInt(), 2);
}

void TstSchema::auditLogRefusesUpdateAndDelete()
{
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    QVERIFY(succeeded(
        db->exec(QStringLiteral("INSERT INTO audit_log (seq, at, actor, role, action, prev_hash, hash) "
                                "VALUES (1, 0, 'a', 'admin', 'x', '', 'h')")),
        &error));
    QVERIFY(!succeeded(db->exec(QStringLiteral("UPDATE audit_log SET actor = 'b' WHERE seq = 1")), &error));
    QVERIFY2(error.contains(QLatin1String("append-only")), qPrintable(error));
    error.clear();
    QVERIFY(!succeeded(db->exec(QStringLiteral("DELETE FROM audit_log WHERE seq = 1")), &error));
    QVERIFY2(error.contains(QLatin1String("append-only")), qPrintable(error));
    QSqlQuery q(db->handle());
    QVERIFY(q.exec(QStringLiteral("SELECT actor FROM audit_log WHERE seq = 1")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("a"));
}

void TstSchema::uniqueEventKeyIsEnforcedByTheDatabase()
{
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    auto insert = [&](const QString &source, const QString &id) {
        QSqlQuery q(db->handle());
        q.prepare(QStringLiteral("INSERT INTO events (source, provider_event_id, received_at, last_seen_at, "
                                 "body, body_sha256, body_size) VALUES (?, ?, 0, 0, ?, '', 0)"));
        q.addBindValue(source);
        q.addBindValue(id);
        q.addBindValue(QByteArray("{}"));
        return q.exec();
    };
    QVERIFY(insert(QStringLiteral("github"), QStringLiteral("a")));
    QVERIFY(insert(QStringLiteral("stripe"), QStringLiteral("a")));
    QVERIFY(!insert(QStringLiteral("github"), QStringLiteral("a")));
}

void TstSchema::durabilityIsReadBack()
{
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto full = t->open();
    QVERIFY(full->powerLossDurable());
    if (t->backend() == Backend::Sqlite) {
        QCOMPARE(full->durabilityReport(), QStringLiteral("sqlite journal_mode=wal synchronous=FULL"));
        OpenOptions normal;
        normal.sqliteSynchronous = SqliteSync::Normal;
        auto db = takeValue(Db::open(t->url(), QStringLiteral("normal"), normal), &error);
        QVERIFY2(db, qPrintable(error));
        QVERIFY(!db->powerLossDurable());
        QCOMPARE(db->durabilityReport(), QStringLiteral("sqlite journal_mode=wal synchronous=NORMAL"));
    } else {
        QCOMPARE(full->durabilityReport(), QStringLiteral("postgresql synchronous_commit=on"));
    }
}

// The WAL checkpointer holds the in-process write gate around a RESTART checkpoint: a write
// transaction of the same process waits for it and starts as soon as it is released.
void TstSchema::writeGateHoldQueuesWriters()
{
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    QVERIFY(db);
    if (t->backend() == Backend::Postgres) {
        const SqliteWriteGateHold hold(*db);
        QVERIFY(!hold.held()); // PostgreSQL has its own locking: nothing to hold
        return;
    }
    std::atomic<bool> committed { false };
    std::atomic<bool> failed { false };
    bool committedWhileHeld = false;
    bool failedWhileHeld = false;
    std::thread writer;
    {
        const SqliteWriteGateHold hold(*db);
        QVERIFY(hold.held());
        writer = std::thread([&] {
            QString threadError;
            auto other
                = takeValue(Db::open(t->url(), QStringLiteral("gated-writer"), OpenOptions {}), &threadError);
            bool ok = other != nullptr;
            if (ok) {
                Transaction tx(*other);
                ok = succeeded(tx.begin(), &threadError)
                    && succeeded(
                        other->exec(QStringLiteral("CREATE TABLE gate_probe (x INTEGER)")), &threadError)
                    && succeeded(
                        other->exec(QStringLiteral("INSERT INTO gate_probe VALUES (1)")), &threadError)
                    && succeeded(tx.commit(), &threadError);
            }
            failed = !ok;
            committed = ok;
            if (!ok)
                qWarning("gated writer: %s", qPrintable(threadError));
        });
        // Bounded negative check: while the gate is held the other writer does not get in.
        QTest::qWait(150);
        committedWhileHeld = committed.load();
        failedWhileHeld = failed.load();
    }
    writer.join(); // before any check can return
    QVERIFY(!committedWhileHeld);
    QVERIFY(!failedWhileHeld);
    QVERIFY(committed.load());
    QSqlQuery q(db->handle());
    QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM gate_probe")) && q.next());
    QCOMPARE(q.value(0).toInt(), 1);
}

// Schema 3 drops events_provider_id (the unique key serves the search); the unique key stays.
void TstSchema::version3DropsTheProviderIdIndex()
{
    QString error;
    auto t = TestDatabase::create(&error, /*migrated=*/false);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    QVERIFY(db);
    const QString indexCount = t->backend() == Backend::Sqlite
        ? QStringLiteral("SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = ?")
        : QStringLiteral("SELECT COUNT(*) FROM pg_indexes WHERE indexname = ?");
    auto indexExists = [&](const QString &name) {
        QSqlQuery q(db->handle());
        q.prepare(indexCount);
        q.addBindValue(name);
        return q.exec() && q.next() && q.value(0).toInt() == 1;
    };
    auto migrated = migrateTo(*db, 2);
    QVERIFY2(migrated, qPrintable(migrated.error()));
    QVERIFY(indexExists(QStringLiteral("events_provider_id")));
    migrated = migrate(*db);
    QVERIFY2(migrated, qPrintable(migrated.error()));
    QCOMPARE(schemaVersion(*db).value_or(-1), kSchemaVersion);
    QVERIFY(!indexExists(QStringLiteral("events_provider_id")));
    QVERIFY(indexExists(QStringLiteral("events_source_id")));
}

// Schema 6: every token has an owner; tokens from before are owned by their own name (each was one
// identity), and replays remember the requester's and approver's owners the same way.
void TstSchema::version6GivesExistingTokensTheirNameAsOwner()
{
    QString error;
    auto t = TestDatabase::create(&error, /*migrated=*/false);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    QVERIFY(db);
    auto migrated = migrateTo(*db, 4);
    QVERIFY2(migrated, qPrintable(migrated.error()));
    QVERIFY2(succeeded(
                 db->exec(QStringLiteral("INSERT INTO api_tokens (name, role, token_hash, created_at) VALUES "
                                         "('ana', 'operator', 'h1', 0), ('Otto', 'operator', 'h2', 0)")),
                 &error),
        qPrintable(error));
    QVERIFY2(
        succeeded(db->exec(QStringLiteral(
                      "INSERT INTO replays (status, selection_hash, requested_by, requester_role, reason, "
                      "item_count, requires_approval, summary, approved_by, created_at, updated_at) VALUES "
                      "('approved', 'x', 'ana', 'operator', 'r', 1, 1, '{}', 'Otto', 0, 0), "
                      "('pending_approval', 'y', 'ana', 'operator', 'r', 1, 1, '{}', NULL, 0, 0)")),
            &error),
        qPrintable(error));
    migrated = migrate(*db);
    QVERIFY2(migrated, qPrintable(migrated.error()));
    QCOMPARE(schemaVersion(*db).value_or(-1), kSchemaVersion);
    QSqlQuery q(db->handle());
    QVERIFY(q.exec(QStringLiteral("SELECT name, owner FROM api_tokens ORDER BY id")));
    QStringList owners;
    while (q.next())
        owners.append(q.value(0).toString() + u'=' + q.value(1).toString());
    QCOMPARE(owners, (QStringList { QStringLiteral("ana=ana"), QStringLiteral("Otto=Otto") }));
    QVERIFY(q.exec(QStringLiteral("SELECT requester_owner, approver_owner FROM replays ORDER BY id")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("ana"));
    QCOMPARE(q.value(1).toString(), QStringLiteral("Otto"));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("ana"));
    QVERIFY(q.value(1).isNull());
}

// Upgrading a version 6 database adds event_keys; a key row cannot outlive its event (retention
// deletes events, the keys go with them). On SQLite a foreign key also refuses a key for an event
// that does not exist; PostgreSQL follows deletes with a statement trigger instead (migration 11:
// the foreign key's per-key check cost ingest), and only ingest writes keys, in its event's
// statement.
void TstSchema::version7KeysAreRemovedWithTheirEvent()
{
    QString error;
    auto t = TestDatabase::create(&error, /*migrated=*/false);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    QVERIFY(db);
    auto migrated = migrateTo(*db, 6);
    QVERIFY2(migrated, qPrintable(migrated.error()));
    QVERIFY2(succeeded(db->exec(QStringLiteral("INSERT INTO events (source, provider_event_id, received_at, "
                                               "last_seen_at, body, body_sha256, body_size) VALUES "
                                               "('stripe', 'evt_1', 1, 1, '', 'x', 0), "
                                               "('stripe', 'evt_2', 2, 2, '', 'y', 0)")),
                 &error),
        qPrintable(error));
    migrated = migrate(*db);
    QVERIFY2(migrated, qPrintable(migrated.error()));
    QCOMPARE(schemaVersion(*db).value_or(-1), kSchemaVersion);
    QVERIFY(kSchemaVersion >= 7);
    QVERIFY2(succeeded(
                 db->exec(QStringLiteral("INSERT INTO event_keys (event_id, name, value) SELECT id, 'order', "
                                         "provider_event_id FROM events")),
                 &error),
        qPrintable(error));
    QVERIFY2(
        succeeded(db->exec(QStringLiteral("DELETE FROM events WHERE provider_event_id = 'evt_1'")), &error),
        qPrintable(error));
    QSqlQuery q(db->handle());
    QVERIFY(q.exec(QStringLiteral("SELECT value FROM event_keys")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("evt_2"));
    QVERIFY(!q.next());
    q.finish();
    if (db->isSqlite()) {
        QVERIFY(
            !succeeded(db->exec(QStringLiteral(
                           "INSERT INTO event_keys (event_id, name, value) VALUES (999999, 'order', 'x')")),
                &error)); // no orphan keys
    }
}

// Upgrading a version 10 database on PostgreSQL trades event_keys' foreign key for a delete
// trigger; either way a statement that deletes several events (retention deletes in batches)
// takes exactly their keys with it, and an event deleted with no keys is no error.
void TstSchema::version11KeysFollowABatchDelete()
{
    QString error;
    auto t = TestDatabase::create(&error, /*migrated=*/false);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    QVERIFY(db);
    auto migrated = migrateTo(*db, 10);
    QVERIFY2(migrated, qPrintable(migrated.error()));
    QVERIFY2(succeeded(db->exec(QStringLiteral("INSERT INTO events (source, provider_event_id, received_at, "
                                               "last_seen_at, body, body_sha256, body_size) VALUES "
                                               "('stripe', 'evt_1', 1, 1, '', 'a', 0), "
                                               "('stripe', 'evt_2', 2, 2, '', 'b', 0), "
                                               "('stripe', 'evt_3', 3, 3, '', 'c', 0), "
                                               "('stripe', 'evt_4', 4, 4, '', 'd', 0)")),
                 &error),
        qPrintable(error));
    // Keys for the first three events; evt_4 has none.
    QVERIFY2(
        succeeded(db->exec(QStringLiteral(
                      "INSERT INTO event_keys (event_id, name, value) SELECT id, 'order', provider_event_id "
                      "FROM events WHERE provider_event_id <> 'evt_4' UNION ALL SELECT id, 'customer', "
                      "'cus_1' FROM events WHERE provider_event_id <> 'evt_4'")),
            &error),
        qPrintable(error));
    migrated = migrate(*db);
    QVERIFY2(migrated, qPrintable(migrated.error()));
    QCOMPARE(schemaVersion(*db).value_or(-1), kSchemaVersion);
    QSqlQuery q(db->handle());
    if (!db->isSqlite()) {
        QVERIFY(q.exec(
            QStringLiteral("SELECT count(*) FROM pg_constraint WHERE conrelid = 'event_keys'::regclass "
                           "AND contype = 'f'")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 0);
        q.finish();
    }
    QVERIFY2(succeeded(db->exec(QStringLiteral(
                           "DELETE FROM events WHERE provider_event_id IN ('evt_1', 'evt_3', 'evt_4')")),
                 &error),
        qPrintable(error));
    QVERIFY(q.exec(QStringLiteral("SELECT e.provider_event_id, k.name, k.value FROM event_keys k "
                                  "LEFT JOIN events e ON e.id = k.event_id ORDER BY k.name, k.value")));
    QStringList rows;
    while (q.next())
        rows << q.value(0).toString() + QLatin1Char(' ') + q.value(1).toString() + QLatin1Char('=')
                + q.value(2).toString();
    QCOMPARE(
        rows, (QStringList { QStringLiteral("evt_2 customer=cus_1"), QStringLiteral("evt_2 order=evt_2") }));
}

// Upgrading a version 7 database adds incidents. Several receivers run the incident check
// against one database, so "one open incident per dead-letter group" is the database's rule: a
// second open row for the group is refused, a closed one does not count.
void TstSchema::version8AllowsOneOpenIncidentPerGroup()
{
    QString error;
    auto t = TestDatabase::create(&error, /*migrated=*/false);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    QVERIFY(db);
    auto migrated = migrateTo(*db, 7);
    QVERIFY2(migrated, qPrintable(migrated.error()));
    QCOMPARE(schemaVersion(*db).value_or(-1), 7);
    migrated = migrate(*db);
    QVERIFY2(migrated, qPrintable(migrated.error()));
    QCOMPARE(schemaVersion(*db).value_or(-1), kSchemaVersion);
    QVERIFY(kSchemaVersion >= 8);
    const auto open = [&](const char *destination) {
        return succeeded(
            db->exec(QStringLiteral("INSERT INTO incidents (destination, category, opened_at, count_at_open, "
                                    "last_count, updated_at) VALUES ('%1', 'permanent', 1, 1, 1, 1)")
                         .arg(QLatin1String(destination))),
            &error);
    };
    QVERIFY2(open("crm"), qPrintable(error));
    QVERIFY(!open("crm")); // the same group again while the first is open
    QVERIFY2(open("fulfillment"), qPrintable(error)); // another group
    QVERIFY2(
        succeeded(
            db->exec(QStringLiteral("UPDATE incidents SET closed_at = 2 WHERE destination = 'crm'")), &error),
        qPrintable(error));
    QVERIFY2(open("crm"), qPrintable(error)); // the group may open again once closed
    QSqlQuery q(db->handle());
    QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM incidents WHERE closed_at IS NULL")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), 2);
}

QTEST_GUILESS_MAIN(TstSchema)
#include "tst_schema.moc"
