// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "domain/consolelink.h"
#include "domain/types.h"

#include <QTest>

using namespace redrive;

// The stored and wire names of the states are a contract (database rows, admin JSON, evidence
// bundles, metrics labels, CSV): each table is pinned here, and a stored name this build does not
// know must survive a read unchanged.
class TstDomainTypes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void namesAreTheContract();
    void everyNameRoundTrips();
    void storedKnownNameIsTheEnum();
    void storedUnknownNameIsKeptAsStored();
    void storedNullIsNeitherKnownNorUnknownText();
    void consoleLinksRoundTrip();
    void consoleLinksRefuseWhatTheyCannotOpen_data();
    void consoleLinksRefuseWhatTheyCannotOpen();
};

void TstDomainTypes::namesAreTheContract()
{
    QCOMPARE(allDeliveryStatusNames(),
        (QStringList { QStringLiteral("pending"), QStringLiteral("in_flight"), QStringLiteral("retrying"),
            QStringLiteral("succeeded"), QStringLiteral("dead"), QStringLiteral("resolved") }));
    QCOMPARE(allEventStatusNames(),
        (QStringList { QStringLiteral("pending"), QStringLiteral("in_flight"), QStringLiteral("retrying"),
            QStringLiteral("succeeded"), QStringLiteral("dead"), QStringLiteral("no_route"),
            QStringLiteral("invalid"), QStringLiteral("resolved") }));
    QCOMPARE(allResolutionNames(),
        (QStringList { QStringLiteral("handled_manually"), QStringLiteral("not_needed") }));
    QCOMPARE(allFailureCategoryNames(),
        (QStringList { QStringLiteral("success"), QStringLiteral("http_retryable"),
            QStringLiteral("http_permanent"), QStringLiteral("redirect"), QStringLiteral("timeout"),
            QStringLiteral("connection_refused"), QStringLiteral("connection_reset"), QStringLiteral("dns"),
            QStringLiteral("tls"), QStringLiteral("blocked_address"), QStringLiteral("invalid_url"),
            QStringLiteral("integrity"), QStringLiteral("lease_expired"), QStringLiteral("network") }));
    QCOMPARE(allReplayStatusNames(),
        (QStringList { QStringLiteral("pending_approval"), QStringLiteral("approved"),
            QStringLiteral("rejected"), QStringLiteral("cancelled"), QStringLiteral("expired"),
            QStringLiteral("executing"), QStringLiteral("halted"), QStringLiteral("completed") }));
    QCOMPARE(toString(AttemptTrigger::Automatic), QStringLiteral("automatic"));
    QCOMPARE(toString(AttemptTrigger::Replay), QStringLiteral("replay"));
    QCOMPARE(toString(ReplayItemState::Waiting), QStringLiteral("waiting"));
    QCOMPARE(toString(ReplayItemState::Skipped), QStringLiteral("skipped"));
}

void TstDomainTypes::everyNameRoundTrips()
{
    for (const QString &n : allDeliveryStatusNames())
        QCOMPARE(toString(deliveryStatusFromString(n).value()), n);
    for (const QString &n : allEventStatusNames())
        QCOMPARE(toString(eventStatusFromString(n).value()), n);
    for (const QString &n : allFailureCategoryNames())
        QCOMPARE(toString(failureCategoryFromString(n).value()), n);
    for (const QString &n : allReplayStatusNames()) {
        QCOMPARE(toString(replayStatusFromString(n).value()), n);
        QCOMPARE(Stored<ReplayStatus>::fromName(n).name(), n);
        QVERIFY(Stored<ReplayStatus>::fromName(n).isKnown());
    }
    for (const QString &n : { QStringLiteral("automatic"), QStringLiteral("replay") })
        QCOMPARE(toString(attemptTriggerFromString(n).value()), n);
    QVERIFY(!deliveryStatusFromString(u"Dead")); // names are exact, not case-folded
    QVERIFY(!failureCategoryFromString(u""));
}

void TstDomainTypes::storedKnownNameIsTheEnum()
{
    const auto s = Stored<DeliveryStatus>::fromName(QStringLiteral("in_flight"));
    QVERIFY(s.isKnown());
    QVERIFY(!s.isNull());
    QVERIFY(s == DeliveryStatus::InFlight);
    QVERIFY(s != DeliveryStatus::Pending);
    QCOMPARE(s.name(), QStringLiteral("in_flight"));
    QVERIFY(s == Stored<DeliveryStatus>(DeliveryStatus::InFlight));
    const Stored<FailureCategory> success = FailureCategory::None;
    QCOMPARE(success.name(), QStringLiteral("success"));
    QCOMPARE(toString(success), QStringLiteral("success"));
}

