// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "audit/evidenceverifier.h"
#include "common/translations.h"
#include "connection/connectiondialog.h"
#include "connection/keychainsecretstore.h"
#include "connection/profileimport.h"
#include "domain/consolelink.h"
#include "links/linkopener.h"
#include "links/linkserver.h"
#include "main/consolecontroller.h"
#include "util/clock.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QLocale>
#include <QSettings>

#include <cstdio>
#include <cstring>
#include <optional>

namespace {

// One line of what the console tells the person at the terminal, in their language.
void printLine(std::FILE *to, const QString &line)
{
    std::fprintf(to, "%s\n", qUtf8Printable(line));
}

const QCommandLineOption &profileOption()
{
    static const QCommandLineOption option(QStringLiteral("profile"),
        QCoreApplication::translate("redrive::main", "Connect with the named profile."),
        QCoreApplication::translate("redrive::main", "NAME"));
    return option;
}

const QCommandLineOption &pageOption()
{
    static const QCommandLineOption option(QStringLiteral("page"),
        QCoreApplication::translate("redrive::main", "With --profile: open on this page once connected (%1).")
            .arg(redrive::ui::MainWindow::pageNames().join(QLatin1String(", "))),
        QCoreApplication::translate("redrive::main", "PAGE"));
    return option;
}

const QCommandLineOption &importOption()
{
    static const QCommandLineOption option(QStringLiteral("import-profile"),
        QCoreApplication::translate(
            "redrive::main", "Save the connection profile described by FILE (JSON, no secrets) and exit."),
        QCoreApplication::translate("redrive::main", "FILE"));
    return option;
}

const QCommandLineOption &tokenStdinOption()
{
    static const QCommandLineOption option(QStringLiteral("token-stdin"),
        QCoreApplication::translate("redrive::main",
            "Read the admin API token from standard input. With --import-profile: store it "
            "in the keychain. With --profile: use it for this run only; it is stored nowhere "
            "(for machines without a keychain)."));
    return option;
}

const QCommandLineOption &verifyEvidenceOption()
{
    static const QCommandLineOption option(QStringLiteral("verify-evidence"),
        QCoreApplication::translate("redrive::main",
            "Re-check an evidence bundle (the receiver's signature, body hash, audit hash links, checkpoint "
            "signature, bundle hash), print what was checked and exit: 0 when intact, 1 with the first "
            "problem, 2 for bad arguments."),
        QCoreApplication::translate("redrive::main", "FILE"));
    return option;
}

const QCommandLineOption &publicKeyOption()
{
    static const QCommandLineOption option(QStringLiteral("public-key"),
        QCoreApplication::translate("redrive::main",
            "With --verify-evidence: the receiver key the bundle must be signed with: 64 hex digits, base64, "
            "or a file holding it, a PEM public key or a checkpoint (redrived audit checkpoint --out FILE)."),
        QCoreApplication::translate("redrive::main", "FILE|HEX"));
    return option;
}

const QCommandLineOption &keyIdOption()
{
    static const QCommandLineOption option(QStringLiteral("key-id"),
        QCoreApplication::translate("redrive::main",
            "With --verify-evidence: the id (16 hex digits) of the receiver key the bundle must be signed with."),
        QCoreApplication::translate("redrive::main", "ID"));
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
        printLine(stderr,
            QCoreApplication::translate("redrive::main", "redrive: cannot read %1: %2")
                .arg(file.fileName(), file.errorString()));
        return 1;
    }
    // A bundle holds one event's body (at most the receiver's max_body_bytes) plus its records.
    constexpr qint64 kMaxBundleBytes = 256LL * 1024 * 1024;
    if (file.size() > kMaxBundleBytes) {
        printLine(stderr,
            QCoreApplication::translate(
                "redrive::main", "redrive: %1 is larger than any evidence bundle (%2 bytes)")
                .arg(file.fileName(), QLocale().toString(file.size())));
        return 1;
    }
    const redrive::audit::EvidenceVerdict verdict = redrive::audit::verifyEvidence(file.readAll(), pin);
    for (const QString &line : verdict.checked)
        std::fprintf(stdout, "ok: %s\n", qUtf8Printable(line));
    if (!verdict.ok) {
        printLine(stderr,
            QCoreApplication::translate("redrive::main", "%1: evidence FAILED verification: %2")
                .arg(file.fileName(), verdict.problem));
        return 1;
    }
    for (const QString &line : verdict.notes)
        std::fprintf(stdout, "note: %s\n", qUtf8Printable(line));
    if (verdict.signedByReceiver)
        std::fprintf(stdout, "trusted: %s\n", qUtf8Printable(verdict.trustSummary()));
    else
        std::fprintf(stdout, "WARNING: %s\n", qUtf8Printable(verdict.trustSummary()));
    const QString name = file.fileName();
    if (!verdict.signedByReceiver)
        printLine(stdout,
            QCoreApplication::translate("redrive::main", "%1: evidence intact (NOT signed by a receiver)")
                .arg(name));
    else if (verdict.keyPinned)
        printLine(stdout,
            QCoreApplication::translate(
                "redrive::main", "%1: evidence intact (signed by the pinned receiver key)")
                .arg(name));
    else
        printLine(stdout,
            QCoreApplication::translate("redrive::main", "%1: evidence intact (signed, key not pinned)")
                .arg(name));
    return 0;
}

