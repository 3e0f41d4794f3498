// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// A PostgreSQL server that hangs without closing its connections (its processes stopped with
// SIGSTOP: a stalled disk, a frozen VM). Nothing resets a connection, so the writer's commit
// simply does not return. Senders must still be answered before their own timeouts: with
// `reply_timeout = "1s"` every verified webhook gets 503 reply_timeout with Retry-After within
// the bound, and once the server runs again every acknowledged event is stored exactly once —
// including those whose commit landed after their sender had been told 503. The admin API, with
// its own `reply_timeout = "1s"`, answers a read and an action 503 reply_timeout in time too, the
// action with "outcome": "unknown"; after the hang the note was recorded exactly once or not at
// all, never twice.

#include "daemonprocess.h"
#include "pgreceivers.h"
#include "scriptabledestination.h"
#include "storage/database.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QSet>
#include <QSqlQuery>
#include <QTest>

using namespace redrive;
using namespace redrive::test;

namespace {
constexpr int kReplyTimeoutMs = 1'000;
constexpr int kFrozenMs = 4'000;
// An answer's bound: the reply timeout plus scheduling slack on a loaded 2-core machine. Without
// the reply timeout every answer during the freeze takes the whole freeze (≥ kFrozenMs).
constexpr qint64 kAnswerBoundMs = kReplyTimeoutMs + 2'000;
} // namespace

