// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace redrive::ui {

namespace {

QTranslator *loaded(QCoreApplication *app, const QLocale *locale)
{
    auto *translator = new QTranslator(app);
    const QString name = QStringLiteral("redrive");
    const QString directory = QStringLiteral(":/i18n");
    // Tries each of the user's UI languages in turn: redrive_de_DE, redrive_de, …
    const bool ok = locale ? translator->load(*locale, name, QStringLiteral("_"), directory)
                           : translator->load(QStringLiteral("redrive_en"), directory);
    if (ok && QCoreApplication::installTranslator(translator))
        return translator;
    delete translator;
    return nullptr;
}

} // namespace

bool installConsoleTranslation(QCoreApplication *app)
{
    // English first, whatever the locale: it holds the singular and plural of every counted
    // phrase ("1 event", "3 events"), which the source text writes as "event(s)". A translation
    // for the user's language goes on top (Qt asks the last one installed first), and what it
    // does not translate yet still reads as English, not as the notation.
    QTranslator *english = loaded(app, nullptr);
    const QLocale locale;
    if (locale.language() == QLocale::English || locale.language() == QLocale::C)
        return english;
    // Qt's own words (the buttons of standard dialogs, the context menus of text fields), from
    // the system's Qt translations when they are installed (Debian: qt6-translations-l10n).
    auto *qt = new QTranslator(app);
    if (!qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
            QLibraryInfo::path(QLibraryInfo::TranslationsPath))
        || !QCoreApplication::installTranslator(qt))
        delete qt;
    return loaded(app, &locale) || english;
}

} // namespace redrive::ui
