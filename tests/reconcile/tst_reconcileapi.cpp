// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Reconciliation's rows and doors: the lease in reconcile_runs on two connections, and the admin
// API's GET reconciliations, POST sources/{name}/reconcile and GET events?origin= (roles, bad
// input, audit). The runs themselves are tst_reconcile's.
#include "adminfixture.h"
#include "storage/reconcilestore.h"
#include "testdb.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QSqlQuery>
#include <QTest>

#include <mutex>

using namespace redrive;
using namespace redrive::test;

class TstReconcileApi : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void leaseAllowsOneRunPerSource();
    void expiredLeaseIsFailedAndTakenOver();
    void adminRunsAndListsReconciliations();
    void adminRefusesWhatItMust();
    void eventsCarryAndFilterByOrigin();
};

// The lease at the storage level, on two connections (two receivers): while a run holds it, a
// second claim is refused and names the running run; a scheduled claim after a recent run is not due.
void TstReconcileApi::leaseAllowsOneRunPerSource()
{
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto a = t->open(QStringLiteral("a"));
    auto b = t->open(QStringLiteral("b"));
    const qint64 now = 1'800'000'000'000;
    auto claim = [&](Db &db, const QString &owner, qint64 at, std::optional<qint64> since = std::nullopt) {
        reconcile::ClaimRequest r { QStringLiteral("rs"), QStringLiteral("stripe"), owner, QString(), at,
            60'000, since };
        return withTransaction(db, [&] { return reconcile::claimRun(db, r); });
    };
    const auto first = claim(*a, QStringLiteral("receiver-a"), now);
    QVERIFY2(first && first->run, first ? "" : qPrintable(first.error()));
    const auto second = claim(*b, QStringLiteral("receiver-b"), now + 1000);
    QVERIFY2(second, second ? "" : qPrintable(second.error()));
    QVERIFY(!second->run);
    QVERIFY(second->running);
    QCOMPARE(second->running->id, first->run->id);
    QCOMPARE(second->running->owner, QStringLiteral("receiver-a"));
    // The database itself refuses a second running row, whatever a caller does.
    QSqlQuery q(b->handle());
    QVERIFY(!q.exec(
        QStringLiteral("INSERT INTO reconcile_runs (source, provider, started_at, status) VALUES ('rs', "
                       "'stripe', 1, 'running')")));
    // Another source is independent.
    reconcile::ClaimRequest other { QStringLiteral("rg"), QStringLiteral("github"),
        QStringLiteral("receiver-b"), QString(), now, 60'000, std::nullopt };
    const auto third = withTransaction(*b, [&] { return reconcile::claimRun(*b, other); });
    QVERIFY(third && third->run);
    // Only the owner renews and finishes.
    QCOMPARE(
        reconcile::renewLease(*b, first->run->id, QStringLiteral("receiver-b"), now + 90'000).value_or(true),
        false);
    reconcile::Run done = *first->run;
    done.status = reconcile::kStatusOk;
    QVERIFY(reconcile::finishRun(*a, done, now + 2000).value_or(false));
    // Finished: a scheduled claim within `every` is not due; after it, it is.
    const auto notDue = claim(*b, QStringLiteral("receiver-b"), now + 3000, now + 3000 - 15 * 60'000);
    QVERIFY(notDue && !notDue->run && notDue->notDue);
    const auto due = claim(*b, QStringLiteral("receiver-b"), now + 16 * 60'000, now + 60'000);
    QVERIFY(due && due->run);
}

// A receiver that died mid-run leaves a running row; once its lease expired the next claim fails
// it (saying why) and runs.
void TstReconcileApi::expiredLeaseIsFailedAndTakenOver()
{
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto db = t->open();
    const qint64 now = 1'800'000'000'000;
    reconcile::ClaimRequest r { QStringLiteral("rs"), QStringLiteral("stripe"), QStringLiteral("dead"),
        QString(), now, 60'000, std::nullopt };
    const auto dead = withTransaction(*db, [&] { return reconcile::claimRun(*db, r); });
    QVERIFY(dead && dead->run);
    r.owner = QStringLiteral("alive");
    r.nowMs = now + 59'000;
    const auto early = withTransaction(*db, [&] { return reconcile::claimRun(*db, r); });
    QVERIFY(early && !early->run && early->running);
    r.nowMs = now + 61'000;
    const auto taken = withTransaction(*db, [&] { return reconcile::claimRun(*db, r); });
    QVERIFY(taken && taken->run);
    const auto old = reconcile::fetchRun(*db, dead->run->id);
    QVERIFY(old && *old);
    QCOMPARE((*old)->status.name(), reconcile::kStatusFailed.name());
    QVERIFY((*old)->error.contains(QLatin1String("lease expired")));
}

namespace {

// An admin API whose config has a reconciling source ("rs") and one that does not ("plain"), and
// a launcher that only records the runs it was handed.
struct AdminSetup {
    std::unique_ptr<AdminFixture> fixture;
    std::mutex mutex;
    QList<reconcile::Run> launched;
};

std::unique_ptr<AdminSetup> adminSetup(QString *error)
{
    auto setup = std::make_unique<AdminSetup>();
    setup->fixture = AdminFixture::create(error, [](Config &c) {
        SourceConfig rs;
        rs.name = QStringLiteral("rs");
        rs.scheme = SchemeKind::Stripe;
        ReconcileConfig r;
        r.apiUrl = QUrl(QStringLiteral("http://127.0.0.1:9"));
        r.credential = Secret { QStringLiteral("env:STRIPE_KEY"), QByteArrayLiteral("sk_never") };
        r.everyMs = 0;
        rs.reconcile = r;
        c.sources.append(rs);
        SourceConfig plain;
        plain.name = QStringLiteral("plain");
        plain.scheme = SchemeKind::Stripe;
        c.sources.append(plain);
    });
    if (!setup->fixture)
        return nullptr;
    AdminSetup *raw = setup.get();
    setup->fixture->api = std::make_unique<admin::AdminApi>(setup->fixture->config,
        setup->fixture->database().url(), setup->fixture->clock, setup->fixture->registry);
    setup->fixture->api->setReconcileLauncher(
        admin::ReconcileLauncher { QStringLiteral("receiver-a"), 60'000, [raw](const reconcile::Run &run) {
                                      std::lock_guard lock(raw->mutex);
                                      raw->launched.append(run);
                                  } });
    setup->fixture->api->setExecutorEnabled(false);
    if (!succeeded(setup->fixture->api->start(), error))
        return nullptr;
    return setup;
}

} // namespace

// POST sources/rs/reconcile (operator, admin) → 202 with the run, launched here, audited; a second
// ask while it runs is 409; GET reconciliations lists the runs newest first, for every role, paged.
void TstReconcileApi::adminRunsAndListsReconciliations()
{
    QString error;
    auto setup = adminSetup(&error);
    QVERIFY2(setup, qPrintable(error));
    AdminFixture &f = *setup->fixture;
    const QString op = f.token(QStringLiteral("olga"), Role::Operator);
    const auto asked = f.call("POST", "sources/rs/reconcile", op,
        QJsonObject { { QStringLiteral("reason"), QStringLiteral("ticket 7") } });
    QCOMPARE(asked.status, 202);
    QCOMPARE(asked.json.value(QLatin1String("status")).toString(), QStringLiteral("running"));
    QCOMPARE(asked.json.value(QLatin1String("source")).toString(), QStringLiteral("rs"));
    QCOMPARE(asked.json.value(QLatin1String("provider")).toString(), QStringLiteral("stripe"));
    QVERIFY(asked.json.value(QLatin1String("finished_at")).isNull());
    for (const char *key : { "id", "started_at", "checked", "missing", "recovered", "error" })
        QVERIFY2(asked.json.contains(QLatin1String(key)), key);
    {
        std::lock_guard lock(setup->mutex);
        QCOMPARE(setup->launched.size(), 1);
        QCOMPARE(setup->launched.first().id, asked.json.value(QLatin1String("id")).toInteger());
        QCOMPARE(setup->launched.first().owner, QStringLiteral("receiver-a"));
        QCOMPARE(setup->launched.first().requestedBy, QStringLiteral("olga"));
    }
    QCOMPARE(f.count(QStringLiteral("audit_log"),
                 QStringLiteral("action = 'reconcile_requested' AND target = 'source:rs' AND "
                                "actor = 'olga' AND reason = 'ticket 7'")),
        1);
    const auto twice = f.call("POST", "sources/rs/reconcile", f.token(QStringLiteral("ada"), Role::Admin));
    QCOMPARE(twice.status, 409);
    QVERIFY(twice.json.value(QLatin1String("message")).toString().contains(QLatin1String("already running")));

    // Finish it (as the reconciler would) and add two more, to page through.
    reconcile::Run run = setup->launched.first();
    run.status = reconcile::kStatusFailed;
    run.error = QStringLiteral("GET http://127.0.0.1:9/v1/events: HTTP 401");
    QVERIFY(reconcile::finishRun(f.db(), run, f.clock.nowMs()).value_or(false));
    for (int i = 0; i < 2; ++i) {
        const auto more = f.call("POST", "sources/rs/reconcile", op);
        QCOMPARE(more.status, 202);
        reconcile::Run r = setup->launched.last();
        r.status = reconcile::kStatusOk;
        r.checked = 10;
        QVERIFY(reconcile::finishRun(f.db(), r, f.clock.nowMs()).value_or(false));
    }
    for (Role role : { Role::Support, Role::Auditor, Role::Operator, Role::Admin }) {
        const auto page = f.call("GET", "reconciliations?source=rs&limit=2", f.token(toString(role), role));
        QCOMPARE(page.status, 200);
        const QJsonArray items = page.json.value(QLatin1String("items")).toArray();
        QCOMPARE(items.size(), 2);
        QVERIFY(items[0].toObject().value(QLatin1String("id")).toInteger()
            > items[1].toObject().value(QLatin1String("id")).toInteger());
        QCOMPARE(items[0].toObject().value(QLatin1String("checked")).toInt(), 10);
        const QString cursor = page.json.value(QLatin1String("next_cursor")).toString();
        QVERIFY(!cursor.isEmpty());
        const auto rest = f.call("GET", "reconciliations?source=rs&limit=2&cursor=" + cursor.toUtf8(),
            f.token(toString(role), role));
        QCOMPARE(rest.status, 200);
        const QJsonArray last = rest.json.value(QLatin1String("items")).toArray();
        QCOMPARE(last.size(), 1);
        QCOMPARE(last[0].toObject().value(QLatin1String("status")).toString(), QStringLiteral("failed"));
        QCOMPARE(last[0].toObject().value(QLatin1String("error")).toString(), run.error);
        QVERIFY(rest.json.value(QLatin1String("next_cursor")).isNull());
    }
    const auto other = f.call("GET", "reconciliations?source=plain", op);
    QCOMPARE(other.status, 200);
    QCOMPARE(other.json.value(QLatin1String("items")).toArray().size(), 0);
}

void TstReconcileApi::adminRefusesWhatItMust()
{
    QString error;
    auto setup = adminSetup(&error);
    QVERIFY2(setup, qPrintable(error));
    AdminFixture &f = *setup->fixture;
    const QString op = f.token(QStringLiteral("olga"), Role::Operator);
    for (Role role : { Role::Support, Role::Auditor }) {
        const auto refused = f.call("POST", "sources/rs/reconcile", f.token(toString(role), role));
        QCOMPARE(refused.status, 403);
    }
    // Each refusal audited, naming what was attempted on which source.
    QCOMPARE(
        f.count(QStringLiteral("audit_log"),
            QStringLiteral(
                "action = 'permission_denied' AND target = 'source:rs' AND details LIKE '%run_reconciliation%'")),
        2); // coalesced per token/minute at most
    QCOMPARE(f.call("POST", "sources/nope/reconcile", op).status, 404);
    const auto plain = f.call("POST", "sources/plain/reconcile", op);
    QCOMPARE(plain.status, 409);
    QVERIFY(
        plain.json.value(QLatin1String("message")).toString().contains(QLatin1String("[sources.reconcile]")));
    QCOMPARE(f.call("GET", "sources/rs/reconcile", op).status, 405);
    QCOMPARE(f.call("POST", "sources/rs/reconcile", op, QByteArray("{\"reason\": 5}")).field(),
        QStringLiteral("reason"));
    QCOMPARE(f.call("POST", "sources/rs/reconcile", op, QByteArray("{\"why\": \"x\"}")).status, 400);
    QCOMPARE(f.call("GET", "reconciliations?limit=0", op).field(), QStringLiteral("limit"));
    QCOMPARE(f.call("GET", "reconciliations?cursor=zzz", op).field(), QStringLiteral("cursor"));
    QCOMPARE(f.call("GET", "reconciliations?sorce=rs", op).status, 400);
    QCOMPARE(f.call("POST", "reconciliations", op).status, 405);
    QCOMPARE(f.count(QStringLiteral("reconcile_runs")), 0);
    std::lock_guard lock(setup->mutex);
    QVERIFY(setup->launched.isEmpty());
}

// Events carry "origin"; GET events?origin=reconciled lists only those; a bad origin is a 400.
void TstReconcileApi::eventsCarryAndFilterByOrigin()
{
    QString error;
    auto setup = adminSetup(&error);
    QVERIFY2(setup, qPrintable(error));
    AdminFixture &f = *setup->fixture;
    const qint64 webhook = f.insertEvent(QStringLiteral("rs"), QStringLiteral("invoice.paid"));
    const qint64 reconciled = f.insertEvent(QStringLiteral("rs"), QStringLiteral("invoice.paid"));
    QSqlQuery q(f.db().handle());
    QVERIFY(
        runQuery(q, QStringLiteral("UPDATE events SET origin = 'reconciled' WHERE id = ?"), { reconciled }));
    const QString support = f.token(QStringLiteral("sam"), Role::Support);
    const auto only = f.call("GET", "events?origin=reconciled", support);
    QCOMPARE(only.status, 200);
    const QJsonArray items = only.json.value(QLatin1String("items")).toArray();
    QCOMPARE(items.size(), 1);
    QCOMPARE(items[0].toObject().value(QLatin1String("id")).toInteger(), reconciled);
    QCOMPARE(items[0].toObject().value(QLatin1String("origin")).toString(), QStringLiteral("reconciled"));
    const auto plain = f.call("GET", "events?origin=webhook&source=rs", support);
    QCOMPARE(plain.json.value(QLatin1String("items")).toArray().size(), 1);
    QCOMPARE(plain.json.value(QLatin1String("items"))
                 .toArray()[0]
                 .toObject()
                 .value(QLatin1String("id"))
                 .toInteger(),
        webhook);
    const auto detail = f.call("GET", "events/" + QByteArray::number(reconciled), support);
    QCOMPARE(detail.json.value(QLatin1String("origin")).toString(), QStringLiteral("reconciled"));
    const auto bad = f.call("GET", "events?origin=email", support);
    QCOMPARE(bad.status, 400);
    QCOMPARE(bad.field(), QStringLiteral("origin"));
}

REDRIVE_STORAGE_TEST_MAIN(TstReconcileApi)
#include "tst_reconcileapi.moc"
