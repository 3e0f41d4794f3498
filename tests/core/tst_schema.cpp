// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "storage/schema.h"
#include "testdb.h"

#include <QSqlQuery>
#include <QTest>

using namespace redrive;
using namespace redrive::test;

class TstSchema : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void migratesAnEmptyDatabase();
    void migrateIsIdempotent();
    void auditLogRefusesUpdateAndDelete();
    void uniqueEventKeyIsEnforcedByTheDatabase();
    void durabilityIsReadBack();
};

void TstSchema::migratesAnEmptyDatabase()
{
    QString error;
    auto t = TestDatabase::create(&error, /*migrated=*/false);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    QVERIFY(db);
    QCOMPARE(schemaVersion(*db), 0);
    int from = -1, to = -1;
    QVERIFY2(migrate(*db, &error, &from, &to), qPrintable(error));
    QCOMPARE(from, 0);
    QCOMPARE(to, kSchemaVersion);
    QCOMPARE(schemaVersion(*db), kSchemaVersion);
}

void TstSchema::migrateIsIdempotent()
{
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    int from = -1;
    QVERIFY2(migrate(*db, &error, &from), qPrintable(error));
    QCOMPARE(from, kSchemaVersion);
    QSqlQuery q(db->handle());
    QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM schema_version")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), kSchemaVersion);
}

void TstSchema::auditLogRefusesUpdateAndDelete()
{
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    QVERIFY(db->exec(QStringLiteral("INSERT INTO audit_log (seq, at, actor, role, action, prev_hash, hash) "
                                    "VALUES (1, 0, 'a', 'admin', 'x', '', 'h')"),
        &error));
    QVERIFY(!db->exec(QStringLiteral("UPDATE audit_log SET actor = 'b' WHERE seq = 1"), &error));
    QVERIFY2(error.contains(QLatin1String("append-only")), qPrintable(error));
    error.clear();
    QVERIFY(!db->exec(QStringLiteral("DELETE FROM audit_log WHERE seq = 1"), &error));
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
        q.prepare(QStringLiteral(
            "INSERT INTO events (source, provider_event_id, status, received_at, last_seen_at, "
            "body, body_sha256, body_size) VALUES (?, ?, 'pending', 0, 0, ?, '', 0)"));
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
        auto db = Db::open(t->url(), QStringLiteral("normal"), normal, &error);
        QVERIFY2(db, qPrintable(error));
        QVERIFY(!db->powerLossDurable());
        QCOMPARE(db->durabilityReport(), QStringLiteral("sqlite journal_mode=wal synchronous=NORMAL"));
    } else {
        QCOMPARE(full->durabilityReport(), QStringLiteral("postgresql synchronous_commit=on"));
    }
}

QTEST_GUILESS_MAIN(TstSchema)
#include "tst_schema.moc"
