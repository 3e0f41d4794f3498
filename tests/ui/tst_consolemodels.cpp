// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "auditchainfixture.h"
#include "auditor/auditmodel.h"
#include "common/dbexecutor.h"
#include "consolefixture.h"
#include "deadletters/deadlettermodel.h"
#include "destinations/destinationmodel.h"
#include "detail/jsontreemodel.h"
#include "events/eventtablemodel.h"
#include "query/destinationstats.h"
#include "query/opsstats.h"
#include "rejections/rejectionmodel.h"
#include "testdb.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTest>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

namespace {
constexpr qint64 kBase = 1'750'000'000'000;
constexpr int kWait = 20'000;
} // namespace

// Every console model under QAbstractItemModelTester, against both engines, plus the events
// model's paging contract: estimate first, exact later, bounded cache, rows reachable anywhere,
// and new events that wait to be asked for.
class TstConsoleModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void unfilteredListStartsEstimatedAndBecomesExact();
    void filteredListGrowsThenBecomesExact();
    void oldestFirstListsTheSameRowsBackwards_data();
    void oldestFirstListsTheSameRowsBackwards();
    void farRowsLoadOnDemandAndTheCacheStaysBounded();
    void newEventsWaitAndKeepTheSelection();
    void eventsThatCommitLateAreCountedAndShown();
    void refreshPicksUpChangedStatuses();
    void jsonTreeModel();
    void deadLetterModel();
    void destinationModel();
    void rejectionModelFetchesMore();
    void auditModelFiltersPagesAndAppendsNew();

private:
    QList<qint64> idsFor(const QString &where);
    bool loadAllRows(EventTableModel &model, QList<qint64> *ids);

    std::unique_ptr<TestDatabase> m_t;
    std::unique_ptr<Db> m_writer;
    ConsoleFixture::Scenario m_s;
    std::unique_ptr<DbExecutor> m_pages;
    std::unique_ptr<DbExecutor> m_indexer;
};

void TstConsoleModels::initTestCase()
{
    QString error;
    m_t = TestDatabase::create(&error);
    QVERIFY2(m_t, qPrintable(error));
    m_writer = m_t->open(QStringLiteral("writer"));
    ConsoleFixture fx(*m_writer);
    m_s = fx.addScenario(kBase);
    fx.addBulk(3'000, kBase + 100'000);
    QVERIFY2(fx.lastError().isEmpty(), qPrintable(fx.lastError()));
    // Gaps in the ids: the first paint's estimate is then wrong and must be corrected.
    QVERIFY(succeeded(
        m_writer->exec(QStringLiteral("DELETE FROM events WHERE source = 'bulk' AND id % 97 = 0")), &error));
}

void TstConsoleModels::init()
{
    m_pages = std::make_unique<DbExecutor>(QStringLiteral("pages"));
    m_indexer = std::make_unique<DbExecutor>(QStringLiteral("index"));
    QString openError = QStringLiteral("pending");
    m_pages->open(m_t->url(), this, [&openError](const QString &e) { openError = e; });
    QTRY_VERIFY_WITH_TIMEOUT(openError != u"pending", kWait);
    QVERIFY2(openError.isEmpty(), qPrintable(openError));
    openError = QStringLiteral("pending");
    m_indexer->open(m_t->url(), this, [&openError](const QString &e) { openError = e; });
    QTRY_VERIFY_WITH_TIMEOUT(openError != u"pending", kWait);
    QVERIFY2(openError.isEmpty(), qPrintable(openError));
}

void TstConsoleModels::cleanup()
{
    m_pages.reset();
    m_indexer.reset();
}

QList<qint64> TstConsoleModels::idsFor(const QString &where)
{
    QList<qint64> ids;
    QSqlQuery q(m_writer->handle());
    q.exec(QStringLiteral("SELECT id FROM events %1 ORDER BY id DESC").arg(where));
    while (q.next())
        ids.append(q.value(0).toLongLong());
    return ids;
}

bool TstConsoleModels::loadAllRows(EventTableModel &model, QList<qint64> *ids)
{
    ids->clear();
    for (int row = 0; row < model.rowCount(); ++row) {
        const EventRow *r = model.eventAtRow(row);
        QDeadlineTimer deadline(kWait);
        while (!r && !deadline.hasExpired()) {
            QTest::qWait(1);
            r = model.eventAtRow(row);
        }
        if (!r)
            return false;
        ids->append(r->id);
    }
    return true;
}

