// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "common/translations.h"

#include <QCoreApplication>
#include <QLocale>
#include <QTest>
#include <QTranslator>

// The console's English translation: counted phrases in the singular and the plural, loaded
// whatever the user's locale is.
class TstTranslations : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cleanup();
    void englishPluralsForEveryLocale_data();
    void englishPluralsForEveryLocale();
    void qtsOwnWordsFollowTheLocale();
};

void TstTranslations::cleanup()
{
    QLocale::setDefault(QLocale::c());
    for (QTranslator *t : QCoreApplication::instance()->findChildren<QTranslator *>()) {
        QCoreApplication::removeTranslator(t);
        delete t;
    }
}

void TstTranslations::englishPluralsForEveryLocale_data()
{
    QTest::addColumn<QLocale>("locale");
    QTest::addColumn<QString>("many"); // 1204, in the locale's digits
    QTest::newRow("C") << QLocale::c() << QStringLiteral("1204 events");
    QTest::newRow("en_US") << QLocale(QLocale::English, QLocale::UnitedStates)
                           << QStringLiteral("1,204 events");
    QTest::newRow("de_DE") << QLocale(QLocale::German, QLocale::Germany) << QStringLiteral("1.204 events");
    QTest::newRow("ja_JP") << QLocale(QLocale::Japanese, QLocale::Japan) << QStringLiteral("1,204 events");
}

void TstTranslations::englishPluralsForEveryLocale()
{
    QFETCH(QLocale, locale);
    QFETCH(QString, many);
    // The test's own start-up installed one already (consoletranslation.cpp); start from none.
    cleanup();
    QLocale::setDefault(locale);
    const auto phrase = [](int n) {
        return QCoreApplication::translate("redrive::ui::EventsController", "%Ln event(s)", nullptr, n);
    };
    QCOMPARE(phrase(1), QStringLiteral("1 event(s)"));
    QVERIFY(redrive::ui::installConsoleTranslation(QCoreApplication::instance()));
    QCOMPARE(phrase(1), QStringLiteral("1 event"));
    QCOMPARE(phrase(3), QStringLiteral("3 events"));
    QCOMPARE(phrase(1204), many);
}

// Standard buttons and text-field menus are Qt's words: in German they come from the system's
// Qt translations (qt6-translations-l10n, which install-deps.sh installs and the console package
// recommends); in English nothing extra is loaded.
void TstTranslations::qtsOwnWordsFollowTheLocale()
{
    cleanup();
    const auto cancel = [] { return QCoreApplication::translate("QPlatformTheme", "Cancel"); };
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    QVERIFY(redrive::ui::installConsoleTranslation(QCoreApplication::instance()));
    QCOMPARE(cancel(), QStringLiteral("Abbrechen"));
    cleanup();
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QVERIFY(redrive::ui::installConsoleTranslation(QCoreApplication::instance()));
    QCOMPARE(cancel(), QStringLiteral("Cancel"));
}

QTEST_GUILESS_MAIN(TstTranslations)
#include "tst_translations.moc"
