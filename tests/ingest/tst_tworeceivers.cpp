// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Two redrived on one PostgreSQL (a private cluster). Provider-like clients send every event to
// both receivers at about the same time (the duplicate a retrying provider produces behind a load
// balancer); one receiver is killed with SIGKILL while it holds delivery leases, and the clients
// carry on at the other. Afterwards every acknowledged event is stored once and delivered, the
// duplicates were answered as such, and the survivor took the dead receiver's leases over within
// the lease time.

#include "daemonprocess.h"
#include "pgreceivers.h"
#include "providerstandins.h"
#include "scriptabledestination.h"
#include "storage/database.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QScopeGuard>
#include <QSet>
#include <QSqlQuery>
#include <QTest>

using namespace redrive;
using namespace redrive::test;

namespace {
// The lease (8 s; it must exceed timeout_ms + the 5 s send margin, or every claim is given back
// unsent) bounds how long the dead receiver's deliveries may stay claimed.
constexpr qint64 kLeaseMs = 8'000;
constexpr qint64 kSweepMs = 500;
const QByteArray kDeliveryConfig = "lease = \"8s\"\nsweep_interval = \"500ms\"\n";
} // namespace

class TstTwoReceivers final : public QObject {
    Q_OBJECT

private:
    static int count(Db &db, const QString &sql)
    {
        QSqlQuery q(db.handle());
        return q.exec(sql) && q.next() ? q.value(0).toInt() : -1;
    }

private Q_SLOTS:
    void killOneOfTwo()
    {
        QString error;
        PrivatePgCluster pg;
        QVERIFY2(pg.start(&error), qPrintable(error));
        ScriptableDestination sink;
        QVERIFY2(sink.start(&error), qPrintable(error));
        ScriptableDestination::Response
            slow; // deliveries stay in flight long enough to be leased at the kill
        slow.delayAfterReadMs = 100;
        slow.connection = ScriptableDestination::Response::Connection::KeepAlive;
        sink.setDefault(slow);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());

