// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Checkpoints must not sign a cut or rewritten chain (issue 13, item 3), on SQLite and PostgreSQL.
// The receiver keeps the last head it signed in a file next to its audit key; GET audit/checkpoint,
// evidence exports and `redrived audit checkpoint` refuse (409, audited, counted) a log that does
// not verify or does not extend it, and `redrived audit verify` checks against it too.

#include "admin/admincli.h"
#include "adminfixture.h"
#include "audit/signedhead.h"
#include "auditseed.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QTest>
#include <QTextStream>

using namespace redrive;
using namespace redrive::test;

class TstSignedHead final : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<AdminFixture> f;
    QString m_auditor;
    QString m_admin;

    // `n` audited actions through the API.
    void act(int n)
    {
        for (int i = 0; i < n; ++i) {
            const QByteArray what = i % 2 == 0 ? "pause" : "resume";
            QCOMPARE(f->call("POST", "destinations/crm/" + what, m_admin,
                          QJsonObject { { QStringLiteral("reason"), QStringLiteral("maintenance") } })
                         .status,
                200);
        }
    }
    qint64 head() { return f->count(QStringLiteral("audit_log")); }
    QString headFile() const { return audit::signedHeadPath(f->config.admin.auditKeyFile); }
    qint64 signedSeq()
    {
        const auto cp = audit::readSignedHead(headFile());
        return cp && *cp ? (*cp)->seq : -1;
    }
    double refusedMetric() const
    {
        const QByteArray series = "redrive_audit_checkpoints_refused_total ";
        for (const QByteArray &line : f->registry.renderPrometheus().split('\n')) {
            if (line.startsWith(series))
                return line.sliced(series.size()).toDouble();
        }
        return -1;
    }
    int cli(const QStringList &args, QString *err)
    {
        QString out;
        QTextStream o(&out), e(err);
        const int code = admin::auditCommand(f->config, args, o, e, f->clock);
        e.flush();
        return code;
    }
    void tamper(const QString &sql)
    {
        QString error;
        QVERIFY2(dropAuditTriggers(f->db(), &error), qPrintable(error));
        QVERIFY2(succeeded(f->db().exec(sql), &error), qPrintable(error));
    }

