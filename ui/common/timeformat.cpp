// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "timeformat.h"

#include "localeformat.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>

#include <atomic>

namespace redrive::ui {
namespace {

std::atomic<TimeFormat::Primary> g_primary { TimeFormat::Primary::Local };

QString localText(qint64 ms)
{
    return QLocale().toString(
        QDateTime::fromMSecsSinceEpoch(ms).toLocalTime(), LocaleFormat::timestampFormat());
}

QString utcText(qint64 ms)
{
    return QLocale().toString(QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC), LocaleFormat::timestampFormat())
        + QLatin1String(" UTC");
}

} // namespace

TimeFormat::Primary TimeFormat::primary()
{
    return g_primary.load();
}

void TimeFormat::setPrimary(Primary primary)
{
    g_primary.store(primary);
}

QString TimeFormat::display(qint64 ms)
{
    return primary() == Primary::Local ? localText(ms) : utcText(ms);
}

QString TimeFormat::tooltip(qint64 ms)
{
    if (primary() == Primary::Local)
        return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
    return QCoreApplication::translate("redrive::ui::TimeFormat", "%1 local (%2)")
        .arg(localText(ms), QDateTime::fromMSecsSinceEpoch(ms).toLocalTime().timeZoneAbbreviation());
}

QString TimeFormat::duration(qint64 ms)
{
    return LocaleFormat::duration(ms);
}

} // namespace redrive::ui
