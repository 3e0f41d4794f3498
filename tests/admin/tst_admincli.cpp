// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// `redrived token …` and `redrived audit …` as the functions redrived's command line calls.
#include "access/apitokens.h"
#include "admin/admincli.h"
#include "adminfixture.h"
#include "audit/checkpoint.h"
#include "auditseed.h"

#include <QSqlQuery>
#include <QSqlRecord>
#include <QTest>

#include <pwd.h>
#include <unistd.h>

using namespace redrive;
using namespace redrive::test;

namespace {
struct Run {
    int code = -1;
    QString out;
    QString err;
};

Run tokenCli(AdminFixture &f, const QStringList &args)
{
    Run r;
    QTextStream out(&r.out);
    QTextStream err(&r.err);
    r.code = admin::tokenCommand(f.config, args, out, err, f.clock);
    out.flush();
    err.flush();
    return r;
}

Run auditCli(AdminFixture &f, const QStringList &args)
{
    Run r;
    QTextStream out(&r.out);
    QTextStream err(&r.err);
    r.code = admin::auditCommand(f.config, args, out, err, f.clock);
    out.flush();
    err.flush();
    return r;
}
} // namespace

class TstAdminCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void createPrintsTheTokenOnceAndStoresOnlyItsHash();
    void createWithExpiry();
    void createRefusesDuplicatesAndBadArguments_data();
    void createRefusesDuplicatesAndBadArguments();
    void revoke();
    void oneOwnerManyTokens();
    void actorIsTheRealUser();
    void list();
    void verifyExitCodes();
    void exportedCheckpointExposesTruncation();
    void checkpointNeedsTheKey();
    void verifyWhileNoReceiverRuns();

private:
    std::unique_ptr<AdminFixture> f;
};

void TstAdminCli::init()
{
    QString error;
    f = AdminFixture::create(&error);
    QVERIFY2(f, qPrintable(error));
}

void TstAdminCli::cleanup()
{
    f.reset();
}

void TstAdminCli::createPrintsTheTokenOnceAndStoresOnlyItsHash()
{
    const Run r = tokenCli(*f,
        { QStringLiteral("create"), QStringLiteral("--name"), QStringLiteral("ci-bot"),
            QStringLiteral("--owner"), QStringLiteral("ci-bot"), QStringLiteral("--role"),
            QStringLiteral("operator") });
    QCOMPARE(r.code, 0);
    const QString secret = r.out.trimmed();
    QCOMPARE(r.out.count(u'\n'), 1);
    QVERIFY(access::looksLikeApiToken(secret.toLatin1()));
    QVERIFY(!r.err.contains(secret));
    QVERIFY(r.err.contains(QLatin1String("only this once")));

    // The database holds its hash, never the token (nor a recognisable part of it).
    QSqlQuery q(f->db().handle());
    QVERIFY(q.exec(QStringLiteral("SELECT * FROM api_tokens")));
    int rows = 0;
    while (q.next()) {
        ++rows;
        for (int c = 0; c < q.record().count(); ++c) {
            const QString value = q.value(c).toString();
            QVERIFY2(!value.contains(secret.mid(4, 16)), qPrintable(q.record().fieldName(c)));
        }
        QCOMPARE(q.value(QStringLiteral("token_hash")).toString(), access::hashApiToken(secret.toLatin1()));
    }
    QCOMPARE(rows, 1);
    q.finish();
    QVERIFY(q.exec(
        QStringLiteral("SELECT actor, role, target, details FROM audit_log WHERE action = 'token_created'")));
    QVERIFY(q.next());
    QVERIFY(q.value(0).toString().startsWith(QLatin1String("cli:")));
    QCOMPARE(q.value(2).toString(), QStringLiteral("token:ci-bot"));
    QVERIFY(!q.value(3).toString().contains(secret.mid(4, 16)));
    q.finish();

    // The printed token works against the API.
    QString error;
    QVERIFY2(f->startApi(&error), qPrintable(error));
    const auto who = f->call("GET", "whoami", secret);
    QCOMPARE(who.status, 200);
    QCOMPARE(who.json.value(QLatin1String("name")).toString(), QStringLiteral("ci-bot"));
    QCOMPARE(who.json.value(QLatin1String("role")).toString(), QStringLiteral("operator"));
}

