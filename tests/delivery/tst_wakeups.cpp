// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// A committed event wakes the delivery engine at once; the poll is only the fallback. The real
// redrived runs with poll_interval and sweep_interval at 10 s, so an engine that waited for its
// poll would send the first attempt seconds after the acknowledgement, never within kWakeBoundMs.
//
// Why several events, one after the other: besides the poll, the engine looks at the database
// when its housekeeping falls due (backlog metrics every 2 s, retention 5 s after start). An
// engine that was never woken would still catch one event within kWakeBoundMs now and then
// (about one time in four); it cannot catch kEvents in a row (about one in a thousand).
//
// SQLite: the group-commit writer wakes its own process's engine. PostgreSQL: the same, and a
// second receiver whose ingest is idle delivers an event the first one committed (a NOTIFY sent
// after the commit by the writer's DueNotifier, LISTEN on the engine's own connection) — the only
// way it can hear of it before its poll. The notifier and the listener are also tested on their
// own: a listener ignores its own receiver's notifications, and a notifier whose connection dies
// sends again on a new one.

#include "daemonprocess.h"
#include "deliveryfixture.h"
#include "rawhttp.h"
#include "scriptabledestination.h"
#include "signers.h"
#include "storage/duenotifier.h"
#include "storage/duewakeup.h"
#include "testdb.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QTest>

#include <memory>

using namespace redrive;
using namespace redrive::test;

namespace {

constexpr int kEvents = 5;
constexpr int kWakeBoundMs = 500;
const QByteArray kSecret = "wakeups-secret";

QByteArray receiverConfig(const QString &storageUrl, quint16 port, bool delivery, const QUrl &destination)
{
    QByteArray toml;
    toml += "[server]\nlisten = \"127.0.0.1:" + QByteArray::number(port) + "\"\n\n";
    toml += "[storage]\nurl = \"" + storageUrl.toUtf8() + "\"\n\n";
    toml += "[delivery]\nenabled = " + QByteArray(delivery ? "true" : "false") + "\n";
    toml += "poll_interval = \"10s\"\nsweep_interval = \"10s\"\n\n";
    toml += "[[sources]]\nname = \"gh\"\nscheme = \"github\"\nsecrets = [\"" + kSecret + "\"]\n\n";
    toml += "[[destinations]]\nname = \"sink\"\nurl = \"" + destination.toString().toUtf8() + "\"\n";
    toml += "allow_private = true\ntimeout_ms = 5000\n\n";
    toml += "[[routes]]\nsource = \"gh\"\ndestinations = [\"sink\"]\n";
    return toml;
}

// One redrived process with its config file and log in the database's scratch directory.
struct Receiver {
    QProcess process;
    quint16 port = 0;
    QString logPath;

