// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// DatabaseAvailability: one outage is one "unreachable" line and one "reachable again" line,
// whatever the number of threads that see it, and the gauge follows.
#include "storage/databaseavailability.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QTest>

using namespace redrive;
using Clock = DatabaseAvailability::Clock;

class TstDatabaseAvailability final : public QObject {
    Q_OBJECT
private:
    static double up(metrics::Registry &registry)
    {
        return registry
            .gauge(QStringLiteral("redrive_database_up"), QString(),
                { { QStringLiteral("component"), QStringLiteral("ingest") } })
            .value();
    }

private Q_SLOTS:
    void anOutageIsLoggedOnceEachWay()
    {
        metrics::Registry registry;
        DatabaseAvailability a(registry, QStringLiteral("ingest"));
        QCOMPARE(up(registry), 1.0);
        QTest::ignoreMessage(
            QtWarningMsg, QRegularExpression(QStringLiteral("^ingest: database unreachable.*refused$")));
        a.reportDown(QStringLiteral("refused"));
        QTest::failOnWarning(QRegularExpression(QStringLiteral("unreachable")));
        a.reportDown(QStringLiteral("refused again")); // the same outage: nothing new
        QVERIFY(!a.isUp());
        QCOMPARE(up(registry), 0.0);
        a.countUnavailable(3);
        QTest::ignoreMessage(QtInfoMsg,
            QRegularExpression(QStringLiteral("^ingest: database reachable again after .* \\(3 refused")));
        a.reportUp();
        a.reportUp();
        QVERIFY(a.isUp());
        QCOMPARE(up(registry), 1.0);
    }

    // Two writer connections: one connects while the server is still starting and fails, the
    // other gets through; the first one's failure arrives after the second one's success.
    void aConnectThatBeganBeforeRecoveryIsNotANewOutage()
    {
        metrics::Registry registry;
        DatabaseAvailability a(registry, QStringLiteral("ingest"));
        QTest::ignoreMessage(
            QtWarningMsg, QRegularExpression(QStringLiteral("^ingest: database unreachable")));
        a.reportDown(QStringLiteral("connection refused"));
        const Clock::time_point slowConnectStarted = Clock::now();
        QTest::ignoreMessage(
            QtInfoMsg, QRegularExpression(QStringLiteral("^ingest: database reachable again")));
        a.reportUp();
        QTest::failOnWarning(QRegularExpression(QStringLiteral("unreachable")));
        a.reportDown(QStringLiteral("the database system is starting up"), slowConnectStarted);
        QVERIFY(a.isUp());
        QCOMPARE(up(registry), 1.0);
    }

    // The mirror image: a commit the server answered just before it went away, its answer
    // arriving after another connection reported the outage. It is not a recovery (else the
    // next failure would log a second outage); the next success that began later is.
    void aSuccessThatBeganBeforeTheOutageIsNotARecovery()
    {
        metrics::Registry registry;
        DatabaseAvailability a(registry, QStringLiteral("ingest"));
        const Clock::time_point commitStarted = Clock::now();
        QTest::ignoreMessage(
            QtWarningMsg, QRegularExpression(QStringLiteral("^ingest: database unreachable")));
        a.reportDown(QStringLiteral("terminating connection due to administrator command"));
        a.reportUp(commitStarted);
        QVERIFY(!a.isUp());
        QCOMPARE(up(registry), 0.0);
        QVERIFY(!a.lastOutage()->endedAtMs);
        QTest::ignoreMessage(
            QtInfoMsg, QRegularExpression(QStringLiteral("^ingest: database reachable again")));
        a.reportUp();
        QVERIFY(a.isUp());
    }

    void aConnectThatFailsAfterRecoveryIsANewOutage()
    {
        metrics::Registry registry;
        DatabaseAvailability a(registry, QStringLiteral("ingest"));
        QTest::ignoreMessage(
            QtWarningMsg, QRegularExpression(QStringLiteral("^ingest: database unreachable.*first$")));
        a.reportDown(QStringLiteral("first"));
        QTest::ignoreMessage(
            QtInfoMsg, QRegularExpression(QStringLiteral("^ingest: database reachable again")));
        a.reportUp();
        QTest::ignoreMessage(
            QtWarningMsg, QRegularExpression(QStringLiteral("^ingest: database unreachable.*second$")));
        a.reportDown(QStringLiteral("second")); // began now, after the recovery
        QVERIFY(!a.isUp());
        QCOMPARE(up(registry), 0.0);
    }

    // What the receiver writes with its heartbeat for the console: the last outage's begin and
    // end (wall clock) and what it refused; work refused before it started does not count.
    void theLastOutageIsKept()
    {
        metrics::Registry registry;
        DatabaseAvailability a(registry, QStringLiteral("ingest"));
        QVERIFY(!a.lastOutage());
        a.countUnavailable(5); // before any outage (a queue that was full, say)
        const qint64 before = QDateTime::currentMSecsSinceEpoch();
        QTest::ignoreMessage(
            QtWarningMsg, QRegularExpression(QStringLiteral("^ingest: database unreachable")));
        a.reportDown(QStringLiteral("refused"));
        a.countUnavailable(2);
        auto outage = a.lastOutage();
        QVERIFY(outage);
        QVERIFY(outage->beganAtMs >= before && outage->beganAtMs <= QDateTime::currentMSecsSinceEpoch());
        QVERIFY(!outage->endedAtMs); // ongoing
        QCOMPARE(outage->refused, qint64(2)); // so far
        a.countUnavailable(1);
        QTest::ignoreMessage(
            QtInfoMsg, QRegularExpression(QStringLiteral("^ingest: database reachable again")));
        a.reportUp();
        a.countUnavailable(4); // after it: not part of it
        outage = a.lastOutage();
        QVERIFY(outage && outage->endedAtMs);
        QVERIFY(*outage->endedAtMs >= outage->beganAtMs);
        QCOMPARE(outage->refused, qint64(3));
    }
};

QTEST_GUILESS_MAIN(TstDatabaseAvailability)
#include "tst_databaseavailability.moc"
