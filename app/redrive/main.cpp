// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "connection/keychainsecretstore.h"
#include "main/consolecontroller.h"
#include "util/clock.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Redrive"));
    QApplication::setApplicationName(QStringLiteral("redrive"));
    QApplication::setApplicationDisplayName(QStringLiteral("Redrive"));
    QApplication::setApplicationVersion(QStringLiteral(REDRIVE_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("redrive"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Redrive operations console: browse webhook events and request audited replays."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption profile(QStringLiteral("profile"), QStringLiteral("Connect with the named profile."),
                                     QStringLiteral("NAME"));
    parser.addOption(profile);
    parser.process(app);

    QSettings settings;
    redrive::ui::KeychainSecretStore secrets;
    redrive::ui::ConsoleController console(settings, secrets, redrive::Clock::system());
    console.window()->show();
    // --profile connects straight away with the credentials in the keychain; the dialog stays
    // open to show progress, or what went wrong.
    console.showConnectionDialog(parser.value(profile), parser.isSet(profile));
    return app.exec();
}
