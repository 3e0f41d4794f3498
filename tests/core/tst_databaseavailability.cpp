// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// DatabaseAvailability: one outage is one "unreachable" line and one "reachable again" line,
// whatever the number of threads that see it, and the gauge follows.
#include "storage/databaseavailability.h"

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
};

QTEST_GUILESS_MAIN(TstDatabaseAvailability)
#include "tst_databaseavailability.moc"
