// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "approvals/approvalmodel.h"
#include "auditchainfixture.h"
#include "auditor/auditmodel.h"
#include "common/dbexecutor.h"
#include "common/plaintooltip.h"
#include "consolefixture.h"
#include "deadletters/deadlettermodel.h"
#include "destinations/destinationmodel.h"
#include "detail/jsontreemodel.h"
#include "events/eventtablemodel.h"
#include "incidents/incidentmodel.h"
#include "query/destinationstats.h"
#include "query/opsstats.h"
#include "reconcile/reconcilerunmodel.h"
#include "rejections/rejectionmodel.h"
#include "replays/replayitemsmodel.h"
#include "replays/replaylistmodel.h"
#include "storage/reconcilestore.h"
#include "testdb.h"
#include "tooltipsweep.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTest>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

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
    void reconcileRunModel();
    void rejectionModelFetchesMore();
    void auditModelFiltersPagesAndAppendsNew();
    void reconciledEventsAreMarkedAndFiltered();
    void plainToolTipShowsTheTextItself_data();
    void plainToolTipShowsTheTextItself();
    void everyModelsToolTipsShowHostileTextLiterally_data();
    void everyModelsToolTipsShowHostileTextLiterally();
    void jsonTreeMemoryStaysProportionalToTheBody();

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

