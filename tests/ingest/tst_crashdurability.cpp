// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Acknowledged means stored, even under kill -9. Eight client threads send 10,000 distinct
// signed events to the real redrived; it is SIGKILLed at five random moments while the load
// runs and restarted each time. After every kill, every event that had been answered 200 must
// be in the database; at the end all 10,000 are there exactly once with their delivery (no
// partial rows), SQLite's integrity_check is ok, and a final SIGTERM exits 0.

#include "daemonfixture.h"
#include "daemonprocess.h"
#include "rawhttp.h"
#include "signers.h"
#include "testdb.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QSqlQuery>
#include <QTest>

#include <atomic>
#include <thread>

using namespace redrive;
using namespace redrive::test;

namespace {

constexpr int kEvents = 10'000;
constexpr int kClients = 8;
constexpr int kKills = 5;
constexpr int kBudgetMs = 100'000; // the whole load must finish well inside the CTest timeout

QByteArray eventId(int i)
{
    return "crash-" + QByteArray::number(i);
}

} // namespace

class TstCrashDurability final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void acknowledgedEventsSurviveKill9()
    {
        QString error;
        auto db = TestDatabase::create(&error);
        QVERIFY2(db, qPrintable(error));
        const quint16 port = freePort();
        QVERIFY(port != 0);
        const QString configPath = db->scratchDir() + QStringLiteral("/crash.toml");
        {
            QFile f(configPath);
            QVERIFY(f.open(QIODevice::WriteOnly, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
            f.write(daemonConfigToml(db->urlString(), port));
        }
        const QString logPath = db->scratchDir() + QStringLiteral("/redrived.log");

        QProcess daemon;
        daemon.setStandardErrorFile(logPath, QIODevice::Append);
        auto startDaemon = [&] {
            daemon.start(redrivedPath(),
                { QStringLiteral("--config"), configPath, QStringLiteral("--log-level"),
                    QStringLiteral("warning") });
            return waitHealthy(daemon, port, 20'000);
        };
        auto killGuard = qScopeGuard([&] {
            if (daemon.state() != QProcess::NotRunning) {
                daemon.kill();
                daemon.waitForFinished(5'000);
            }
        });
        QVERIFY(startDaemon());

        // 0 = not acknowledged yet, 1 = answered 200.
        std::vector<std::atomic<quint8>> acked(kEvents);
        std::atomic<int> ackedCount { 0 };
        std::atomic<int> duplicateAnswers { 0 }; // committed before a kill, answer lost, resent
        std::atomic<int> retries { 0 };
        std::atomic<bool> giveUp { false };
        QDeadlineTimer budget(kBudgetMs);

        std::vector<std::thread> clients;
        for (int c = 0; c < kClients; ++c) {
            clients.emplace_back([&, c] {
                RawConnection conn;
                for (int i = c; i < kEvents && !giveUp.load(); i += kClients) {
                    const QByteArray body = "{\"action\":\"created\",\"seq\":" + QByteArray::number(i)
                        + ",\"customer\":{\"id\":\"cus_" + QByteArray::number(i % 97) + "\"}}";
                    const QByteArray request = buildRequest(
                        "POST", "/hooks/gh", signGitHub(kDaemonSecret, body, eventId(i), "charge"), body);
                    // At-least-once, like a real provider: resend until a 200 comes back.
                    for (int attempt = 0; !giveUp.load(); ++attempt) {
                        if (attempt > 0)
                            retries.fetch_add(1);
                        if (!conn.isOpen() && !conn.connect(port, 200)) {
                            conn.close();
                            // The daemon is down or restarting: back off a little, like a sender.
                            std::this_thread::sleep_for(std::chrono::milliseconds(5));
                            continue;
                        }
                        auto r = conn.send(request) ? conn.readResponse(10'000) : std::nullopt;
                        if (!r) {
                            conn.close();
                            continue;
                        }
                        if (r->status == 200) {
                            if (attempt > 0 && r->body.contains("\"duplicate\":true"))
                                duplicateAnswers.fetch_add(1);
                            acked[static_cast<std::size_t>(i)].store(1);
                            ackedCount.fetch_add(1);
                            break;
                        }
                        if (r->header("Connection") == "close")
                            conn.close();
                    }
                }
            });
        }
        auto joinClients = qScopeGuard([&] {
            giveUp = true;
            for (auto &t : clients)
                t.join();
        });

        // Five random kill points, spread over the run.
        const quint32 seed = QRandomGenerator::global()->generate();
        QRandomGenerator random(seed);
        QList<int> killAt;
        for (int k = 0; k < kKills; ++k)
            killAt.append(500 + static_cast<int>(random.bounded(kEvents - 1'500)));
        std::sort(killAt.begin(), killAt.end());
        qInfo("seed %u, kill -9 after %d, %d, %d, %d, %d acknowledged events", seed, killAt[0], killAt[1],
            killAt[2], killAt[3], killAt[4]);

        auto reader = db->open(QStringLiteral("checker"));
        QVERIFY(reader);
        auto presentIds = [&]() {
            QSet<QByteArray> ids;
            QSqlQuery q(reader->handle());
            q.setForwardOnly(true);
            if (q.exec(QStringLiteral("SELECT provider_event_id FROM events"))) {
                while (q.next())
                    ids.insert(q.value(0).toString().toUtf8());
            }
            return ids;
        };

        int kills = 0;
        int lostTotal = 0;
        QList<int> ackedAtKill;
        while (ackedCount.load() < kEvents) {
            QVERIFY2(!budget.hasExpired(),
                qPrintable(
                    QStringLiteral("load did not finish in time (%1 acknowledged)").arg(ackedCount.load())));
            if (kills < kKills && ackedCount.load() >= killAt[kills]) {
                daemon.kill(); // SIGKILL: no shutdown code runs
                QVERIFY(daemon.waitForFinished(10'000));
                ++kills;
                // The process is gone: no further 200 can arrive. Snapshot what was promised.
                QList<int> promised;
                for (int i = 0; i < kEvents; ++i) {
                    if (acked[static_cast<std::size_t>(i)].load())
                        promised.append(i);
                }
                ackedAtKill.append(static_cast<int>(promised.size()));
                const QSet<QByteArray> present = presentIds();
                int lost = 0;
                for (int i : promised)
                    lost += present.contains(eventId(i)) ? 0 : 1;
                lostTotal += lost;
                qInfo("kill %d: %d acknowledged, %d in the database, %d lost", kills,
                    static_cast<int>(promised.size()), static_cast<int>(present.size()), lost);
                QCOMPARE(lost, 0);
                QVERIFY2(startDaemon(), "redrived did not come back after kill -9");
                continue;
            }
            daemon.waitForFinished(5); // a bounded pause that also notices an unexpected exit
            QVERIFY2(daemon.state() == QProcess::Running, "redrived exited by itself during the load");
        }
        joinClients.dismiss();
        giveUp = true;
        for (auto &t : clients)
            t.join();
        QCOMPARE(kills, kKills);
        QCOMPARE(lostTotal, 0);

        daemon.terminate();
        QVERIFY(daemon.waitForFinished(20'000));
        QCOMPARE(daemon.exitStatus(), QProcess::NormalExit);
        QCOMPARE(daemon.exitCode(), 0);

        const QSet<QByteArray> present = presentIds();
        QCOMPARE(static_cast<int>(present.size()), kEvents);
        for (int i = 0; i < kEvents; ++i)
            QVERIFY2(present.contains(eventId(i)), eventId(i).constData());
        QSqlQuery q(reader->handle());
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM events")) && q.next());
        QCOMPARE(q.value(0).toInt(), kEvents);
        // No partial rows: every event has exactly its one delivery, and no delivery is orphaned.
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM events e WHERE "
                                      "(SELECT COUNT(*) FROM deliveries d WHERE d.event_id = e.id) <> 1"))
            && q.next());
        QCOMPARE(q.value(0).toInt(), 0);
        // ... and exactly its one summary status row.
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM events e LEFT JOIN event_status s "
                                      "ON s.event_id = e.id WHERE s.status IS NULL"))
            && q.next());
        QCOMPARE(q.value(0).toInt(), 0);
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM event_status")) && q.next());
        QCOMPARE(q.value(0).toInt(), kEvents);
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM deliveries")) && q.next());
        QCOMPARE(q.value(0).toInt(), kEvents);
        // Resent events were counted, not stored twice.
        QVERIFY(q.exec(QStringLiteral("SELECT COALESCE(SUM(seen_count), 0) FROM events")) && q.next());
        const int seen = q.value(0).toInt();
        QVERIFY(seen >= kEvents);
        if (db->backend() == Backend::Sqlite) {
            QVERIFY(q.exec(QStringLiteral("PRAGMA integrity_check")) && q.next());
            QCOMPARE(q.value(0).toString(), QStringLiteral("ok"));
        }
        qInfo(
            "%d events acknowledged across %d kills (acknowledged at each kill: %d, %d, %d, %d, %d); %d resends, "
            "%d answered duplicate (committed before a kill whose 200 was lost); seen_count total %d; 0 lost",
            kEvents, kills, ackedAtKill.value(0), ackedAtKill.value(1), ackedAtKill.value(2),
            ackedAtKill.value(3), ackedAtKill.value(4), retries.load(), duplicateAnswers.load(), seen);
    }
};

QTEST_GUILESS_MAIN(TstCrashDurability)
#include "tst_crashdurability.moc"