// LINK: the link, or nullopt (reason on stderr, exit 2) when it is not one the console opens.
std::optional<redrive::ConsoleLink> linkArgument(const QCommandLineParser &parser, bool *bad)
{
    *bad = false;
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty())
        return std::nullopt;
    if (positional.size() > 1) {
        printLine(stderr,
            QCoreApplication::translate("redrive::main", "redrive: one link at a time (given %1 arguments)")
                .arg(positional.size()));
        *bad = true;
        return std::nullopt;
    }
    if (positional.first().size() > redrive::ui::LinkServer::kMaxLinkBytes) {
        printLine(stderr,
            QCoreApplication::translate("redrive::main", "redrive: the link is longer than %1 bytes")
                .arg(redrive::ui::LinkServer::kMaxLinkBytes));
        *bad = true;
        return std::nullopt;
    }
    const auto link = redrive::parseConsoleLink(positional.first());
    if (!link) {
        printLine(stderr,
            QCoreApplication::translate("redrive::main", "redrive: not a link the console opens: %1")
                .arg(link.error()));
        *bad = true;
        return std::nullopt;
    }
    return *link;
}

// --token-stdin: the token, one line of standard input; nullopt (reason on stderr) without one.
std::optional<QString> readTokenFromStdin()
{
    QFile in;
    if (!in.open(stdin, QIODevice::ReadOnly)) {
        printLine(stderr,
            QCoreApplication::translate(
                "redrive::main", "redrive: cannot read the token from standard input"));
        return std::nullopt;
    }
    const QString token = QString::fromUtf8(in.readLine(4096)).trimmed();
    if (token.isEmpty()) {
        printLine(stderr,
            QCoreApplication::translate(
                "redrive::main", "redrive: --token-stdin given but standard input held no token"));
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
        printLine(stderr,
            QCoreApplication::translate("redrive::main", "redrive: cannot read %1: %2")
                .arg(file.fileName(), file.errorString()));
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
    // Before the options are built: their help text is translated.
    redrive::ui::installConsoleTranslation(&app);
    QCoreApplication::setOrganizationName(QStringLiteral("Redrive"));
    QCoreApplication::setApplicationName(QStringLiteral("redrive"));
    QCoreApplication::setApplicationVersion(QStringLiteral(REDRIVE_VERSION));
    parser.setApplicationDescription(QCoreApplication::translate("redrive::main",
        "Redrive operations console: browse webhook events and request audited replays.\n"
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
    parser.addPositionalArgument(QStringLiteral("link"),
        QCoreApplication::translate("redrive::main",
            "A redrive:// link (from a notification) to open: redrive://event/ID, incident/ID, replay/ID "
            "or destination/NAME, optionally ?profile=NAME. A console already running takes it."),
        QStringLiteral("[LINK]"));
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
    QCommandLineParser parser;
    describe(app, parser);
    if (parser.isSet(publicKeyOption()) || parser.isSet(keyIdOption())) {
        printLine(stderr,
            QCoreApplication::translate(
                "redrive::main", "redrive: --public-key and --key-id go with --verify-evidence FILE"));
        return 2;
    }
    bool badLink = false;
    std::optional<redrive::ConsoleLink> link = linkArgument(parser, &badLink);
    if (badLink)
        return 2;
    if (link && link->profile.isEmpty() && parser.isSet(profileOption()))
        link->profile = parser.value(profileOption()); // `redrive --profile NAME LINK`: the link is for NAME
    if (link) {
        // A console of this user's runs already: it shows the link, and no second one starts.
        using redrive::ui::HandOver;
        const HandOver handed
            = redrive::ui::handLinkToRunningConsole(redrive::ui::LinkServer::socketName(), link->toString());
        switch (handed.outcome) {
        case HandOver::Outcome::Delivered:
            return 0;
        case HandOver::Outcome::Refused:
            printLine(stderr,
                QCoreApplication::translate(
                    "redrive::main", "redrive: the running console refused the link: %1")
                    .arg(handed.message));
            return 2;
        case HandOver::Outcome::NoAnswer:
            printLine(stderr,
                QCoreApplication::translate("redrive::main",
                    "redrive: a console is running but did not take the link within %1 seconds")
                    .arg(redrive::ui::LinkServer::kTimeoutMs / 1000));
            return 1;
        case HandOver::Outcome::NoConsole:
            break; // this one becomes the console
        }
    }
    QString tokenForThisRun;
    if (parser.isSet(tokenStdinOption())) {
        if (!parser.isSet(profileOption())) {
            printLine(stderr,
                QCoreApplication::translate("redrive::main",
                    "redrive: --token-stdin goes with --profile NAME or --import-profile FILE"));
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
            printLine(stderr,
                QCoreApplication::translate("redrive::main", "redrive: --page must be one of: %1")
                    .arg(redrive::ui::MainWindow::pageNames().join(QLatin1String(", "))));
            return 2;
        }
    }
    QApplication::setApplicationDisplayName(QStringLiteral("Redrive"));
    QApplication::setDesktopFileName(QStringLiteral("io.redrive.Console")); // packaging/desktop

    QSettings settings;
    redrive::ui::KeychainSecretStore secrets;
    redrive::ui::ConsoleController console(settings, secrets, redrive::Clock::system());
    console.window()->show();
    // Links opened while this console runs (`redrive LINK`, a click in a notification) come here.
    redrive::ui::LinkServer linkServer;
    redrive::ui::LinkOpener opener(console);
    QObject::connect(
        &linkServer, &redrive::ui::LinkServer::linkReceived, &opener, &redrive::ui::LinkOpener::open);
    QString listenError;
    if (linkServer.listen(redrive::ui::LinkServer::socketName(), &listenError)
        == redrive::ui::LinkServer::Listen::Failed)
        printLine(stderr,
            QCoreApplication::translate(
                "redrive::main", "redrive: links opened elsewhere will not reach this console: %1")
                .arg(listenError));
    if (startPage) {
        QObject::connect(
            &console, &redrive::ui::ConsoleController::sessionStarted, &console, [&console, startPage] {
                if (console.window()->isPageAvailable(*startPage))
                    console.window()->showPage(*startPage);
            });
    }
    if (link && !parser.isSet(profileOption())) {
        opener.open(*link); // connects with the link's profile (or asks for one), then shows it
        return app.exec();
    }
    if (link)
        opener.openWhenConnected(*link);
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
