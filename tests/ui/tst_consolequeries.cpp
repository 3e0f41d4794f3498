// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "auditchainfixture.h"
#include "consolefixture.h"
#include "query/destinationstats.h"
#include "query/eventdetail.h"
#include "query/eventpage.h"
#include "query/opsstats.h"
#include "query/receiverhealth.h"
#include "testdb.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

#include <algorithm>

using namespace redrive;
using namespace redrive::test;

namespace {
constexpr qint64 kBase = 1'750'000'000'000;
}

Q_DECLARE_METATYPE(redrive::audit::AuditQuery)

// The console's read queries against both engines: keyset pages, the page index that replaces
// count(*), the downstream indicator per state, filters, detail, and the aggregates.
class TstConsoleQueries : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void pagesAreKeysetOrderedAndCoverEverything();
    void pageIndexGivesExactCountAndBoundaries_data();
    void pageIndexGivesExactCountAndBoundaries();
    void oldestFirstMirrorsNewestFirst_data();
    void oldestFirstMirrorsNewestFirst();
    void downstreamIndicatorPerState_data();
    void downstreamIndicatorPerState();
    void deadLetterGroupOpensExactlyItsEvents();
    void searchFindsProviderIdAndDownstreamRef_data();
    void searchFindsProviderIdAndDownstreamRef();
    void countsOnlyNewerEvents();
    void detailHasAttemptsNotesAndAudit();
    void deadLetterGroupsAndRejections();
    void overviewBucketsTheWindow();
    void facetsListDistinctValues();
    void readOnlyConnectionRefusesWrites();
    void receiverInstancesAndTheirHealth();
    void receiverHealthWithoutReceivers();
    void destinationStatusesCountEachPart();
    void destinationWindowsMoveWithTheClock_data();
    void destinationWindowsMoveWithTheClock();
    void searchFindsAProviderIdUnderEverySource();
    void auditFiltersMatchOnBothEngines_data();
    void auditFiltersMatchOnBothEngines();
    void auditFilterPagesByKeyset();
    void unknownStoredNamesAreShownAsStored();
    void countsEventsThatCommitLate();

private:
    // A fresh database with five entries for the filter tests (made once).
    bool seedFilterLog();
    std::unique_ptr<TestDatabase> m_audit;
    std::unique_ptr<Db> m_auditDb;
    std::unique_ptr<TestDatabase> m_t;
    std::unique_ptr<Db> m_db;
    ConsoleFixture::Scenario m_s;
    QList<qint64> m_allIdsDesc;
};

void TstConsoleQueries::initTestCase()
{
    QString error;
    m_t = TestDatabase::create(&error);
    QVERIFY2(m_t, qPrintable(error));
    m_db = m_t->open();
    QVERIFY(m_db);
    ConsoleFixture fx(*m_db);
    m_s = fx.addScenario(kBase);
    fx.addBulk(700, kBase + 100'000);
    QVERIFY2(fx.lastError().isEmpty(), qPrintable(fx.lastError()));
    // Gaps, as deleted rows or PostgreSQL sequence skips leave them.
    QVERIFY(succeeded(m_db->exec(QStringLiteral(
                          "DELETE FROM events WHERE id IN (SELECT id FROM events WHERE source = 'bulk' "
                          "ORDER BY id LIMIT 5 OFFSET 300)")),
        &error));
    QSqlQuery q(m_db->handle());
    QVERIFY(q.exec(QStringLiteral("SELECT id FROM events ORDER BY id DESC")));
    while (q.next())
        m_allIdsDesc.append(q.value(0).toLongLong());
    QCOMPARE(m_allIdsDesc.size(), 700 + 5 - 5);
}

void TstConsoleQueries::pagesAreKeysetOrderedAndCoverEverything()
{
    QString error;
    const auto range = eventIdRange(*m_db);
    QVERIFY2(range, qPrintable(range.error()));
    QCOMPARE(range->maxId, m_allIdsDesc.first());
    QCOMPARE(range->minId, m_allIdsDesc.last());
    QList<qint64> seen;
    qint64 from = range->maxId;
    for (int guard = 0; guard < 10; ++guard) {
        const auto page = fetchEventPage(*m_db, {}, from, 256);
        QVERIFY2(page, qPrintable(page.error()));
        for (const EventRow &r : *page)
            seen.append(r.id);
        if (page->size() < 256)
            break;
        from = page->last().id - 1;
    }
    QCOMPARE(seen, m_allIdsDesc);
}

void TstConsoleQueries::pageIndexGivesExactCountAndBoundaries_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<int>("pageSize");
    QTest::newRow("everything, 256") << QString() << 256;
    QTest::newRow("everything, 7") << QString() << 7;
    QTest::newRow("bulk only") << QStringLiteral("source=bulk") << 64;
    QTest::newRow("stripe only") << QStringLiteral("source=stripe") << 256;
    QTest::newRow("nothing") << QStringLiteral("source=nobody") << 256;
    QTest::newRow("dead-lettered at billing")
        << QStringLiteral("delivery_status=dead&destination=billing") << 3;
}

