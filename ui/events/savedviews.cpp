// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "savedviews.h"

#include <QSettings>

namespace redrive::ui {

SavedViews::SavedViews(QSettings &settings, QString profile)
    : m_settings(settings)
    , m_profile(std::move(profile))
{ }

QString SavedViews::group() const
{
    return QLatin1String("views/") + QString::fromLatin1(QUrl::toPercentEncoding(m_profile));
}

QStringList SavedViews::names() const
{
    m_settings.beginGroup(group());
    QStringList out;
    for (const QString &k : m_settings.childKeys())
        out.append(QUrl::fromPercentEncoding(k.toLatin1()));
    m_settings.endGroup();
    out.sort(Qt::CaseInsensitive);
    return out;
}

std::optional<EventFilter> SavedViews::load(const QString &name) const
{
    const QString text
        = m_settings.value(group() + u'/' + QString::fromLatin1(QUrl::toPercentEncoding(name))).toString();
    if (text.isEmpty())
        return std::nullopt;
    QString field, message;
    return EventFilter::fromQuery(QUrlQuery(text), &field, &message);
}

void SavedViews::save(const QString &name, const EventFilter &filter)
{
    m_settings.setValue(group() + u'/' + QString::fromLatin1(QUrl::toPercentEncoding(name)),
        filter.toQuery().toString(QUrl::FullyEncoded));
    m_settings.sync();
}

void SavedViews::remove(const QString &name)
{
    m_settings.remove(group() + u'/' + QString::fromLatin1(QUrl::toPercentEncoding(name)));
    m_settings.sync();
}

} // namespace redrive::ui