    bool start(const TestDatabase &db, const QString &name, bool delivery, const QUrl &destination)
    {
        port = freePort();
        const QString configPath = db.scratchDir() + u'/' + name + QStringLiteral(".toml");
        QFile f(configPath);
        if (port == 0 || !f.open(QIODevice::WriteOnly, QFileDevice::ReadOwner | QFileDevice::WriteOwner))
            return false;
        f.write(receiverConfig(db.urlString(), port, delivery, destination));
        f.close();
        logPath = db.scratchDir() + u'/' + name + QStringLiteral(".log");
        process.setStandardErrorFile(logPath, QIODevice::Append);
        process.start(redrivedPath(), { QStringLiteral("--config"), configPath });
        return waitHealthy(process, port, 20'000);
    }

    ~Receiver()
    {
        if (process.state() != QProcess::NotRunning) {
            process.terminate();
            if (!process.waitForFinished(15'000)) {
                process.kill();
                process.waitForFinished(5'000);
            }
        }
    }

    QByteArray log() const
    {
        QFile f(logPath);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
};

// Posts one signed event and returns the HTTP status (0 when there was no answer).
int postEvent(quint16 port, const QByteArray &id)
{
    const QByteArray body = "{\"action\":\"created\",\"id\":\"" + id + "\"}";
    const auto answer
        = roundTrip(port, buildRequest("POST", "/hooks/gh", signGitHub(kSecret, body, id, "order"), body));
    return answer ? answer->status : 0;
}

} // namespace

class TstWakeups final : public QObject {
    Q_OBJECT

private:
    // Sends kEvents to `ingestPort` one at a time; each must reach the destination within
    // kWakeBoundMs of its acknowledgement.
    void expectPromptDeliveries(
        quint16 ingestPort, ScriptableDestination &destination, const QByteArray &prefix)
    {
        for (int i = 0; i < kEvents; ++i) {
            const int before = destination.requestCount();
            QCOMPARE(postEvent(ingestPort, prefix + QByteArray::number(i)), 200);
            QElapsedTimer sinceAck;
            sinceAck.start();
            QVERIFY2(destination.waitForRequests(before + 1, kWakeBoundMs),
                qPrintable(
                    QStringLiteral("event %1: no attempt within %2 ms of the acknowledgement (poll is 10 s)")
                        .arg(i)
                        .arg(kWakeBoundMs)));
            qInfo("event %d: first attempt %lld ms after the acknowledgement", i,
                static_cast<long long>(sinceAck.elapsed()));
        }
    }

private Q_SLOTS:
    void ingestCommitWakesItsEngine()
    {
        QString error;
        auto db = TestDatabase::create(&error);
        QVERIFY2(db, qPrintable(error));
        ScriptableDestination destination;
        QVERIFY2(destination.start(&error), qPrintable(error));
        Receiver receiver;
        QVERIFY2(
            receiver.start(*db, QStringLiteral("one"), true, destination.url()), receiver.log().constData());
        expectPromptDeliveries(receiver.port, destination, "own-");
    }

    void eventCommittedByAnotherReceiverWakesThisOne_postgresOnly()
    {
        QString error;
        auto db = TestDatabase::create(&error);
        QVERIFY2(db, qPrintable(error));
        ScriptableDestination destination;
        QVERIFY2(destination.start(&error), qPrintable(error));
        // `ingesting` takes the traffic and delivers nothing; `delivering` takes no traffic.
        Receiver ingesting;
        QVERIFY2(ingesting.start(*db, QStringLiteral("ingesting"), false, destination.url()),
            ingesting.log().constData());
        Receiver delivering;
        QVERIFY2(delivering.start(*db, QStringLiteral("delivering"), true, destination.url()),
            delivering.log().constData());
        expectPromptDeliveries(ingesting.port, destination, "other-");
    }

    // The listening connection dies (here: terminated by the server, as in a restart); the
    // engine says so, listens again on a new connection and still wakes at once.
    void listenerComesBackAfterItsConnectionIsKilled_postgresOnly()
    {
        QString error;
        auto db = TestDatabase::create(&error);
        QVERIFY2(db, qPrintable(error));
        ScriptableDestination destination;
        QVERIFY2(destination.start(&error), qPrintable(error));
        Receiver ingesting;
        QVERIFY2(ingesting.start(*db, QStringLiteral("ingesting"), false, destination.url()),
            ingesting.log().constData());
        Receiver delivering;
        QVERIFY2(delivering.start(*db, QStringLiteral("delivering"), true, destination.url()),
            delivering.log().constData());
        auto admin = db->open();
        QVERIFY(admin);
        const QString listenerPid = QStringLiteral(
            "SELECT COALESCE(MAX(pid), 0) FROM pg_stat_activity WHERE datname = current_database() "
            "AND query LIKE 'LISTEN%'");
        QTRY_VERIFY_WITH_TIMEOUT(scalar(*admin, listenerPid) != 0, 10'000);
        const qint64 first = scalar(*admin, listenerPid);
        QCOMPARE(scalar(*admin, QStringLiteral("SELECT pg_terminate_backend(%1)::int").arg(first)), 1);
        QTRY_VERIFY_WITH_TIMEOUT(
            scalar(*admin, listenerPid) != 0 && scalar(*admin, listenerPid) != first, 10'000);
        expectPromptDeliveries(ingesting.port, destination, "again-");
        QVERIFY2(delivering.log().contains("lost the wake-up connection"), delivering.log().constData());
    }

    // A receiver's engine was woken in-process by its own writer: the listener ignores the
    // notifications its own notifier sent, and wakes for another receiver's.
    void listenerIgnoresItsOwnOrigin_postgresOnly()
    {
        QString error;
        auto db = TestDatabase::create(&error);
        QVERIFY2(db, qPrintable(error));
        std::atomic<int> woken { 0 };
        DueListener listener(
            db->url(), [&woken] { woken.fetch_add(1); }, "receiver-a");
        QVERIFY(listener.start(50));
        QTRY_VERIFY_WITH_TIMEOUT(listener.listening(), 10'000);
        DueNotifier own(db->url(), "receiver-a");
        DueNotifier other(db->url(), "receiver-b");
        QVERIFY(own.start(50));
        QVERIFY(other.start(50));
        own.poke();
        QTRY_COMPARE_WITH_TIMEOUT(own.sent(), quint64(1), 10'000);
        other.poke();
        QTRY_COMPARE_WITH_TIMEOUT(other.sent(), quint64(1), 10'000);
        // One connection delivers notifications in commit order: once the second has woken the
        // listener, the first has been read too.
        QTRY_COMPARE_WITH_TIMEOUT(listener.wakeups(), quint64(1), 10'000);
        QCOMPARE(listener.ignored(), quint64(1));
    }

    // Pokes that arrive while a NOTIFY is on its way fold into one more; none is lost after the
    // notifier's connection was killed (as in a database restart): it sends on a new one.
    void notifierSendsAgainAfterItsConnectionIsKilled_postgresOnly()
    {
        QString error;
        auto db = TestDatabase::create(&error);
        QVERIFY2(db, qPrintable(error));
        DueListener listener(db->url(), [] {});
        QVERIFY(listener.start(50));
        QTRY_VERIFY_WITH_TIMEOUT(listener.listening(), 10'000);
        DueNotifier notifier(db->url(), "receiver-a");
        QVERIFY(notifier.start(50));
        constexpr int kPokes = 200;
        for (int i = 0; i < kPokes; ++i)
            notifier.poke();
        QTRY_VERIFY_WITH_TIMEOUT(notifier.sent() >= 1, 10'000);
        QTRY_VERIFY_WITH_TIMEOUT(listener.wakeups() >= 1, 10'000);
        QVERIFY2(notifier.sent() <= kPokes, qPrintable(QString::number(notifier.sent())));

        auto admin = db->open();
        QVERIFY(admin);
        const QString notifierPid = QStringLiteral(
            "SELECT COALESCE(MAX(pid), 0) FROM pg_stat_activity WHERE datname = current_database() "
            "AND query LIKE 'SELECT pg_notify%'");
        const qint64 pid = scalar(*admin, notifierPid);
        QVERIFY(pid != 0);
        QCOMPARE(scalar(*admin, QStringLiteral("SELECT pg_terminate_backend(%1)::int").arg(pid)), 1);
        const quint64 sentBefore = notifier.sent();
        const quint64 wokenBefore = listener.wakeups();
        // The first NOTIFY after the kill fails on the dead connection; the poke is kept and
        // sent on a new connection.
        notifier.poke();
        QTRY_VERIFY_WITH_TIMEOUT(notifier.sent() > sentBefore, 10'000);
        QTRY_VERIFY_WITH_TIMEOUT(listener.wakeups() > wokenBefore, 10'000);
        QTRY_VERIFY_WITH_TIMEOUT(
            scalar(*admin, notifierPid) != 0 && scalar(*admin, notifierPid) != pid, 10'000);
    }
};

REDRIVE_STORAGE_TEST_MAIN(TstWakeups)
#include "tst_wakeups.moc"