void TstDomainTypes::storedUnknownNameIsKeptAsStored()
{
    // A newer receiver's status, or a hand-edited row: read without crashing, matched by no
    // value, and shown exactly as stored.
    const auto s = Stored<DeliveryStatus>::fromName(QStringLiteral("archived"));
    QVERIFY(!s.isKnown());
    QVERIFY(!s.isNull());
    QVERIFY(!s.value());
    for (const QString &n : allDeliveryStatusNames())
        QVERIFY(s != *deliveryStatusFromString(n));
    QCOMPARE(s.name(), QStringLiteral("archived"));
    QVERIFY(s == Stored<DeliveryStatus>::fromName(QStringLiteral("archived")));
    QVERIFY(s != Stored<DeliveryStatus>::fromName(QStringLiteral("frozen")));
    const auto r = Stored<ReplayStatus>::fromName(QStringLiteral("paused"));
    QCOMPARE(r.name(), QStringLiteral("paused"));
    QVERIFY(r != ReplayStatus::Executing);
    const auto c = Stored<FailureCategory>::fromName(QStringLiteral("quantum"));
    QCOMPARE(c.name(), QStringLiteral("quantum"));
    QVERIFY(c != FailureCategory::None);
}

void TstDomainTypes::storedNullIsNeitherKnownNorUnknownText()
{
    const auto fromNull = Stored<FailureCategory>::fromName(QString());
    QVERIFY(fromNull.isNull());
    QVERIFY(!fromNull.isKnown());
    QVERIFY(fromNull.name().isNull());
    QVERIFY(fromNull == Stored<FailureCategory>());
    QVERIFY(Stored<FailureCategory>::fromName(QStringLiteral("")).isNull());
    QVERIFY(Stored<FailureCategory>().isNull());
}

void TstDomainTypes::consoleLinksRoundTrip()
{
    const ConsoleLink event { LinkTarget::Event, QStringLiteral("42"), {} };
    QCOMPARE(event.toString(), QStringLiteral("redrive://event/42"));
    const ConsoleLink destination { LinkTarget::Destination, QStringLiteral("crm sync/eu"),
        QStringLiteral("prod ops") };
    QCOMPARE(
        destination.toString(), QStringLiteral("redrive://destination/crm%20sync%2Feu?profile=prod%20ops"));
    for (const ConsoleLink &link : { event, destination,
             ConsoleLink { LinkTarget::Incident, QStringLiteral("7"), QStringLiteral("staging") },
             ConsoleLink { LinkTarget::Replay, QStringLiteral("9000000000"), {} } }) {
        const auto parsed = parseConsoleLink(link.toString());
        QVERIFY2(parsed, qPrintable(link.toString()));
        QCOMPARE(*parsed, link);
    }
    QCOMPARE(parseConsoleLink(QStringLiteral("redrive://incident/7"))->number(), 7);
}

void TstDomainTypes::consoleLinksRefuseWhatTheyCannotOpen_data()
{
    QTest::addColumn<QString>("link");
    QTest::addColumn<QString>("reason");
    QTest::newRow("other scheme") << "https://event/1"
                                  << "not a redrive:// link";
    QTest::newRow("unknown kind") << "redrive://delivery/1"
                                  << "unknown link kind";
    QTest::newRow("no id") << "redrive://event/"
                           << "names no event";
    QTest::newRow("not a number") << "redrive://replay/abc"
                                  << "positive number";
    QTest::newRow("zero") << "redrive://incident/0"
                          << "positive number";
    QTest::newRow("negative") << "redrive://event/-3"
                              << "positive number";
    QTest::newRow("two names") << "redrive://destination/a/b"
                               << "not one name";
    QTest::newRow("unknown parameter") << "redrive://event/1?token=x"
                                       << "unknown link parameter";
}

void TstDomainTypes::consoleLinksRefuseWhatTheyCannotOpen()
{
    QFETCH(QString, link);
    QFETCH(QString, reason);
    const auto parsed = parseConsoleLink(link);
    QVERIFY(!parsed);
    QVERIFY2(parsed.error().contains(reason), qPrintable(parsed.error()));
}

QTEST_GUILESS_MAIN(TstDomainTypes)
#include "tst_domaintypes.moc"