void TstConsoleQueries::pageIndexGivesExactCountAndBoundaries()
{
    QFETCH(QString, query);
    QFETCH(int, pageSize);
    QString field, message, error;
    const auto filter = EventFilter::fromQuery(QUrlQuery(query), &field, &message);
    QVERIFY2(filter, qPrintable(message));
    // The reference answer, computed the slow way.
    QList<qint64> expected;
    qint64 from = m_allIdsDesc.first();
    while (true) {
        const auto page = fetchEventPage(*m_db, *filter, from, 100);
        QVERIFY2(page, qPrintable(page.error()));
        for (const EventRow &r : *page)
            expected.append(r.id);
        if (page->size() < 100)
            break;
        from = page->last().id - 1;
    }
    const auto index = fetchPageIndex(*m_db, *filter, m_allIdsDesc.first(), pageSize);
    QVERIFY2(index, qPrintable(index.error()));
    QCOMPARE(index->count, qint64(expected.size()));
    QCOMPARE(index->boundaries.size(), (expected.size() + pageSize - 1) / pageSize);
    for (qsizetype k = 0; k < index->boundaries.size(); ++k)
        QCOMPARE(index->boundaries[k], expected[k * pageSize]);
}

void TstConsoleQueries::oldestFirstMirrorsNewestFirst_data()
{
    QTest::addColumn<QString>("query");
    QTest::newRow("everything") << QString();
    QTest::newRow("bulk only") << QStringLiteral("source=bulk");
    QTest::newRow("stripe") << QStringLiteral("source=stripe");
}

