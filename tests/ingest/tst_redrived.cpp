// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// The redrived binary itself: --help, --version, configuration errors (exit 2, the key named,
// no secret echoed), `check` (nginx -t style, secrets from systemd credentials), migrate, refusal of an
// unmigrated or newer schema, a graceful SIGTERM, and ingest through the real process. Both engines.

#include "daemonfixture.h"
#include "daemonprocess.h"
#include "rawhttp.h"
#include "signers.h"
#include "storage/schema.h"
#include "testdb.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QSqlQuery>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace redrive;
using namespace redrive::test;

class TstRedrived final : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TestDatabase> m_db;
    QString m_configPath;
    quint16 m_port = 0;

    bool writeConfig(const QByteArray &toml, QString *path)
    {
        *path = m_db->scratchDir()
            + QStringLiteral("/redrive-%1.toml").arg(QRandomGenerator::global()->generate());
        QFile f(*path);
        // 0600: redrived refuses a config file other users can read.
        return f.open(QIODevice::WriteOnly, QFileDevice::ReadOwner | QFileDevice::WriteOwner)
            && f.write(toml) == toml.size();
    }

    // Whatever the engine, a url with a password must never be printed in clear.
    void verifyNoPassword(const QByteArray &text)
    {
        if (!m_db->url().password.isEmpty())
            QVERIFY2(!text.contains(m_db->url().password.toUtf8()), text.constData());
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY2(QFile::exists(redrivedPath()), qPrintable(redrivedPath()));
        QString error;
        m_db = TestDatabase::create(&error, false); // not migrated: `migrate` is under test
        QVERIFY2(m_db, qPrintable(error));
        m_port = freePort();
        QVERIFY(m_port != 0);
        QVERIFY(writeConfig(daemonConfigToml(m_db->urlString(), m_port), &m_configPath));
    }

    void cleanup() { m_db.reset(); }

    void helpAndVersion()
    {
        QByteArray out, err;
        QCOMPARE(runRedrived({ QStringLiteral("--help") }, &out, &err), 0);
        QVERIFY(out.startsWith("Usage: redrived --config FILE"));
        QVERIFY2(!out.contains("configuration.md"), out.constData()); // only documents that exist
        for (const char *word :
            { "migrate", "check", "token create", "token revoke", "audit verify", "--log-level" })
            QVERIFY2(out.contains(word), word);
        QCOMPARE(runRedrived({ QStringLiteral("--version") }, &out, &err), 0);
        QCOMPARE(out, QByteArray("redrived " REDRIVE_VERSION "\n"));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("no config") << QStringList {} << QByteArray("--config FILE is required");
        QTest::newRow("config without value")
            << QStringList { QStringLiteral("--config") } << QByteArray("--config needs a value");
        QTest::newRow("unknown option")
            << QStringList { QStringLiteral("--frobnicate") } << QByteArray("unknown option --frobnicate");
        QTest::newRow("bad log level") << QStringList { QStringLiteral("--config"), QStringLiteral("x"),
            QStringLiteral("--log-level"), QStringLiteral("loud") }
                                       << QByteArray("--log-level must be");
        QTest::newRow("missing file")
            << QStringList { QStringLiteral("--config"), QStringLiteral("/nonexistent/redrive.toml") }
            << QByteArray("redrived: config error: ");
    }

    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, message);
        QByteArray out, err;
        QCOMPARE(runRedrived(args, &out, &err), 2);
        QVERIFY2(err.contains(message), err.constData());
    }

    void configErrorsNameTheKey_data()
    {
        QTest::addColumn<QByteArray>("toml");
        QTest::addColumn<QByteArray>("key");
        for (const auto &broken : kBrokenConfigs)
            QTest::newRow(broken.name) << QByteArray(broken.toml) << QByteArray(broken.key);
    }

    void configErrorsNameTheKey()
    {
        QFETCH(QByteArray, toml);
        QFETCH(QByteArray, key);
        QString path;
        QVERIFY(writeConfig(toml, &path));
        QByteArray out, err;
        QCOMPARE(runRedrived({ QStringLiteral("--config"), path }, &out, &err), 2);
        QVERIFY2(err.startsWith(QByteArray("redrived: config error: " + key)), err.constData());
        QVERIFY(!err.contains("TOPSECRET"));
        QCOMPARE(err.count('\n'), 1); // one clear line
    }

    void refusesUnmigratedThenMigratesThenRuns()
    {
        QByteArray out, err;
        QCOMPARE(runRedrived({ QStringLiteral("--config"), m_configPath }, &out, &err), 1);
        QVERIFY2(err.contains(QByteArray("has no Redrive schema yet: run `redrived --config "
                     + m_configPath.toUtf8() + " migrate` first")),
            err.constData());
        verifyNoPassword(err);

        QCOMPARE(
            runRedrived({ QStringLiteral("--config"), m_configPath, QStringLiteral("migrate") }, &out, &err),
            0);
        QVERIFY2(out.contains(
                     QByteArray("migrated from schema version 0 to " + QByteArray::number(kSchemaVersion))),
            out.constData());
        verifyNoPassword(out);
        QCOMPARE(
            runRedrived({ QStringLiteral("--config"), m_configPath, QStringLiteral("migrate") }, &out, &err),
            0);
        QVERIFY2(out.contains("is up to date"), out.constData());
        QCOMPARE(runRedrived({ QStringLiteral("--config"), m_configPath, QStringLiteral("migrate"),
                                 QStringLiteral("extra") },
                     &out, &err),
            2);

        // Running: ingest through the real process, then a graceful SIGTERM.
        QProcess daemon;
        daemon.start(redrivedPath(), { QStringLiteral("--config"), m_configPath });
        QVERIFY(waitHealthy(daemon, m_port));
        const QByteArray body = "{\"action\":\"opened\"}";
        auto r = roundTrip(m_port,
            buildRequest("POST", "/hooks/gh", signGitHub(kDaemonSecret, body, "cli-1", "issues"), body));
        QVERIFY(r);
        QCOMPARE(r->status, 200);
        r = roundTrip(m_port, buildRequest("GET", "/readyz", {}, {}));
        QVERIFY(r);
        QCOMPARE(r->status, 200);
        daemon.terminate(); // SIGTERM
        QVERIFY(daemon.waitForFinished(15'000));
        QCOMPARE(daemon.exitStatus(), QProcess::NormalExit);
        QCOMPARE(daemon.exitCode(), 0);
        const QByteArray log = daemon.readAllStandardError();
        for (const char *line : { "durability: ", "ingest: listening on 127.0.0.1:", "ready:",
                 "received SIGTERM", "writer drained" })
            QVERIFY2(log.contains(line), log.constData());
        QVERIFY(!log.contains(kDaemonSecret));
        verifyNoPassword(log);
        auto db = m_db->open();
        QSqlQuery q(db->handle());
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM events WHERE provider_event_id = 'cli-1'"))
            && q.next());
        QCOMPARE(q.value(0).toInt(), 1);
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM receiver_instances WHERE power_loss_durable = 1"))
            && q.next());
        QCOMPARE(q.value(0).toInt(), 1);
    }

    // Under systemd, stderr is the journal and JOURNAL_STREAM names it: every line carries its
    // priority for journald and, with log_format = "json", is one object a shipper parses.
    void logsForTheJournalAndForShippers()
    {
        QByteArray out, err;
        QCOMPARE(
            runRedrived({ QStringLiteral("--config"), m_configPath, QStringLiteral("migrate") }, &out, &err),
            0);
        QString config;
        QVERIFY(
            writeConfig(daemonConfigToml(m_db->urlString(), m_port)
                            .replace("read_timeout = \"5s\"", "read_timeout = \"5s\"\nlog_format = \"json\""),
                &config));
        const QString logPath = m_db->scratchDir() + QStringLiteral("/journal-stream.log");
        {
            QFile create(logPath);
            QVERIFY(create.open(QIODevice::WriteOnly));
        }
        struct stat st { };
        QCOMPARE(stat(QFile::encodeName(logPath).constData(), &st), 0);
        QProcess daemon;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("JOURNAL_STREAM"),
            QStringLiteral("%1:%2").arg(qulonglong(st.st_dev)).arg(qulonglong(st.st_ino)));
        daemon.setProcessEnvironment(env);
        daemon.setStandardErrorFile(logPath); // truncates the same file: the inode stays
        daemon.start(redrivedPath(), { QStringLiteral("--config"), config });
        QVERIFY(waitHealthy(daemon, m_port));
        const QByteArray body = "{\"action\":\"opened\"}";
        const auto r = roundTrip(m_port,
            buildRequest("POST", "/hooks/gh", signGitHub(kDaemonSecret, body, "journal-1", "issues"), body));
        QVERIFY(r);
        QCOMPARE(r->status, 200);
        daemon.terminate();
        QVERIFY(daemon.waitForFinished(15'000));
        QCOMPARE(daemon.exitCode(), 0);
        QFile logFile(logPath);
        QVERIFY(logFile.open(QIODevice::ReadOnly));
        const QByteArray log = logFile.readAll();
        QVERIFY(!log.contains(kDaemonSecret));
        verifyNoPassword(log);
        const QList<QByteArray> lines = log.trimmed().split('\n');
        QVERIFY2(lines.size() >= 4, log.constData());
        bool listening = false;
        for (const QByteArray &line : lines) {
            QVERIFY2(line.size() > 4 && line[0] == '<' && line[1] >= '2' && line[1] <= '7' && line[2] == '>'
                    && line[3] == '{',
                line.constData());
            QJsonParseError parseError;
            const QJsonObject o = QJsonDocument::fromJson(line.mid(3), &parseError).object();
            QVERIFY2(parseError.error == QJsonParseError::NoError, line.constData());
            QVERIFY(!o.value(QLatin1String("time")).toString().isEmpty());
            QVERIFY(!o.value(QLatin1String("message")).toString().isEmpty());
            const QString level = o.value(QLatin1String("level")).toString();
            QCOMPARE(line[1],
                level == u"info"          ? '6'
                    : level == u"warning" ? '4'
                    : level == u"error"   ? '3'
                                          : '7');
            listening = listening
                || o.value(QLatin1String("message")).toString().contains(u"listening on 127.0.0.1:");
        }
        QVERIFY2(listening, log.constData());
    }

    void refusesNewerSchema()
    {
        QByteArray out, err;
        QCOMPARE(
            runRedrived({ QStringLiteral("--config"), m_configPath, QStringLiteral("migrate") }, &out, &err),
            0);
        {
            auto db = m_db->open();
            QSqlQuery q(db->handle());
            QVERIFY(q.exec(QStringLiteral(
                "INSERT INTO schema_version (version, description, applied_at) VALUES (%1, 'future', 0)")
                               .arg(kSchemaVersion + 1)));
        }
        QCOMPARE(runRedrived({ QStringLiteral("--config"), m_configPath }, &out, &err), 1);
        QVERIFY2(err.contains("newer than this build understands"), err.constData());
        QCOMPARE(
            runRedrived({ QStringLiteral("--config"), m_configPath, QStringLiteral("migrate") }, &out, &err),
            1);
    }

    void listenFailureIsReported()
    {
        QByteArray out, err;
        QCOMPARE(
            runRedrived({ QStringLiteral("--config"), m_configPath, QStringLiteral("migrate") }, &out, &err),
            0);
        QTcpServer occupied;
        QVERIFY(occupied.listen(QHostAddress::LocalHost, m_port));
        QCOMPARE(runRedrived({ QStringLiteral("--config"), m_configPath }, &out, &err), 1);
        QVERIFY2(err.contains(QByteArray("cannot listen on 127.0.0.1:" + QByteArray::number(m_port))),
            err.constData());
    }

    void checkAcceptsAValidConfigWithoutStartingAnything()
    {
        // Usable while the receiver runs: its port in use is no error, and nothing is opened.
        QTcpServer running;
        QVERIFY(running.listen(QHostAddress::LocalHost, m_port));
        QByteArray out, err;
        QCOMPARE(
            runRedrived({ QStringLiteral("--config"), m_configPath, QStringLiteral("check") }, &out, &err),
            0);
        QVERIFY2(out.contains("is valid: 1 source(s), 1 destination(s), 1 route(s), 1 secret(s) resolved"),
            out.constData());
        QVERIFY2(
            out.contains(QByteArray("ingest on 127.0.0.1:" + QByteArray::number(m_port))), out.constData());
        QVERIFY(!out.contains(kDaemonSecret));
        QVERIFY2(err.isEmpty(), err.constData());
        // Nothing was migrated: running still refuses the unmigrated database.
        running.close();
        QCOMPARE(runRedrived({ QStringLiteral("--config"), m_configPath }, &out, &err), 1);
        QVERIFY2(err.contains("has no Redrive schema yet"), err.constData());
    }

    // Notification targets are counted as such, not as destinations; their secret never printed.
    void checkCountsNotificationTargets()
    {
        const QByteArray toml = daemonConfigToml(m_db->urlString(), m_port)
            + "\n[[notifications]]\nname = \"ops\"\nurl = \"https://hooks.example.com/redrive\"\n"
              "signing_secret = \"notify-TOPSECRET\"\nkinds = [\"incident.opened\"]\n";
        QString path;
        QVERIFY(writeConfig(toml, &path));
        QByteArray out, err;
        QCOMPARE(runRedrived({ QStringLiteral("--config"), path, QStringLiteral("check") }, &out, &err), 0);
        QVERIFY2(
            out.contains("is valid: 1 source(s), 1 destination(s), 1 route(s), 1 notification target(s), "
                         "2 secret(s) resolved"),
            out.constData());
        QVERIFY(!out.contains("notify-TOPSECRET"));
        QVERIFY2(err.isEmpty(), err.constData());
    }

    void checkReadsSecretsFromCredentials()
    {
        QTemporaryDir credentials;
        QVERIFY(credentials.isValid());
        QFile secret(credentials.filePath(QStringLiteral("github-webhook-secret")));
        QVERIFY(secret.open(QIODevice::WriteOnly));
        secret.write("TOPSECRET-from-credential\n");
        secret.close();
        QByteArray toml = daemonConfigToml(m_db->urlString(), m_port);
        toml.replace(
            "secrets = [\"daemon-fixture-secret\"]", "secrets = [\"credential:github-webhook-secret\"]");
        QString path;
        QVERIFY(writeConfig(toml, &path));
        const QStringList args { QStringLiteral("--config"), path, QStringLiteral("check") };
        QByteArray out, err;

        qunsetenv("CREDENTIALS_DIRECTORY");
        QCOMPARE(runRedrived(args, &out, &err), 2);
        QVERIFY2(
            err.startsWith("redrived: config error: sources[0].secrets[0]: credential github-webhook-secret "
                           "needs $CREDENTIALS_DIRECTORY"),
            err.constData());

        qputenv("CREDENTIALS_DIRECTORY", QFile::encodeName(credentials.path()));
        const int code = runRedrived(args, &out, &err);
        qunsetenv("CREDENTIALS_DIRECTORY");
        QCOMPARE(code, 0);
        QVERIFY2(out.contains("1 secret(s) resolved"), out.constData());
        QVERIFY(!out.contains("TOPSECRET") && !err.contains("TOPSECRET"));
    }

    // Files holding secrets that other users can read are refused before anything runs, naming
    // the file and its mode; 0600 and 0640 with the process's own group are fine (the package's
    // /etc/redrive/redrived.toml is root:redrive 0640, read by a service running as group redrive).
    void refusesConfigAndSecretFilesOthersCanRead()
    {
        QString path;
        QVERIFY(writeConfig(daemonConfigToml(m_db->urlString(), m_port), &path));
        const QStringList args { QStringLiteral("--config"), path, QStringLiteral("check") };
        QByteArray out, err;
        QCOMPARE(runRedrived(args, &out, &err), 0);

        QVERIFY(QFile::setPermissions(
            path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup));
        QCOMPARE(runRedrived(args, &out, &err), 0); // 0640, group = ours
        QVERIFY(QFile::setPermissions(path,
            QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup
                | QFileDevice::ReadOther));
        QCOMPARE(runRedrived(args, &out, &err), 2);
        QVERIFY2(err.contains(QByteArray(
                     "config file " + QFile::encodeName(path) + " is accessible by other users (mode 0644)")),
            err.constData());
        QVERIFY(!err.contains(kDaemonSecret));
        // Any verb, not only check: the daemon itself and the token commands read the same file.
        QCOMPARE(runRedrived({ QStringLiteral("--config"), path, QStringLiteral("migrate") }, &out, &err), 2);
        QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner));

        // A file: secret.
        const QString secretPath = m_db->scratchDir() + QStringLiteral("/github.secret");
        {
            QFile secret(secretPath);
            QVERIFY(secret.open(QIODevice::WriteOnly, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
            secret.write("TOPSECRET-from-file\n");
        }
        QByteArray toml = daemonConfigToml(m_db->urlString(), m_port);
        toml.replace("secrets = [\"daemon-fixture-secret\"]",
            QByteArray("secrets = [\"file:" + QFile::encodeName(secretPath) + "\"]"));
        QString withFile;
        QVERIFY(writeConfig(toml, &withFile));
        const QStringList checkFile { QStringLiteral("--config"), withFile, QStringLiteral("check") };
        QCOMPARE(runRedrived(checkFile, &out, &err), 0);
        QVERIFY(QFile::setPermissions(secretPath,
            QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup
                | QFileDevice::ReadOther));
        QCOMPARE(runRedrived(checkFile, &out, &err), 2);
        QVERIFY2(err.contains(QByteArray("sources[0].secrets[0]: secret file " + QFile::encodeName(secretPath)
                     + " is accessible by other users (mode 0644)")),
            err.constData());
        QVERIFY(!err.contains("TOPSECRET") && !out.contains("TOPSECRET"));
    }

    void checkRefusesWhatCannotRun_data()
    {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("listen on a foreign address")
            << QByteArray("listen = \"127.0.0.1:") << QByteArray("listen = \"192.0.2.1:")
            << QByteArray("server.listen: 192.0.2.1 is not an address of this host");
        QTest::newRow("admin on the ingest port")
            << QByteArray("listen = \"127.0.0.1:")
            << QByteArray("admin_listen = \"127.0.0.1:%PORT%\"\nlisten = \"0.0.0.0:")
            << QByteArray("server.admin_listen: 127.0.0.1:%PORT% collides with server.listen 0.0.0.0:%PORT%");
        QTest::newRow("admin on a foreign address")
            << QByteArray("read_timeout")
            << QByteArray("admin_listen = \"[2001:db8::1]:9\"\ntls_cert = "
                          "\"/nonexistent/c.pem\"\ntls_key = \"/nonexistent/k.pem\"\n"
                          "read_timeout")
            << QByteArray("server.admin_listen: 2001:db8::1 is not an address of this host");
        QTest::newRow("unreadable TLS certificate")
            << QByteArray("read_timeout")
            << QByteArray("tls_cert = \"/nonexistent/c.pem\"\ntls_key = \"/nonexistent/k.pem\"\nread_timeout")
            << QByteArray("server.tls_cert: cannot read /nonexistent/c.pem");
        QTest::newRow("unreadable CA bundle")
            << QByteArray("allow_private = true")
            << QByteArray("allow_private = true\nca_file = \"/nonexistent/ca.pem\"")
            << QByteArray("destinations[0].ca_file: cannot read /nonexistent/ca.pem");
        QTest::newRow("allowed_ips with host bits set")
            << QByteArray("secrets = [\"daemon-fixture-secret\"]")
            << QByteArray(
                   "secrets = [\"daemon-fixture-secret\"]\nallowed_ips = [\"::1\", \"192.30.252.1/22\"]")
            << QByteArray("sources[0].allowed_ips[1]: \"192.30.252.1/22\" has host bits set; the range is "
                          "192.30.252.0/22");
        QTest::newRow("trusted_proxies not an address")
            << QByteArray("read_timeout") << QByteArray("trusted_proxies = [\"nginx\"]\nread_timeout")
            << QByteArray("server.trusted_proxies[0]: \"nginx\" is not an IPv4 or IPv6 address");
        QTest::newRow("secret from an unset variable")
            << QByteArray("secrets = [\"daemon-fixture-secret\"]")
            << QByteArray(
                   "secrets = [\"TOPSECRET-rotating-out\", \"env:REDRIVE_TEST_SURELY_UNSET_VARIABLE\"]")
            << QByteArray(
                   "sources[0].secrets[1]: environment variable REDRIVE_TEST_SURELY_UNSET_VARIABLE is not set");
        // [sources.reconcile]: the credential would cross a network in the clear; a GitHub run
        // without a hook; a credential from an unset variable (never its value).
        QTest::newRow("reconcile over plain http to a remote host")
            << QByteArray("secrets = [\"daemon-fixture-secret\"]")
            << QByteArray(
                   "secrets = [\"daemon-fixture-secret\"]\n[sources.reconcile]\nprovider = \"github\"\n"
                   "api_url = \"http://api.github.com\"\ncredential = \"TOPSECRET-token\"\n"
                   "hook = \"repos/a/b/hooks/1\"")
            << QByteArray("sources[0].reconcile.api_url: plain http is only allowed for a loopback host");
        QTest::newRow("reconcile github without hook")
            << QByteArray("secrets = [\"daemon-fixture-secret\"]")
            << QByteArray(
                   "secrets = [\"daemon-fixture-secret\"]\n[sources.reconcile]\nprovider = \"github\"\n"
                   "credential = \"TOPSECRET-token\"")
            << QByteArray("sources[0].reconcile.hook: is required for provider \"github\"");
        QTest::newRow("reconcile credential from an unset variable")
            << QByteArray("secrets = [\"daemon-fixture-secret\"]")
            << QByteArray(
                   "secrets = [\"daemon-fixture-secret\"]\n[sources.reconcile]\nprovider = \"github\"\n"
                   "credential = \"env:REDRIVE_TEST_SURELY_UNSET_VARIABLE\"\nhook = \"repos/a/b/hooks/1\"")
            << QByteArray(
                   "sources[0].reconcile.credential: environment variable REDRIVE_TEST_SURELY_UNSET_VARIABLE "
                   "is not set");
    }

    void checkRefusesWhatCannotRun()
    {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(QByteArray, message);
        const QByteArray port = QByteArray::number(m_port);
        QByteArray toml = daemonConfigToml(m_db->urlString(), m_port);
        QVERIFY(toml.contains(from));
        toml.replace(from, QByteArray(to).replace("%PORT%", port));
        QString path;
        QVERIFY(writeConfig(toml, &path));
        QByteArray out, err;
        QCOMPARE(runRedrived({ QStringLiteral("--config"), path, QStringLiteral("check") }, &out, &err), 2);
        QVERIFY2(err.startsWith(QByteArray("redrived: config error: " + message.replace("%PORT%", port))),
            err.constData());
        QCOMPARE(err.count('\n'), 1);
        QVERIFY(out.isEmpty());
        QVERIFY(!err.contains("TOPSECRET"));
    }

    // A schema that does not load is a configuration error naming the file: `check` and start
    // both refuse it (exit 2) instead of letting the source's events through unchecked.
    void schemaThatDoesNotLoadStopsCheckAndStart_data()
    {
        QTest::addColumn<QByteArray>("content"); // empty: no file
        QTest::addColumn<QByteArray>("says");
        QTest::newRow("missing") << QByteArray() << QByteArray("cannot read");
        QTest::newRow("not JSON") << QByteArray("{\"type\": ") << QByteArray("is not JSON");
        QTest::newRow("not a schema")
            << QByteArray("{\"type\": 5}") << QByteArray("is not a valid JSON Schema");
    }
    void schemaThatDoesNotLoadStopsCheckAndStart()
    {
        QFETCH(QByteArray, content);
        QFETCH(QByteArray, says);
        const QString schema = m_db->scratchDir()
            + QStringLiteral("/schema-%1.json").arg(QRandomGenerator::global()->generate());
        if (!content.isEmpty()) {
            QFile f(schema);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(content);
        }
        QByteArray toml = daemonConfigToml(m_db->urlString(), m_port);
        const QByteArray secrets = "secrets = [\"daemon-fixture-secret\"]\n";
        QVERIFY(toml.contains(secrets));
        const QByteArray withSchema = secrets
            + "[[sources.schemas]]\nevent_types = [\"invoice.*\"]\nschema = \"" + schema.toUtf8() + "\"\n";
        toml.replace(secrets, withSchema);
        QString path;
        QVERIFY(writeConfig(toml, &path));
        for (const QStringList &args :
            { QStringList { QStringLiteral("--config"), path, QStringLiteral("check") },
                QStringList { QStringLiteral("--config"), path } }) {
            QByteArray out, err;
            QCOMPARE(runRedrived(args, &out, &err), 2);
            QVERIFY2(
                err.startsWith("redrived: config error: sources[0].schemas[0].schema: "), err.constData());
            QVERIFY2(err.contains(schema.toUtf8()) && err.contains(says), err.constData());
            QCOMPARE(err.count('\n'), 1);
        }
    }

    void checkTakesNoArguments()
    {
        QByteArray out, err;
        QCOMPARE(runRedrived({ QStringLiteral("--config"), m_configPath, QStringLiteral("check"),
                                 QStringLiteral("--strict") },
                     &out, &err),
            2);
        QVERIFY(err.contains("check takes no arguments"));
    }

    void unknownCommand()
    {
        QByteArray out, err;
        QCOMPARE(runRedrived(
                     { QStringLiteral("--config"), m_configPath, QStringLiteral("frobnicate") }, &out, &err),
            2);
        QVERIFY(err.contains("unknown command \"frobnicate\""));
    }
};

QTEST_GUILESS_MAIN(TstRedrived)
#include "tst_redrived.moc"
