// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "common/localeformat.h"
#include "common/rangeedits.h"
#include "common/timeformat.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTest>

using namespace redrive::ui;

// Numbers, sizes, durations and dates in the user's locale: the separators change with it.
class TstLocaleFormat : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cleanup() { QLocale::setDefault(QLocale::c()); }
    void englishSeparators();
    void germanSeparators();
    void durationsCountInTheLocale();
    void dateTimesInTheLocale();
    void timestampsInTheLocale();
    void axisTimeFormats();
    void rangeEditorsWriteFourDigitYears();
};

void TstLocaleFormat::englishSeparators()
{
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QCOMPARE(LocaleFormat::count(1'234'567), QStringLiteral("1,234,567"));
    QCOMPARE(LocaleFormat::count(-42), QStringLiteral("-42"));
    QCOMPARE(LocaleFormat::number(99.5, 1), QStringLiteral("99.5"));
    QCOMPARE(LocaleFormat::percent(99.5, 1), QStringLiteral("99.5%"));
    QCOMPARE(LocaleFormat::bytes(512), QStringLiteral("512 bytes"));
    QCOMPARE(LocaleFormat::bytes(1), QStringLiteral("1 byte"));
    QCOMPARE(LocaleFormat::bytes(1536), QStringLiteral("1.5 KiB"));
    QCOMPARE(LocaleFormat::bytes(5LL * 1024 * 1024 * 1024), QStringLiteral("5.0 GiB"));
    QCOMPARE(LocaleFormat::milliseconds(1234), QStringLiteral("1,234 ms"));
}

void TstLocaleFormat::germanSeparators()
{
    QLocale::setDefault(QLocale(QLocale::German));
    QCOMPARE(LocaleFormat::count(1'234'567), QStringLiteral("1.234.567"));
    QCOMPARE(LocaleFormat::number(99.5, 1), QStringLiteral("99,5"));
    QCOMPARE(LocaleFormat::percent(99.5, 1), QStringLiteral("99,5%"));
    QCOMPARE(LocaleFormat::bytes(1536), QStringLiteral("1,5 KiB"));
    QCOMPARE(LocaleFormat::bytes(1023), QStringLiteral("1.023 bytes"));
    QCOMPARE(LocaleFormat::milliseconds(1234), QStringLiteral("1.234 ms"));
}

void TstLocaleFormat::durationsCountInTheLocale()
{
    constexpr qint64 kDay = 86'400'000;
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QCOMPARE(LocaleFormat::duration(45'000), QStringLiteral("45 s"));
    QCOMPARE(LocaleFormat::duration(3 * 60'000), QStringLiteral("3 min"));
    QCOMPARE(LocaleFormat::duration(2 * 3'600'000 + 5 * 60'000), QStringLiteral("2 h 5 min"));
    QCOMPARE(LocaleFormat::duration(4 * kDay + 3'600'000), QStringLiteral("4 d 1 h"));
    QCOMPARE(LocaleFormat::duration(-3 * 60'000), QStringLiteral("-3 min"));
    QCOMPARE(LocaleFormat::duration(1204 * kDay), QStringLiteral("1,204 d"));
    QCOMPARE(TimeFormat::duration(1204 * kDay), QStringLiteral("1,204 d")); // the same, for every view
    QLocale::setDefault(QLocale(QLocale::German));
    QCOMPARE(LocaleFormat::duration(1204 * kDay), QStringLiteral("1.204 d"));
}

void TstLocaleFormat::dateTimesInTheLocale()
{
    // A local time, so the check holds in any zone the test runs in.
    const qint64 ms = QDateTime(QDate(2026, 12, 2), QTime(18, 51, 7)).toMSecsSinceEpoch();
    QLocale::setDefault(QLocale(QLocale::German));
    QCOMPARE(LocaleFormat::dateTime(ms), QStringLiteral("02.12.26 18:51"));
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    const QString english = LocaleFormat::dateTime(ms);
    QVERIFY2(english.startsWith(QLatin1String("12/2/26")) && english.contains(QLatin1String("6:51")),
        qPrintable(english));
}

void TstLocaleFormat::timestampsInTheLocale()
{
    const qint64 ms = QDateTime(QDate(2026, 12, 2), QTime(18, 51, 7)).toMSecsSinceEpoch();
    QLocale::setDefault(QLocale::c());
    QCOMPARE(TimeFormat::display(ms), QStringLiteral("2026-12-02 18:51:07"));
    QLocale::setDefault(QLocale(QLocale::German));
    QCOMPARE(TimeFormat::display(ms), QStringLiteral("02.12.2026 18:51:07"));
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    const QString english = TimeFormat::display(ms);
    QVERIFY2(english.startsWith(QLatin1String("12/2/2026 6:51:07")), qPrintable(english));
    // UTC first: the same format, named.
    TimeFormat::setPrimary(TimeFormat::Primary::Utc);
    const auto restore = qScopeGuard([] { TimeFormat::setPrimary(TimeFormat::Primary::Local); });
    QLocale::setDefault(QLocale(QLocale::German));
    QVERIFY2(TimeFormat::display(ms).endsWith(QLatin1String(" UTC")), qPrintable(TimeFormat::display(ms)));
    QVERIFY(TimeFormat::display(ms).contains(QRegularExpression(QStringLiteral("^\\d\\d\\.12\\.2026 "))));
}

void TstLocaleFormat::axisTimeFormats()
{
    QLocale::setDefault(QLocale(QLocale::German));
    QCOMPARE(LocaleFormat::axisTimeFormat(TimeTickUnit::Minutes, false), QStringLiteral("HH:mm"));
    QCOMPARE(LocaleFormat::axisTimeFormat(TimeTickUnit::Seconds, false), QStringLiteral("HH:mm:ss"));
    QCOMPARE(LocaleFormat::axisTimeFormat(TimeTickUnit::Hours, true), QStringLiteral("dd.MM.yy HH:mm"));
    QCOMPARE(LocaleFormat::axisTimeFormat(TimeTickUnit::Days, true), QStringLiteral("dd.MM.yy"));
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    const QString seconds = LocaleFormat::axisTimeFormat(TimeTickUnit::Seconds, false);
    QVERIFY2(seconds.startsWith(QLatin1String("h:mm:ss")), qPrintable(seconds)); // "h:mm:ss AP"
}

// The custom-range editors of the events filter and the audit log: the locale's short form, but
// a typed "3/12/26" would be read as 1926, so the year has four digits, and what the editor shows
// reads back as the same minute.
void TstLocaleFormat::rangeEditorsWriteFourDigitYears()
{
    QLocale::setDefault(QLocale(QLocale::German));
    QCOMPARE(rangeEditFormat(), QStringLiteral("dd.MM.yyyy HH:mm"));
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    const QString us = rangeEditFormat();
    QVERIFY2(us.startsWith(QLatin1String("M/d/yyyy h:mm")), qPrintable(us));
    const QDateTime at(QDate(2026, 12, 3), QTime(18, 51));
    const QString shown = QLocale().toString(at, us);
    QCOMPARE(QLocale().toDateTime(shown, us), at);
}

// With an application: its start-up installs the console's translations (consoletranslation.cpp),
// which give "512 bytes" and "1 byte" their English forms.
QTEST_GUILESS_MAIN(TstLocaleFormat)
#include "tst_localeformat.moc"
