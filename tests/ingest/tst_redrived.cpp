// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// The redrived binary itself: --help, --version, configuration errors (exit 2, the key named,
// no secret echoed), migrate, refusal of an unmigrated or newer schema, a graceful SIGTERM, and
// ingest through the real process. Both engines.

#include "daemonfixture.h"
#include "daemonprocess.h"
#include "rawhttp.h"
#include "signers.h"
#include "storage/schema.h"
#include "testdb.h"

#include <QFile>
#include <QRandomGenerator>
#include <QSqlQuery>
#include <QTcpServer>
#include <QTest>

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
        return f.open(QIODevice::WriteOnly) && f.write(toml) == toml.size();
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
        for (const char *word : { "migrate", "token create", "token revoke", "audit verify", "--log-level" })
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
