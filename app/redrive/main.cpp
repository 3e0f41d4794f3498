// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "connection/keychainsecretstore.h"
#include "main/consolecontroller.h"
#include "util/clock.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>

#include <cstring>

namespace {

const QCommandLineOption &profileOption()
{
    static const QCommandLineOption option(QStringLiteral("profile"), QStringLiteral("Connect with the named profile."),
                                           QStringLiteral("NAME"));
    return option;
}

void describe(QCoreApplication &app, QCommandLineParser &parser)
{
    QCoreApplication::setOrganizationName(QStringLiteral("Redrive"));
    QCoreApplication::setApplicationName(QStringLiteral("redrive"));
    QCoreApplication::setApplicationVersion(QStringLiteral(REDRIVE_VERSION));
    parser.setApplicationDescription(
        QStringLiteral("Redrive operations console: browse webhook events and request audited replays."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption(profileOption());
    parser.process(app); // exits here for --help, --version and bad options
}

} // namespace

int main(int argc, char *argv[])
{
    // --help and --version answer without a display: a QCoreApplication is enough for them.
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h") || !std::strcmp(a, "--help-all")
            || !std::strcmp(a, "--version") || !std::strcmp(a, "-v")) {
            QCoreApplication core(argc, argv);
            QCommandLineParser parser;
            describe(core, parser);
            return 0;
        }
    }

    QApplication app(argc, argv);
    QCommandLineParser parser;
    describe(app, parser);
    QApplication::setApplicationDisplayName(QStringLiteral("Redrive"));
    QApplication::setDesktopFileName(QStringLiteral("io.redrive.Console")); // packaging/desktop

    QSettings settings;
    redrive::ui::KeychainSecretStore secrets;
    redrive::ui::ConsoleController console(settings, secrets, redrive::Clock::system());
    console.window()->show();
    // --profile connects straight away with the credentials in the keychain; the dialog stays
    // open to show progress, or what went wrong.
    console.showConnectionDialog(parser.value(profileOption()), parser.isSet(profileOption()));
    return app.exec();
}