        ReceiverProcess a, b;
        a.name = QStringLiteral("a");
        b.name = QStringLiteral("b");
        QByteArray sinkUrl = sink.url().toEncoded();
        for (ReceiverProcess *r : { &a, &b })
            QVERIFY2(writeReceiverConfig(*r, dir.path(), pg.url(), sinkUrl, kDeliveryConfig, &error),
                qPrintable(error));
        // timeout_ms 500 keeps the effective lease short (see kLeaseMs).
        for (ReceiverProcess *r : { &a, &b }) {
            QFile f(r->configPath);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QByteArray t = f.readAll().replace("timeout_ms = 2000", "timeout_ms = 500");
            QVERIFY(f.resize(0) && f.write(t) == t.size());
        }
        QVERIFY2(!migrateAndCreateToken(a, &error).isEmpty(), qPrintable(error));
        QVERIFY2(startReceiver(a, &error), qPrintable(error));
        QVERIFY2(startReceiver(b, &error), qPrintable(error));
        auto stopGuard = qScopeGuard([&] {
            for (ReceiverProcess *r : { &a, &b }) {
                if (r->process.state() != QProcess::NotRunning) {
                    r->process.kill();
                    r->process.waitForFinished(5'000);
                }
            }
        });
        const auto url = StorageUrl::parse(pg.url());
        QVERIFY(url);
        auto db = takeValue(Db::open(*url, QStringLiteral("checker"), {}), &error);
        QVERIFY2(db, qPrintable(error));

        ProviderLoad load({ a.ingestPort, b.ingestPort }, 4, true, "two-", 15);
        load.start();
        QTRY_VERIFY_WITH_TIMEOUT(load.acked.load() >= 300, 30'000);

        // Kill A while it holds leases (its worker id is host:pid:n).
        const qint64 pidA = a.process.processId();
        const QString ownedByA = QStringLiteral("SELECT COUNT(*) FROM deliveries WHERE status = 'in_flight' "
                                                "AND lease_owner LIKE '%:%1:%'")
                                     .arg(pidA);
        QList<qint64> heldAtKill;
        auto heldByA = [&] {
            heldAtKill.clear();
            QSqlQuery held(db->handle());
            if (held.exec(QStringLiteral("SELECT id FROM deliveries WHERE status = 'in_flight' AND "
                                         "lease_owner LIKE '%:%1:%'")
                              .arg(pidA))) {
                while (held.next())
                    heldAtKill.append(held.value(0).toLongLong());
            }
            return !heldAtKill.isEmpty();
        };
        QTRY_VERIFY_WITH_TIMEOUT(heldByA(), 20'000);
        a.process.kill(); // each send takes 100 ms at the sink: these are still in flight
        QVERIFY(a.process.waitForFinished(10'000));
        QElapsedTimer sinceKill;
        sinceKill.start();
        const int leasedAtKill = static_cast<int>(heldAtKill.size());

        const int ackedAtKill = load.acked.load();
        QTRY_VERIFY_WITH_TIMEOUT(load.acked.load() >= ackedAtKill + 300, 30'000);
        // The survivor's sweeper takes the dead receiver's leases once they expire.
        QTRY_VERIFY_WITH_TIMEOUT(count(*db, ownedByA) == 0, 20'000);
        const qint64 takeoverMs = sinceKill.elapsed();
        QVERIFY2(takeoverMs <= kLeaseMs + kSweepMs + 2'000,
            qPrintable(QStringLiteral("leases taken over after %1 ms").arg(takeoverMs)));
        load.stopAndJoin();
        QVERIFY(b.process.state() == QProcess::Running);
        QCOMPARE(load.otherStatus.load(), 0);

        // Every acknowledged event stored once; the concurrent duplicates were recognised.
        const QList<QByteArray> ackedIds = load.ackedIds();
        QSqlQuery q(db->handle());
        QSet<QByteArray> stored;
        int rows = 0;
        QVERIFY(q.exec(QStringLiteral("SELECT provider_event_id, seen_count FROM events")));
        int seenTwice = 0;
        while (q.next()) {
            stored.insert(q.value(0).toString().toUtf8());
            seenTwice += q.value(1).toInt() >= 2 ? 1 : 0;
            ++rows;
        }
        QCOMPARE(rows, static_cast<int>(stored.size()));
        for (const QByteArray &id : ackedIds)
            QVERIFY2(stored.contains(id), id.constData());
        QCOMPARE(rows, static_cast<int>(ackedIds.size()));
        QVERIFY(load.duplicates.load() > 0);
        QVERIFY(seenTwice >= ackedAtKill / 2); // before the kill, nearly every event reached both

        // ... and delivered: once, unless an attempt's outcome is unknown (the dead receiver's).
        const QString unsettled
            = QStringLiteral("SELECT COUNT(*) FROM deliveries WHERE status <> 'succeeded'");
        QTRY_VERIFY2_WITH_TIMEOUT(count(*db, unsettled) == 0,
            qPrintable(QStringLiteral("%1 of %2 deliveries not succeeded; %3 dead")
                           .arg(count(*db, unsettled))
                           .arg(rows)
                           .arg(count(*db,
                               QStringLiteral("SELECT COUNT(*) FROM deliveries WHERE status = 'dead'")))),
            90'000);
        QHash<QByteArray, int> hits;
        for (const auto &req : sink.requests())
            ++hits[req.headers.value("Idempotency-Key").toByteArray()];
        QVERIFY(q.exec(QStringLiteral("SELECT d.idempotency_key, (SELECT COUNT(*) FROM attempts a WHERE "
                                      "a.delivery_id = d.id AND a.outcome_unknown <> 0) FROM deliveries d")));
        int deliveries = 0, unknown = 0, twice = 0;
        while (q.next()) {
            ++deliveries;
            const QByteArray key = q.value(0).toString().toUtf8();
            const bool outcomeUnknown = q.value(1).toInt() > 0;
            unknown += outcomeUnknown ? 1 : 0;
            QVERIFY2(hits.value(key) >= 1, key.constData());
            if (!outcomeUnknown)
                QVERIFY2(hits.value(key) == 1, key.constData());
            twice += hits.value(key) > 1 ? 1 : 0;
        }
        QCOMPARE(deliveries, rows);
        const int rescued
            = count(*db, QStringLiteral("SELECT COUNT(*) FROM attempts WHERE category = 'lease_expired'"));
        // Each delivery the dead receiver held was either taken over by the sweeper (an attempt
        // marked lease_expired, outcome unknown) or recorded by its last transaction, which the
        // server may still complete after the client died.
        for (const qint64 id : std::as_const(heldAtKill)) {
            const int ended = count(*db,
                QStringLiteral("SELECT COUNT(*) FROM attempts WHERE delivery_id = %1 AND (category = "
                               "'lease_expired' OR worker_id LIKE '%:%2:%')")
                    .arg(id)
                    .arg(pidA));
            QVERIFY2(ended >= 1, qPrintable(QStringLiteral("delivery %1 held at the kill").arg(id)));
        }
        QVERIFY(rescued > 0); // the sweeper did take some over

        b.process.terminate();
        QVERIFY(b.process.waitForFinished(20'000));
        QCOMPARE(b.process.exitCode(), 0);
        qInfo("%d events acknowledged (%d before the kill), stored once each, %d answered duplicate; "
              "%d leases held by the killed receiver, taken over %lld ms after the kill (lease %lld ms); "
              "%d lease-expired attempts, %d deliveries outcome-unknown, %d sent twice",
            rows, ackedAtKill, load.duplicates.load(), leasedAtKill, takeoverMs, kLeaseMs, rescued, unknown,
            twice);
    }

    // Both receivers reconcile the same Stripe source every second against a slow stand-in (a
    // run takes about a second): the lease lets one run at a time in the whole database — no two
    // runs of the source overlap, the stand-in never sees two lists at once — and every listed
    // event is stored once.
    void reconcileRunsOneAtATime()
    {
        QString error;
        PrivatePgCluster pg;
        QVERIFY2(pg.start(&error), qPrintable(error));
        ScriptableDestination sink;
        QVERIFY2(sink.start(&error), qPrintable(error));
        StripeStandIn stripe(QByteArrayLiteral("sk_test_two_receivers"));
        QVERIFY2(stripe.start(&error), qPrintable(error));
        stripe.setDelayMs(250);
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        for (int i = 0; i < 250; ++i) // three pages
            stripe.addEvent(
                QStringLiteral("evt_two_%1").arg(i), QStringLiteral("invoice.paid"), now - 60 - i);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ReceiverProcess a, b;
        a.name = QStringLiteral("a");
        b.name = QStringLiteral("b");
        for (ReceiverProcess *r : { &a, &b }) {
            QVERIFY2(writeReceiverConfig(*r, dir.path(), pg.url(), sink.url().toEncoded(), {}, &error),
                qPrintable(error));
            QFile f(r->configPath);
            QVERIFY(f.open(QIODevice::Append));
            f.write("\n[[sources]]\nname = \"st\"\nscheme = \"stripe\"\nsecrets = [\"whsec_two\"]\n"
                    "[sources.reconcile]\nprovider = \"stripe\"\napi_url = \""
                + stripe.url().toUtf8()
                + "\"\ncredential = \"sk_test_two_receivers\"\nevery = \"1s\"\nlookback = \"1h\"\n");
        }
        QVERIFY2(!migrateAndCreateToken(a, &error).isEmpty(), qPrintable(error));
        QVERIFY2(startReceiver(a, &error), qPrintable(error));
        QVERIFY2(startReceiver(b, &error), qPrintable(error));
        auto stopGuard = qScopeGuard([&] {
            for (ReceiverProcess *r : { &a, &b }) {
                if (r->process.state() != QProcess::NotRunning) {
                    r->process.kill();
                    r->process.waitForFinished(5'000);
                }
            }
        });
        const auto url = StorageUrl::parse(pg.url());
        QVERIFY(url);
        auto db = takeValue(Db::open(*url, QStringLiteral("checker"), {}), &error);
        QVERIFY2(db, qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(
            count(*db, QStringLiteral("SELECT COUNT(*) FROM reconcile_runs WHERE status = 'ok'")) >= 4,
            60'000);
        for (ReceiverProcess *r : { &a, &b }) {
            r->process.terminate();
            QVERIFY(r->process.waitForFinished(20'000));
        }
        QCOMPARE(
            count(*db,
                QStringLiteral("SELECT COUNT(*) FROM reconcile_runs x JOIN reconcile_runs y ON x.source = "
                               "y.source AND x.id < y.id AND y.started_at < x.finished_at")),
            0);
        QCOMPARE(
            count(*db, QStringLiteral("SELECT COUNT(*) FROM reconcile_runs WHERE status = 'running'")), 0);
        QCOMPARE(stripe.maxConcurrent(), 1);
        QCOMPARE(count(*db, QStringLiteral("SELECT COUNT(*) FROM events WHERE source = 'st'")), 250);
        QCOMPARE(
            count(*db,
                QStringLiteral("SELECT COUNT(*) FROM events WHERE source = 'st' AND origin = 'reconciled'")),
            250);
        QCOMPARE(count(*db, QStringLiteral("SELECT COUNT(*) FROM events WHERE seen_count <> 1")), 0);
        QCOMPARE(count(*db, QStringLiteral("SELECT SUM(recovered) FROM reconcile_runs")), 250);
        qInfo("%d runs, by %d receivers, none overlapping",
            count(*db, QStringLiteral("SELECT COUNT(*) FROM reconcile_runs")),
            count(*db, QStringLiteral("SELECT COUNT(DISTINCT owner) FROM reconcile_runs")));
    }
};

QTEST_GUILESS_MAIN(TstTwoReceivers)
#include "tst_tworeceivers.moc"
