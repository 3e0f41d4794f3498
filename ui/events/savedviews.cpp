// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "savedviews.h"

#include "common/settingsnames.h"

#include <QSettings>

namespace redrive::ui {

SavedViews::SavedViews(QSettings &settings, QString profile)
    : m_settings(settings)
    , m_profile(std::move(profile))
{ }

QString SavedViews::group() const
{
    return QLatin1String("views/") + settingsKeyFor(m_profile);
}

QString SavedViews::key(const QString &name) const
{
    return group() + u'/' + settingsKeyFor(name);
}

QStringList SavedViews::names() const
{
    return settingsNames(m_settings, group(), SettingsChildren::Keys);
}

std::optional<EventFilter> SavedViews::load(const QString &name) const
{
    const QString text = m_settings.value(key(name)).toString();
    if (text.isEmpty())
        return std::nullopt;
    QString field, message;
    return EventFilter::fromQuery(QUrlQuery(text), &field, &message);
}

void SavedViews::save(const QString &name, const EventFilter &filter)
{
    m_settings.setValue(key(name), filter.toQuery().toString(QUrl::FullyEncoded));
    m_settings.sync();
}

void SavedViews::remove(const QString &name)
{
    m_settings.remove(key(name));
    m_settings.sync();
}

} // namespace redrive::ui
