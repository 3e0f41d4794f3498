// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "audit/evidenceverifier.h"
#include "common/translations.h"
#include "connection/connectiondialog.h"
#include "connection/keychainsecretstore.h"
#include "connection/profileimport.h"
#include "main/consolecontroller.h"
#include "util/clock.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QSettings>

#include <cstdio>
#include <cstring>
#include <optional>

namespace {

const QCommandLineOption &profileOption()
{
    static const QCommandLineOption option(
        QStringLiteral("profile"), QStringLiteral("Connect with the named profile."), QStringLiteral("NAME"));
    return option;
}

const QCommandLineOption &pageOption()
{
    static const QCommandLineOption option(QStringLiteral("page"),
        QStringLiteral("With --profile: open on this page once connected (%1).")
            .arg(redrive::ui::MainWindow::pageNames().join(QLatin1String(", "))),
        QStringLiteral("PAGE"));
    return option;
}

const QCommandLineOption &importOption()
{
    static const QCommandLineOption option(QStringLiteral("import-profile"),
        QStringLiteral("Save the connection profile described by FILE (JSON, no secrets) and exit."),
        QStringLiteral("FILE"));
    return option;
}

const QCommandLineOption &tokenStdinOption()
{
    static const QCommandLineOption option(QStringLiteral("token-stdin"),
        QStringLiteral("Read the admin API token from standard input. With --import-profile: store it "
                       "in the keychain. With --profile: use it for this run only; it is stored nowhere "
                       "(for machines without a keychain)."));
    return option;
}

const QCommandLineOption &verifyEvidenceOption()
{
    static const QCommandLineOption option(QStringLiteral("verify-evidence"),
        QStringLiteral(
            "Re-check an evidence bundle (the receiver's signature, body hash, audit hash links, checkpoint "
            "signature, bundle hash), print what was checked and exit: 0 when intact, 1 with the first "
            "problem, 2 for bad arguments."),
        QStringLiteral("FILE"));
    return option;
}

const QCommandLineOption &publicKeyOption()
{
    static const QCommandLineOption option(QStringLiteral("public-key"),
        QStringLiteral(
            "With --verify-evidence: the receiver key the bundle must be signed with: 64 hex digits, base64, "
            "or a file holding it, a PEM public key or a checkpoint (redrived audit checkpoint --out FILE)."),
        QStringLiteral("FILE|HEX"));
    return option;
}

const QCommandLineOption &keyIdOption()
{
    static const QCommandLineOption option(QStringLiteral("key-id"),
        QStringLiteral(
            "With --verify-evidence: the id (16 hex digits) of the receiver key the bundle must be signed with."),
        QStringLiteral("ID"));
    return option;
}

// --verify-evidence: no window, no settings, no database; only the file (and the pinned key).
int verifyEvidence(const QCommandLineParser &parser)
{
    redrive::audit::KeyPin pin;
    if (parser.isSet(publicKeyOption())) {
        const auto key = redrive::audit::parsePublicKeyArgument(parser.value(publicKeyOption()));
        if (!key) {
            std::fprintf(stderr, "redrive: %s\n", qUtf8Printable(key.error()));
            return 2;
        }
        pin.publicKey = *key;
    }
    if (parser.isSet(keyIdOption())) {
        const auto id = redrive::audit::parseKeyIdArgument(parser.value(keyIdOption()));
        if (!id) {
            std::fprintf(stderr, "redrive: %s\n", qUtf8Printable(id.error()));
            return 2;
        }
        pin.keyId = *id;
    }
    QFile file(parser.value(verifyEvidenceOption()));
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "redrive: cannot read %s: %s\n", qPrintable(file.fileName()),
            qPrintable(file.errorString()));
        return 1;
    }
    // A bundle holds one event's body (at most the receiver's max_body_bytes) plus its records.
    constexpr qint64 kMaxBundleBytes = 256LL * 1024 * 1024;
    if (file.size() > kMaxBundleBytes) {
        std::fprintf(stderr, "redrive: %s is larger than any evidence bundle (%lld bytes)\n",
            qPrintable(file.fileName()), static_cast<long long>(file.size()));
        return 1;
    }
    const redrive::audit::EvidenceVerdict verdict = redrive::audit::verifyEvidence(file.readAll(), pin);
    for (const QString &line : verdict.checked)
        std::fprintf(stdout, "ok: %s\n", qUtf8Printable(line));
    if (!verdict.ok) {
        std::fprintf(stderr, "%s: evidence FAILED verification: %s\n", qUtf8Printable(file.fileName()),
            qUtf8Printable(verdict.problem));
        return 1;
    }
    for (const QString &line : verdict.notes)
        std::fprintf(stdout, "note: %s\n", qUtf8Printable(line));
    if (verdict.signedByReceiver)
        std::fprintf(stdout, "trusted: %s\n", qUtf8Printable(verdict.trustSummary()));
    else
        std::fprintf(stdout, "WARNING: %s\n", qUtf8Printable(verdict.trustSummary()));
    std::fprintf(stdout, "%s: evidence intact%s\n", qUtf8Printable(file.fileName()),
        verdict.signedByReceiver
            ? (verdict.keyPinned ? " (signed by the pinned receiver key)" : " (signed, key not pinned)")
            : " (NOT signed by a receiver)");
    return 0;
}