void TstConsoleModels::unfilteredListStartsEstimatedAndBecomesExact()
{
    EventTableModel model(m_pages.get(), m_indexer.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy counts(&model, &EventTableModel::countChanged);
    model.setFilter({});
    QTRY_VERIFY_WITH_TIMEOUT(counts.size() >= 1, kWait);
    const QList<qint64> expected = idsFor(QString());
    // First paint: the id span, not a count.
    QCOMPARE(counts.first().at(0).toLongLong(), expected.first() - expected.last() + 1);
    QVERIFY(
        counts.first().at(1).value<EventTableModel::CountKind>() == EventTableModel::CountKind::Estimated);
    QTRY_VERIFY_WITH_TIMEOUT(model.countKind() == EventTableModel::CountKind::Exact, kWait);
    QCOMPARE(model.rowCount(), int(expected.size()));
    QCOMPARE(model.data(model.index(0, EventTableModel::IdColumn), EventTableModel::EventIdRole).toLongLong(),
        expected.first());
    QList<qint64> ids;
    QVERIFY(loadAllRows(model, &ids));
    QCOMPARE(ids, expected);
}

void TstConsoleModels::filteredListGrowsThenBecomesExact()
{
    EventTableModel model(m_pages.get(), m_indexer.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    EventFilter f;
    f.source = QStringLiteral("bulk");
    QSignalSpy counts(&model, &EventTableModel::countChanged);
    model.setFilter(f);
    QTRY_VERIFY_WITH_TIMEOUT(counts.size() >= 1, kWait);
    QVERIFY(counts.first().at(1).value<EventTableModel::CountKind>() == EventTableModel::CountKind::Growing);
    QCOMPARE(counts.first().at(0).toLongLong(), qint64(EventTableModel::kPageSize));
    QTRY_VERIFY_WITH_TIMEOUT(model.countKind() == EventTableModel::CountKind::Exact, kWait);
    const QList<qint64> expected = idsFor(QStringLiteral("WHERE source = 'bulk'"));
    QCOMPARE(model.rowCount(), int(expected.size()));
    QList<qint64> ids;
    QVERIFY(loadAllRows(model, &ids));
    QCOMPARE(ids, expected);

    // A filter that matches less than a page is exact at once.
    f.source = QStringLiteral("stripe");
    model.setFilter(f);
    QTRY_VERIFY_WITH_TIMEOUT(model.rowCount() == 1, kWait);
    QVERIFY(model.countKind() == EventTableModel::CountKind::Exact);
    const EventRow *row = model.eventAt(model.index(0, 0));
    QVERIFY(row);
    QCOMPARE(row->id, m_s.failed);
    QCOMPARE(model.data(model.index(0, EventTableModel::StatusColumn)).toString(), QStringLiteral("dead"));
    QVERIFY(model.data(model.index(0, EventTableModel::DownstreamColumn))
                .toString()
                .contains(QStringLiteral("Failed")));
}

void TstConsoleModels::oldestFirstListsTheSameRowsBackwards_data()
{
    QTest::addColumn<QString>("source");
    QTest::newRow("everything (estimated first)") << QString();
    QTest::newRow("filtered (growing first)") << QStringLiteral("bulk");
}

void TstConsoleModels::oldestFirstListsTheSameRowsBackwards()
{
    QFETCH(QString, source);
    EventTableModel model(m_pages.get(), m_indexer.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    EventFilter f;
    f.source = source;
    model.setFilter(f);
    model.setOrder(EventOrder::OldestFirst);
    QTRY_VERIFY_WITH_TIMEOUT(model.countKind() == EventTableModel::CountKind::Exact, kWait);
    const QList<qint64> desc
        = idsFor(source.isEmpty() ? QString() : QStringLiteral("WHERE source = '%1'").arg(source));
    const QList<qint64> expected(desc.rbegin(), desc.rend());
    QCOMPARE(model.rowCount(), int(expected.size()));
    QList<qint64> ids;
    QVERIFY(loadAllRows(model, &ids));
    QCOMPARE(ids, expected);
}

void TstConsoleModels::farRowsLoadOnDemandAndTheCacheStaysBounded()
{
    EventTableModel model(m_pages.get(), m_indexer.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCacheLimit(4);
    model.setFilter({});
    QTRY_VERIFY_WITH_TIMEOUT(model.countKind() == EventTableModel::CountKind::Exact, kWait);
    const QList<qint64> expected = idsFor(QString());
    // A row in the middle: when the exact count replaces the estimate, QAbstractItemModelTester
    // reads the rows next to the inserted or removed range, which loads the last page.
    const int far = int(expected.size()) / 2;
    QVERIFY(!model.eventAtRow(far)); // not loaded yet: asking starts the read
    QCOMPARE(model.data(model.index(far, EventTableModel::IdColumn)).toString(), QStringLiteral("…"));
    QTRY_VERIFY_WITH_TIMEOUT(model.eventAtRow(far) != nullptr, kWait);
    QCOMPARE(model.eventAtRow(far)->id, expected[far]);
    QVERIFY(model.cachedPageCount() <= 3);
    // Walk every page: the cache never grows past its bound.
    int maxCached = 0;
    for (int row = 0; row < model.rowCount(); row += EventTableModel::kPageSize) {
        QTRY_VERIFY_WITH_TIMEOUT(model.eventAtRow(row) != nullptr, kWait);
        QCOMPARE(model.eventAtRow(row)->id, expected[row]);
        maxCached = std::max(maxCached, model.cachedPageCount());
    }
    QVERIFY(model.rowCount() / EventTableModel::kPageSize > 2 * model.cacheLimit());
    QCOMPARE(maxCached, model.cacheLimit());
}

void TstConsoleModels::newEventsWaitAndKeepTheSelection()
{
    EventTableModel model(m_pages.get(), m_indexer.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QItemSelectionModel selection(&model);
    EventFilter f;
    f.source = QStringLiteral("github");
    model.setFilter(f);
    QTRY_VERIFY_WITH_TIMEOUT(
        model.countKind() == EventTableModel::CountKind::Exact && model.rowCount() == 3, kWait);
    selection.setCurrentIndex(
        model.index(1, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    const qint64 selected = model.eventAt(selection.currentIndex())->id;

    ConsoleFixture fx(*m_writer);
    ConsoleFixture::EventSpec e;
    e.receivedAt = kBase + 9'000'000;
    for (int i = 0; i < 3; ++i)
        fx.addEvent(e);
    e.source = QStringLiteral("stripe"); // does not match the filter
    fx.addEvent(e);

    QSignalSpy announced(&model, &EventTableModel::newEventsAvailable);
    model.checkForNewEvents();
    QTRY_VERIFY_WITH_TIMEOUT(!announced.isEmpty(), kWait);
    QCOMPARE(announced.last().at(0).toLongLong(), qint64(3));
    QCOMPARE(model.rowCount(), 3); // nothing moved yet
    QCOMPARE(model.eventAt(selection.currentIndex())->id, selected);

    model.showNewEvents();
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 6, kWait);
    QCOMPARE(selection.currentIndex().row(), 4);
    QCOMPARE(model.eventAt(selection.currentIndex())->id, selected);
    QCOMPARE(model.pendingNewEvents(), qint64(0));
    QVERIFY(model.eventAtRow(0)->id > model.eventAtRow(3)->id);
}

// An event whose id is below the newest shown but that committed after the list was read (ids
// are allocated before commit; several writers commit out of order): counted as new, and shown
// where it belongs when asked for (a reload, not an insertion at the top).
void TstConsoleModels::eventsThatCommitLateAreCountedAndShown()
{
    QString error;
    const qint64 top = idsFor(QString()).first();
    auto insert = [&](qint64 id, qint64 receivedAt) {
        return succeeded(
                   m_writer->exec(QStringLiteral("INSERT INTO events (id, source, provider_event_id, "
                                                 "event_type, received_at, last_seen_at, body, "
                                                 "body_sha256, body_size) VALUES (%1, 'late', 'late-%1', "
                                                 "'late.created', %2, %2, '{}', '', 2)")
                                      .arg(id)
                                      .arg(receivedAt)),
                   &error)
            && succeeded(m_writer->exec(QStringLiteral(
                             "INSERT INTO event_status (event_id, status) VALUES (%1, 'pending')")
                                            .arg(id)),
                &error);
    };
    const qint64 receivedAt = kBase + 20'000'000;
    QVERIFY2(insert(top + 2, receivedAt), qPrintable(error));
    {
        EventTableModel model(m_pages.get(), m_indexer.get());
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        EventFilter f;
        f.source = QStringLiteral("late");
        model.setFilter(f);
        QTRY_VERIFY_WITH_TIMEOUT(model.rowCount() == 1 && model.eventAtRow(0), kWait);
        QCOMPARE(model.eventAtRow(0)->id, top + 2);

        QVERIFY2(insert(top + 1, receivedAt - 10), qPrintable(error)); // allocated first, committed now
        QSignalSpy announced(&model, &EventTableModel::newEventsAvailable);
        model.checkForNewEvents();
        QTRY_VERIFY_WITH_TIMEOUT(!announced.isEmpty(), kWait);
        QCOMPARE(announced.last().at(0).toLongLong(), qint64(1));

        model.showNewEvents();
        QTRY_VERIFY_WITH_TIMEOUT(model.rowCount() == 2 && model.eventAtRow(1), kWait);
        QCOMPARE(model.eventAtRow(0)->id, top + 2);
        QCOMPARE(model.eventAtRow(1)->id, top + 1);
        QCOMPARE(model.pendingNewEvents(), qint64(0));
        // Counted once: after it is shown, the next event is one new event, not two.
        QVERIFY2(insert(top + 3, receivedAt + 10), qPrintable(error));
        announced.clear();
        model.checkForNewEvents();
        QTRY_VERIFY_WITH_TIMEOUT(!announced.isEmpty(), kWait);
        QCOMPARE(announced.last().at(0).toLongLong(), qint64(1));
        model.showNewEvents(); // above the top: inserted there
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 3, kWait);
        QCOMPARE(model.eventAtRow(0)->id, top + 3);
    }
    // Other tests add events with the ids the database hands out.
    QVERIFY2(
        succeeded(
            m_writer->exec(QStringLiteral(
                "DELETE FROM event_status WHERE event_id IN (SELECT id FROM events WHERE source = 'late')")),
            &error),
        qPrintable(error));
    QVERIFY2(succeeded(m_writer->exec(QStringLiteral("DELETE FROM events WHERE source = 'late'")), &error),
        qPrintable(error));
}

void TstConsoleModels::refreshPicksUpChangedStatuses()
{
    EventTableModel model(m_pages.get(), m_indexer.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    EventFilter f;
    f.search = QStringLiteral("gh-pending-1");
    model.setFilter(f);
    QTRY_VERIFY_WITH_TIMEOUT(model.rowCount() == 1 && model.eventAtRow(0), kWait);
    QVERIFY(model.eventAtRow(0)->downstream == DownstreamState::Pending);
    QString error;
    QVERIFY(succeeded(
        m_writer->exec(QStringLiteral("UPDATE deliveries SET status = 'succeeded', downstream_ref = 'REF-9' "
                                      "WHERE event_id = %1")
                           .arg(m_s.pending)),
        &error));
    QVERIFY(succeeded(
        m_writer->exec(QStringLiteral("UPDATE event_status SET status = 'succeeded' WHERE event_id = %1")
                           .arg(m_s.pending)),
        &error));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.refreshRows(0, 0);
    QTRY_VERIFY_WITH_TIMEOUT(!changed.isEmpty(), kWait);
    QVERIFY(model.eventAtRow(0)->downstream == DownstreamState::SucceededWithRef);
    QCOMPARE(model.eventAtRow(0)->downstreamRef, QStringLiteral("REF-9"));
    QCOMPARE(
        model.data(model.index(0, EventTableModel::StatusColumn)).toString(), QStringLiteral("succeeded"));
}

void TstConsoleModels::jsonTreeModel()
{
    JsonTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model.setJson(QByteArrayLiteral("{\"a\":{\"b/c\":[1,\"x\",null]},\"n\":4.5}")));
    QCOMPARE(model.rowCount(), 2);
    const QModelIndex a = model.index(0, 0);
    QCOMPARE(a.data().toString(), QStringLiteral("a"));
    const QModelIndex bc = model.index(0, 0, a);
    QCOMPARE(model.pointerAt(bc), QStringLiteral("/a/b~1c"));
    QCOMPARE(model.rowCount(bc), 3);
    QCOMPARE(model.index(1, JsonTreeModel::ValueColumn, bc).data().toString(), QStringLiteral("x"));
    QCOMPARE(model.index(2, JsonTreeModel::TypeColumn, bc).data().toString(), QStringLiteral("null"));
    QCOMPARE(model.index(1, JsonTreeModel::ValueColumn).data().toString(), QStringLiteral("4.5"));
    QString error;
    QVERIFY(!model.setJson(QByteArrayLiteral("<xml/>"), &error));
    QVERIFY(error.contains(QStringLiteral("not JSON")));
    QCOMPARE(model.rowCount(), 0);
}

void TstConsoleModels::deadLetterModel()
{
    DeadLetterModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QString error;
    auto db = m_t->open(QStringLiteral("dl"), OpenMode::ReadOnly);
    const auto groups = fetchDeadLetterGroups(*db);
    QVERIFY2(groups, qPrintable(groups.error()));
    model.setGroups(*groups);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.total(), qint64(1));
    QCOMPARE(
        model.index(0, DeadLetterModel::CategoryColumn).data().toString(), QStringLiteral("HTTP permanent"));
    QCOMPARE(model.index(0, 0).data(DeadLetterModel::DestinationRole).toString(), QStringLiteral("billing"));
    QList<DeadLetterGroup> two = *groups;
    two.append({ FailureCategory::Timeout, QStringLiteral("crm"), 5, kBase, kBase });
    model.setGroups(two);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.total(), qint64(6));
    model.setGroups({});
    QCOMPARE(model.rowCount(), 0);
}

void TstConsoleModels::destinationModel()
{
    DestinationModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QString error;
    auto db = m_t->open(QStringLiteral("dest"), OpenMode::ReadOnly);
    const qint64 now = kBase + 60'000;
    auto rows = fetchDestinationStatuses(*db, { QStringLiteral("crm") }, now);
    QVERIFY2(rows, qPrintable(rows.error()));
    model.setStatuses(*rows, now);
    QCOMPARE(model.rowCount(), 4); // billing, crm (configured only), fulfillment, sink
    QCOMPARE(model.columnCount(), int(DestinationModel::ColumnCount));
    QCOMPARE(model.rowOf(QStringLiteral("fulfillment")), 2);
    QCOMPARE(model.rowOf(QStringLiteral("nowhere")), -1);
    const QModelIndex crm = model.index(1, DestinationModel::NameColumn);
    QCOMPARE(model.destinationAt(crm)->name, QStringLiteral("crm"));
    QVERIFY(crm.data(Qt::ToolTipRole).toString().contains(QStringLiteral("no deliveries yet")));
    QCOMPARE(model.index(1, DestinationModel::SuccessRateColumn).data().toString(),
        QStringLiteral("— (no attempts)"));
    // An earlier test delivered the pending one; the retrying one is still waiting.
    const DestinationStatus &fulfillment = rows->at(2);
    QCOMPARE(fulfillment.retrying, qint64(1));
    QCOMPARE(model.index(2, 0).data(DestinationModel::BacklogRole).toLongLong(), fulfillment.backlog());
    QCOMPARE(model.index(2, DestinationModel::BacklogColumn).data(Qt::ToolTipRole).toString(),
        QStringLiteral("%1 pending, 0 in flight, 1 retrying").arg(fulfillment.pending));
    QCOMPARE(model.index(2, DestinationModel::LastFailureColumn).data().toString(),
        QStringLiteral("Timeout, 57 s ago"));
    QCOMPARE(model.pausedCount(), 0);

    // Same names: updated in place (no reset), the pause shows with who, when and why.
    QList<DestinationStatus> paused = *rows;
    paused[2].paused = true;
    paused[2].changedBy = QStringLiteral("root");
    paused[2].changedAt = now - 120'000;
    paused[2].reason = QStringLiteral("maintenance");
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setStatuses(paused, now);
    QCOMPARE(reset.size(), 0);
    QCOMPARE(changed.size(), 1);
    QVERIFY(model.index(2, 0).data(DestinationModel::PausedRole).toBool());
    QCOMPARE(model.index(2, DestinationModel::StateColumn).data().toString(), QStringLiteral("Paused"));
    QVERIFY(model.index(2, DestinationModel::StateColumn).data(Qt::BackgroundRole).isValid());
    QCOMPARE(model.index(2, DestinationModel::ChangedColumn).data().toString(),
        QStringLiteral("Paused by root, 2 min ago: maintenance"));
    QCOMPARE(model.pausedCount(), 1);

    paused.removeAt(1);
    model.setStatuses(paused, now);
    QCOMPARE(reset.size(), 1);
    QCOMPARE(model.rowCount(), 3);
    model.setStatuses({}, now);
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.destinationAt(model.index(0, 0)));
}

void TstConsoleModels::rejectionModelFetchesMore()
{
    ConsoleFixture fx(*m_writer);
    for (int i = 0; i < RejectionModel::kPageSize + 10; ++i)
        fx.addRejection(QStringLiteral("github"), QStringLiteral("bad_signature"), 401, kBase + 10'000 + i);
    RejectionModel model(m_pages.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.reload();
    QTRY_VERIFY_WITH_TIMEOUT(model.rowCount() >= RejectionModel::kPageSize, kWait);
    // The first answer is one page; the rest arrives through fetchMore (the tester asks too).
    if (model.canFetchMore({}))
        model.fetchMore({});
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), RejectionModel::kPageSize + 12, kWait);
    QVERIFY(!model.canFetchMore({}));
    QCOMPARE(model.index(0, RejectionModel::ReasonColumn).data().toString(), QStringLiteral("bad_signature"));
    QCOMPARE(model.index(model.rowCount() - 1, RejectionModel::ReasonColumn).data().toString(),
        QStringLiteral("bad_signature")); // the fixture's oldest, from the scenario
}

void TstConsoleModels::auditModelFiltersPagesAndAppendsNew()
{
    // Its own database: a real chain longer than one page, two actors.
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto writer = t->open(QStringLiteral("auditwriter"));
    const int total = AuditModel::kPageSize + 30;
    for (int i = 1; i <= total; ++i) {
        const AuditSeed seed { i % 2 ? QStringLiteral("alice") : QStringLiteral("bob"),
            QStringLiteral("replay_requested"), QStringLiteral("replay:%1").arg(i),
            QStringLiteral("reason %1").arg(i), kBase + i * 1000 };
        QVERIFY2(appendAudit(*writer, seed, &error), qPrintable(error));
    }
    DbExecutor executor(QStringLiteral("audit"));
    QString openError = QStringLiteral("pending");
    executor.open(t->url(), this, [&openError](const QString &e) { openError = e; });
    QTRY_VERIFY_WITH_TIMEOUT(openError != u"pending", kWait);
    QVERIFY2(openError.isEmpty(), qPrintable(openError));

    AuditModel model(&executor);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.reload();
    QTRY_VERIFY_WITH_TIMEOUT(model.rowCount() >= AuditModel::kPageSize, kWait);
    QTRY_VERIFY_WITH_TIMEOUT(!model.isLoading(), kWait);
    while (model.canFetchMore({})) {
        model.fetchMore({});
        QTRY_VERIFY_WITH_TIMEOUT(!model.isLoading(), kWait);
    }
    QCOMPARE(model.rowCount(), total);
    QCOMPARE(model.index(0, AuditModel::SeqColumn).data().toLongLong(), qint64(1));
    QCOMPARE(model.entryAt(model.index(total - 1, 0))->seq, qint64(total));

    // A filter reloads with only the matching rows, oldest first.
    audit::AuditQuery filter;
    filter.actor = QStringLiteral("bob");
    filter.sinceMs = kBase + 11'000;
    model.setFilter(filter);
    QTRY_VERIFY_WITH_TIMEOUT(!model.isLoading() && model.rowCount() > 0, kWait);
    while (model.canFetchMore({})) {
        model.fetchMore({});
        QTRY_VERIFY_WITH_TIMEOUT(!model.isLoading(), kWait);
    }
    QCOMPARE(model.rowCount(), (total - 10) / 2);
    QCOMPARE(model.index(0, AuditModel::SeqColumn).data().toLongLong(), qint64(12));
    QCOMPARE(model.index(0, AuditModel::ActorColumn).data().toString(), QStringLiteral("bob"));

    // Live refresh: a new matching entry is appended, a non-matching one is not, nothing reloads.
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    const int before = model.rowCount();
    QVERIFY(appendAudit(*writer,
        { QStringLiteral("bob"), QStringLiteral("x"), QString(), QString(), kBase + 900'000 }, &error));
    QVERIFY(appendAudit(*writer,
        { QStringLiteral("carol"), QStringLiteral("x"), QString(), QString(), kBase + 900'001 }, &error));
    model.fetchNewer();
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), before + 1, kWait);
    QTRY_VERIFY_WITH_TIMEOUT(!model.isLoading(), kWait);
    QCOMPARE(model.entryAt(model.index(before, 0))->seq, qint64(total + 1));
    QCOMPARE(resets.size(), 0);

    // The entry the verifier names is marked, and the rows after it.
    model.setFirstBadSeq(total + 1);
    QVERIFY(model.index(before, 0).data(Qt::BackgroundRole).isValid());
    QVERIFY(!model.index(0, 0).data(Qt::BackgroundRole).isValid());
}

QTEST_MAIN(TstConsoleModels)
#include "tst_consolemodels.moc"
