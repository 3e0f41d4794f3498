// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Pure functions of the ingest path: the allocation-light stored-headers encoder must match the
// reference encoding byte for byte; delivery idempotency keys are stable and distinct; the
// redrived command line.

#include "daemon/commandline.h"
#include "ingest/storedheaders.h"
#include "storage/ingeststore.h"
#include "util/headers.h"

#include <QTest>

using namespace redrive;

class TstIngestUnits final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void storedHeadersMatchReference_data()
    {
        QTest::addColumn<QList<QByteArray>>("fields"); // name, value, name, value, ...
        QTest::newRow("typical") << QList<QByteArray> { "Host", "127.0.0.1:8080", "Content-Type",
            "application/json; charset=utf-8", "User-Agent", "GitHub-Hookshot/abc", "X-GitHub-Event",
            "push" };
        QTest::newRow("sensitive") << QList<QByteArray> { "Authorization", "Bearer x", "Cookie", "a=b",
            "X-Api-Key", "k", "X-Auth-Token", "t", "Proxy-Authorization", "Basic y" };
        QTest::newRow("quotes and backslashes")
            << QList<QByteArray> { "X-Q", "say \"hi\" \\ there", "X-Slash", "a/b" };
        QTest::newRow("control characters")
            << QList<QByteArray> { "X-Tab", "a\tb", "X-Bell", QByteArray("a\x07z") };
        QTest::newRow("utf-8") << QList<QByteArray> { "X-Name", "caf\xc3\xa9" };
        QTest::newRow("invalid utf-8") << QList<QByteArray> { "X-Bin", QByteArray("\xff\xfe") };
        QTest::newRow("empty") << QList<QByteArray> {};
        QTest::newRow("empty value") << QList<QByteArray> { "X-Empty", "" };
    }

    void storedHeadersMatchReference()
    {
        QFETCH(QList<QByteArray>, fields);
        Headers h;
        for (qsizetype i = 0; i + 1 < fields.size(); i += 2)
            h.add(fields[i], fields[i + 1]);
        QCOMPARE(ingest::redactedHeadersJson(h), h.redacted().toJson());
    }

    // Pinned because the stored copy of every request depends on it (and it is on the hot path,
    // so it is written without allocating: case folding must still behave like toLower()).
    void sensitiveHeaderNames_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<bool>("sensitive");
        for (const char *n : { "Authorization", "AUTHORIZATION", "proxy-authorization", "Cookie",
                 "Set-Cookie", "X-Api-Key", "api-key", "X-Amz-Security-Token", "X-Auth-Token", "TOKEN",
                 "X-Secret", "Password", "X-Passwd", "x-apikey-id", "Session-Id", "X-Shopify-Api-Key-Hint" })
            QTest::newRow(n) << QByteArray(n) << true;
        for (const char *n :
            { "Host", "Content-Type", "X-GitHub-Event", "Cookies", "Authorization2", "X-Tok", "Sess", "" })
            QTest::newRow(*n ? n : "empty") << QByteArray(n) << false;
    }

    void sensitiveHeaderNames()
    {
        QFETCH(QByteArray, name);
        QFETCH(bool, sensitive);
        QCOMPARE(Headers::isSensitive(name), sensitive);
    }

    void idempotencyKeys()
    {
        const QString a = deliveryIdempotencyKey(u"gh", u"evt-1", u"crm");
        QCOMPARE(a.size(), 36);
        QVERIFY(a.startsWith(QLatin1String("rdv_")));
        QCOMPARE(a, deliveryIdempotencyKey(u"gh", u"evt-1", u"crm")); // stable
        QVERIFY(a != deliveryIdempotencyKey(u"gh", u"evt-1", u"erp"));
        QVERIFY(a != deliveryIdempotencyKey(u"gh", u"evt-2", u"crm"));
        QVERIFY(a != deliveryIdempotencyKey(u"gh2", u"evt-1", u"crm"));
        // The separator keeps ("a", "bc") and ("ab", "c") apart.
        QVERIFY(deliveryIdempotencyKey(u"a", u"bc", u"d") != deliveryIdempotencyKey(u"ab", u"c", u"d"));
        // Pinned: the key is a contract with destinations (sent on every attempt and replay).
        // Pinned (sha256 of "gh\0evt-1\0crm", computed outside Redrive): the key is a contract
        // with destinations, sent on every attempt and replay, so it must never change.
        QCOMPARE(a, QStringLiteral("rdv_dc8da5de500621cd40d8e0df607eb63a"));
    }

    void commandLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("command");
        QTest::addColumn<QStringList>("commandArgs");
        const QString c = QStringLiteral("/etc/redrive.toml");
        QTest::newRow("run") << QStringList { QStringLiteral("--config"), c } << true << c << QString()
                             << QStringList {};
        QTest::newRow("run, = form") << QStringList { QStringLiteral("--config=") + c } << true << c
                                     << QString() << QStringList {};
        QTest::newRow("migrate") << QStringList { QStringLiteral("--config"), c, QStringLiteral("migrate") }
                                 << true << c << QStringLiteral("migrate") << QStringList {};
        QTest::newRow("token options belong to the command")
            << QStringList { QStringLiteral("--config"), c, QStringLiteral("token"), QStringLiteral("create"),
                   QStringLiteral("--name"), QStringLiteral("ops"), QStringLiteral("--role"),
                   QStringLiteral("admin"), QStringLiteral("--expires"), QStringLiteral("90d") }
            << true << c << QStringLiteral("token")
            << QStringList { QStringLiteral("create"), QStringLiteral("--name"), QStringLiteral("ops"),
                   QStringLiteral("--role"), QStringLiteral("admin"), QStringLiteral("--expires"),
                   QStringLiteral("90d") };
        QTest::newRow("no config") << QStringList { QStringLiteral("migrate") } << false << QString()
                                   << QString() << QStringList {};
        QTest::newRow("unknown option")
            << QStringList { QStringLiteral("--config"), c, QStringLiteral("--fast") } << false << QString()
            << QString() << QStringList {};
    }

    void commandLine()
    {
        QFETCH(QStringList, args);
        QFETCH(bool, ok);
        QFETCH(QString, config);
        QFETCH(QString, command);
        QFETCH(QStringList, commandArgs);
        QString error;
        const auto cl = daemon::parseCommandLine(QStringList { QStringLiteral("redrived") } + args, &error);
        QCOMPARE(cl.has_value(), ok);
        if (!ok) {
            QVERIFY(!error.isEmpty());
            return;
        }
        QCOMPARE(cl->configPath, config);
        QCOMPARE(cl->command, command);
        QCOMPARE(cl->commandArgs, commandArgs);
    }
};

QTEST_GUILESS_MAIN(TstIngestUnits)
#include "tst_ingestunits.moc"
