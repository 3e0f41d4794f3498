// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "settingsnames.h"

#include <QSettings>
#include <QUrl>

namespace redrive::ui {

QString settingsKeyFor(const QString &name)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(name));
}

QStringList settingsNames(QSettings &settings, const QString &group, SettingsChildren children)
{
    settings.beginGroup(group);
    QStringList names;
    for (const QString &k :
        children == SettingsChildren::Groups ? settings.childGroups() : settings.childKeys())
        names.append(QUrl::fromPercentEncoding(k.toLatin1()));
    settings.endGroup();
    names.sort(Qt::CaseInsensitive);
    return names;
}

} // namespace redrive::ui
