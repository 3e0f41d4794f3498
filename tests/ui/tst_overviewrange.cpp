// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "overview/overviewrange.h"

#include <QTest>

using namespace redrive::ui;

// The Overview's "Fit to the data" range: the shortest round span longer than the stored data.
class TstOverviewRange : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fitsTheData_data();
    void fitsTheData();
    void dataCoversAtLeastHalfTheChart();
};

namespace {
constexpr qint64 kNow = 1'750'000'000'000;
constexpr qint64 kMinute = 60'000;
constexpr qint64 kHour = 60 * kMinute;
constexpr qint64 kDay = 24 * kHour;
} // namespace

void TstOverviewRange::fitsTheData_data()
{
    QTest::addColumn<qint64>("firstEvent"); // -1: no event stored
    QTest::addColumn<qint64>("expectedMs");
    QTest::addColumn<QString>("expectedLabel");
    QTest::newRow("nothing stored") << qint64(-1) << kMinute << QStringLiteral("minute");
    QTest::newRow("an event this instant") << kNow << kMinute << QStringLiteral("minute");
    QTest::newRow("a clock ahead of ours") << kNow + kHour << kMinute << QStringLiteral("minute");
    QTest::newRow("half a minute") << kNow - kMinute / 2 << kMinute << QStringLiteral("minute");
    QTest::newRow("a demo started a minute ago")
        << kNow - kMinute << 2 * kMinute << QStringLiteral("2 minutes");
    QTest::newRow("four minutes") << kNow - 4 * kMinute << 5 * kMinute << QStringLiteral("5 minutes");
    QTest::newRow("exactly five minutes")
        << kNow - 5 * kMinute << 10 * kMinute << QStringLiteral("10 minutes");
    QTest::newRow("seven minutes") << kNow - 7 * kMinute << 10 * kMinute << QStringLiteral("10 minutes");
    QTest::newRow("forty minutes") << kNow - 40 * kMinute << kHour << QStringLiteral("hour");
    QTest::newRow("five hours") << kNow - 5 * kHour << 6 * kHour << QStringLiteral("6 hours");
    QTest::newRow("twenty hours") << kNow - 20 * kHour << kDay << QStringLiteral("24 hours");
    QTest::newRow("four days") << kNow - 4 * kDay << 5 * kDay << QStringLiteral("5 days");
    QTest::newRow("ten days") << kNow - 10 * kDay << 14 * kDay << QStringLiteral("14 days");
    QTest::newRow("past the longest span") << kNow - 400 * kDay << 30 * kDay << QStringLiteral("30 days");
}

void TstOverviewRange::fitsTheData()
{
    QFETCH(qint64, firstEvent);
    QFETCH(qint64, expectedMs);
    QFETCH(QString, expectedLabel);
    const OverviewSpan span
        = fitOverviewSpan(firstEvent < 0 ? std::nullopt : std::optional<qint64>(firstEvent), kNow);
    QCOMPARE(span.ms, expectedMs);
    QCOMPARE(span.label, expectedLabel);
}

// The point of fitting: below the longest span, the stored data reaches across at least half of
// the chart and never past its left edge, whatever its age.
void TstOverviewRange::dataCoversAtLeastHalfTheChart()
{
    for (qint64 age = 30'000; age < 30 * kDay; age = age * 11 / 10) {
        const OverviewSpan span = fitOverviewSpan(kNow - age, kNow);
        QVERIFY2(span.ms > age, qPrintable(QStringLiteral("age %1 ms, span %2 ms").arg(age).arg(span.ms)));
        if (age >= kMinute / 2)
            QVERIFY2(2 * age >= span.ms,
                qPrintable(QStringLiteral("age %1 ms, span %2 ms").arg(age).arg(span.ms)));
    }
}

QTEST_GUILESS_MAIN(TstOverviewRange)
#include "tst_overviewrange.moc"
