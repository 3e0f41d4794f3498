// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "timeformat.h"

#include <QDateTime>

#include <atomic>

namespace redrive::ui {
namespace {

std::atomic<TimeFormat::Primary> g_primary { TimeFormat::Primary::Local };

QString localText(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString utcText(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
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
    return localText(ms) + QLatin1String(" local (")
        + QDateTime::fromMSecsSinceEpoch(ms).toLocalTime().timeZoneAbbreviation() + u')';
}

QString TimeFormat::duration(qint64 ms)
{
    const bool negative = ms < 0;
    qint64 s = (negative ? -ms : ms) / 1000;
    QString out;
    if (s < 60)
        out = QStringLiteral("%1 s").arg(s);
    else if (s < 3600)
        out = QStringLiteral("%1 min").arg(s / 60);
    else if (s < 86400)
        out = (s % 3600) / 60 ? QStringLiteral("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60)
                              : QStringLiteral("%1 h").arg(s / 3600);
    else
        out = (s % 86400) / 3600 ? QStringLiteral("%1 d %2 h").arg(s / 86400).arg((s % 86400) / 3600)
                                 : QStringLiteral("%1 d").arg(s / 86400);
    return negative ? QLatin1String("-") + out : out;
}

} // namespace redrive::ui