void TstAdminCli::createWithExpiry()
{
    const Run r = tokenCli(*f,
        { QStringLiteral("create"), QStringLiteral("--name=temp"), QStringLiteral("--owner=temp"),
            QStringLiteral("--role=support"), QStringLiteral("--expires"), QStringLiteral("1h") });
    QCOMPARE(r.code, 0);
    QCOMPARE(f->count(QStringLiteral("api_tokens"),
                 QStringLiteral("name = 'temp' AND expires_at = %1").arg(f->clock.nowMs() + 3'600'000)),
        1);
    QString error;
    QVERIFY2(f->startApi(&error), qPrintable(error));
    const QString secret = r.out.trimmed();
    QCOMPARE(f->call("GET", "whoami", secret).status, 200);
    f->clock.advanceMs(3'600'000);
    const auto expired = f->call("GET", "whoami", secret);
    QCOMPARE(expired.status, 401);
    QVERIFY(expired.json.value(QLatin1String("message")).toString().contains(QLatin1String("expired")));
}

void TstAdminCli::createRefusesDuplicatesAndBadArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("says");
    QTest::newRow("duplicate name") << QStringList { QStringLiteral("create"), QStringLiteral("--name"),
        QStringLiteral("dup"), QStringLiteral("--owner"), QStringLiteral("dup"), QStringLiteral("--role"),
        QStringLiteral("admin") } << 1
                                    << "already exists";
    QTest::newRow("unknown role") << QStringList { QStringLiteral("create"), QStringLiteral("--name"),
        QStringLiteral("x"), QStringLiteral("--owner"), QStringLiteral("x"), QStringLiteral("--role"),
        QStringLiteral("root") } << 2
                                  << "--role";
    QTest::newRow("missing role") << QStringList { QStringLiteral("create"), QStringLiteral("--name"),
        QStringLiteral("x"), QStringLiteral("--owner"), QStringLiteral("x") }
                                  << 2 << "--role";
    QTest::newRow("bad name") << QStringList { QStringLiteral("create"), QStringLiteral("--name"),
        QStringLiteral("a b"), QStringLiteral("--owner"), QStringLiteral("a b"), QStringLiteral("--role"),
        QStringLiteral("admin") }
                              << 2 << "--name";
    QTest::newRow("bad expiry") << QStringList { QStringLiteral("create"), QStringLiteral("--name"),
        QStringLiteral("x"), QStringLiteral("--owner"), QStringLiteral("x"), QStringLiteral("--role"),
        QStringLiteral("admin"), QStringLiteral("--expires"), QStringLiteral("soon") }
                                << 2 << "--expires";
    QTest::newRow("value missing") << QStringList { QStringLiteral("create"), QStringLiteral("--name") } << 2
                                   << "needs a value";
    QTest::newRow("unknown option") << QStringList { QStringLiteral("create"), QStringLiteral("--name"),
        QStringLiteral("x"), QStringLiteral("--owner"), QStringLiteral("x"), QStringLiteral("--colour"),
        QStringLiteral("red") } << 2 << "--colour";
    QTest::newRow("missing owner") << QStringList { QStringLiteral("create"), QStringLiteral("--name"),
        QStringLiteral("x"), QStringLiteral("--role"), QStringLiteral("admin") }
                                   << 2 << "--owner is required";
    QTest::newRow("bad owner") << QStringList { QStringLiteral("create"), QStringLiteral("--name"),
        QStringLiteral("x"), QStringLiteral("--owner"), QStringLiteral("a b"), QStringLiteral("--role"),
        QStringLiteral("admin") }
                               << 2 << "--owner";
    // "dup" (owner "dup") exists: a name or owner that differs only by case is refused, naming it.
    QTest::newRow("name differs only by case") << QStringList {
        QStringLiteral("create"), QStringLiteral("--name"), QStringLiteral("DUP"), QStringLiteral("--owner"),
        QStringLiteral("someone"), QStringLiteral("--role"), QStringLiteral("admin")
    } << 2 << "token name \"DUP\" differs from the active token \"dup\" only by letter case";
    QTest::newRow("owner differs only by case") << QStringList {
        QStringLiteral("create"), QStringLiteral("--name"), QStringLiteral("dup-phone"),
        QStringLiteral("--owner"), QStringLiteral("Dup"), QStringLiteral("--role"), QStringLiteral("admin")
    } << 2 << "owner \"Dup\" differs from the owner \"dup\" of the active token \"dup\" only by letter case";
    QTest::newRow("no subcommand") << QStringList {} << 2 << "usage";
    QTest::newRow("unknown subcommand") << QStringList { QStringLiteral("rotate") } << 2 << "usage";
}