class TstDbHang final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void hungDatabaseIsAnsweredInTime()
    {
        QString error;
        PrivatePgCluster pg;
        QVERIFY2(pg.start(&error), qPrintable(error));
        ScriptableDestination sink;
        QVERIFY2(sink.start(&error), qPrintable(error));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());

        ReceiverProcess r;
        r.name = QStringLiteral("a");
        const QByteArray timeout = "reply_timeout = \"" + QByteArray::number(kReplyTimeoutMs) + "ms\"\n";
        QVERIFY2(writeReceiverConfig(r, dir.path(), pg.url(), sink.url().toEncoded(), {}, &error,
                     timeout + "[admin]\n" + timeout),
            qPrintable(error));
        const QByteArray token = migrateAndCreateToken(r, &error).toUtf8();
        QVERIFY2(!token.isEmpty(), qPrintable(error));
        QVERIFY2(startReceiver(r, &error), qPrintable(error));
        auto stopGuard = qScopeGuard([&] {
            QString ignored;
            pg.thaw(&ignored);
            if (r.process.state() != QProcess::NotRunning) {
                r.process.kill();
                r.process.waitForFinished(5'000);
            }
        });

        ProviderLoad load({ r.ingestPort }, 3, false, "hang-", 4);
        load.start();
        QVERIFY(waitForAcks(load, r, 100, 30'000) >= 0);
        const qint64 slowestBefore = load.maxLatencyMs.load();

        const auto anEvent = adminGet(r.adminPort, "/admin/v1/events?limit=1", token);
        QVERIFY(anEvent && anEvent->status == 200);
        const qint64 eventId = QJsonDocument::fromJson(anEvent->body)
                                   .object()
                                   .value(QLatin1String("items"))
                                   .toArray()
                                   .at(0)
                                   .toObject()
                                   .value(QLatin1String("id"))
                                   .toInteger();
        QVERIFY(eventId > 0);
        const QByteArray notePath = "/admin/v1/events/" + QByteArray::number(eventId) + "/notes";

        QVERIFY2(pg.freeze(&error), qPrintable(error));
        const int acksAtFreeze = load.acked.load();
        QElapsedTimer frozen;
        frozen.start();
        // The admin API while the database hangs: a read, then an action.
        QElapsedTimer adminClock;
        adminClock.start();
        const auto frozenRead = adminGet(r.adminPort, "/admin/v1/events?limit=1", token);
        const qint64 readMs = adminClock.restart();
        const auto frozenNote = roundTrip(r.adminPort,
            buildRequest("POST", notePath,
                { { QByteArrayLiteral("Authorization"), "Bearer " + token },
                    { QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json") } },
                R"({"body":"written while the database hung"})", true),
            15'000);
        const qint64 noteMs = adminClock.elapsed();
        while (frozen.elapsed() < kFrozenMs && r.process.state() == QProcess::Running)
            r.process.waitForFinished(20); // the load keeps sending while the server hangs
        const int answered503 = load.answered503.load();
        // Commits already on their way when the server stopped may land: at most one batch per
        // writer connection, never a steady stream.
        const int acksWhileFrozen = load.acked.load() - acksAtFreeze;
        QVERIFY2(pg.thaw(&error), qPrintable(error));

        QVERIFY2(answered503 > 0, "no 503 while PostgreSQL hung");
        for (const auto &[answer, ms] :
            { std::pair { frozenRead, readMs }, std::pair { frozenNote, noteMs } }) {
            QVERIFY2(answer, "the admin API did not answer while the database hung");
            QCOMPARE(answer->status, 503);
            const QJsonObject body = QJsonDocument::fromJson(answer->body).object();
            QCOMPARE(body.value(QLatin1String("error")).toString(), QStringLiteral("reply_timeout"));
            QCOMPARE(body.value(QLatin1String("outcome")).toString(), QStringLiteral("unknown"));
            QVERIFY(!answer->header("Retry-After").isEmpty());
            QVERIFY2(ms <= kAnswerBoundMs, qPrintable(QStringLiteral("an admin answer took %1 ms").arg(ms)));
        }
        QVERIFY2(waitForAcks(load, r, 100, 30'000) >= 0, "ingest did not recover after the server ran again");
        load.stopAndJoin();
        QVERIFY(r.process.state() == QProcess::Running);

        QCOMPARE(load.missingRetryAfter.load(), 0);
        QCOMPARE(load.otherStatus.load(), 0);
        QCOMPARE(load.noAnswer.load(), 0);
        QVERIFY2(load.maxLatencyMs.load() <= kAnswerBoundMs,
            qPrintable(QStringLiteral("an answer took %1 ms").arg(load.maxLatencyMs.load())));

        const QByteArray metrics = adminGet(r.adminPort, "/metrics").value_or(RawResponse {}).body;
        const double timedOut
            = metricValue(metrics, "redrive_ingest_unavailable_total{reason=\"reply_timeout\"}");
        QVERIFY2(timedOut > 0, metrics.left(200).constData());
        QVERIFY(timedOut <= load.answered503.load());

        // The ledger: every acknowledged id stored exactly once, and nothing else.
        const QList<QByteArray> ackedIds = load.ackedIds();
        const auto url = StorageUrl::parse(pg.url());
        QVERIFY(url);
        auto db = takeValue(Db::open(*url, QStringLiteral("checker"), {}), &error);
        QVERIFY2(db, qPrintable(error));
        QSqlQuery q(db->handle());
        QVERIFY(q.exec(QStringLiteral("SELECT provider_event_id FROM events")));
        QSet<QByteArray> stored;
        int rows = 0;
        while (q.next()) {
            stored.insert(q.value(0).toString().toUtf8());
            ++rows;
        }
        QCOMPARE(rows, static_cast<int>(stored.size()));
        for (const QByteArray &id : ackedIds)
            QVERIFY2(stored.contains(id), id.constData());
        QCOMPARE(rows, static_cast<int>(ackedIds.size()));
        // The note whose answer was "outcome unknown": recorded once (its commit landed after the
        // hang) or not at all — never twice.
        QVERIFY(q.exec(
            QStringLiteral("SELECT COUNT(*) FROM notes WHERE body = 'written while the database hung'")));
        QVERIFY(q.next());
        const int notes = q.value(0).toInt();
        QVERIFY2(notes <= 1, qPrintable(QString::number(notes)));

        qInfo("%d events acknowledged and stored once; %d answered 503 during a %d ms hang (%.0f by "
              "reply_timeout), %d acknowledged while frozen; slowest answer %lld ms (%lld ms before the "
              "hang); %d resends answered duplicate",
            rows, answered503, kFrozenMs, timedOut, acksWhileFrozen, load.maxLatencyMs.load(), slowestBefore,
            load.duplicates.load());
    }
};

QTEST_GUILESS_MAIN(TstDbHang)
#include "tst_dbhang.moc"
