// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Pure functions of the ingest path: the allocation-light stored-headers encoder must match the
// reference encoding byte for byte; delivery idempotency keys are stable and distinct; the
// redrived command line; address ranges and the client address behind trusted proxies.

#include "daemon/commandline.h"
#include "daemon/logging.h"
#include "ingest/storedheaders.h"
#include "storage/ingeststore.h"
#include "util/headers.h"
#include "util/ipranges.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <sys/stat.h>

using namespace redrive;

class TstIngestUnits final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void logLines()
    {
        using daemon::LogFormat;
        const qint64 at = 1'764'744'674'123; // 2025-12-03T06:51:14.123Z
        QCOMPARE(daemon::formatLogLine(QtInfoMsg, "redrive.delivery", QStringLiteral("delivery 42: sent"), at,
                     LogFormat::Text, false),
            QByteArray("2025-12-03T06:51:14.123Z info    redrive.delivery: delivery 42: sent\n"));
        // For the journal: the priority first, no timestamp of our own.
        QCOMPARE(daemon::formatLogLine(
                     QtWarningMsg, "redrive.http", QStringLiteral("slow"), at, LogFormat::Text, true),
            QByteArray("<4>redrive.http: slow\n"));
        QCOMPARE(
            daemon::formatLogLine(QtCriticalMsg, "default", QStringLiteral("x"), at, LogFormat::Text, true),
            QByteArray("<3>x\n"));
        QCOMPARE(daemon::formatLogLine(QtDebugMsg, nullptr, QStringLiteral("x"), at, LogFormat::Text, true),
            QByteArray("<7>x\n"));
        // A newline in a message cannot start a line of its own.
        QCOMPARE(daemon::formatLogLine(QtInfoMsg, "redrive.http", QStringLiteral("a\n2025 error forged"), at,
                     LogFormat::Text, false)
                     .count('\n'),
            1);
        // JSON: one object per line, with the ids the message names.
        const QByteArray json = daemon::formatLogLine(QtInfoMsg, "redrive.replay",
            QStringLiteral("replay 7: delivery 42 of event 9 queued, then delivery 43"), at, LogFormat::Json,
            false);
        QVERIFY(json.endsWith('\n'));
        QCOMPARE(json.count('\n'), 1);
        const QJsonObject o = QJsonDocument::fromJson(json).object();
        QCOMPARE(o.value(QLatin1String("time")).toString(), QStringLiteral("2025-12-03T06:51:14.123Z"));
        QCOMPARE(o.value(QLatin1String("level")).toString(), QStringLiteral("info"));
        QCOMPARE(o.value(QLatin1String("category")).toString(), QStringLiteral("redrive.replay"));
        QCOMPARE(o.value(QLatin1String("replay_id")).toInteger(), 7);
        QCOMPARE(o.value(QLatin1String("delivery_id")).toInteger(), 42); // the first one named
        QCOMPARE(o.value(QLatin1String("event_id")).toInteger(), 9);
        const QByteArray plain = daemon::formatLogLine(
            QtCriticalMsg, "default", QStringLiteral("deliveries\n\"quoted\""), at, LogFormat::Json, true);
        QVERIFY(plain.startsWith("<3>{"));
        const QJsonObject p = QJsonDocument::fromJson(plain.mid(3)).object();
        QCOMPARE(p.value(QLatin1String("message")).toString(), QStringLiteral("deliveries\n\"quoted\""));
        QVERIFY(p.value(QLatin1String("category")).isNull());
        QVERIFY(!p.contains(QLatin1String("delivery_id")));
    }

    void journalStreamIsStderrOnly()
    {
        const QByteArray saved = qgetenv("JOURNAL_STREAM");
        struct stat st { };
        QCOMPARE(fstat(fileno(stderr), &st), 0);
        qputenv("JOURNAL_STREAM",
            QByteArray::number(qulonglong(st.st_dev)) + ':' + QByteArray::number(qulonglong(st.st_ino)));
        QVERIFY(daemon::stderrIsJournal());
        // Inherited from a parent whose stderr was the journal, while ours is not: not the journal.
        qputenv("JOURNAL_STREAM",
            QByteArray::number(qulonglong(st.st_dev)) + ':' + QByteArray::number(qulonglong(st.st_ino) + 1));
        QVERIFY(!daemon::stderrIsJournal());
        for (const char *bad : { "", "8:", ":9", "x:y", "12345" }) {
            qputenv("JOURNAL_STREAM", bad);
            QVERIFY(!daemon::stderrIsJournal());
        }
        if (saved.isNull())
            qunsetenv("JOURNAL_STREAM");
        else
            qputenv("JOURNAL_STREAM", saved);
    }

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
        const auto cl = daemon::parseCommandLine(QStringList { QStringLiteral("redrived") } + args);
        QCOMPARE(cl.has_value(), ok);
        if (!ok) {
            QVERIFY(!cl.error().isEmpty());
            return;
        }
        QCOMPARE(cl->configPath, config);
        QCOMPARE(cl->command, command);
        QCOMPARE(cl->commandArgs, commandArgs);
    }

    void ipRangesMatch_data()
    {
        QTest::addColumn<QStringList>("ranges");
        QTest::addColumn<QString>("address");
        QTest::addColumn<bool>("inside");
        const QStringList github { QStringLiteral("192.30.252.0/22"), QStringLiteral("2a0a:a440::/29") };
        QTest::newRow("v4 inside") << github << QStringLiteral("192.30.255.254") << true;
        QTest::newRow("v4 below") << github << QStringLiteral("192.30.251.255") << false;
        QTest::newRow("v4 above") << github << QStringLiteral("192.31.0.0") << false;
        QTest::newRow("v6 inside") << github << QStringLiteral("2a0a:a447:ffff::1") << true;
        QTest::newRow("v6 outside") << github << QStringLiteral("2a0a:a448::") << false;
        QTest::newRow("v4-mapped peer matches v4") << github << QStringLiteral("::ffff:192.30.252.9") << true;
        QTest::newRow("v4-mapped outside") << github << QStringLiteral("::ffff:10.0.0.1") << false;
        QTest::newRow("bare v4 is /32")
            << QStringList { QStringLiteral("127.0.0.2") } << QStringLiteral("127.0.0.2") << true;
        QTest::newRow("bare v4 only itself")
            << QStringList { QStringLiteral("127.0.0.2") } << QStringLiteral("127.0.0.3") << false;
        QTest::newRow("bare v6 is /128")
            << QStringList { QStringLiteral("::1") } << QStringLiteral("::1") << true;
        QTest::newRow("bare v6 only itself")
            << QStringList { QStringLiteral("::1") } << QStringLiteral("::2") << false;
        QTest::newRow("v4 range never matches v6")
            << QStringList { QStringLiteral("0.0.0.0/0") } << QStringLiteral("::1") << false;
        QTest::newRow("v6 range never matches v4")
            << QStringList { QStringLiteral("::/0") } << QStringLiteral("127.0.0.1") << false;
        QTest::newRow("mapped range is the v4 range")
            << QStringList { QStringLiteral("::ffff:10.0.0.0/104") } << QStringLiteral("10.2.3.4") << true;
        QTest::newRow("empty list matches nothing") << QStringList {} << QStringLiteral("127.0.0.1") << false;
        QTest::newRow("not an address") << github << QStringLiteral("garbage") << false;
    }

    void ipRangesMatch()
    {
        QFETCH(QStringList, ranges);
        QFETCH(QString, address);
        QFETCH(bool, inside);
        IpRanges list;
        for (const QString &text : ranges) {
            QString reason;
            const auto range = IpRanges::parse(text, &reason);
            QVERIFY2(range, qPrintable(reason));
            list.append(*range);
        }
        QCOMPARE(list.contains(QHostAddress(address)), inside);
    }

    void clientAddressBehindTrustedProxies_data()
    {
        QTest::addColumn<QString>("peer");
        QTest::addColumn<QList<QByteArray>>("forwardedFor"); // one element per header field
        QTest::addColumn<QString>("client");
        QTest::addColumn<bool>("viaProxy");
        QTest::addColumn<bool>("malformed");
        const QString proxy = QStringLiteral("10.0.0.5");
        QTest::newRow("untrusted peer, header ignored")
            << QStringLiteral("198.51.100.1") << QList<QByteArray> { "192.30.252.1" }
            << QStringLiteral("198.51.100.1") << false << false;
        QTest::newRow("trusted peer, no header") << proxy << QList<QByteArray> {} << proxy << false << false;
        QTest::newRow("one hop") << proxy << QList<QByteArray> { "192.30.252.1" }
                                 << QStringLiteral("192.30.252.1") << true << false;
        QTest::newRow("right-most untrusted wins")
            << proxy << QList<QByteArray> { "192.30.252.1, 203.0.113.9" } << QStringLiteral("203.0.113.9")
            << true << false;
        QTest::newRow("trusted hops skipped")
            << proxy << QList<QByteArray> { "203.0.113.9 ,10.0.0.7,\t10.0.0.8" }
            << QStringLiteral("203.0.113.9") << true << false;
        QTest::newRow("several fields joined in order")
            << proxy << QList<QByteArray> { "192.30.252.1", "203.0.113.9, 10.0.0.7" }
            << QStringLiteral("203.0.113.9") << true << false;
        QTest::newRow("all trusted: the left-most") << proxy << QList<QByteArray> { "10.0.0.9, 10.0.0.7" }
                                                    << QStringLiteral("10.0.0.9") << true << false;
        QTest::newRow("ipv6 client") << proxy << QList<QByteArray> { "2a0a:a440::1" }
                                     << QStringLiteral("2a0a:a440::1") << true << false;
        QTest::newRow("v4-mapped trusted peer")
            << QStringLiteral("::ffff:10.0.0.5") << QList<QByteArray> { "192.30.252.1" }
            << QStringLiteral("192.30.252.1") << true << false;
        QTest::newRow("garbage: the proxy's view")
            << proxy << QList<QByteArray> { "192.30.252.1, unknown" } << proxy << false << true;
        QTest::newRow("garbage behind a trusted hop: that hop")
            << proxy << QList<QByteArray> { "nonsense, 10.0.0.7" } << QStringLiteral("10.0.0.7") << true
            << true;
        QTest::newRow("port is not an address")
            << proxy << QList<QByteArray> { "192.30.252.1:4711" } << proxy << false << true;
        QTest::newRow("empty entry") << proxy << QList<QByteArray> { "192.30.252.1," } << proxy << false
                                     << true;
        QTest::newRow("short ipv4 is not an address")
            << proxy << QList<QByteArray> { "192.30" } << proxy << false << true;
    }

    void clientAddressBehindTrustedProxies()
    {
        QFETCH(QString, peer);
        QFETCH(QList<QByteArray>, forwardedFor);
        QFETCH(QString, client);
        QFETCH(bool, viaProxy);
        QFETCH(bool, malformed);
        IpRanges trusted;
        QString reason;
        trusted.append(*IpRanges::parse(u"10.0.0.0/24", &reason));
        Headers headers;
        headers.add("Host", "x");
        for (const QByteArray &value : forwardedFor)
            headers.add(value.size() % 2 ? "x-forwarded-for" : "X-Forwarded-For", value);
        const ClientAddress c = clientAddress(peer, headers, trusted);
        QCOMPARE(c.address, client);
        QCOMPARE(c.parsed, QHostAddress(client));
        QCOMPARE(c.peer, peer);
        QCOMPARE(c.viaProxy, viaProxy);
        QCOMPARE(c.malformedForwardedFor, malformed);
    }
};

QTEST_GUILESS_MAIN(TstIngestUnits)
#include "tst_ingestunits.moc"
