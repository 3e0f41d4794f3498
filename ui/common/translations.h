// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

class QCoreApplication;

namespace redrive::ui {

// Installs the console's translation for the user's locale (":/i18n/redrive_<locale>.qm",
// compiled into the `redrive` executable from ui/translations/), when there is one. Without a
// match the console shows its source text. Returns whether a translation was installed.
bool installConsoleTranslation(QCoreApplication *app);

} // namespace redrive::ui