// --token-stdin: the token, one line of standard input; nullopt (reason on stderr) without one.
std::optional<QString> readTokenFromStdin()
{
    QFile in;
    if (!in.open(stdin, QIODevice::ReadOnly)) {
        std::fprintf(stderr, "redrive: cannot read the token from standard input\n");
        return std::nullopt;
    }
    const QString token = QString::fromUtf8(in.readLine(4096)).trimmed();
    if (token.isEmpty()) {
        std::fprintf(stderr, "redrive: --token-stdin given but standard input held no token\n");
        return std::nullopt;
    }
    return token;
}

// --import-profile: no window; the keychain job still needs an event loop, so run one until the
// import reports.
int importProfile(QCoreApplication &app, const QCommandLineParser &parser)
{
    QFile file(parser.value(importOption()));
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "redrive: cannot read %s: %s\n", qPrintable(file.fileName()),
            qPrintable(file.errorString()));
        return 2;
    }
    QString token;
    if (parser.isSet(tokenStdinOption())) {
        const auto read = readTokenFromStdin();
        if (!read)
            return 2;
        token = *read;
    }
    QSettings settings;
    redrive::ui::KeychainSecretStore secrets;
    redrive::ui::ProfileImport import(settings, secrets);
    int exitCode = 1;
    QObject::connect(
        &import, &redrive::ui::ProfileImport::finished, &app, [&](int code, const QString &message) {
            exitCode = code;
            std::fprintf(code == 0 ? stdout : stderr, "%s\n", qPrintable(message));
            QCoreApplication::quit();
        });
    import.run(file.readAll(), token);
    app.exec();
    return exitCode;
}

void describe(QCoreApplication &app, QCommandLineParser &parser)
{
    QCoreApplication::setOrganizationName(QStringLiteral("Redrive"));
    QCoreApplication::setApplicationName(QStringLiteral("redrive"));
    QCoreApplication::setApplicationVersion(QStringLiteral(REDRIVE_VERSION));
    parser.setApplicationDescription(
        QStringLiteral("Redrive operations console: browse webhook events and request audited replays.\n"
                       "Manual: redrive(1); the receiver: redrived(8)."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption(profileOption());
    parser.addOption(pageOption());
    parser.addOption(importOption());
    parser.addOption(tokenStdinOption());
    parser.addOption(verifyEvidenceOption());
    parser.addOption(publicKeyOption());
    parser.addOption(keyIdOption());
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
        if (!std::strcmp(a, "--import-profile")) {
            QCoreApplication core(argc, argv);
            QCommandLineParser parser;
            describe(core, parser);
            return importProfile(core, parser);
        }
        if (!std::strcmp(a, "--verify-evidence") || !std::strncmp(a, "--verify-evidence=", 18)) {
            QCoreApplication core(argc, argv);
            QCommandLineParser parser;
            describe(core, parser);
            return verifyEvidence(parser);
        }
    }

    QApplication app(argc, argv);
    redrive::ui::installConsoleTranslation(&app);
    QCommandLineParser parser;
    describe(app, parser);
    if (parser.isSet(publicKeyOption()) || parser.isSet(keyIdOption())) {
        std::fprintf(stderr, "redrive: --public-key and --key-id go with --verify-evidence FILE\n");
        return 2;
    }
    QString tokenForThisRun;
    if (parser.isSet(tokenStdinOption())) {
        if (!parser.isSet(profileOption())) {
            std::fprintf(
                stderr, "redrive: --token-stdin goes with --profile NAME or --import-profile FILE\n");
            return 2;
        }
        const auto read = readTokenFromStdin();
        if (!read)
            return 2;
        tokenForThisRun = *read;
    }
    std::optional<redrive::ui::MainWindow::Page> startPage;
    if (parser.isSet(pageOption())) {
        startPage = redrive::ui::MainWindow::pageFromName(parser.value(pageOption()));
        if (!startPage) {
            std::fprintf(stderr, "redrive: --page must be one of: %s\n",
                qPrintable(redrive::ui::MainWindow::pageNames().join(QLatin1String(", "))));
            return 2;
        }
    }
    QApplication::setApplicationDisplayName(QStringLiteral("Redrive"));
    QApplication::setDesktopFileName(QStringLiteral("io.redrive.Console")); // packaging/desktop

    QSettings settings;
    redrive::ui::KeychainSecretStore secrets;
    redrive::ui::ConsoleController console(settings, secrets, redrive::Clock::system());
    console.window()->show();
    if (startPage) {
        QObject::connect(
            &console, &redrive::ui::ConsoleController::sessionStarted, &console, [&console, startPage] {
                if (console.window()->isPageAvailable(*startPage))
                    console.window()->showPage(*startPage);
            });
    }
    // --profile connects straight away with the credentials in the keychain (or the token from
    // standard input, kept in memory for this run); the dialog stays open to show progress, or
    // what went wrong.
    console.showConnectionDialog(
        parser.value(profileOption()), parser.isSet(profileOption()) && tokenForThisRun.isEmpty());
    if (!tokenForThisRun.isEmpty()) {
        redrive::ui::ConnectionDialog *dialog = console.connectionDialog();
        dialog->useTokenForThisRun(tokenForThisRun);
        if (dialog->profileFromFields().name == parser.value(profileOption()))
            dialog->connectNow(); // else: no such profile; the dialog shows the others
    }
    return app.exec();
}