void TstAdminCli::createRefusesDuplicatesAndBadArguments()
{
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, says);
    QCOMPARE(tokenCli(*f,
                 { QStringLiteral("create"), QStringLiteral("--name"), QStringLiteral("dup"),
                     QStringLiteral("--owner"), QStringLiteral("dup"), QStringLiteral("--role"),
                     QStringLiteral("auditor") })
                 .code,
        0);
    const qint64 tokens = f->count(QStringLiteral("api_tokens"));
    const qint64 audits = f->count(QStringLiteral("audit_log"));
    const Run r = tokenCli(*f, args);
    QCOMPARE(r.code, code);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.contains(says), qPrintable(r.err));
    QCOMPARE(f->count(QStringLiteral("api_tokens")), tokens);
    QCOMPARE(f->count(QStringLiteral("audit_log")), audits);
}

void TstAdminCli::revoke()
{
    const Run created = tokenCli(*f,
        { QStringLiteral("create"), QStringLiteral("--name"), QStringLiteral("leaver"),
            QStringLiteral("--owner"), QStringLiteral("leaver"), QStringLiteral("--role"),
            QStringLiteral("support") });
    QCOMPARE(created.code, 0);
    const Run r
        = tokenCli(*f, { QStringLiteral("revoke"), QStringLiteral("--name"), QStringLiteral("leaver") });
    QCOMPARE(r.code, 0);
    QCOMPARE(
        f->count(QStringLiteral("api_tokens"), QStringLiteral("name = 'leaver' AND revoked_at IS NOT NULL")),
        1);
    QCOMPARE(f->count(QStringLiteral("audit_log"),
                 QStringLiteral("action = 'token_revoked' AND target = 'token:leaver'")),
        1);
    QString error;
    QVERIFY2(f->startApi(&error), qPrintable(error));
    const auto refused = f->call("GET", "whoami", created.out.trimmed());
    QCOMPARE(refused.status, 401);
    QCOMPARE(
        tokenCli(*f, { QStringLiteral("revoke"), QStringLiteral("--name"), QStringLiteral("leaver") }).code,
        1);
    QCOMPARE(tokenCli(*f, { QStringLiteral("revoke") }).code, 2);
    // The name is free again once revoked.
    QCOMPARE(tokenCli(*f,
                 { QStringLiteral("create"), QStringLiteral("--name"), QStringLiteral("leaver"),
                     QStringLiteral("--owner"), QStringLiteral("leaver"), QStringLiteral("--role"),
                     QStringLiteral("support") })
                 .code,
        0);
}

void TstAdminCli::oneOwnerManyTokens()
{
    // One person, two devices: the same owner (exactly) is fine; the audit entry names the owner.
    for (const char *name : { "alice-laptop", "alice-phone" }) {
        const Run r = tokenCli(*f,
            { QStringLiteral("create"), QStringLiteral("--name"), QLatin1String(name),
                QStringLiteral("--owner"), QStringLiteral("alice"), QStringLiteral("--role"),
                QStringLiteral("operator") });
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains(QLatin1String("for alice")), qPrintable(r.err));
    }
    QCOMPARE(
        f->count(QStringLiteral("api_tokens"), QStringLiteral("owner = 'alice' AND revoked_at IS NULL")), 2);
    QCOMPARE(f->count(QStringLiteral("audit_log"),
                 QStringLiteral("action = 'token_created' AND details LIKE '%\"owner\":\"alice\"%'")),
        2);
    // Once the owner's tokens are revoked, another letter case is a new person again.
    for (const char *name : { "alice-laptop", "alice-phone" })
        QCOMPARE(
            tokenCli(*f, { QStringLiteral("revoke"), QStringLiteral("--name"), QLatin1String(name) }).code,
            0);
    QCOMPARE(tokenCli(*f,
                 { QStringLiteral("create"), QStringLiteral("--name"), QStringLiteral("ALICE-LAPTOP"),
                     QStringLiteral("--owner"), QStringLiteral("Alice"), QStringLiteral("--role"),
                     QStringLiteral("operator") })
                 .code,
        0);
    // whoami tells the caller who the receiver thinks they are.
    QString error;
    QVERIFY2(f->startApi(&error), qPrintable(error));
    const QString secret = tokenCli(*f,
        { QStringLiteral("create"), QStringLiteral("--name"), QStringLiteral("bob-laptop"),
            QStringLiteral("--owner"), QStringLiteral("bob"), QStringLiteral("--role"),
            QStringLiteral("support") })
                               .out.trimmed();
    QCOMPARE(f->call("GET", "whoami", secret).json.value(QLatin1String("owner")).toString(),
        QStringLiteral("bob"));
}

