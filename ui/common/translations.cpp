// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "translations.h"

#include <QCoreApplication>
#include <QLocale>
#include <QTranslator>

namespace redrive::ui {

bool installConsoleTranslation(QCoreApplication *app)
{
    auto *translator = new QTranslator(app);
    // Tries each of the user's UI languages in turn: redrive_de_DE, redrive_de, …
    if (translator->load(QLocale(), QStringLiteral("redrive"), QStringLiteral("_"), QStringLiteral(":/i18n"))
        && QCoreApplication::installTranslator(translator))
        return true;
    delete translator;
    return false;
}

} // namespace redrive::ui
