// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QStringList>

class QSettings;

namespace redrive::ui {

// Names the operator chooses (profiles, saved views) are kept as settings keys, so each one is
// percent-encoded: a '/' in a name would otherwise open a settings group, and a backslash or
// a leading '#' means something to the INI format.
[[nodiscard]] QString settingsKeyFor(const QString &name);

// Whether the names under a group are its child groups (one per profile, holding that
// profile's fields) or its child keys (one value per saved view).
enum class SettingsChildren { Groups, Keys };

// The decoded names under `group`, sorted case-insensitively as the console lists them.
[[nodiscard]] QStringList settingsNames(QSettings &settings, const QString &group, SettingsChildren children);

} // namespace redrive::ui