void TstAdminCli::actorIsTheRealUser()
{
    // $USER and $SUDO_USER are the caller's to set; the actor is the real uid's account.
    const passwd *pw = ::getpwuid(::getuid());
    QVERIFY(pw);
    const QString expected = QStringLiteral("cli:") + QString::fromLocal8Bit(pw->pw_name);
    const QByteArray oldUser = qgetenv("USER");
    const QByteArray oldSudo = qgetenv("SUDO_USER");
    const bool hadSudo = qEnvironmentVariableIsSet("SUDO_USER");
    qputenv("USER", "mallory");
    qputenv("SUDO_USER", "trudy");
    const Run r = tokenCli(*f,
        { QStringLiteral("create"), QStringLiteral("--name"), QStringLiteral("ci"), QStringLiteral("--owner"),
            QStringLiteral("ci"), QStringLiteral("--role"), QStringLiteral("support") });
    qputenv("USER", oldUser);
    if (hadSudo)
        qputenv("SUDO_USER", oldSudo);
    else
        qunsetenv("SUDO_USER");
    QCOMPARE(r.code, 0);
    QSqlQuery q(f->db().handle());
    QVERIFY(q.exec(QStringLiteral("SELECT actor, details FROM audit_log WHERE action = 'token_created'")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), expected);
    QVERIFY(!q.value(0).toString().contains(QLatin1String("mallory")));
    // sudo's claim is kept beside the actor, never as it.
    QVERIFY2(q.value(1).toString().contains(QLatin1String("\"sudo_user\":\"trudy\"")),
        qPrintable(q.value(1).toString()));
}

void TstAdminCli::list()
{
    tokenCli(*f,
        { QStringLiteral("create"), QStringLiteral("--name"), QStringLiteral("alpha"),
            QStringLiteral("--owner"), QStringLiteral("alpha"), QStringLiteral("--role"),
            QStringLiteral("admin") });
    tokenCli(*f,
        { QStringLiteral("create"), QStringLiteral("--name"), QStringLiteral("beta"),
            QStringLiteral("--owner"), QStringLiteral("beta"), QStringLiteral("--role"),
            QStringLiteral("auditor") });
    tokenCli(*f, { QStringLiteral("revoke"), QStringLiteral("--name"), QStringLiteral("beta") });
    const Run r = tokenCli(*f, { QStringLiteral("list") });
    QCOMPARE(r.code, 0);
    const QStringList lines = r.out.split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY(lines[1].startsWith(QLatin1String("alpha")) && lines[1].contains(QLatin1String("valid")));
    QVERIFY(lines[2].startsWith(QLatin1String("beta")) && lines[2].contains(QLatin1String("revoked")));
    QVERIFY(!r.out.contains(QLatin1String("rdt_")));
}

