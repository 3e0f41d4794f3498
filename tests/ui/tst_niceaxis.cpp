// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "common/niceaxis.h"

#include <QTest>

#include <cmath>

using namespace redrive::ui;

// The Overview's chart axes: round ranges, 1/2/5 x 10^n steps, whole counts, round times.
class TstNiceAxis : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void valueAxes_data();
    void valueAxes();
    void countsNeverStepBetweenWholeNumbers();
    void everyStepIsOneTwoOrFiveTimesAPowerOfTen();
    void badInputGivesAnAxis();
    void timeAxes_data();
    void timeAxes();
    void timeAxesHoldTheirRangeOnRoundTicks();
    void hoursFallOnLocalHours();
};

namespace {
constexpr qint64 kSecond = 1000;
constexpr qint64 kMinute = 60 * kSecond;
constexpr qint64 kHour = 60 * kMinute;
constexpr qint64 kDay = 24 * kHour;
// 2026-12-02 00:00:00 UTC, a midnight.
constexpr qint64 kMidnight = 1'796'169'600'000;

// m x 10^n for m in {1, 2, 5}.
bool isOneTwoFive(double step)
{
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    return std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 || std::abs(mantissa - 5) < 1e-9;
}
} // namespace

void TstNiceAxis::valueAxes_data()
{
    QTest::addColumn<double>("low");
    QTest::addColumn<double>("high");
    QTest::addColumn<bool>("integers");
    QTest::addColumn<double>("min");
    QTest::addColumn<double>("max");
    QTest::addColumn<double>("step");
    QTest::addColumn<int>("decimals");
    QTest::newRow("nothing counted") << 0.0 << 0.0 << true << 0.0 << 1.0 << 1.0 << 0;
    QTest::newRow("one event") << 0.0 << 1.0 << true << 0.0 << 1.0 << 1.0 << 0;
    QTest::newRow("three events") << 0.0 << 3.0 << true << 0.0 << 3.0 << 1.0 << 0;
    QTest::newRow("seven events") << 0.0 << 7.0 << true << 0.0 << 8.0 << 2.0 << 0;
    QTest::newRow("37 events") << 0.0 << 37.0 << true << 0.0 << 40.0 << 10.0 << 0;
    QTest::newRow("a round peak") << 0.0 << 50.0 << true << 0.0 << 50.0 << 10.0 << 0;
    QTest::newRow("1,234 events") << 0.0 << 1234.0 << true << 0.0 << 1500.0 << 500.0 << 0;
    QTest::newRow("86,400 events") << 0.0 << 86400.0 << true << 0.0 << 100000.0 << 20000.0 << 0;
    QTest::newRow("percent") << 0.0 << 100.0 << true << 0.0 << 100.0 << 20.0 << 0;
    QTest::newRow("a fraction") << 0.0 << 0.37 << false << 0.0 << 0.4 << 0.1 << 1;
    QTest::newRow("a small fraction") << 0.0 << 0.0042 << false << 0.0 << 0.005 << 0.001 << 3;
    QTest::newRow("an offset range") << 13.0 << 27.0 << false << 10.0 << 30.0 << 5.0 << 0;
    QTest::newRow("below zero") << -7.0 << 3.0 << true << -10.0 << 5.0 << 5.0 << 0;
}

void TstNiceAxis::valueAxes()
{
    QFETCH(double, low);
    QFETCH(double, high);
    QFETCH(bool, integers);
    const NiceValueAxis axis = niceValueAxis(low, high, 5, integers);
    QTEST(axis.min, "min");
    QTEST(axis.max, "max");
    QTEST(axis.step, "step");
    QTEST(axis.decimals, "decimals");
    QCOMPARE(axis.intervals, qRound((axis.max - axis.min) / axis.step));
    QVERIFY(axis.intervals <= 5);
}

// A count axis labels whole numbers: its step is never below one, and every tick is a whole number.
void TstNiceAxis::countsNeverStepBetweenWholeNumbers()
{
    for (qint64 peak = 0; peak <= 2000; ++peak) {
        const NiceValueAxis axis = niceValueAxis(0, double(peak), 5, true);
        const QByteArray what = "peak " + QByteArray::number(peak) + " step " + QByteArray::number(axis.step);
        QVERIFY2(axis.step >= 1 && axis.step == std::round(axis.step), what.constData());
        QVERIFY2(axis.min == 0 && axis.max >= double(peak) && axis.intervals <= 5, what.constData());
        // The tightest such range: one step less would cut the peak off.
        QVERIFY2(peak == 0 || axis.max - axis.step < double(peak), what.constData());
    }
}

void TstNiceAxis::everyStepIsOneTwoOrFiveTimesAPowerOfTen()
{
    for (double high = 0.001; high < 1e9; high *= 1.37) {
        for (const bool integers : { false, true }) {
            const NiceValueAxis axis = niceValueAxis(0, high, 5, integers);
            const QByteArray what
                = "high " + QByteArray::number(high) + " step " + QByteArray::number(axis.step);
            QVERIFY2(isOneTwoFive(axis.step), what.constData());
            QVERIFY2(axis.max >= high && axis.min <= 0 && axis.intervals <= 5, what.constData());
            // Ticks on whole steps: min and max are multiples of the step.
            QVERIFY2(
                std::abs(axis.max / axis.step - std::round(axis.max / axis.step)) < 1e-9, what.constData());
        }
    }
}

