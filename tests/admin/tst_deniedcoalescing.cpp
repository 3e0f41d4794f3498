// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// permission_denied audit entries are coalesced per token and minute: a loop of forbidden calls
// adds at most two entries a minute to the append-only log, the counts in their details add up
// to every refusal, and the chain still verifies.
#include "adminfixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QTest>

using namespace redrive;
using namespace redrive::test;

class TstDeniedCoalescing : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void aLoopOfRefusalsIsCountedNotCopied();
    void stopWritesTheOpenMinute();
    void probesWithNulInThePathAreAudited();

private:
    struct Denied {
        QString actor;
        QJsonObject details;
    };
    QList<Denied> deniedEntries();
    AdminFixture::Reply pause(const QString &token);
    std::unique_ptr<AdminFixture> f;
};

void TstDeniedCoalescing::init()
{
    QString error;
    f = AdminFixture::create(&error);
    QVERIFY2(f, qPrintable(error));
    QVERIFY2(f->startApi(&error), qPrintable(error));
    // The start of a clock minute, so the loop below stays inside one.
    f->clock.advanceMs(60'000 - f->clock.nowMs() % 60'000);
}

void TstDeniedCoalescing::cleanup()
{
    f.reset();
}

QList<TstDeniedCoalescing::Denied> TstDeniedCoalescing::deniedEntries()
{
    QList<Denied> out;
    QSqlQuery q(f->db().handle());
    if (!q.exec(QStringLiteral(
            "SELECT actor, details FROM audit_log WHERE action = 'permission_denied' ORDER BY seq")))
        qFatal("cannot read the audit log");
    while (q.next())
        out.append(
            { q.value(0).toString(), QJsonDocument::fromJson(q.value(1).toString().toUtf8()).object() });
    return out;
}

AdminFixture::Reply TstDeniedCoalescing::pause(const QString &token)
{
    return f->call("POST", "destinations/billing/pause", token,
        QJsonObject { { QStringLiteral("reason"), QStringLiteral("trying my luck") } });
}

void TstDeniedCoalescing::aLoopOfRefusalsIsCountedNotCopied()
{
    const QString sam = f->token(QStringLiteral("sam"), Role::Support);
    const QString ana = f->token(QStringLiteral("ana"), Role::Auditor);
    for (int i = 0; i < 50; ++i) {
        QCOMPARE(pause(sam).status, 403); // every caller still gets its 403
        f->clock.advanceMs(100);
    }
    // The first refusal is in the log at once; the other 49 are counted, not copied.
    QList<Denied> entries = deniedEntries();
    QCOMPARE(entries.size(), 1);
    QCOMPARE(entries[0].actor, QStringLiteral("sam"));
    QCOMPARE(entries[0].details.value(QLatin1String("count")).toInt(), 1);
    QCOMPARE(entries[0].details.value(QLatin1String("attempted")).toString(),
        QStringLiteral("manage_destinations"));
    // Per token: another caller's first refusal gets its own entry.
    QCOMPARE(pause(ana).status, 403);
    QCOMPARE(deniedEntries().size(), 2);

    // The minute ends; the next request of anyone writes the tallies.
    f->clock.advanceMs(60'000);
    QCOMPARE(f->call("GET", "whoami", f->token(QStringLiteral("otto"), Role::Operator)).status, 200);
    entries = deniedEntries();
    QCOMPARE(entries.size(), 3); // ana had no further refusals: no tally for her
    const Denied &tally = entries[2];
    QCOMPARE(tally.actor, QStringLiteral("sam"));
    QCOMPARE(tally.details.value(QLatin1String("count")).toInt(), 49);
    QVERIFY(tally.details.value(QLatin1String("coalesced")).toBool());
    QCOMPARE(tally.details.value(QLatin1String("attempted")).toArray(),
        QJsonArray { QStringLiteral("manage_destinations") });
    QCOMPARE(tally.details.value(QLatin1String("actor_owner")).toString(), QStringLiteral("sam"));
    int total = 0;
    for (const Denied &d : std::as_const(entries))
        total += d.actor == u"sam" ? d.details.value(QLatin1String("count")).toInt() : 0;
    QCOMPARE(total, 50);

    // A new minute starts a new window: its first refusal is written at once again.
    QCOMPARE(pause(sam).status, 403);
    QCOMPARE(deniedEntries().size(), 4);
    // The chain, tallies included, verifies.
    const auto verify = f->call("GET", "audit/verify", f->token(QStringLiteral("otto"), Role::Operator));
    QCOMPARE(verify.status, 200);
    QVERIFY2(verify.json.value(QLatin1String("ok")).toBool(), verify.body.constData());
}

void TstDeniedCoalescing::stopWritesTheOpenMinute()
{
    const QString sam = f->token(QStringLiteral("sam"), Role::Support);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(pause(sam).status, 403);
    QCOMPARE(deniedEntries().size(), 1);
    f->stopApi();
    const QList<Denied> entries = deniedEntries();
    QCOMPARE(entries.size(), 2);
    QCOMPARE(entries[1].details.value(QLatin1String("count")).toInt(), 2);
}

// A path is anyone's text, and a refused request's target comes from it: a NUL there used to fail
// the audit insert on PostgreSQL, so a support token could hide a minute of forbidden probes
// between two such requests. Every refusal is counted, the NUL stored as U+FFFD, the chain intact.
void TstDeniedCoalescing::probesWithNulInThePathAreAudited()
{
    const QString sam = f->token(QStringLiteral("sam"), Role::Support);
    const QJsonObject body { { QStringLiteral("reason"), QStringLiteral("probing") } };
    QCOMPARE(f->call("POST", "destinations/%00/pause", sam, body).status, 403);
    for (int i = 0; i < 5; ++i) {
        QCOMPARE(pause(sam).status, 403);
        f->clock.advanceMs(100);
    }
    QCOMPARE(f->call("POST", "destinations/a%00b/resume", sam, body).status, 403);
    f->clock.advanceMs(60'000);
    QCOMPARE(f->call("GET", "whoami", f->token(QStringLiteral("otto"), Role::Operator)).status, 200);

    const QList<Denied> entries = deniedEntries();
    int total = 0;
    for (const Denied &d : entries)
        total += d.details.value(QLatin1String("count")).toInt();
    QCOMPARE(total, 7);
    QSqlQuery q(f->db().handle());
    QVERIFY(q.exec(
        QStringLiteral("SELECT target FROM audit_log WHERE action = 'permission_denied' ORDER BY seq")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("destination:") + QChar(QChar::ReplacementCharacter));
    const auto verify = f->call("GET", "audit/verify", f->token(QStringLiteral("kai"), Role::Auditor));
    QCOMPARE(verify.status, 200);
    QVERIFY2(verify.json.value(QLatin1String("ok")).toBool(), verify.body.constData());
}

QTEST_GUILESS_MAIN(TstDeniedCoalescing)
#include "tst_deniedcoalescing.moc"
