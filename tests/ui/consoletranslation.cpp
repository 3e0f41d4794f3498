// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
//
// Linked into every console test: installs the console's translations as `redrive` does at
// start, so a test reads what a user reads ("1 event", not the source's "1 event(s)").
#include "common/translations.h"

#include <QCoreApplication>

namespace {

void installTranslations()
{
    redrive::ui::installConsoleTranslation(QCoreApplication::instance());
}

} // namespace

Q_COREAPP_STARTUP_FUNCTION(installTranslations)
