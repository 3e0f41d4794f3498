// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "deliveryrules/retrypolicy.h"

#include <QDateTime>
#include <QTest>

#include <random>

using namespace redrive;
using namespace redrive::delivery;

class TstRetryPolicy final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void baseDelay_data()
    {
        QTest::addColumn<QList<qint64>>("schedule");
        QTest::addColumn<int>("attempt");
        QTest::addColumn<qint64>("expected");
        const QList<qint64> svix { 5'000, 300'000, 1'800'000 };
        QTest::newRow("schedule first") << svix << 1 << qint64(5'000);
        QTest::newRow("schedule third") << svix << 3 << qint64(1'800'000);
        QTest::newRow("schedule last entry repeats") << svix << 6 << qint64(1'800'000);
        QTest::newRow("exponential 1") << QList<qint64> {} << 1 << qint64(5'000);
        QTest::newRow("exponential 2") << QList<qint64> {} << 2 << qint64(10'000);
        QTest::newRow("exponential 5") << QList<qint64> {} << 5 << qint64(80'000);
        QTest::newRow("exponential capped") << QList<qint64> {} << 30 << kExponentialCapMs;
    }
    void baseDelay()
    {
        QFETCH(QList<qint64>, schedule);
        QFETCH(int, attempt);
        QFETCH(qint64, expected);
        DestinationConfig d;
        d.retryScheduleMs = schedule;
        QCOMPARE(baseDelayMs(d, attempt), expected);
    }

    void jitterStaysInBounds()
    {
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> draw(-1.0, 1.0);
        qint64 lowest = 1'000'000, highest = 0;
        for (int i = 0; i < 10'000; ++i) {
            const qint64 v = applyJitter(10'000, 0.2, draw(rng));
            QVERIFY2(v >= 8'000 && v <= 12'000, qPrintable(QString::number(v)));
            lowest = std::min(lowest, v);
            highest = std::max(highest, v);
        }
        // The band is used, not just its centre.
        QVERIFY(lowest < 8'200);
        QVERIFY(highest > 11'800);
        QCOMPARE(applyJitter(10'000, 0.2, -1.0), qint64(8'000));
        QCOMPARE(applyJitter(10'000, 0.2, 1.0), qint64(12'000));
        QCOMPARE(applyJitter(10'000, 0.2, 7.0), qint64(12'000)); // draw clamped
        QCOMPARE(applyJitter(10'000, 0.0, 1.0), qint64(10'000));
        QCOMPARE(applyJitter(10'000, 0.9, -1.0), qint64(5'000)); // jitter clamped to 0.5
    }

    void retryAfter_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<qint64>("expected"); // -1 = not understood
        QTest::newRow("seconds") << QByteArray("120") << qint64(120'000);
        QTest::newRow("zero") << QByteArray("0") << qint64(0);
        QTest::newRow("spaces") << QByteArray(" 7 ") << qint64(7'000);
        QTest::newRow("imf-fixdate") << QByteArray("Tue, 14 Nov 2023 22:14:50 GMT") << qint64(30'000);
        QTest::newRow("rfc850") << QByteArray("Tuesday, 14-Nov-23 22:14:50 GMT") << qint64(30'000);
        QTest::newRow("asctime") << QByteArray("Tue Nov 14 22:14:50 2023") << qint64(30'000);
        QTest::newRow("past date") << QByteArray("Sun, 06 Nov 1994 08:49:37 GMT") << qint64(0);
        QTest::newRow("negative") << QByteArray("-5") << qint64(-1);
        QTest::newRow("fraction") << QByteArray("1.5") << qint64(-1);
        QTest::newRow("garbage") << QByteArray("soon") << qint64(-1);
        QTest::newRow("empty") << QByteArray("") << qint64(-1);
        QTest::newRow("bad month") << QByteArray("Tue, 14 Foo 2023 22:14:50 GMT") << qint64(-1);
        QTest::newRow("huge") << QByteArray("99999999999999") << qint64(999'999'999LL * 1000);
    }
    void retryAfter()
    {
        QFETCH(QByteArray, value);
        QFETCH(qint64, expected);
        // 2023-11-14T22:14:20Z
        const qint64 now = QDateTime(QDate(2023, 11, 14), QTime(22, 14, 20), Qt::UTC).toMSecsSinceEpoch();
        const auto parsed = parseRetryAfterMs(value, now);
        if (expected < 0) {
            QVERIFY(!parsed);
        } else {
            QVERIFY(parsed);
            QCOMPARE(*parsed, expected);
        }
    }

    void clamp_data()
    {
        QTest::addColumn<qint64>("asked");
        QTest::addColumn<qint64>("scheduled");
        QTest::addColumn<qint64>("max");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("within bounds") << qint64(30'000) << qint64(5'000) << qint64(60'000) << qint64(30'000);
        QTest::newRow("sooner than schedule")
            << qint64(1'000) << qint64(5'000) << qint64(60'000) << qint64(5'000);
        QTest::newRow("later than max")
            << qint64(999'000) << qint64(5'000) << qint64(60'000) << qint64(60'000);
        QTest::newRow("schedule beyond max")
            << qint64(999'000) << qint64(120'000) << qint64(60'000) << qint64(120'000);
    }
    void clamp()
    {
        QFETCH(qint64, asked);
        QFETCH(qint64, scheduled);
        QFETCH(qint64, max);
        QFETCH(qint64, expected);
        QCOMPARE(clampRetryAfter(asked, scheduled, max), expected);
    }

    void projection()
    {
        DestinationConfig d;
        d.maxAttempts = 4;
        d.retryScheduleMs = { 1'000, 2'000, 4'000 };
        const qint64 t = 1'000'000;
        const ProjectedSchedule p = projectSchedule(d, 0.2, 1, t);
        QCOMPARE(p.attempts.size(), 3);
        QCOMPARE(p.attempts[0].number, 2);
        QCOMPARE(p.attempts[0].earliestMs, t);
        QCOMPARE(p.attempts[0].latestMs, t);
        QCOMPARE(p.attempts[1].number, 3);
        QCOMPARE(p.attempts[1].expectedMs, t + 2'000);
        QCOMPARE(p.attempts[1].earliestMs, t + 1'600);
        QCOMPARE(p.attempts[1].latestMs, t + 2'400);
        QCOMPARE(p.attempts[2].number, 4);
        QCOMPARE(p.attempts[2].expectedMs, t + 6'000);
        QCOMPARE(p.attempts[2].earliestMs, t + 4'800);
        QCOMPARE(p.attempts[2].latestMs, t + 7'200);
        QVERIFY(p.deadLetter);
        QCOMPARE(p.deadLetter->expectedMs, t + 6'000);

        QVERIFY(projectSchedule(d, 0.2, 4, t).attempts.isEmpty());
        QVERIFY(!projectSchedule(d, 0.2, 4, t).deadLetter);
        const ProjectedSchedule fresh = projectSchedule(d, 0.2, 0, t);
        QCOMPARE(fresh.attempts.size(), 4);
        QCOMPARE(fresh.attempts.first().number, 1);
        QCOMPARE(fresh.attempts.last().expectedMs, t + 7'000);
    }
};

QTEST_GUILESS_MAIN(TstRetryPolicy)
#include "tst_retrypolicy.moc"
