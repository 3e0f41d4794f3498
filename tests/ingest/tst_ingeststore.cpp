// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// IngestStore on its own, on SQLite and PostgreSQL (both of PostgreSQL's batch paths): a new
// event is stored with its summary status row, a duplicate only counts, a batch that carries
// one event several times stores it once with the right seen_count, and business keys are found
// whether still pending (SQLite) or indexed.

#include "ingestfixture.h"
#include "query/eventdetail.h"
#include "query/eventpage.h"
#include "storage/ingeststore.h"
#include "testdb.h"

#include <QSqlQuery>
#include <QTest>

#include <limits>

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

    // Rows the insert skipped are counted on their stored row: found by id or by body, and when
    // two rows of one batch find the same stored row their counts add up on it.
    void duplicatesOfABatchAddUpOnTheirStoredRow_data() { batchesStoreEachEventOnceWithItsStatus_data(); }
    void duplicatesOfABatchAddUpOnTheirStoredRow()
    {
        QFETCH(int, path);
        IngestStore store(*m_db, IngestStore::PostgresBatches(path));
        QString error;
        const auto prepared = store.prepare();
        QVERIFY2(prepared, qPrintable(prepared.error()));
        IncomingEvent first = makeEvent(QStringLiteral("a"));
        first.dedupeByBody = true;
        QList<UpsertResult> results;
        QVERIFY2(upsert(store, { UpsertRow { &first, QStringLiteral("pending"), 1 } }, &results, &error),
            qPrintable(error));
        const qint64 storedId = results[0].eventId;
        QVERIFY(storedId > 0);

        IncomingEvent again = first; // the same id
        again.receivedAtMs = first.receivedAtMs + 5;
        IncomingEvent sameBody = first; // another id, the same body
        sameBody.providerEventId = QStringLiteral("a-resent");
        sameBody.receivedAtMs = first.receivedAtMs + 9;
        IncomingEvent fresh = makeEvent(QStringLiteral("b"));
        fresh.dedupeByBody = true;
        QVERIFY2(upsert(store,
                     { UpsertRow { &again, QStringLiteral("pending"), 1 },
                         UpsertRow { &sameBody, QStringLiteral("pending"), 2 },
                         UpsertRow { &fresh, QStringLiteral("pending"), 1 } },
                     &results, &error),
            qPrintable(error));
        QCOMPARE(results.size(), 3);
        QCOMPARE(results[0].eventId, storedId);
        QCOMPARE(results[1].eventId, storedId);
        QCOMPARE(results[0].seenCount, 2); // each row reads the count as it stood after it
        QCOMPARE(results[1].seenCount, 4);
        QVERIFY(results[2].eventId != storedId);
        QCOMPARE(results[2].seenCount, 1);

        QSqlQuery q(m_db->handle());
        QVERIFY(q.exec(
            QStringLiteral("SELECT seen_count, last_seen_at FROM events WHERE id = %1").arg(storedId)));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 4);
        QCOMPARE(q.value(1).toLongLong(), first.receivedAtMs + 9);
        QCOMPARE(statuses(), (QStringList { QStringLiteral("a=pending"), QStringLiteral("b=pending") }));
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

    // SQLite: keys wait in one pending row per event (a JSON object) and move into event_keys in a
    // batch: every key of an existing event once, text that needs escaping intact, a row whose
    // event is gone dropped, nothing left pending, the connection's foreign-key check and
    // synchronous level back afterwards. PostgreSQL: keys go straight into event_keys. Either way
    // the shared event query and the event detail find them before and after the batch.
    void keysAreFoundPendingAndIndexed_data() { batchesStoreEachEventOnceWithItsStatus_data(); }
    void keysAreFoundPendingAndIndexed()
    {
        QFETCH(int, path);
        IngestStore store(*m_db, IngestStore::PostgresBatches(path));
        const auto prepared = store.prepare();
        QVERIFY2(prepared, qPrintable(prepared.error()));
        const bool pending = m_db->isSqlite();
        QCOMPARE(store.keysGoPending(), pending);
        const IncomingEvent a = makeEvent(QStringLiteral("ka")), b = makeEvent(QStringLiteral("kb"));
        QList<UpsertResult> results;
        QString error;
        QVERIFY2(upsert(store,
                     { UpsertRow { &a, QStringLiteral("pending"), 1 },
                         UpsertRow { &b, QStringLiteral("pending"), 1 } },
                     &results, &error),
            qPrintable(error));
        const QString awkward = QStringLiteral("\"quoted\" \\ back\u00e9\n\x01");
        QList<KeyRow> rows { { results[0].eventId,
                                 { { QStringLiteral("order"), QStringLiteral("1042") },
                                     { QStringLiteral("note"), awkward } } },
            { results[1].eventId, { { QStringLiteral("order"), QStringLiteral("1043") } } } };
        if (pending) // PostgreSQL's foreign key refuses it at once
            rows.append({ 999'999, { { QStringLiteral("order"), QStringLiteral("gone") } } });
        const auto inserted = withTransaction(*m_db, [&] { return store.insertKeys(rows); });
        QVERIFY2(inserted, qPrintable(inserted.error()));
        QCOMPARE(count(QStringLiteral("event_keys_pending")), pending ? 3 : 0);
        QCOMPARE(count(QStringLiteral("event_keys")), pending ? 0 : 3);
        const QList<qint64> order1042 { results[0].eventId };
        QCOMPARE(findByKey(QStringLiteral("order"), QStringLiteral("1042")), order1042);
        QCOMPARE(findByKey(QString(), awkward), order1042);
        QCOMPARE(keysOf(results[0].eventId),
            (QStringList { QStringLiteral("note=") + awkward, QStringLiteral("order=1042") }));

        const auto indexed = store.indexPendingKeys();
        QVERIFY2(indexed, qPrintable(indexed.error()));
        QCOMPARE(*indexed, pending ? 3 : 0);
        QCOMPARE(count(QStringLiteral("event_keys_pending")), 0);
        QSqlQuery q(m_db->handle());
        QVERIFY(
            q.exec(QStringLiteral("SELECT event_id, name, value FROM event_keys ORDER BY event_id, name")));
        QStringList stored;
        while (q.next())
            stored.append(QStringLiteral("%1 %2=%3")
                              .arg(q.value(0).toLongLong())
                              .arg(q.value(1).toString(), q.value(2).toString()));
        QCOMPARE(stored,
            (QStringList { QStringLiteral("%1 note=%2").arg(results[0].eventId).arg(awkward),
                QStringLiteral("%1 order=1042").arg(results[0].eventId),
                QStringLiteral("%1 order=1043").arg(results[1].eventId) }));
        QCOMPARE(findByKey(QStringLiteral("order"), QStringLiteral("1042")), order1042); // and once indexed
        QCOMPARE(findByKey(QString(), awkward), order1042);
        QCOMPARE(keysOf(results[0].eventId),
            (QStringList { QStringLiteral("note=") + awkward, QStringLiteral("order=1042") }));
        const auto again = store.indexPendingKeys(); // nothing pending: nothing to do, no error
        QVERIFY2(again, qPrintable(again.error()));
        QCOMPARE(*again, 0);
        if (m_db->isSqlite()) {
            QVERIFY(q.exec(QStringLiteral("PRAGMA foreign_keys")) && q.next());
            QCOMPARE(q.value(0).toInt(), 1);
            QVERIFY(q.exec(QStringLiteral("PRAGMA synchronous")) && q.next());
            QCOMPARE(q.value(0).toInt(), m_db->powerLossDurable() ? 2 : 1);
        }
    }

private:
    // The events the shared event query finds by one key (`name` empty: by value, as q= does).
    QList<qint64> findByKey(const QString &name, const QString &value)
    {
        EventFilter filter;
        if (name.isEmpty()) {
            filter.search = value;
        } else {
            filter.keyName = name;
            filter.keyValue = value;
        }
        const auto rows = fetchEventPage(*m_db, filter, std::numeric_limits<qint64>::max(), 10);
        if (!rows)
            return { -1 };
        QList<qint64> ids;
        for (const EventRow &row : *rows)
            ids.append(row.id);
        return ids;
    }

    QStringList keysOf(qint64 eventId)
    {
        const auto keys = fetchEventKeys(*m_db, eventId);
        if (!keys)
            return { keys.error() };
        QStringList out;
        for (const EventKey &key : *keys)
            out.append(key.name + u'=' + key.value);
        return out;
    }

    int count(const QString &table)
    {
        QSqlQuery q(m_db->handle());
        return q.exec(QStringLiteral("SELECT COUNT(*) FROM ") + table) && q.next() ? q.value(0).toInt() : -1;
    }

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
