// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "localeformat.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QRegularExpression>

namespace redrive::ui {
namespace {

// The locale's short time with seconds: "HH:mm" -> "HH:mm:ss", "h:mm AP" -> "h:mm:ss AP".
QString withSeconds(QString format)
{
    if (format.contains(QLatin1Char('s')))
        return format;
    const qsizetype minutes = format.lastIndexOf(QLatin1String("mm"));
    if (minutes < 0)
        return format + QLatin1String(":ss");
    return format.insert(minutes + 2, QLatin1String(":ss"));
}

} // namespace

QString LocaleFormat::count(qint64 n)
{
    return QLocale().toString(n);
}

QString LocaleFormat::number(double value, int decimals)
{
    return QLocale().toString(value, 'f', decimals);
}

QString LocaleFormat::percent(double value, int decimals)
{
    const QLocale locale;
    return locale.toString(value, 'f', decimals) + locale.percent();
}

QString LocaleFormat::bytes(qint64 n)
{
    if (n < 1024 && n > -1024)
        return QCoreApplication::translate("redrive::ui::LocaleFormat", "%Ln byte(s)", nullptr, int(n));
    return QLocale().formattedDataSize(n, 1, QLocale::DataSizeIecFormat);
}

QString LocaleFormat::milliseconds(qint64 ms)
{
    return QCoreApplication::translate("redrive::ui::LocaleFormat", "%1 ms").arg(QLocale().toString(ms));
}

QString LocaleFormat::duration(qint64 ms)
{
    const QLocale locale;
    const bool negative = ms < 0;
    const qint64 s = (negative ? -ms : ms) / 1000;
    const auto n = [&locale](qint64 v) { return locale.toString(v); };
    QString out;
    if (s < 60)
        out = QCoreApplication::translate("redrive::ui::LocaleFormat", "%1 s").arg(n(s));
    else if (s < 3600)
        out = QCoreApplication::translate("redrive::ui::LocaleFormat", "%1 min").arg(n(s / 60));
    else if (s < 86400)
        out = (s % 3600) / 60
            ? QCoreApplication::translate("redrive::ui::LocaleFormat", "%1 h %2 min")
                  .arg(n(s / 3600), n((s % 3600) / 60))
            : QCoreApplication::translate("redrive::ui::LocaleFormat", "%1 h").arg(n(s / 3600));
    else
        out = (s % 86400) / 3600
            ? QCoreApplication::translate("redrive::ui::LocaleFormat", "%1 d %2 h")
                  .arg(n(s / 86400), n((s % 86400) / 3600))
            : QCoreApplication::translate("redrive::ui::LocaleFormat", "%1 d").arg(n(s / 86400));
    return negative ? QString(locale.negativeSign() + out) : out;
}

QString LocaleFormat::dateTime(qint64 ms, QLocale::FormatType format)
{
    return QLocale().toString(QDateTime::fromMSecsSinceEpoch(ms).toLocalTime(), format);
}

QString LocaleFormat::timestampFormat()
{
    const QLocale locale;
    if (locale.language() == QLocale::C)
        return QStringLiteral("yyyy-MM-dd HH:mm:ss");
    QString date = locale.dateFormat(QLocale::ShortFormat);
    static const QRegularExpression twoDigitYear(QStringLiteral("(?<!y)yy(?!y)"));
    date.replace(twoDigitYear, QStringLiteral("yyyy"));
    QString time = locale.timeFormat(QLocale::ShortFormat);
    // Seconds matter when attempts are seconds apart: "h:mm AP" → "h:mm:ss AP".
    static const QRegularExpression minutes(QStringLiteral("mm(?!:ss)"));
    if (!time.contains(QLatin1String("ss")))
        time.replace(minutes, QStringLiteral("mm:ss"));
    return date + u' ' + time;
}

QString LocaleFormat::axisTimeFormat(TimeTickUnit unit, bool spansDays)
{
    const QLocale locale;
    QString time = locale.timeFormat(QLocale::ShortFormat);
    switch (unit) {
    case TimeTickUnit::Seconds:
        return spansDays ? locale.dateFormat(QLocale::ShortFormat) + u' ' + withSeconds(time)
                         : withSeconds(time);
    case TimeTickUnit::Minutes:
    case TimeTickUnit::Hours:
        return spansDays ? locale.dateFormat(QLocale::ShortFormat) + u' ' + time : time;
    case TimeTickUnit::Days:
        return locale.dateFormat(QLocale::ShortFormat);
    }
    return time;
}

} // namespace redrive::ui
