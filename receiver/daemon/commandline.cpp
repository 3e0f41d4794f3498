// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "commandline.h"

#include "components.h"
#include "config/config.h"
#include "daemon.h"
#include "logging.h"
#include "signalwatcher.h"
#include "storage/schema.h"
#include "subcommands.h"

#include <QCoreApplication>
#include <QTextStream>

#include <csignal>
#include <cstdio>

namespace redrive::daemon {

Result<CommandLine> parseCommandLine(const QStringList &arguments)
{
    CommandLine cl;
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString &arg = arguments[i];
        if (!cl.command.isEmpty()) {
            cl.commandArgs.append(arg); // everything after the command is the command's
            continue;
        }
        auto value = [&](const QString &name, QString *out) -> Result<> {
            if (arg.startsWith(name + u'=')) {
                *out = arg.mid(name.size() + 1);
                return ok();
            }
            if (i + 1 >= arguments.size())
                return Failure(QStringLiteral("%1 needs a value").arg(name));
            *out = arguments[++i];
            return ok();
        };
        if (arg == u"--help" || arg == u"-h") {
            cl.action = CommandLine::Action::Help;
            return cl;
        }
        if (arg == u"--version" || arg == u"-V") {
            cl.action = CommandLine::Action::Version;
            return cl;
        }
        if (arg == u"--config" || arg.startsWith(QLatin1String("--config="))) {
            if (auto given = value(QStringLiteral("--config"), &cl.configPath); !given)
                return Failure(given.error());
            continue;
        }
        if (arg == u"--log-level" || arg.startsWith(QLatin1String("--log-level="))) {
            if (auto given = value(QStringLiteral("--log-level"), &cl.logLevel); !given)
                return Failure(given.error());
            if (!logLevelFromString(cl.logLevel))
                return Failure(QStringLiteral("--log-level must be debug, info, warning or error"));
            continue;
        }
        if (arg.startsWith(u'-'))
            return Failure(QStringLiteral("unknown option %1").arg(arg));
        cl.command = arg;
    }
    if (cl.configPath.isEmpty())
        return Failure(QStringLiteral("--config FILE is required"));
    return cl;
}

QString helpText()
{
    QString text = QStringLiteral(
        "Usage: redrived --config FILE [--log-level LEVEL] [COMMAND]\n"
        "\n"
        "Redrive's receiver: verifies, records and acknowledges incoming webhooks, delivers them to\n"
        "destinations with classified retries, and serves the admin API for audited replays.\n"
        "\n"
        "Commands:\n"
        "  (none)              run ingest, delivery and the admin API until SIGTERM or SIGINT\n"
        "  migrate             apply database migrations, then exit\n");
    for (const Subcommand &s : subcommands()) {
        for (const QString &line : s.usage.split(u'\n'))
            text += QStringLiteral("  %1\n").arg(line);
    }
    text += QStringLiteral(
        "\n"
        "Options:\n"
        "  --config FILE       the TOML configuration; every key is described in docs/operations.md\n"
        "                      (installed as /usr/share/doc/redrived/operations.md), see also redrived(8)\n"
        "  --log-level LEVEL   debug, info (default), warning or error; logs go to stderr\n"
        "  -h, --help          show this help\n"
        "  -V, --version       show the version\n"
        "\n"
        "Exit status: 0 ok, 1 runtime failure (database, schema, listen address), 2 usage or\n"
        "configuration error.\n");
    return text;
}

namespace {

int migrateCommand(const Config &config, QTextStream &out, QTextStream &err)
{
    QString error;
    const auto url = StorageUrl::parse(config.storage.url);
    if (!url) {
        err << "redrived: config error: storage.url: " << url.error() << '\n';
        return 2;
    }
    OpenOptions options;
    options.sqliteSynchronous = config.storage.sqliteSynchronous;
    auto db = takeValue(Db::open(*url, QStringLiteral("migrate"), options), &error);
    if (!db) {
        err << "redrived: cannot open the database " << url->redacted() << ": " << error << '\n';
        return 1;
    }
    MigrateOptions migrateOptions;
    for (const SourceConfig &source : config.sources) {
        if (source.scheme == SchemeKind::HmacSha256)
            migrateOptions.signatureHeaders.append(source.hmac.signatureHeader);
    }
    const auto migrated = migrate(*db, migrateOptions);
    if (!migrated) {
        err << "redrived: migrate: " << migrated.error() << '\n';
        return 1;
    }
    const int from = migrated->fromVersion;
    const int to = migrated->toVersion;
    if (from == to)
        out << "redrived: database " << url->redacted() << " is up to date (schema version " << to << ")\n";
    else
        out << "redrived: database " << url->redacted() << " migrated from schema version " << from << " to "
            << to << '\n';
    return 0;
}

int runReceiver(std::shared_ptr<const Config> config, QCoreApplication &app, QTextStream &err)
{
    SignalWatcher signals;
    if (const auto installed = signals.install(); !installed) {
        err << "redrived: " << installed.error() << '\n';
        return 1;
    }
    Daemon daemon(std::move(config), builtInComponents());
    if (const auto started = daemon.start(); !started) {
        err << "redrived: " << started.error() << '\n';
        err.flush();
        return 1;
    }
    QObject::connect(&signals, &SignalWatcher::terminationRequested, &app, [&app](int signal) {
        qInfo("received %s; shutting down gracefully", signal == SIGINT ? "SIGINT" : "SIGTERM");
        app.quit();
    });
    QCoreApplication::exec();
    daemon.stop();
    return 0;
}

} // namespace

int runRedrived(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("redrived"));
    QCoreApplication::setApplicationVersion(QStringLiteral(REDRIVE_VERSION));
    QTextStream out(stdout);
    QTextStream err(stderr);

    const auto cl = parseCommandLine(QCoreApplication::arguments());
    if (!cl) {
        err << "redrived: " << cl.error() << "\n(see redrived --help)\n";
        return 2;
    }
    if (cl->action == CommandLine::Action::Help) {
        out << helpText();
        return 0;
    }
    if (cl->action == CommandLine::Action::Version) {
        out << "redrived " << REDRIVE_VERSION << '\n';
        return 0;
    }
    installLogging(*logLevelFromString(cl->logLevel));

    ConfigError configError;
    auto loaded = loadConfig(cl->configPath, &configError);
    if (!loaded) {
        err << "redrived: config error: " << configError.toString() << '\n';
        return 2;
    }
    setLogFormat(loaded->server.jsonLogs ? LogFormat::Json : LogFormat::Text);
    auto config = std::make_shared<const Config>(std::move(*loaded));
    if (const auto url = StorageUrl::parse(config->storage.url); !url) {
        err << "redrived: config error: storage.url: " << url.error() << '\n';
        return 2;
    }

    if (cl->command.isEmpty())
        return runReceiver(std::move(config), app, err);
    if (cl->command == u"migrate") {
        if (!cl->commandArgs.isEmpty()) {
            err << "redrived: migrate takes no arguments\n";
            return 2;
        }
        return migrateCommand(*config, out, err);
    }
    for (const Subcommand &s : subcommands()) {
        if (s.name == cl->command)
            return s.run(*config, cl->commandArgs, out, err);
    }
    err << "redrived: unknown command \"" << cl->command << "\" (see redrived --help)\n";
    return 2;
}

} // namespace redrive::daemon