void TstAdminCli::verifyExitCodes()
{
    QString error;
    QVERIFY(seedAuditChain(f->db(), 300, &error));
    const Run ok = auditCli(*f, { QStringLiteral("verify") });
    QCOMPARE(ok.code, 0);
    QVERIFY2(ok.out.contains(QLatin1String("intact: 300 entries")), qPrintable(ok.out));
    QVERIFY(dropAuditTriggers(f->db(), &error));
    QVERIFY(f->db().exec(QStringLiteral("UPDATE audit_log SET reason = 'edited' WHERE seq = 123")));
    const Run broken = auditCli(*f, { QStringLiteral("verify") });
    QCOMPARE(broken.code, 1);
    QVERIFY2(broken.err.contains(QLatin1String("seq 123")), qPrintable(broken.err));
    QVERIFY(broken.out.isEmpty());
    QCOMPARE(auditCli(*f, { QStringLiteral("verify"), QStringLiteral("--checkpoint") }).code, 2);
    QCOMPARE(
        auditCli(*f,
            { QStringLiteral("verify"), QStringLiteral("--checkpoint"), QStringLiteral("/nonexistent.json") })
            .code,
        2);
    QCOMPARE(auditCli(*f, { QStringLiteral("prune") }).code, 2);
}

void TstAdminCli::exportedCheckpointExposesTruncation()
{
    QString error;
    QVERIFY(seedAuditChain(f->db(), 500, &error));
    // The receiver creates the key on start; the CLI only reads it.
    QVERIFY2(f->startApi(&error), qPrintable(error));
    f->stopApi();
    const QString file = f->database().scratchDir() + QStringLiteral("/checkpoint.json");
    const Run exported = auditCli(*f, { QStringLiteral("checkpoint"), QStringLiteral("--out"), file });
    QCOMPARE(exported.code, 0);
    const auto cp = audit::Checkpoint::readFile(file);
    QVERIFY2(cp, qPrintable(cp.error()));
    QCOMPARE(cp->seq, 500);
    QVERIFY(cp->signatureValid());
    const Run toStdout = auditCli(*f, { QStringLiteral("checkpoint") });
    QCOMPARE(toStdout.code, 0);
    QVERIFY(toStdout.out.contains(QLatin1String("\"public_key\"")));

    QCOMPARE(auditCli(*f, { QStringLiteral("verify"), QStringLiteral("--checkpoint"), file }).code, 0);
    QVERIFY(dropAuditTriggers(f->db(), &error));
    QVERIFY(f->db().exec(QStringLiteral("DELETE FROM audit_log WHERE seq > 480")));
    // The chain alone still looks intact, but `checkpoint` kept the head it signed next to the key:
    // verify checks against it even without --checkpoint.
    const Run plain = auditCli(*f, { QStringLiteral("verify") });
    QCOMPARE(plain.code, 1);
    QVERIFY2(plain.err.contains(QLatin1String("last head this receiver signed")), qPrintable(plain.err));
    const Run truncated = auditCli(*f, { QStringLiteral("verify"), QStringLiteral("--checkpoint"), file });
    QCOMPARE(truncated.code, 1);
    QVERIFY2(truncated.err.contains(QLatin1String("seq 481"))
            && truncated.err.contains(QLatin1String("truncated")),
        qPrintable(truncated.err));
}

void TstAdminCli::checkpointNeedsTheKey()
{
    const Run missing = auditCli(*f, { QStringLiteral("checkpoint") });
    QCOMPARE(missing.code, 2);
    QVERIFY2(missing.err.contains(QLatin1String("does not exist")), qPrintable(missing.err));
    f->config.admin.auditKeyFile.clear();
    const Run unset = auditCli(*f, { QStringLiteral("checkpoint") });
    QCOMPARE(unset.code, 2);
    QVERIFY(unset.err.contains(QLatin1String("audit_key_file")));
}

void TstAdminCli::verifyWhileNoReceiverRuns()
{
    // No connection is open (a stopped receiver): SQLite has removed its WAL index files.
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    {
        auto db = t->open();
        QVERIFY(seedAuditChain(*db, 10, &error));
    }
    Config c;
    c.storage.url = t->urlString();
    Run r;
    QTextStream out(&r.out);
    QTextStream err(&r.err);
    r.code = admin::auditCommand(c, { QStringLiteral("verify") }, out, err);
    out.flush();
    err.flush();
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(r.out.contains(QLatin1String("10 entries")));
}

QTEST_GUILESS_MAIN(TstAdminCli)
#include "tst_admincli.moc"
