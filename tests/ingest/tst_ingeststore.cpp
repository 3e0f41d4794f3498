// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// IngestStore on its own, on SQLite and PostgreSQL (both of PostgreSQL's batch paths): a new
// event is stored with its summary status row, a duplicate only counts, and a batch that
// carries one event several times stores it once with the right seen_count.

#include "ingestfixture.h"
#include "storage/ingeststore.h"
#include "testdb.h"

#include <QSqlQuery>
#include <QTest>

using namespace redrive;
using namespace redrive::test;

namespace {

IncomingEvent makeEvent(const QString &id)
{
    return makeIncomingEvent(id);
}

} // namespace

class TstIngestStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        QString error;
        m_tdb = TestDatabase::create(&error);
        QVERIFY2(m_tdb, qPrintable(error));
        m_db = m_tdb->open();
        QVERIFY(m_db);
    }
    void cleanup()
    {
        m_db.reset();
        m_tdb.reset();
    }

    // SQLite has one path (per row, in process); it runs both rows the same way.
    void batchesStoreEachEventOnceWithItsStatus_data()
    {
        QTest::addColumn<int>("path");
        QTest::newRow("native") << int(IngestStore::PostgresBatches::Native);
        QTest::newRow("multi-row statements") << int(IngestStore::PostgresBatches::MultiRow);
    }
    void batchesStoreEachEventOnceWithItsStatus()
    {
        QFETCH(int, path);
        IngestStore store(*m_db, IngestStore::PostgresBatches(path));
        QString error;
        const auto prepared = store.prepare();
        QVERIFY2(prepared, qPrintable(prepared.error()));
        const IncomingEvent routed = makeEvent(QStringLiteral("a")),
                            unrouted = makeEvent(QStringLiteral("b")), twice = makeEvent(QStringLiteral("c"));

        QList<UpsertResult> results;
        QVERIFY2(upsert(store,
                     { UpsertRow { &routed, QStringLiteral("pending"), 1 },
                         UpsertRow { &unrouted, QStringLiteral("no_route"), 1 },
                         UpsertRow { &twice, QStringLiteral("pending"), 2 } },
                     &results, &error),
            qPrintable(error));
        QCOMPARE(results.size(), 3);
        QCOMPARE(results[0].seenCount, 1);
        QCOMPARE(results[1].seenCount, 1);
        QCOMPARE(results[2].seenCount, 2);
        QCOMPARE(statuses(),
            (QStringList {
                QStringLiteral("a=pending"), QStringLiteral("b=no_route"), QStringLiteral("c=pending") }));

        // The next batch repeats "a" (with another status, which must not be written) and adds "d".
        const IncomingEvent fresh = makeEvent(QStringLiteral("d"));
        QVERIFY2(upsert(store,
                     { UpsertRow { &routed, QStringLiteral("no_route"), 1 },
                         UpsertRow { &fresh, QStringLiteral("no_route"), 1 } },
                     &results, &error),
            qPrintable(error));
        QCOMPARE(results[0].seenCount, 2);
        QCOMPARE(results[1].seenCount, 1);
        QCOMPARE(statuses(),
            (QStringList { QStringLiteral("a=pending"), QStringLiteral("b=no_route"),
                QStringLiteral("c=pending"), QStringLiteral("d=no_route") }));
    }

    void singleUpsertsStoreTheStatusOnlyForANewEvent()
    {
        IngestStore store(*m_db);
        QString error;
        const auto prepared = store.prepare();
        QVERIFY2(prepared, qPrintable(prepared.error()));
        const IncomingEvent e = makeEvent(QStringLiteral("one"));
        Transaction tx(*m_db);
        QVERIFY(succeeded(tx.begin(), &error));
        const auto firstUpsert = store.upsertEvent(e, QStringLiteral("pending"));
        QVERIFY2(firstUpsert, qPrintable(firstUpsert.error()));
        const auto againUpsert = store.upsertEvent(e, QStringLiteral("no_route"));
        QVERIFY2(againUpsert, qPrintable(againUpsert.error()));
        QVERIFY(succeeded(tx.commit(), &error));
        const UpsertResult first = *firstUpsert, again = *againUpsert;
        QVERIFY(first.isNew());
        QCOMPARE(again.eventId, first.eventId);
        QCOMPARE(again.seenCount, 2);
        QCOMPARE(statuses(), QStringList { QStringLiteral("one=pending") });
    }

private:
    bool upsert(
        IngestStore &store, const QList<UpsertRow> &rows, QList<UpsertResult> *results, QString *error)
    {
        auto upserted = withTransaction(*m_db, [&] { return store.upsertEvents(rows); });
        if (!upserted) {
            *error = upserted.error();
            return false;
        }
        *results = std::move(*upserted);
        return true;
    }

    // "provider_event_id=status" for every event, by id; an event without its row shows "=".
    QStringList statuses()
    {
        QSqlQuery q(m_db->handle());
        if (!q.exec(QStringLiteral("SELECT e.provider_event_id, COALESCE(s.status, '') FROM events e "
                                   "LEFT JOIN event_status s ON s.event_id = e.id ORDER BY e.id")))
            return { sqlErrorText(q) };
        QStringList out;
        while (q.next())
            out.append(q.value(0).toString() + u'=' + q.value(1).toString());
        return out;
    }

    std::unique_ptr<TestDatabase> m_tdb;
    std::unique_ptr<Db> m_db;
};

REDRIVE_STORAGE_TEST_MAIN(TstIngestStore)
#include "tst_ingeststore.moc"
