// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "api/adminclient.h"
#include "auditor/auditcontroller.h"
#include "auditor/auditmodel.h"
#include "common/filechooser.h"
#include "consoleguitest.h"
#include "realreceiver.h"
#include "scriptabledestination.h"

#include <QApplication>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

// The auditor's page against the real receiver: a replay requested by support and approved by
// an operator through the admin API, then read by the auditor's console with the chain intact
// and the receiver's own signed checkpoint verified against the key pinned on first use; an
// evidence bundle the real `redrive --verify-evidence` accepts; and the database file edited
// behind the receiver's back (triggers dropped), which the page names.
class TstAuditReceiver : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void auditorSeesRequestAndApprovalWithTheChainIntact();
    void evidenceFromTheRealCheckpointVerifiesWithTheCli();
    void cutOffTailAndEditedEntryAreNamed();

private:
    // One admin API call as `person`; the answer's JSON, or an empty object.
    QJsonObject call(const QString &person, const QString &path, const QJsonObject &body);
    [[nodiscard]] QString status() const { return find<QLabel>(m_console->window(), "auditStatus")->text(); }
    [[nodiscard]] QString checkpoints() const
    {
        return find<QLabel>(m_console->window(), "auditCheckpointStatus")->text();
    }
    bool pressF5();
    [[nodiscard]] qint64 head()
    {
        return m_receiver.scalar(QStringLiteral("SELECT max(seq) FROM audit_log")).toLongLong();
    }

    RealReceiver m_receiver;
    SystemClock m_systemClock;
    qint64 m_replay = 0;
    QString m_keyId;
};

void TstAuditReceiver::initTestCase()
{
    QString error;
    QVERIFY2(m_receiver.start(&error), qPrintable(error));
    setUpSettings();
}

void TstAuditReceiver::cleanupTestCase()
{
    m_console.reset();
    m_receiver.stop();
}

void TstAuditReceiver::cleanup()
{
    if (QTest::currentTestFailed())
        qWarning("redrived log:\n%s", m_receiver.log().right(4000).constData());
}

QJsonObject TstAuditReceiver::call(const QString &person, const QString &path, const QJsonObject &body)
{
    AdminClient client(m_receiver.adminUrl(), m_receiver.token(person), {});
    ApiReply *reply = client.post(path, body);
    QSignalSpy done(reply, &ApiReply::finished);
    if (!done.wait(kGuiWait))
        return {};
    const auto error = done.first().at(1).value<ApiError>();
    if (!error.ok()) {
        qWarning("%s %s: %s", qPrintable(person), qPrintable(path), qPrintable(error.message));
        return {};
    }
    return done.first().at(0).toJsonDocument().object();
}

bool TstAuditReceiver::pressF5()
{
    MainWindow *w = m_console->window();
    QApplication::setActiveWindow(w);
    if (!QTest::qWaitForWindowActive(w))
        return false;
    QSignalSpy updated(m_console->audit(), &AuditController::statusUpdated);
    QTest::keyClick(w, Qt::Key_F5);
    return updated.wait(kGuiWait);
}

void TstAuditReceiver::auditorSeesRequestAndApprovalWithTheChainIntact()
{
    m_receiver.fulfillment().enqueue(410); // the first delivery to fulfillment dies
    QString error;
    const qint64 event = m_receiver.ingestAndSettle("audit-flow-1", &error);
    QVERIFY2(event, qPrintable(error));
    const qint64 dead = m_receiver.deliveryId(event, QStringLiteral("fulfillment"));
    const QJsonObject preview = call(QStringLiteral("sam-support"), QStringLiteral("replays/preview"),
        { { QStringLiteral("delivery_ids"), QJsonArray { dead } } });
    const QString hash = preview.value(QLatin1String("selection_hash")).toString();
    QVERIFY(!hash.isEmpty());
    const QJsonObject replay = call(QStringLiteral("sam-support"), QStringLiteral("replays"),
        { { QStringLiteral("selection_hash"), hash },
            { QStringLiteral("reason"), QStringLiteral("endpoint fixed") } });
    m_replay = replay.value(QLatin1String("id")).toInteger();
    QVERIFY(m_replay > 0);
    QVERIFY(!call(QStringLiteral("ana-operator"), QStringLiteral("replays/%1/approve").arg(m_replay),
        { { QStringLiteral("reason"), QStringLiteral("checked with the customer") } })
                 .isEmpty());
    QVERIFY(m_receiver.waitForValue(QStringLiteral("SELECT status FROM replays WHERE id = ?"), { m_replay },
        QStringLiteral("completed")));

    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_systemClock);
    m_console->window()->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_console->window()));
    QString problem;
    QVERIFY2(connectWith(*m_console, QStringLiteral("aude-auditor"), m_receiver.databasePath(),
                 m_receiver.token(QStringLiteral("aude-auditor")), &problem, m_receiver.adminUrl()),
        qPrintable(problem));
    MainWindow *w = m_console->window();
    QVERIFY(w->isPageAvailable(MainWindow::AuditPage));
    w->showPage(MainWindow::AuditPage);
    // The status needs no click; the receiver's key is pinned on first use and named.
    QTRY_VERIFY_WITH_TIMEOUT(status().contains(QStringLiteral(" verified (key ")), kGuiWait);
    m_keyId = m_settings->value(QStringLiteral("auditTrust/aude-auditor/pinnedKeyId")).toString();
    QCOMPARE(m_keyId.size(), 16);
    const qint64 n = head();
    QVERIFY(n >= 2);
    QCOMPARE(status(),
        QStringLiteral("Chain intact to #%1 · checkpoint #%1 verified (key %2)").arg(n).arg(m_keyId));

    // The request and the approval, found by their target.
    auto *target = find<QLineEdit>(w, "auditTargetFilter");
    QTest::keyClicks(target, QStringLiteral("replay:%1").arg(m_replay));
    QTest::keyClick(target, Qt::Key_Return);
    auto *table = find<QTableView>(w, "auditTable");
    QStringList seen;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            seen.clear();
            for (int r = 0; r < table->model()->rowCount(); ++r)
                seen << table->model()->index(r, AuditModel::ActorColumn).data().toString() + u' '
                        + table->model()->index(r, AuditModel::ActionColumn).data().toString();
            return seen.contains(QStringLiteral("sam-support replay_requested"))
                && seen.contains(QStringLiteral("ana-operator replay_approved"));
        }(),
        kGuiWait);
    QTest::mouseClick(find<QPushButton>(w, "auditClearFilter"), Qt::LeftButton);
}