void TstConsoleQueries::oldestFirstMirrorsNewestFirst()
{
    QFETCH(QString, query);
    QString field, message, error;
    const auto filter = EventFilter::fromQuery(QUrlQuery(query), &field, &message);
    QVERIFY(filter);
    const qint64 top = m_allIdsDesc.first();
    QList<qint64> desc, asc;
    for (qint64 from = top;;) {
        const auto page = fetchEventRange(*m_db, *filter, EventOrder::NewestFirst, from, 0, top, 97);
        QVERIFY2(page, qPrintable(page.error()));
        for (const EventRow &r : *page)
            desc.append(r.id);
        if (page->size() < 97)
            break;
        from = page->last().id - 1;
    }
    for (qint64 from = 0;;) {
        const auto page = fetchEventRange(*m_db, *filter, EventOrder::OldestFirst, from, 0, top, 97);
        QVERIFY2(page, qPrintable(page.error()));
        for (const EventRow &r : *page)
            asc.append(r.id);
        if (page->size() < 97)
            break;
        from = page->last().id + 1;
    }
    QList<qint64> reversed(desc.rbegin(), desc.rend());
    QCOMPARE(asc, reversed);
    const auto index = fetchPageIndex(*m_db, *filter, top, 97, EventOrder::OldestFirst);
    QVERIFY2(index, qPrintable(index.error()));
    QCOMPARE(index->count, qint64(asc.size()));
    for (qsizetype k = 0; k < index->boundaries.size(); ++k)
        QCOMPARE(index->boundaries[k], asc[k * 97]);
    // The ceiling keeps a snapshot: nothing newer than it comes back.
    const auto capped
        = fetchEventRange(*m_db, *filter, EventOrder::OldestFirst, 0, 0, m_allIdsDesc.at(3), 100'000);
    QVERIFY(capped);
    for (const EventRow &r : *capped)
        QVERIFY(r.id <= m_allIdsDesc.at(3));
}

void TstConsoleQueries::downstreamIndicatorPerState_data()
{
    QTest::addColumn<int>("which");
    QTest::addColumn<int>("expected");
    QTest::addColumn<QString>("ref");
    QTest::newRow("succeeded with reference")
        << 0 << int(DownstreamState::SucceededWithRef) << QStringLiteral("ORD-1001");
    QTest::newRow("failed") << 1 << int(DownstreamState::Failed) << QString();
    QTest::newRow("outcome unknown") << 2 << int(DownstreamState::OutcomeUnknown) << QString();
    QTest::newRow("pending") << 3 << int(DownstreamState::Pending) << QString();
    QTest::newRow("no route") << 4 << int(DownstreamState::None) << QString();
}

void TstConsoleQueries::downstreamIndicatorPerState()
{
    QFETCH(int, which);
    QFETCH(int, expected);
    QFETCH(QString, ref);
    const qint64 ids[] = { m_s.succeeded, m_s.failed, m_s.unknown, m_s.pending, m_s.noRoute };
    QString error;
    const auto rows = fetchEventsByIds(*m_db, { ids[which] });
    QVERIFY2(rows && rows->size() == 1, qPrintable(rows.error()));
    QCOMPARE(int(rows->first().downstream), expected);
    QCOMPARE(rows->first().downstreamRef, ref);
}

void TstConsoleQueries::deadLetterGroupOpensExactlyItsEvents()
{
    EventFilter f;
    f.destination = QStringLiteral("billing");
    f.category = QStringLiteral("http_permanent");
    f.deliveryStatus = QStringLiteral("dead");
    QString error;
    auto rows = fetchEventPage(*m_db, f, m_allIdsDesc.first(), 50);
    QVERIFY2(rows, qPrintable(rows.error()));
    QCOMPARE(rows->size(), 1);
    QCOMPARE(rows->first().id, m_s.failed);
    QCOMPARE(rows->first().lastFailure.name(), QStringLiteral("http_permanent"));
    f.deliveryStatus = QStringLiteral("succeeded");
    rows = fetchEventPage(*m_db, f, m_allIdsDesc.first(), 50);
    QVERIFY(rows && rows->isEmpty());
    // The query-string form round-trips, so a saved view keeps the delivery status.
    QString field, message;
    const auto back
        = EventFilter::fromQuery(QUrlQuery(f.toQuery().toString(QUrl::FullyEncoded)), &field, &message);
    QVERIFY2(back, qPrintable(message));
    QVERIFY(*back == f);
    QVERIFY(!EventFilter::fromQuery(QUrlQuery(QStringLiteral("delivery_status=gone")), &field, &message));
    QCOMPARE(field, QStringLiteral("delivery_status"));
}

void TstConsoleQueries::searchFindsProviderIdAndDownstreamRef_data()
{
    QTest::addColumn<QString>("search");
    QTest::addColumn<int>("which");
    QTest::newRow("provider id") << QStringLiteral("evt_failed_1") << 1;
    QTest::newRow("downstream reference") << QStringLiteral("ORD-1001") << 0;
    QTest::newRow("event id") << QString() << 2;
    QTest::newRow("idempotency key") << QStringLiteral("idem-%1-fulfillment") << 3;
}

void TstConsoleQueries::searchFindsProviderIdAndDownstreamRef()
{
    QFETCH(QString, search);
    QFETCH(int, which);
    const qint64 ids[] = { m_s.succeeded, m_s.failed, m_s.unknown, m_s.pending };
    EventFilter f;
    f.search = search.isEmpty() ? QString::number(ids[which])
        : search.contains(u'%') ? search.arg(ids[which])
                                : search;
    QString error;
    const auto rows = fetchEventPage(*m_db, f, m_allIdsDesc.first(), 50);
    QVERIFY2(rows, qPrintable(rows.error()));
    QCOMPARE(rows->size(), 1);
    QCOMPARE(rows->first().id, ids[which]);
}

void TstConsoleQueries::countsOnlyNewerEvents()
{
    QString error;
    const qint64 top = m_allIdsDesc.first();
    QCOMPARE(countEventsAbove(*m_db, {}, top, 100).value_or(-1), qint64(0));
    QCOMPARE(countEventsAbove(*m_db, {}, m_allIdsDesc.at(10), 100).value_or(-1), qint64(10));
    QCOMPARE(countEventsAbove(*m_db, {}, m_allIdsDesc.at(10), 4).value_or(-1), qint64(4)); // capped
    EventFilter stripe;
    stripe.source = QStringLiteral("stripe");
    QCOMPARE(countEventsAbove(*m_db, stripe, 0, 100).value_or(-1), qint64(1));
}

void TstConsoleQueries::detailHasAttemptsNotesAndAudit()
{
    auto d = fetchEventDetail(*m_db, m_s.succeeded);
    QVERIFY2(d && *d, qPrintable(d.error()));
    QCOMPARE((*d)->deliveries.size(), 1);
    const DeliveryRecord &rec = (*d)->deliveries.first();
    QCOMPARE(rec.attempts.size(), 2);
    QCOMPARE(rec.attempts[0].number, 1);
    QCOMPARE(rec.attempts[0].statusCode.value_or(0), 503);
    QCOMPARE(rec.attempts[0].category.name(), QStringLiteral("http_retryable"));
    QCOMPARE(rec.attempts[1].statusCode.value_or(0), 201);
    QCOMPARE(rec.idempotencyKey, QStringLiteral("idem-%1-fulfillment").arg(m_s.succeeded));
    QCOMPARE((*d)->verifiedBy, QStringLiteral("env:GITHUB_WEBHOOK_SECRET"));
    QCOMPARE((*d)->clockSkewMs.value_or(0), qint64(120));
    QVERIFY((*d)->body.startsWith("{\"action\""));

    d = fetchEventDetail(*m_db, m_s.failed);
    QVERIFY2(d && *d, qPrintable(d.error()));
    QCOMPARE((*d)->notes.size(), 1);
    QCOMPARE((*d)->notes.first().author, QStringLiteral("alice"));
    QCOMPARE((*d)->audit.size(), 1);
    QCOMPARE((*d)->audit.first().action, QStringLiteral("note.add"));
    QCOMPARE((*d)->deliveries.first().lastError, QStringLiteral("HTTP 410 Gone"));

    // A replay that included the event's delivery shows up in its audit trail.
    QString e2;
    QVERIFY2(succeeded(
                 m_db->exec(QStringLiteral(
                     "INSERT INTO replays (id, status, selection_hash, requested_by, requester_role, reason, "
                     "item_count, requires_approval, summary, created_at, updated_at) VALUES (41, "
                     "'pending_approval', 'h', 'alice', 'support', 'r', 1, 1, '{}', 0, 0)")),
                 &e2),
        qPrintable(e2));
    QVERIFY2(succeeded(
                 m_db->exec(QStringLiteral(
                     "INSERT INTO replay_items (replay_id, delivery_id, frozen_status) SELECT 41, id, 'dead' "
                     "FROM deliveries WHERE event_id = %1")
                                .arg(m_s.failed)),
                 &e2),
        qPrintable(e2));
    QVERIFY2(
        succeeded(
            m_db->exec(QStringLiteral(
                "INSERT INTO audit_log (seq, at, actor, role, action, target, reason, details, prev_hash, "
                "hash) VALUES (2, 1, 'alice', 'support', 'replay_requested', 'replay:41', 'r', '{}', 'p', 'h')")),
            &e2),
        qPrintable(e2));
    d = fetchEventDetail(*m_db, m_s.failed);
    QVERIFY2(d && *d, qPrintable(d.error()));
    QCOMPARE((*d)->audit.size(), 2);
    QCOMPARE((*d)->audit.last().target, QStringLiteral("replay:41"));

    const auto absent = fetchEventDetail(*m_db, 987654321);
    QVERIFY2(absent, qPrintable(absent.error())); // absent, not broken
    QVERIFY(!*absent);
}

void TstConsoleQueries::deadLetterGroupsAndRejections()
{
    QString error;
    const auto groups = fetchDeadLetterGroups(*m_db);
    QVERIFY2(groups, qPrintable(groups.error()));
    QCOMPARE(groups->size(), 1);
    QCOMPARE(groups->first().category.name(), QStringLiteral("http_permanent"));
    QCOMPARE(groups->first().destination, QStringLiteral("billing"));
    QCOMPARE(groups->first().count, qint64(1));
    QCOMPARE(groups->first().latestError, QStringLiteral("HTTP 410 Gone"));
    {
        // A newer dead letter in the same group: the group shows its error, not the older one's.
        QSqlQuery q(m_db->handle());
        QVERIFY2(
            q.exec(QStringLiteral(
                "INSERT INTO deliveries (event_id, destination, status, attempt_count, idempotency_key, "
                "last_category, last_error, dead_at, created_at, updated_at) SELECT (SELECT min(e.id) FROM events e "
                "WHERE NOT EXISTS (SELECT 1 FROM deliveries x WHERE x.event_id = e.id AND x.destination = "
                "'billing')), destination, "
                "'dead', 1, 'latest-error-probe', last_category, 'HTTP 410: the endpoint is gone (newer)', "
                "dead_at + 1000, created_at, updated_at FROM deliveries WHERE destination = 'billing' AND "
                "status = 'dead'")),
            qPrintable(q.lastError().text()));
        const auto regrouped = fetchDeadLetterGroups(*m_db);
        QVERIFY2(regrouped && regrouped->size() == 1, qPrintable(regrouped.error()));
        QCOMPARE(regrouped->first().count, qint64(2));
        QCOMPARE(regrouped->first().latestError, QStringLiteral("HTTP 410: the endpoint is gone (newer)"));
        QVERIFY(
            q.exec(QStringLiteral("DELETE FROM deliveries WHERE idempotency_key = 'latest-error-probe'")));
    }

    const auto first = fetchRejections(*m_db, 0, 1);
    QVERIFY2(first && first->size() == 1, qPrintable(first.error()));
    QCOMPARE(first->first().reason, QStringLiteral("unknown_source"));
    const auto second = fetchRejections(*m_db, first->first().id, 10);
    QVERIFY2(second && second->size() == 1, qPrintable(second.error()));
    QCOMPARE(second->first().reason, QStringLiteral("bad_signature"));
    QCOMPARE(second->first().statusCode, 401);
}

void TstConsoleQueries::overviewBucketsTheWindow()
{
    QString error;
    const auto o = fetchOverview(*m_db, kBase, kBase + 10'000, 10);
    QVERIFY2(o, qPrintable(o.error()));
    QCOMPARE(o->buckets.size(), 10);
    qint64 received = 0, succeeded = 0, dead = 0;
    for (const OverviewBucket &b : o->buckets) {
        received += b.received;
        succeeded += b.succeeded;
        dead += b.dead;
    }
    QCOMPARE(received, qint64(5));
    QCOMPARE(succeeded, qint64(1));
    QCOMPARE(dead, qint64(1));
    QCOMPARE(o->buckets[0].received, qint64(1));
    QVERIFY(!o->failureCategories.isEmpty());
    QCOMPARE(o->backlog, qint64(2)); // the retrying and the pending delivery
    QCOMPARE(o->oldestPendingSince.value_or(0), kBase + 2'000);
    bool sawBilling = false;
    for (const DestinationHealth &h : o->destinations) {
        if (h.destination == u"billing") {
            sawBilling = true;
            QCOMPARE(h.attempts, qint64(1));
            QCOMPARE(h.successRate(), 0.0);
        }
    }
    QVERIFY(sawBilling);
}

void TstConsoleQueries::facetsListDistinctValues()
{
    QString error;
    const auto f = fetchFilterFacets(*m_db);
    QVERIFY2(f, qPrintable(f.error()));
    QCOMPARE(f->sources,
        (QStringList { QStringLiteral("bulk"), QStringLiteral("github"), QStringLiteral("shopify"),
            QStringLiteral("stripe") }));
    QVERIFY(f->types.contains(QStringLiteral("invoice.paid")));
    QCOMPARE(f->destinations,
        (QStringList { QStringLiteral("billing"), QStringLiteral("fulfillment"), QStringLiteral("sink") }));
}

void TstConsoleQueries::readOnlyConnectionRefusesWrites()
{
    auto ro = m_t->open(QStringLiteral("ro"), OpenMode::ReadOnly);
    QVERIFY(ro);
    QString error;
    QVERIFY(!succeeded(ro->exec(QStringLiteral("DELETE FROM events")), &error));
    QVERIFY(!error.isEmpty());
    QCOMPARE(countEventsAbove(*ro, {}, 0, 1'000'000).value_or(-1), qint64(m_allIdsDesc.size()));
}

void TstConsoleQueries::receiverInstancesAndTheirHealth()
{
    ConsoleFixture fx(*m_db);
    // The scenario's web-1 (FULL, heartbeat base + 50 s) plus: one acknowledging on NORMAL, one
    // silent for ten minutes, and one gone for two days (beyond the listed window).
    fx.addReceiver(QStringLiteral("web-2-instance"), QStringLiteral("web-2"), 77, kBase + 55'000,
        QStringLiteral("sqlite journal_mode=wal synchronous=NORMAL"), false);
    fx.addReceiver(QStringLiteral("silent-instance"), QStringLiteral("web-3"), 12, kBase - 600'000,
        QStringLiteral("postgresql synchronous_commit=on"), true);
    fx.addReceiver(QStringLiteral("gone-instance"), QStringLiteral("web-0"), 9, kBase - 2 * 86'400'000LL,
        QStringLiteral("sqlite journal_mode=wal synchronous=FULL"), true);
    QVERIFY2(fx.lastError().isEmpty(), qPrintable(fx.lastError()));
    const qint64 now = kBase + 60'000;
    QString error;
    const auto found = fetchReceiverInstances(*m_db, now - kReceiverRecentMs);
    QVERIFY2(found, qPrintable(found.error()));
    QStringList hosts;
    for (const ReceiverInstance &r : found->recent)
        hosts.append(r.host);
    QCOMPARE(
        hosts, (QStringList { QStringLiteral("web-2"), QStringLiteral("web-1"), QStringLiteral("web-3") }));
    QCOMPARE(found->newestHeartbeat.value_or(0), kBase + 55'000);
    const ReceiverInstance &web2 = found->recent.first();
    QCOMPARE(web2.pid, qint64(77));
    QCOMPARE(web2.version, QStringLiteral("0.1.0"));
    QCOMPARE(web2.durability, QStringLiteral("sqlite journal_mode=wal synchronous=NORMAL"));
    QVERIFY(!web2.powerLossDurable);
    QVERIFY(found->recent.at(1).powerLossDurable);

    ReceiverHealth h = assessReceivers(*found, now);
    QCOMPARE(h.live.size(), 2);
    QCOMPARE(h.notDurable.size(), 1);
    QCOMPARE(h.notDurable.first().host, QStringLiteral("web-2"));
    QCOMPARE(h.silent.size(), 1);
    QCOMPARE(h.silent.first().host, QStringLiteral("web-3"));
    QVERIFY(!h.silentForMs);
    QVERIFY(!h.neverSeen);
    QVERIFY(!h.healthy());

    // Half an hour later nobody has beaten: the newest heartbeat tells how long it has been, and
    // a silent receiver's durability no longer raises the power-loss warning.
    h = assessReceivers(*found, now + 1'800'000);
    QVERIFY(h.live.isEmpty());
    QVERIFY(h.notDurable.isEmpty());
    QCOMPARE(h.silentForMs.value_or(-1), qint64(1'800'000 + 5'000));
    // A heartbeat stamped a little ahead of this clock (two hosts) is fresh, not negative.
    h = assessReceivers(*found, kBase + 54'000);
    QCOMPARE(h.live.size(), 2);

    QVERIFY(succeeded(
        m_db->exec(QStringLiteral("DELETE FROM receiver_instances WHERE instance_id <> 'web-1-instance'")),
        &error));
    const auto healthy = fetchReceiverInstances(*m_db, now - kReceiverRecentMs);
    QVERIFY2(healthy, qPrintable(healthy.error()));
    QVERIFY(assessReceivers(*healthy, now).healthy());
}

void TstConsoleQueries::receiverHealthWithoutReceivers()
{
    const ReceiverHealth h = assessReceivers(ReceiverInstances {}, kBase);
    QVERIFY(h.neverSeen);
    QVERIFY(!h.silentForMs);
    QVERIFY(!h.healthy());
}

void TstConsoleQueries::destinationStatusesCountEachPart()
{
    QString error;
    QVERIFY2(succeeded(m_db->exec(QStringLiteral(
                           "INSERT INTO destination_state (name, paused, changed_by, changed_at, reason) "
                           "VALUES ('billing', 1, 'root', %1, 'endpoint retired')")
                                      .arg(kBase + 30'000)),
                 &error),
        qPrintable(error));
    const auto rows = fetchDestinationStatuses(
        *m_db, { QStringLiteral("fulfillment"), QStringLiteral("crm") }, kBase + 60'000);
    QVERIFY2(rows, qPrintable(rows.error()));
    QStringList names;
    for (const DestinationStatus &d : *rows)
        names.append(d.name);
    // Seen in deliveries (billing, fulfillment, and sink whose deliveries all succeeded) plus the
    // configured crm that has none yet.
    QCOMPARE(names,
        (QStringList { QStringLiteral("billing"), QStringLiteral("crm"), QStringLiteral("fulfillment"),
            QStringLiteral("sink") }));
    const DestinationStatus &billing = rows->at(0);
    QVERIFY(billing.paused);
    QCOMPARE(billing.changedBy, QStringLiteral("root"));
    QCOMPARE(billing.changedAt.value_or(0), kBase + 30'000);
    QCOMPARE(billing.reason, QStringLiteral("endpoint retired"));
    QCOMPARE(billing.dead, qint64(1));
    QCOMPARE(billing.backlog(), qint64(0));
    QCOMPARE(billing.recentAttempts, qint64(1));
    QCOMPARE(billing.successRate().value_or(-1), 0.0);
    QCOMPARE(billing.lastFailureCategory.name(), QStringLiteral("http_permanent"));
    QVERIFY(!billing.configured);

    const DestinationStatus &crm = rows->at(1);
    QVERIFY(crm.configured);
    QVERIFY(!crm.hasDeliveries);
    QVERIFY(!crm.paused);
    QVERIFY(!crm.successRate());

    const DestinationStatus &fulfillment = rows->at(2);
    QVERIFY(fulfillment.configured && fulfillment.hasDeliveries);
    QCOMPARE(fulfillment.pending, qint64(1));
    QCOMPARE(fulfillment.retrying, qint64(1));
    QCOMPARE(fulfillment.backlog(), qint64(2));
    QCOMPARE(fulfillment.dead, qint64(0));
    QCOMPARE(fulfillment.recentAttempts, qint64(3));
    QCOMPARE(fulfillment.recentSucceeded, qint64(1));
    // The newest failure is the timeout at base + 2.1 s, not the older 503.
    QCOMPARE(fulfillment.lastFailureAt.value_or(0), kBase + 2'100);
    QCOMPARE(fulfillment.lastFailureCategory.name(), QStringLiteral("timeout"));
    QVERIFY(fulfillment.lastFailureExplanation.contains(QStringLiteral("outcome unknown")));

    const DestinationStatus &sink = rows->at(3);
    QVERIFY(sink.hasDeliveries);
    QCOMPARE(sink.backlog(), qint64(0));
    QVERIFY(!sink.lastFailureAt);
    QVERIFY(succeeded(m_db->exec(QStringLiteral("DELETE FROM destination_state")), &error));
}

void TstConsoleQueries::destinationWindowsMoveWithTheClock_data()
{
    QTest::addColumn<qint64>("now");
    QTest::addColumn<qint64>("attempts");
    QTest::addColumn<bool>("failure");
    QTest::newRow("within the hour") << kBase + 60'000 << qint64(3) << true;
    QTest::newRow("two hours later") << kBase + 7'200'000 << qint64(0) << true;
    QTest::newRow("two days later") << kBase + 2 * 86'400'000LL << qint64(0) << false;
}

void TstConsoleQueries::destinationWindowsMoveWithTheClock()
{
    QFETCH(qint64, now);
    QFETCH(qint64, attempts);
    QFETCH(bool, failure);
    QString error;
    const auto rows = fetchDestinationStatuses(*m_db, {}, now);
    QVERIFY2(rows, qPrintable(rows.error()));
    const auto it = std::find_if(
        rows->cbegin(), rows->cend(), [](const DestinationStatus &d) { return d.name == u"fulfillment"; });
    QVERIFY(it != rows->cend());
    QCOMPARE(it->recentAttempts, attempts);
    QCOMPARE(it->lastFailureAt.has_value(), failure);
    // Backlog and dead letters are not windowed.
    QCOMPARE(it->backlog(), qint64(2));
}

// Provider ids are unique per source only. The search walks every source through the unique
// (source, provider_event_id) key, so an id reused by two senders finds both events, and the
// sources that sort first and last are not skipped. Runs last: it adds rows, then removes them.
void TstConsoleQueries::searchFindsAProviderIdUnderEverySource()
{
    ConsoleFixture fx(*m_db);
    ConsoleFixture::EventSpec spec;
    spec.providerId = QStringLiteral("shared-delivery-7");
    spec.source = QStringLiteral("aaa-first-source");
    const qint64 first = fx.addEvent(spec);
    spec.source = QStringLiteral("zzz-last-source");
    const qint64 last = fx.addEvent(spec);
    QVERIFY2(fx.lastError().isEmpty(), qPrintable(fx.lastError()));
    EventFilter f;
    f.search = spec.providerId;
    QString error;
    const auto rows = fetchEventPage(*m_db, f, last + 1, 50);
    QVERIFY2(rows, qPrintable(rows.error()));
    QList<qint64> found;
    for (const auto &row : *rows)
        found.append(row.id);
    std::sort(found.begin(), found.end());
    QCOMPARE(found, (QList<qint64> { first, last }));
    f.search = QStringLiteral("shared-delivery-8"); // no such id under any source
    const auto none = fetchEventPage(*m_db, f, last + 1, 50);
    QVERIFY2(none, qPrintable(none.error()));
    QVERIFY(none->isEmpty());
    QVERIFY(succeeded(
        m_db->exec(QStringLiteral("DELETE FROM events WHERE id IN (%1, %2)").arg(first).arg(last)), &error));
}

bool TstConsoleQueries::seedFilterLog()
{
    if (m_auditDb)
        return true;
    QString error;
    m_audit = TestDatabase::create(&error);
    if (!m_audit)
        return false;
    m_auditDb = m_audit->open(QStringLiteral("audit"));
    const AuditSeed seeds[] = {
        { QStringLiteral("alice"), QStringLiteral("replay_requested"), QStringLiteral("replay:1"),
            QStringLiteral("Refund for order, 50% off"), kBase + 1000 },
        { QStringLiteral("bob"), QStringLiteral("replay_approved"), QStringLiteral("replay:1"),
            QStringLiteral("approved after a call, path a\\b"), kBase + 2000 },
        { QStringLiteral("alice"), QStringLiteral("note_added"), QStringLiteral("event:7"),
            QStringLiteral("customer_said refund"), kBase + 3000 },
        { QStringLiteral("carol"), QStringLiteral("replay_rejected"), QStringLiteral("replay:2"),
            QStringLiteral("not_needed"), kBase + 4000 },
        { QStringLiteral("alice"), QStringLiteral("replay_requested"), QStringLiteral("replay:3"),
            QStringLiteral("REFUND again"), kBase + 5000 },
    };
    for (const AuditSeed &seed : seeds) {
        if (!appendAudit(*m_auditDb, seed, &error)) {
            qWarning("%s", qPrintable(error));
            return false;
        }
    }
    return true;
}

void TstConsoleQueries::auditFiltersMatchOnBothEngines_data()
{
    QTest::addColumn<audit::AuditQuery>("query");
    QTest::addColumn<QList<qint64>>("seqs");
    auto q = [](auto set) {
        audit::AuditQuery query;
        query.limit = 100;
        set(query);
        return query;
    };
    QTest::newRow("everything") << q([](auto &) {}) << QList<qint64> { 1, 2, 3, 4, 5 };
    QTest::newRow("actor") << q([](auto &x) { x.actor = QStringLiteral("alice"); })
                           << QList<qint64> { 1, 3, 5 };
    QTest::newRow("action") << q([](auto &x) { x.action = QStringLiteral("replay_requested"); })
                            << QList<qint64> { 1, 5 };
    QTest::newRow("target") << q([](auto &x) { x.target = QStringLiteral("replay:1"); })
                            << QList<qint64> { 1, 2 };
    QTest::newRow("since is inclusive")
        << q([](auto &x) { x.sinceMs = kBase + 3000; }) << QList<qint64> { 3, 4, 5 };
    QTest::newRow("until is exclusive")
        << q([](auto &x) { x.untilMs = kBase + 3000; }) << QList<qint64> { 1, 2 };
    QTest::newRow("range") << q([](auto &x) {
        x.sinceMs = kBase + 2000;
        x.untilMs = kBase + 4000;
    }) << QList<qint64> { 2, 3 };
    QTest::newRow("text ignores case")
        << q([](auto &x) { x.text = QStringLiteral("refund"); }) << QList<qint64> { 1, 3, 5 };
    QTest::newRow("percent is literal")
        << q([](auto &x) { x.text = QStringLiteral("50%"); }) << QList<qint64> { 1 };
    QTest::newRow("underscore is literal")
        << q([](auto &x) { x.text = QStringLiteral("_"); }) << QList<qint64> { 3, 4 };
    QTest::newRow("backslash is literal")
        << q([](auto &x) { x.text = QStringLiteral("a\\b"); }) << QList<qint64> { 2 };
    QTest::newRow("all together") << q([](auto &x) {
        x.actor = QStringLiteral("alice");
        x.text = QStringLiteral("REFUND");
        x.sinceMs = kBase + 2000;
    }) << QList<qint64> { 3, 5 };
    QTest::newRow("nothing") << q([](auto &x) { x.actor = QStringLiteral("mallory"); }) << QList<qint64> {};
}

void TstConsoleQueries::auditFiltersMatchOnBothEngines()
{
    QFETCH(audit::AuditQuery, query);
    QFETCH(QList<qint64>, seqs);
    QVERIFY(seedFilterLog());
    const auto rows = audit::readAuditEntries(*m_auditDb, query);
    QVERIFY2(rows, qPrintable(rows.error()));
    QList<qint64> got;
    for (const audit::AuditEntry &e : *rows)
        got.append(e.seq);
    QCOMPARE(got, seqs);
}

void TstConsoleQueries::auditFilterPagesByKeyset()
{
    QVERIFY(seedFilterLog());
    audit::AuditQuery q;
    q.actor = QStringLiteral("alice");
    q.limit = 1;
    QList<qint64> got;
    for (int guard = 0; guard < 10; ++guard) {
        const auto read = audit::readAuditEntries(*m_auditDb, q);
        QVERIFY2(read, qPrintable(read.error()));
        const QList<audit::AuditEntry> &page = *read;
        if (page.isEmpty())
            break;
        QCOMPARE(page.size(), 1);
        got.append(page.first().seq);
        q.afterSeq = page.first().seq;
    }
    QCOMPARE(got, (QList<qint64> { 1, 3, 5 }));
}

// Names a newer receiver (or a hand edit) wrote: read without crashing, matched by no state,
// and shown and exported exactly as stored.
void TstConsoleQueries::unknownStoredNamesAreShownAsStored()
{
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    QVERIFY(db);
    ConsoleFixture fx(*db);
    const ConsoleFixture::Scenario s = fx.addScenario(kBase);
    QVERIFY2(fx.lastError().isEmpty(), qPrintable(fx.lastError()));
    const QString id = QString::number(s.failed);
    QVERIFY2(
        succeeded(
            db->exec(QStringLiteral("UPDATE event_status SET status = 'frozen' WHERE event_id = %1").arg(id)),
            &error),
        qPrintable(error));
    QVERIFY2(succeeded(db->exec(QStringLiteral(
                           "UPDATE attempts SET category = 'quantum', trigger_kind = 'manual' "
                           "WHERE delivery_id IN (SELECT id FROM deliveries WHERE event_id = %1)")
                                    .arg(id)),
                 &error),
        qPrintable(error));
    QVERIFY2(succeeded(db->exec(QStringLiteral(
                           "UPDATE deliveries SET status = 'archived', last_category = 'quantum' "
                           "WHERE event_id = %1")
                                    .arg(id)),
                 &error),
        qPrintable(error));

    const auto d = fetchEventDetail(*db, s.failed);
    QVERIFY2(d && *d, qPrintable(d.error()));
    QVERIFY(!(*d)->row.status.isKnown());
    QCOMPARE((*d)->row.status.name(), QStringLiteral("frozen"));
    QCOMPARE((*d)->deliveries.size(), 1);
    const DeliveryRecord &rec = (*d)->deliveries.first();
    QVERIFY(!rec.summary.status.isKnown());
    QCOMPARE(rec.summary.status.name(), QStringLiteral("archived"));
    QCOMPARE(rec.summary.lastCategory.name(), QStringLiteral("quantum"));
    QVERIFY(rec.summary.downstream == DownstreamState::Pending); // not known to be delivered or dead
    QVERIFY(!rec.attempts.isEmpty());
    const QJsonObject attempt = attemptJson(rec.attempts.first());
    QCOMPARE(attempt.value(QLatin1String("category")).toString(), QStringLiteral("quantum"));
    QCOMPARE(attempt.value(QLatin1String("trigger")).toString(), QStringLiteral("manual"));

    const auto rows = fetchEventsByIds(*db, { s.failed });
    QVERIFY2(rows && rows->size() == 1, qPrintable(rows.error()));
    QCOMPARE(rows->first().lastFailure.name(), QStringLiteral("quantum"));
}

// Ids are allocated before commit: with several writer connections or receivers on PostgreSQL,
// event 103 may become visible after event 105 was read. "N new events" still counts it, and
// says it is late (below the newest id shown) so the list reloads rather than inserting at the
// top. The old count (id > top) would miss it for good.
void TstConsoleQueries::countsEventsThatCommitLate()
{
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    QVERIFY(db);
    ConsoleFixture fx(*db);
    fx.addBulk(100, kBase); // ids 1..100, long before the rest
    QVERIFY2(fx.lastError().isEmpty(), qPrintable(fx.lastError()));
    auto insert = [&](qint64 id, qint64 receivedAt) {
        return succeeded(
                   db->exec(QStringLiteral("INSERT INTO events (id, source, provider_event_id, event_type, "
                                           "received_at, last_seen_at, body, body_sha256, body_size) "
                                           "VALUES (%1, 'late', 'late-%1', 'late.created', %2, %2, "
                                           "'{}', '', 2)")
                                .arg(id)
                                .arg(receivedAt)),
                   &error)
            && succeeded(
                db->exec(QStringLiteral("INSERT INTO event_status (event_id, status) VALUES (%1, 'pending')")
                             .arg(id)),
                &error);
    };
    const qint64 now = kBase + 600'000;
    QVERIFY2(insert(105, now), qPrintable(error));

    // The list is read: 105 on top; 101..104 were allocated but are not committed yet.
    const auto baseline = newEventsBaseline(*db, {}, 105);
    QVERIFY2(baseline, qPrintable(baseline.error()));
    QCOMPARE(baseline->lowWaterId, qint64(100)); // received more than the window before 105
    QCOMPARE(baseline->known, qint64(1));
    auto counted = countNewEvents(*db, {}, *baseline, 0, 105, 100);
    QVERIFY2(counted, qPrintable(counted.error()));
    QCOMPARE(counted->total, qint64(0));

    // 103 commits after the list was read.
    QVERIFY2(insert(103, now - 10), qPrintable(error));
    QCOMPARE(countEventsAbove(*db, {}, 105, 100).value_or(-1), qint64(0)); // what used to be counted
    counted = countNewEvents(*db, {}, *baseline, 0, 105, 100);
    QVERIFY2(counted, qPrintable(counted.error()));
    QCOMPARE(counted->total, qint64(1));
    QCOMPARE(counted->late, qint64(1));

    // 106 arrives in order: two new, one of them late.
    QVERIFY2(insert(106, now + 10), qPrintable(error));
    counted = countNewEvents(*db, {}, *baseline, 0, 105, 100);
    QVERIFY2(counted, qPrintable(counted.error()));
    QCOMPARE(counted->total, qint64(2));
    QCOMPARE(counted->late, qint64(1));
    // Had the list shown 106 on top already (showNewEvents), only 103 would be left.
    counted = countNewEvents(*db, {}, *baseline, 1, 106, 100);
    QVERIFY2(counted, qPrintable(counted.error()));
    QCOMPARE(counted->total, qint64(1));
    QCOMPARE(counted->late, qint64(1));

    // Filtered: the late events do not match, nothing is new.
    EventFilter bulk;
    bulk.source = QStringLiteral("bulk");
    const auto bulkBaseline = newEventsBaseline(*db, bulk, 106);
    QVERIFY2(bulkBaseline, qPrintable(bulkBaseline.error()));
    QCOMPARE(bulkBaseline->known, qint64(0));
    counted = countNewEvents(*db, bulk, *bulkBaseline, 0, 106, 100);
    QVERIFY2(counted, qPrintable(counted.error()));
    QCOMPARE(counted->total, qint64(0));

    // After a reload the baseline holds them all: nothing new.
    const auto reloaded = newEventsBaseline(*db, {}, 106);
    QVERIFY2(reloaded, qPrintable(reloaded.error()));
    QCOMPARE(reloaded->known, qint64(3));
    counted = countNewEvents(*db, {}, *reloaded, 0, 106, 100);
    QVERIFY2(counted, qPrintable(counted.error()));
    QCOMPARE(counted->total, qint64(0));
    QCOMPARE(counted->late, qint64(0));
}

QTEST_GUILESS_MAIN(TstConsoleQueries)
#include "tst_consolequeries.moc"
