// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

class QCoreApplication;

namespace redrive::ui {

// Installs the console's translations (":/i18n/redrive_<locale>.qm", compiled into redrive_ui
// from ui/translations/): always the English one, which gives counted phrases their singular
// and plural, and on top of it the one for the user's locale (QLocale(), so QLocale::setDefault
// chooses) when there is one. Returns whether a translation was installed.
bool installConsoleTranslation(QCoreApplication *app);

} // namespace redrive::ui