void TstNiceAxis::badInputGivesAnAxis()
{
    const NiceValueAxis reversed = niceValueAxis(10, 3, 5, true);
    QCOMPARE(reversed.min, 10.0);
    QCOMPARE(reversed.max, 11.0);
    const NiceValueAxis notANumber = niceValueAxis(0, std::nan(""), 5, true);
    QCOMPARE(notANumber.max, 1.0);
    const NiceValueAxis infinite = niceValueAxis(-INFINITY, 4, 0, true);
    QCOMPARE(infinite.min, 0.0);
    QCOMPARE(infinite.intervals, 1); // at most one interval asked: one
    QCOMPARE(infinite.max, 5.0);
}

void TstNiceAxis::timeAxes_data()
{
    QTest::addColumn<qint64>("from");
    QTest::addColumn<qint64>("to");
    QTest::addColumn<qint64>("expectedFrom");
    QTest::addColumn<qint64>("expectedTo");
    QTest::addColumn<qint64>("step");
    QTest::addColumn<int>("unit");
    QTest::addColumn<bool>("spansDays");
    const qint64 m = kMidnight;
    QTest::newRow("a fitted minute") << m + 10 * kHour + 7 * kMinute + 13 * kSecond
                                     << m + 10 * kHour + 8 * kMinute + 13 * kSecond
                                     << m + 10 * kHour + 7 * kMinute + 10 * kSecond
                                     << m + 10 * kHour + 8 * kMinute + 20 * kSecond << 10 * kSecond
                                     << int(TimeTickUnit::Seconds) << false;
    QTest::newRow("ten minutes, unaligned")
        << m + 10 * kHour + 3 * kMinute + 20 * kSecond << m + 10 * kHour + 13 * kMinute + 20 * kSecond
        << m + 10 * kHour + 2 * kMinute << m + 10 * kHour + 14 * kMinute << 2 * kMinute
        << int(TimeTickUnit::Minutes) << false;
    QTest::newRow("the last hour") << m + 9 * kHour + 41 * kMinute << m + 10 * kHour + 41 * kMinute
                                   << m + 9 * kHour + 40 * kMinute << m + 10 * kHour + 50 * kMinute
                                   << 10 * kMinute << int(TimeTickUnit::Minutes) << false;
    QTest::newRow("the last 24 hours")
        << m + 10 * kHour + 41 * kMinute << m + kDay + 10 * kHour + 41 * kMinute << m + 9 * kHour
        << m + kDay + 12 * kHour << 3 * kHour << int(TimeTickUnit::Hours) << true;
    QTest::newRow("the last 7 days") << m + 10 * kHour << m + 7 * kDay + 10 * kHour << m << m + 8 * kDay
                                     << kDay << int(TimeTickUnit::Days) << true;
    QTest::newRow("an empty range") << m + 30 * kSecond << m + 30 * kSecond << m + 30 * kSecond
                                    << m + 90 * kSecond << 10 * kSecond << int(TimeTickUnit::Seconds)
                                    << false;
}

void TstNiceAxis::timeAxes()
{
    QFETCH(qint64, from);
    QFETCH(qint64, to);
    QFETCH(int, unit);
    const NiceTimeAxis axis = niceTimeAxis(from, to, 0);
    QTEST(axis.fromMs, "expectedFrom");
    QTEST(axis.toMs, "expectedTo");
    QTEST(axis.stepMs, "step");
    QCOMPARE(int(axis.unit), unit);
    QTEST(axis.spansDays, "spansDays");
    QCOMPARE(axis.intervals, int((axis.toMs - axis.fromMs) / axis.stepMs));
}

// Any range up to a few weeks: held whole, on ticks a whole step apart, at most 9 of them, and
// not padded by more than a step on either side.
void TstNiceAxis::timeAxesHoldTheirRangeOnRoundTicks()
{
    for (qint64 span = kSecond; span < 40 * kDay; span = span * 13 / 10) {
        for (const qint64 from :
            { kMidnight, kMidnight + 7 * kSecond + 3, kMidnight + 5 * kHour + 17 * kMinute }) {
            const NiceTimeAxis axis = niceTimeAxis(from, from + span, 0);
            const QByteArray what = "span " + QByteArray::number(span) + " from " + QByteArray::number(from);
            QVERIFY2(axis.fromMs <= from && axis.toMs >= from + span, what.constData());
            QVERIFY2(axis.fromMs % axis.stepMs == 0 && axis.toMs % axis.stepMs == 0, what.constData());
            QVERIFY2(from - axis.fromMs < axis.stepMs && axis.toMs - (from + span) < axis.stepMs,
                what.constData());
            QVERIFY2(axis.intervals <= 9 || axis.stepMs == 7 * kDay, what.constData());
        }
    }
}

// In a zone at UTC+05:30 an hour tick falls on the local hour, and a day tick on local midnight.
void TstNiceAxis::hoursFallOnLocalHours()
{
    const qint64 offset = 5 * kHour + 30 * kMinute;
    const NiceTimeAxis day = niceTimeAxis(kMidnight, kMidnight + kDay, offset);
    QCOMPARE(day.unit, TimeTickUnit::Hours);
    QCOMPARE((day.fromMs + offset) % day.stepMs, 0);
    QVERIFY(day.fromMs % kHour != 0); // not on a UTC hour
    const NiceTimeAxis week = niceTimeAxis(kMidnight, kMidnight + 7 * kDay, offset);
    QCOMPARE(week.unit, TimeTickUnit::Days);
    QCOMPARE((week.fromMs + offset) % kDay, 0);
}

QTEST_APPLESS_MAIN(TstNiceAxis)
#include "tst_niceaxis.moc"