// An event a reconciliation recovered is marked in the list (the source cell says so, to the eye
// and to a screen reader) and is what the origin filter finds; webhooks are what it leaves out.
void TstConsoleModels::reconciledEventsAreMarkedAndFiltered()
{
    ConsoleFixture fx(*m_writer);
    ConsoleFixture::EventSpec e;
    e.source = QStringLiteral("stripe");
    e.type = QStringLiteral("payment_intent.succeeded");
    e.providerId = QStringLiteral("evt_recovered_1");
    e.verifiedBy = QStringLiteral(""); // listed by the API, not signed
    e.origin = QStringLiteral("reconciled");
    e.receivedAt = kBase + 500'000;
    const qint64 id = fx.addEvent(e);
    QVERIFY2(id > 0, qPrintable(fx.lastError()));
    auto removeIt = qScopeGuard([&] {
        QString error;
        QVERIFY2(
            succeeded(m_writer->exec(QStringLiteral("DELETE FROM events WHERE id = %1").arg(id)), &error),
            qPrintable(error));
    });

    EventTableModel model(m_pages.get(), m_indexer.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    EventFilter reconciled;
    reconciled.origin = QStringLiteral("reconciled");
    model.setFilter(reconciled);
    QTRY_VERIFY_WITH_TIMEOUT(
        model.countKind() == EventTableModel::CountKind::Exact && !model.isLoading(), kWait);
    QCOMPARE(model.rowCount(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(model.eventAtRow(0), kWait);
    const QModelIndex source = model.index(0, EventTableModel::SourceColumn);
    QCOMPARE(source.data(EventTableModel::EventIdRole).toLongLong(), id);
    QCOMPARE(source.data(EventTableModel::OriginRole).toString(), QStringLiteral("reconciled"));
    QCOMPARE(source.data().toString(), QStringLiteral("stripe · reconciled"));
    QCOMPARE(source.data(Qt::AccessibleTextRole).toString(),
        QStringLiteral("stripe, recovered by reconciliation"));
    QVERIFY(source.data(Qt::ToolTipRole).toString().contains(QStringLiteral("reconciliation run found it")));

    // Webhooks only: every event but that one, each shown with its source alone.
    EventFilter webhooks;
    webhooks.origin = QStringLiteral("webhook");
    webhooks.source = QStringLiteral("stripe");
    model.setFilter(webhooks);
    QTRY_VERIFY_WITH_TIMEOUT(
        model.countKind() == EventTableModel::CountKind::Exact && !model.isLoading(), kWait);
    QCOMPARE(model.rowCount(),
        int(idsFor(QStringLiteral("WHERE source = 'stripe' AND origin = 'webhook'")).size()));
    QVERIFY(model.rowCount() > 0);
    QTRY_VERIFY_WITH_TIMEOUT(model.eventAtRow(0), kWait);
    QCOMPARE(model.index(0, EventTableModel::SourceColumn).data().toString(), QStringLiteral("stripe"));
    QCOMPARE(model.index(0, EventTableModel::SourceColumn).data(Qt::AccessibleTextRole).toString(),
        QStringLiteral("stripe"));
    QVERIFY(!model.index(0, EventTableModel::SourceColumn).data(Qt::ToolTipRole).isValid());
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
    two.append({ FailureCategory::Timeout, QStringLiteral("crm"), 5, kBase, kBase,
        QStringLiteral("no answer within 10 s\nafter the request was sent") });
    model.setGroups(two);
    QCOMPARE(model.rowCount(), 2);
    // The group says what went wrong most recently, on one line; an empty one says so plainly.
    QCOMPARE(model.index(1, DeadLetterModel::LatestErrorColumn).data().toString(),
        QStringLiteral("no answer within 10 s after the request was sent"));
    QCOMPARE(model.index(0, DeadLetterModel::LatestErrorColumn).data().toString(),
        QStringLiteral("HTTP 410 Gone"));
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

// Each source's newest run and a source's recent runs, read from reconcile_runs and shown as the
// Reconciliation page shows them: what was checked, missing and recovered, or why it failed.
void TstConsoleModels::reconcileRunModel()
{
    const qint64 now = kBase + 7'200'000;
    ConsoleFixture fx(*m_writer);
    ConsoleFixture::RunSpec run;
    run.startedAt = now - 3'600'000;
    run.finishedAt = now - 3'590'000;
    run.checked = 1'204;
    const qint64 first = fx.addReconcileRun(run); // stripe: nothing missed
    run.startedAt = now - 600'000;
    run.finishedAt = now - 598'000;
    run.missing = 3;
    run.recovered = 3;
    run.requestedBy = QStringLiteral("ana-operator");
    const qint64 newest = fx.addReconcileRun(run); // stripe: three recovered, asked for by ana
    ConsoleFixture::RunSpec gh;
    gh.source = QStringLiteral("github");
    gh.provider = QStringLiteral("github");
    gh.startedAt = now - 120'000;
    gh.finishedAt = now - 119'000;
    gh.status = QStringLiteral("failed");
    gh.error = QStringLiteral("GitHub answered 401 Bad credentials\nGET /repos/acme/shop/hooks/1/deliveries");
    fx.addReconcileRun(gh);
    ConsoleFixture::RunSpec running;
    running.source = QStringLiteral("shopify");
    running.startedAt = now - 4'000;
    running.status = QStringLiteral("running");
    fx.addReconcileRun(running);
    QVERIFY2(fx.lastError().isEmpty(), qPrintable(fx.lastError()));

    auto db = m_t->open(QStringLiteral("reconcile"), OpenMode::ReadOnly);
    auto latest = reconcile::lastRunPerSource(*db);
    QVERIFY2(latest, qPrintable(latest.error()));
    ReconcileRunModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRuns(*latest, now);
    QCOMPARE(model.rowCount(), 3); // by source name: github, shopify, stripe (its newest run only)
    QCOMPARE(model.columnCount(), int(ReconcileRunModel::ColumnCount));
    auto cell = [&model](int row, int column) { return model.index(row, column).data().toString(); };
    QCOMPARE(model.rowOfSource(QStringLiteral("stripe")), 2);
    QCOMPARE(model.runAt(model.index(2, 0))->id, newest);
    QCOMPARE(cell(2, ReconcileRunModel::StartedColumn), QStringLiteral("10 min ago"));
    QCOMPARE(cell(2, ReconcileRunModel::StatusColumn), QStringLiteral("OK"));
    QCOMPARE(cell(2, ReconcileRunModel::CheckedColumn), QStringLiteral("1,204"));
    QCOMPARE(cell(2, ReconcileRunModel::MissingColumn), QStringLiteral("3"));
    QCOMPARE(cell(2, ReconcileRunModel::RecoveredColumn), QStringLiteral("3"));
    QCOMPARE(cell(2, ReconcileRunModel::OutcomeColumn), QStringLiteral("3 missing, all recovered"));
    QVERIFY(model.index(2, ReconcileRunModel::StartedColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("asked for by ana-operator")));
    // A failed run says why, in the receiver's words (first line; all of it in the tooltip).
    QCOMPARE(cell(0, ReconcileRunModel::StatusColumn), QStringLiteral("Failed"));
    QCOMPARE(cell(0, ReconcileRunModel::OutcomeColumn),
        QStringLiteral("Failed: GitHub answered 401 Bad credentials"));
    QCOMPARE(model.index(0, ReconcileRunModel::OutcomeColumn).data(Qt::ToolTipRole).toString(), gh.error);
    QCOMPARE(cell(0, ReconcileRunModel::CheckedColumn), QStringLiteral("—"));
    QCOMPARE(model.index(0, ReconcileRunModel::StatusColumn).data(Qt::AccessibleTextRole).toString(),
        QStringLiteral("Reconciliation Failed"));
    QVERIFY(model.index(0, ReconcileRunModel::StatusColumn).data(Qt::BackgroundRole).isValid());
    QCOMPARE(cell(1, ReconcileRunModel::OutcomeColumn), QStringLiteral("Running for 4 s"));
    QVERIFY(model.anyRunning());

    // One source's recent runs, newest first, in keyset pages.
    auto recent = reconcile::listRuns(*db, QStringLiteral("stripe"), std::nullopt, 50);
    QVERIFY2(recent, qPrintable(recent.error()));
    QCOMPARE(recent->size(), 2);
    QCOMPARE(recent->at(0).id, newest);
    QCOMPARE(recent->at(1).id, first);
    auto older = reconcile::listRuns(*db, QStringLiteral("stripe"), newest, 1);
    QVERIFY2(older, qPrintable(older.error()));
    QCOMPARE(older->size(), 1);
    QCOMPARE(older->at(0).id, first);
    ReconcileRunModel runs;
    QAbstractItemModelTester runsTester(&runs, QAbstractItemModelTester::FailureReportingMode::QtTest);
    runs.setRuns(*recent, now);
    QCOMPARE(runs.index(1, ReconcileRunModel::OutcomeColumn).data().toString(),
        QStringLiteral("Nothing missed (1,204 checked)"));
    QVERIFY(runs.index(1, ReconcileRunModel::StartedColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("on its schedule")));
    QVERIFY(!runs.anyRunning());

    // The same runs again: updated in place, so the selection stays put.
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.setRuns(*latest, now + 1'000);
    QCOMPARE(reset.size(), 0);
    QCOMPARE(cell(1, ReconcileRunModel::OutcomeColumn), QStringLiteral("Running for 5 s"));
    QString error;
    QVERIFY2(
        succeeded(m_writer->exec(QStringLiteral("DELETE FROM reconcile_runs")), &error), qPrintable(error));
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

void TstConsoleModels::plainToolTipShowsTheTextItself_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("image") << QStringLiteral("<img src=x width=3000>");
    QTest::newRow("bold") << QStringLiteral("<b>bold</b>");
    QTest::newRow("entity") << QStringLiteral("&lt;");
    QTest::newRow("lines and spaces")
        << QStringLiteral("/hooks/<table><tr><td>x</td></tr></table>\n  two  spaces");
    QTest::newRow("plain") << QStringLiteral("a < b & c > d");
    QTest::newRow("markup on a later line") << QStringLiteral("first\n<b>second</b>");
}

// The one helper every data-bearing tooltip goes through: QToolTip shows its result as exactly
// the text given, whether or not Qt would have taken that text for markup.
void TstConsoleModels::plainToolTipShowsTheTextItself()
{
    QFETCH(QString, text);
    const QString tip = plainToolTip(text);
    QCOMPARE(shownToolTip(tip), text);
    if (!Qt::mightBeRichText(text))
        QCOMPARE(tip, text); // ordinary text is left as it is
}

void TstConsoleModels::everyModelsToolTipsShowHostileTextLiterally_data()
{
    QTest::addColumn<QString>("hostile");
    QTest::newRow("image") << QStringLiteral("<img src=x width=3000>");
    QTest::newRow("bold") << QStringLiteral("<b>bold</b>");
    QTest::newRow("entity") << QStringLiteral("&lt;");
}

// Every item model of the console, fed `hostile` in every text field through the loader or
// setter the console uses (the database for the list pages, the admin API's JSON for the
// replay pages): no tooltip renders it as markup. Unauthenticated senders choose some of
// these texts (a rejected request's path is its detail), webhook senders others (keys, types).
void TstConsoleModels::everyModelsToolTipsShowHostileTextLiterally()
{
    QFETCH(QString, hostile);
    const QString &h = hostile;
    const qint64 now = kBase + 3'600'000;
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto writer = t->open(QStringLiteral("hostilewriter"));
    ConsoleFixture fx(*writer);
    for (int seen : { 1, 2 }) {
        ConsoleFixture::EventSpec e;
        e.source = h;
        e.type = h;
        e.providerId = seen == 1 ? h : h + QStringLiteral(" again");
        e.seenCount = seen;
        e.status = QStringLiteral("dead");
        e.receivedAt = now - 120'000 + seen;
        const qint64 eventId = fx.addEvent(e);
        ConsoleFixture::DeliverySpec d;
        d.destination = h;
        d.status = QStringLiteral("dead");
        d.attemptCount = 1;
        d.lastCategory = QStringLiteral("http_permanent");
        d.lastError = h;
        d.downstreamRef = h;
        d.deadAt = now - 60'000;
        d.createdAt = e.receivedAt;
        const qint64 deliveryId = fx.addDelivery(eventId, d);
        ConsoleFixture::AttemptSpec a;
        a.startedAt = now - 60'000;
        a.statusCode = 410;
        a.category = QStringLiteral("http_permanent");
        a.explanation = h;
        fx.addAttempt(deliveryId, a);
    }
    fx.addRejection(h, h, 404, now - 30'000, h);
    QVERIFY2(fx.lastError().isEmpty(), qPrintable(fx.lastError()));
    const audit::AuditRecord record { h, h, h, h, h, QJsonObject { { h, h } } };
    QVERIFY2(withTransaction(*writer, [&] { return audit::appendAuditEntry(*writer, record, now - 10'000); }),
        "audit entry");

    DbExecutor executor(QStringLiteral("hostile"));
    QString openError = QStringLiteral("pending");
    executor.open(t->url(), this, [&openError](const QString &e) { openError = e; });
    QTRY_VERIFY_WITH_TIMEOUT(openError != u"pending", kWait);
    QVERIFY2(openError.isEmpty(), qPrintable(openError));

    ToolTipSweep sweep(h);
    auto sweepModel = [&](const QAbstractItemModel &model, const QString &name, bool carriesData) {
        const int before = sweep.carrying;
        sweep.checkModel(model, name);
        if (carriesData && sweep.carrying == before)
            sweep.problems.append(name + QStringLiteral(": no tooltip showed the text at all"));
    };

    EventTableModel events(&executor, &executor);
    events.setFilter({});
    QTRY_VERIFY_WITH_TIMEOUT(events.countKind() == EventTableModel::CountKind::Exact, kWait);
    QCOMPARE(events.rowCount(), 2);
    QTRY_VERIFY_WITH_TIMEOUT(events.eventAtRow(0) && events.eventAtRow(1), kWait);
    sweepModel(events, QStringLiteral("events"), true);

    RejectionModel rejections(&executor);
    rejections.reload();
    QTRY_COMPARE_WITH_TIMEOUT(rejections.rowCount(), 1, kWait);
    sweepModel(rejections, QStringLiteral("rejections"), true);

    AuditModel audit(&executor);
    audit.reload();
    QTRY_VERIFY_WITH_TIMEOUT(audit.rowCount() == 1 && !audit.isLoading(), kWait);
    sweepModel(audit, QStringLiteral("audit"), true);

    auto db = t->open(QStringLiteral("hostilereader"), OpenMode::ReadOnly);
    DeadLetterModel deadLetters;
    const auto groups = fetchDeadLetterGroups(*db);
    QVERIFY2(groups, qPrintable(groups.error()));
    deadLetters.setGroups(*groups);
    QCOMPARE(deadLetters.rowCount(), 1);
    sweepModel(deadLetters, QStringLiteral("dead letters"), false); // its tooltips carry no text

    DestinationModel destinations;
    auto statuses = fetchDestinationStatuses(*db, { h }, now);
    QVERIFY2(statuses, qPrintable(statuses.error()));
    QCOMPARE(statuses->size(), 1);
    QVERIFY(statuses->first().lastFailureAt);
    (*statuses)[0].paused = true;
    (*statuses)[0].changedBy = h;
    (*statuses)[0].changedAt = now - 5'000;
    (*statuses)[0].reason = h;
    destinations.setStatuses(*statuses, now);
    sweepModel(destinations, QStringLiteral("destinations"), true);

    ConsoleFixture::RunSpec failedRun;
    failedRun.source = h;
    failedRun.provider = h;
    failedRun.startedAt = now - 20'000;
    failedRun.finishedAt = now - 19'000;
    failedRun.status = QStringLiteral("failed");
    failedRun.error = h;
    failedRun.requestedBy = h;
    fx.addReconcileRun(failedRun);
    QVERIFY2(fx.lastError().isEmpty(), qPrintable(fx.lastError()));
    ReconcileRunModel reconcileRuns;
    auto runs = reconcile::lastRunPerSource(*db);
    QVERIFY2(runs, qPrintable(runs.error()));
    QCOMPARE(runs->size(), 1);
    reconcileRuns.setRuns(*runs, now);
    sweepModel(reconcileRuns, QStringLiteral("reconciliation runs"), true);

    IncidentModel incidents;
    Incident incident;
    incident.id = 1;
    incident.destination = h;
    incident.category = h;
    incident.openedAt = now - 50'000;
    incident.count = incident.countAtOpen = 2;
    incident.acknowledgedBy = h;
    incident.acknowledgedAt = now - 40'000;
    incident.note = h;
    incidents.setIncidents({ incident });
    sweepModel(incidents, QStringLiteral("incidents"), true);

    // The admin API's answers, as the replay pages and the approvals inbox parse them.
    QList<ReplayRecord> replays;
    QList<ReplayRecord> requests;
    qint64 id = 0;
    for (const QString &status : { h, QStringLiteral("halted"), QStringLiteral("rejected"),
             QStringLiteral("approved"), QStringLiteral("cancelled"), QStringLiteral("pending_approval") }) {
        const QJsonObject o { { QStringLiteral("id"), ++id }, { QStringLiteral("status"), status },
            { QStringLiteral("requested_by"), h }, { QStringLiteral("decided_by"), h },
            { QStringLiteral("decision_reason"), h }, { QStringLiteral("reason"), h },
            { QStringLiteral("ticket"), h }, { QStringLiteral("effect"), h },
            { QStringLiteral("halt_reason"), h }, { QStringLiteral("count"), 3 },
            { QStringLiteral("created_at"), QStringLiteral("2025-06-15T12:00:00Z") },
            { QStringLiteral("approval_expires_at"), QStringLiteral("2025-06-16T12:00:00Z") } };
        replays.append(*ReplayRecord::fromJson(o));
        requests.append(*ReplayRecord::fromJson(o));
    }
    ReplayListModel replayList;
    replayList.setReplays(replays, QString());
    sweepModel(replayList, QStringLiteral("replays"), true);
    ApprovalModel approvals;
    approvals.setRequests(requests, h, now);
    sweepModel(approvals, QStringLiteral("approvals"), false); // its tooltips carry no text

    QList<ReplayItem> items;
    for (const QString &state : { h, QStringLiteral("skipped"), QStringLiteral("queued") }) {
        QJsonObject o { { QStringLiteral("delivery_id"), ++id }, { QStringLiteral("destination"), h },
            { QStringLiteral("state"), state }, { QStringLiteral("frozen_status"), h },
            { QStringLiteral("current_status"), h }, { QStringLiteral("skip_reason"), h },
            { QStringLiteral("frozen_outcome_unknown"), true } };
        if (state != h)
            o.insert(QStringLiteral("event_id"), id);
        items.append(*ReplayItem::fromJson(o));
    }
    ReplayItemsModel replayItems;
    replayItems.setItems(1, items, std::nullopt);
    sweepModel(replayItems, QStringLiteral("replay items"), false); // its tooltips carry no text
    ReplayItemsModel frozen(nullptr, ReplayItemsModel::View::FrozenSelection);
    frozen.setItems(items);
    sweepModel(frozen, QStringLiteral("frozen selection"), false); // its tooltips carry no text

    // A payload whose key names and values are the text, nested. Its tooltips are JSON
    // pointers, which spell '~' and '/' in a key as "~0" and "~1".
    JsonTreeModel json;
    const QJsonObject body { { h, QJsonObject { { h, QJsonArray { h, 1 } } } },
        { QStringLiteral("plain"), h } };
    QVERIFY(json.setJson(QJsonDocument(body).toJson(QJsonDocument::Compact)));
    ToolTipSweep pointers(QString(h).replace(u'~', QLatin1String("~0")).replace(u'/', QLatin1String("~1")));
    pointers.checkModel(json, QStringLiteral("payload"));
    if (pointers.carrying == 0)
        pointers.problems.append(QStringLiteral("payload: no tooltip showed the text at all"));
    const bool modelsClean = sweep.clean();
    const bool payloadClean = pointers.clean();
    QVERIFY2(modelsClean && payloadClean, "a tooltip shows the text as markup (see the warnings)");
}

namespace {

// Bytes the allocator has handed out and not had back: the main arena (the GUI thread's) and
// every mmapped chunk.
std::optional<qint64> heldHeapBytes()
{
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
    const struct mallinfo2 m = mallinfo2();
    return qint64(m.uordblks + m.hblkhd);
#else
    return std::nullopt;
#endif
}

// `depth` objects nested in one another; at each level a long key holding the next level and
// a long key holding a short string, both with '~' and '/' that a JSON pointer escapes.
QByteArray deepBody(int depth, int keyLength, QStringList *chainKeys)
{
    QByteArray body;
    auto longKey = [keyLength](const QString &head) -> QString {
        return head + QString(keyLength - head.size(), u'x');
    };
    for (int level = 0; level < depth; ++level) {
        const QString chain = longKey(QStringLiteral("k%1~/").arg(level));
        chainKeys->append(chain);
        body += "{\"" + longKey(QStringLiteral("leaf%1/~").arg(level)).toUtf8() + "\":\"v\",\""
            + chain.toUtf8() + "\":";
    }
    body += "{\"end\":true}";
    body += QByteArray(depth, '}');
    return body;
}

// What the model holds after reading `body` (the parsed document included).
std::optional<qint64> heldForBody(const QByteArray &body)
{
    JsonTreeModel model;
    const auto before = heldHeapBytes();
    if (!before || !model.setJson(body))
        return std::nullopt;
    return *heldHeapBytes() - *before;
}

} // namespace

// A 1 MiB body of deeply nested long keys: the payload tree holds memory in proportion to the
// body (its keys once, not each node's whole pointer, which would be quadratic: about 160 MB
// for this body), and still answers a deep node's RFC 6901 pointer.
void TstConsoleModels::jsonTreeMemoryStaysProportionalToTheBody()
{
    if (!heldHeapBytes())
        QSKIP("the allocator does not report what it holds (not glibc, or under AddressSanitizer)");
    const int keyLength = 2'000;
    QStringList halfKeys;
    QStringList keys;
    const QByteArray half = deepBody(100, keyLength, &halfKeys);
    const QByteArray body = deepBody(200, keyLength, &keys);
    QVERIFY(body.size() > 800'000);

    const std::optional<qint64> heldHalf = heldForBody(half);
    const std::optional<qint64> held = heldForBody(body);
    QVERIFY(heldHalf && held);
    qInfo("body %lld bytes: the model holds %lld bytes (%lld for the body half as deep)", qint64(body.size()),
        *held, *heldHalf);
    QVERIFY2(*held < 8 * body.size(), "more than 8 bytes held per byte of body");
    // Twice the body, twice the memory (stored pointers made it four times).
    QVERIFY2(*held < 3 * *heldHalf, "memory grows faster than the body");

    JsonTreeModel model;
    QVERIFY(model.setJson(body));
    QString expected;
    QModelIndex node;
    for (const QString &key : std::as_const(keys)) {
        QModelIndex next;
        for (int row = 0; row < model.rowCount(node) && !next.isValid(); ++row) {
            if (model.index(row, JsonTreeModel::KeyColumn, node).data().toString() == key)
                next = model.index(row, JsonTreeModel::KeyColumn, node);
        }
        QVERIFY(next.isValid());
        node = next;
        expected += u'/' + QString(key).replace(u'~', QLatin1String("~0")).replace(u'/', QLatin1String("~1"));
    }
    QCOMPARE(model.rowCount(node), 1);
    const QModelIndex end = model.index(0, JsonTreeModel::ValueColumn, node);
    expected += QLatin1String("/end");
    QCOMPARE(model.pointerAt(end), expected);
    QCOMPARE(end.data(JsonTreeModel::PointerRole).toString(), expected);
    QCOMPARE(shownToolTip(end.data(Qt::ToolTipRole).toString()), expected);
    QVERIFY2(expected.startsWith(QStringLiteral("/k0~0~1xx")), qPrintable(expected.left(40)));
}

QTEST_MAIN(TstConsoleModels)
#include "tst_consolemodels.moc"