private Q_SLOTS:
    void init()
    {
        QString error;
        f = AdminFixture::create(&error);
        QVERIFY2(f, qPrintable(error));
        QVERIFY2(f->startApi(&error), qPrintable(error));
        m_auditor = f->token(QStringLiteral("ada"), Role::Auditor);
        m_admin = f->token(QStringLiteral("root"), Role::Admin);
    }
    void cleanup() { f.reset(); }

    void normalGrowthIsSigned()
    {
        QVERIFY(!QFileInfo::exists(headFile()));
        act(3);
        const auto first = f->call("GET", "audit/checkpoint", m_auditor);
        QCOMPARE(first.status, 200);
        QCOMPARE(first.json.value(QLatin1String("seq")).toInteger(), head());
        QCOMPARE(signedSeq(), head());
        QCOMPARE(QFileInfo(headFile()).permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
            QFileDevice::Permissions {});

        act(2);
        const auto second = f->call("GET", "audit/checkpoint", m_auditor);
        QCOMPARE(second.status, 200);
        QVERIFY(second.json.value(QLatin1String("seq")).toInteger()
            > first.json.value(QLatin1String("seq")).toInteger());
        QCOMPARE(signedSeq(), head());
        QCOMPARE(f->call("GET", "audit/checkpoint", m_auditor).status, 200); // no growth is fine too
        QString err;
        QCOMPARE(cli({ QStringLiteral("verify") }, &err), 0);
        QCOMPARE(refusedMetric(), 0.0);
        QCOMPARE(f->count(QStringLiteral("audit_log"), QStringLiteral("action = 'checkpoint_refused'")), 0);
    }

    void cutTailAfterACheckpointIsRefused()
    {
        act(4);
        QCOMPARE(f->call("GET", "audit/checkpoint", m_auditor).status, 200);
        const qint64 signedAt = head();
        QCOMPARE(signedSeq(), signedAt);

        // Someone with write access to the database drops the triggers and cuts the tail.
        tamper(QStringLiteral("DELETE FROM audit_log WHERE seq > %1").arg(signedAt - 2));
        const auto refused = f->call("GET", "audit/checkpoint", m_auditor);
        QCOMPARE(refused.status, 409);
        QCOMPARE(refused.error(), QStringLiteral("audit_chain_broken"));
        QCOMPARE(refusedMetric(), 1.0);
        QCOMPARE(signedSeq(), signedAt); // the record of what was signed does not move back

        // The refusal is itself in the log, naming the first missing entry.
        QCOMPARE(f->count(QStringLiteral("audit_log"), QStringLiteral("action = 'checkpoint_refused'")), 1);
        QSqlQuery q(f->db().handle());
        QVERIFY(q.exec(
            QStringLiteral("SELECT details, actor FROM audit_log WHERE action = 'checkpoint_refused'")));
        QVERIFY(q.next());
        const QJsonObject details = QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object();
        QCOMPARE(details.value(QLatin1String("first_bad_seq")).toInteger(), signedAt - 1);
        QCOMPARE(details.value(QLatin1String("last_signed_seq")).toInteger(), signedAt);
        QCOMPARE(q.value(1).toString(), QStringLiteral("ada"));
        q.finish();

        // Evidence bundles carry a checkpoint: refused the same way.
        const qint64 event = f->insertEvent();
        const auto evidence = f->call("GET", "events/" + QByteArray::number(event) + "/evidence", m_auditor);
        QCOMPARE(evidence.status, 409);
        QCOMPARE(refusedMetric(), 2.0);
        // Counted every time, recorded once per incident (nothing was appended in between).
        QCOMPARE(f->count(QStringLiteral("audit_log"), QStringLiteral("action = 'checkpoint_refused'")), 1);
        QCOMPARE(f->call("GET", "audit/checkpoint", m_auditor).status, 409);
        QCOMPARE(refusedMetric(), 3.0);
        QCOMPARE(f->count(QStringLiteral("audit_log"), QStringLiteral("action = 'checkpoint_refused'")), 1);

        // The command line checks against the same file.
        QString err;
        QCOMPARE(cli({ QStringLiteral("verify") }, &err), 1);
        QVERIFY2(err.contains(QLatin1String("last head this receiver signed")), qPrintable(err));
        err.clear();
        QCOMPARE(cli({ QStringLiteral("checkpoint") }, &err), 1);
        QVERIFY2(err.contains(QLatin1String("refusing to sign")), qPrintable(err));
    }

    void rewrittenEntryIsRefused()
    {
        act(3);
        QCOMPARE(f->call("GET", "audit/checkpoint", m_auditor).status, 200);
        const qint64 signedAt = head();

        // The newest signed entry rewritten and re-hashed: the chain alone verifies, and grows on.
        tamper(QStringLiteral("UPDATE audit_log SET reason = 'routine' WHERE seq = %1").arg(signedAt));
        QString error;
        QVERIFY2(rehashAuditEntry(f->db(), signedAt, &error), qPrintable(error));
        act(2);
        // The chain alone verifies; against the signed head it does not.
        const auto plain = f->call("GET", "audit/verify", m_auditor);
        QCOMPARE(plain.json.value(QLatin1String("ok")).toBool(), false);
        QCOMPARE(plain.json.value(QLatin1String("first_bad_seq")).toInteger(), signedAt);
        QVERIFY2(plain.json.value(QLatin1String("problem"))
                     .toString()
                     .contains(QLatin1String("differs from the checkpoint")),
            plain.body.constData());

        const auto refused = f->call("GET", "audit/checkpoint", m_auditor);
        QCOMPARE(refused.status, 409);
        QCOMPARE(refused.error(), QStringLiteral("audit_chain_broken"));
        QCOMPARE(refusedMetric(), 1.0);
        QCOMPARE(signedSeq(), signedAt);
        QCOMPARE(f->count(QStringLiteral("audit_log"), QStringLiteral("action = 'checkpoint_refused'")), 1);
    }

    // GET audit/verify answers what `redrived audit verify` answers: a tail cut below the signed
    // head is broken, with the CLI's own first bad seq and problem. The chain alone, which is all
    // the API used to walk, still verified.
    void apiVerifyChecksTheSignedHead()
    {
        act(4);
        QCOMPARE(f->call("GET", "audit/checkpoint", m_auditor).status, 200);
        const qint64 signedAt = head();
        const auto intact = f->call("GET", "audit/verify", m_auditor);
        QCOMPARE(intact.json.value(QLatin1String("ok")).toBool(), true);
        QCOMPARE(intact.json.value(QLatin1String("signed_head"))
                     .toObject()
                     .value(QLatin1String("seq"))
                     .toInteger(),
            signedAt);

        tamper(QStringLiteral("DELETE FROM audit_log WHERE seq > %1").arg(signedAt - 2));
        const qint64 entries = head();
        const auto v = f->call("GET", "audit/verify", m_auditor);
        QCOMPARE(v.status, 200);
        QCOMPARE(v.json.value(QLatin1String("ok")).toBool(), false);
        QCOMPARE(v.json.value(QLatin1String("first_bad_seq")).toInteger(), signedAt - 1);
        QCOMPARE(v.json.value(QLatin1String("count")).toInteger(), signedAt - 2);
        QCOMPARE(v.json.value(QLatin1String("broken_at_signed_head")).toBool(), true);
        QCOMPARE(
            v.json.value(QLatin1String("signed_head")).toObject().value(QLatin1String("seq")).toInteger(),
            signedAt);
        const QString problem = v.json.value(QLatin1String("problem")).toString();
        QVERIFY2(problem.contains(QLatin1String("tail truncated")), qPrintable(problem));

        QString err;
        QCOMPARE(cli({ QStringLiteral("verify") }, &err), 1);
        QVERIFY2(err.contains(QStringLiteral(
                     "BROKEN at seq %1: %2 (checked against the last head this receiver signed)")
                                  .arg(signedAt - 1)
                                  .arg(problem)),
            qPrintable(err + QLatin1String(" / API: ") + problem));
        QCOMPARE(head(), entries); // verifying writes nothing
    }

    // An edit anywhere in the chain is refused even before anything was signed.
    void brokenChainIsNeverSigned()
    {
        act(3);
        tamper(QStringLiteral("UPDATE audit_log SET reason = 'edited' WHERE seq = 2"));
        QCOMPARE(f->call("GET", "audit/checkpoint", m_auditor).status, 409);
        QVERIFY(!QFileInfo::exists(headFile()));
    }
};

QTEST_GUILESS_MAIN(TstSignedHead)
#include "tst_signedhead.moc"