void TstAuditReceiver::evidenceFromTheRealCheckpointVerifiesWithTheCli()
{
    QVERIFY(m_console && !m_keyId.isEmpty());
    const QString path = m_dir->filePath(QStringLiteral("real-evidence.json"));
    QSignalSpy done(m_console->audit(), &AuditController::evidenceExported);
    FileChooser::setNextAnswers({ path });
    QTest::mouseClick(find<QPushButton>(m_console->window(), "auditEvidenceButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, kGuiWait);
    QVERIFY2(done.first().at(0).toBool(), qPrintable(done.first().at(1).toString()));
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(qEnvironmentVariable("REDRIVE_BINARY_DIR") + QStringLiteral("/app/redrive/redrive"),
        { QStringLiteral("--verify-evidence"), path, QStringLiteral("--key-id"), m_keyId });
    QVERIFY(p.waitForFinished(60'000));
    const QString out = QString::fromUtf8(p.readAll());
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("the key you pinned")), qPrintable(out));
}

void TstAuditReceiver::cutOffTailAndEditedEntryAreNamed()
{
    QVERIFY(m_console && m_replay > 0);
    MainWindow *w = m_console->window();
    QTRY_VERIFY_WITH_TIMEOUT(status().contains(QStringLiteral(" verified (key ")), kGuiWait);
    QTest::mouseClick(find<QPushButton>(w, "saveCheckpointButton"), Qt::LeftButton);
    const qint64 n = head();
    QTRY_VERIFY_WITH_TIMEOUT(
        checkpoints().startsWith(QStringLiteral("Nothing changed up to the saved checkpoint #%1").arg(n)),
        kGuiWait);
    // The receiver signs this head too, and keeps it next to its key as the last one it signed.
    QVERIFY(pressF5());
    QTRY_VERIFY2_WITH_TIMEOUT(
        status().contains(QStringLiteral("checkpoint #%1 verified").arg(n)), qPrintable(status()), kGuiWait);

    // Someone with the database file drops the triggers and removes the newest entry.
    QString error;
    QVERIFY2(m_receiver.tamper({ QStringLiteral("DROP TRIGGER audit_log_no_update"),
                                   QStringLiteral("DROP TRIGGER audit_log_no_delete"),
                                   QStringLiteral("DELETE FROM audit_log WHERE seq = %1").arg(n) },
                 &error),
        qPrintable(error));
    QVERIFY(pressF5());
    // The receiver refuses to sign the shorter log and records the refusal, which takes #n's
    // place: the console shows the refusal, and its saved checkpoint names #n as changed.
    QTRY_VERIFY2_WITH_TIMEOUT(status().contains(QStringLiteral("does not extend the last signed head")),
        qPrintable(status()), kGuiWait);
    QTRY_VERIFY2_WITH_TIMEOUT(checkpoints().contains(QStringLiteral("first changed entry #%1").arg(n)),
        qPrintable(checkpoints()), kGuiWait);
    QCOMPARE(
        m_receiver.scalar(QStringLiteral("SELECT action FROM audit_log WHERE seq = ?"), { n }).toString(),
        QStringLiteral("checkpoint_refused"));

    // ... and rewrites the request's reason.
    const qint64 requested
        = m_receiver
              .scalar(QStringLiteral("SELECT seq FROM audit_log WHERE action = 'replay_requested' "
                                     "AND target = ?"),
                  { QStringLiteral("replay:%1").arg(m_replay) })
              .toLongLong();
    QVERIFY(requested > 0);
    QVERIFY2(m_receiver.tamper(
                 { QStringLiteral("UPDATE audit_log SET reason = 'routine' WHERE seq = %1").arg(requested) },
                 &error),
        qPrintable(error));
    QVERIFY(pressF5());
    QTRY_VERIFY_WITH_TIMEOUT(
        status().startsWith(QStringLiteral("Chain broken at #%1: ").arg(requested)), kGuiWait);
    QVERIFY2(status().contains(QStringLiteral("edited")), qPrintable(status()));
    QVERIFY2(checkpoints().contains(QStringLiteral("first changed entry #%1").arg(requested)),
        qPrintable(checkpoints()));
}

QTEST_MAIN(TstAuditReceiver)
#include "tst_auditreceiver.moc"
