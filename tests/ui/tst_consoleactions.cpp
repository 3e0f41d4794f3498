// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "approvals/approvalmodel.h"
#include "auditor/auditcontroller.h"
#include "common/prompter.h"
#include "connection/connectiondialog.h"
#include "connection/session.h"
#include "consoleguitest.h"
#include "events/eventtablemodel.h"
#include "newreplay/replaydialog.h"

#include <QApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTest>
#include <QTreeWidget>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

// The console's actions through the admin API of a real redrived on the fixture's database,
// driven through the real widgets: notes, the replay dialog (preview, reason, typed
// confirmation), the approvals inbox, the audit chain the console verifies itself, role-gated
// offers, and TLS checked against the profile's CA.
class TstConsoleActions : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void notesGoThroughTheAdminApi();
    void replayNeedsPreviewReasonAndTypedConfirmation();
    void operatorApprovesSomeoneElsesRequest();
    void consoleVerifiesTheAuditChainItself();
    void auditorIsNotOfferedNotes();
    void tlsIsCheckedAgainstTheProfilesCa();
    void remainingAttemptsAreProjectedFromTheReceiverConfig();

private:
    qint64 m_othersReplay = 0; // support's request, made in the replay dialog
};

void TstConsoleActions::initTestCase()
{
    QVERIFY(setUpFixture());
    QVERIFY(setUpReceiver());
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_clock);
    m_console->window()->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_console->window()));
    QString problem;
    QVERIFY2(connectWith(*m_console, QStringLiteral("support"), m_t->url().sqlitePath,
                 tokenOf(QStringLiteral("sam-support")), &problem, receiverUrl()),
        qPrintable(problem));
}

void TstConsoleActions::cleanupTestCase()
{
    m_console.reset();
}

void TstConsoleActions::notesGoThroughTheAdminApi()
{
    QVERIFY(m_console && m_console->session());
    search(QStringLiteral("evt_failed_1"));
    QTRY_VERIFY_WITH_TIMEOUT(table()->model()->rowCount() == 1
            && table()->model()->index(0, 0).data(EventTableModel::LoadedRole).toBool(),
        kGuiWait);
    QVERIFY(selectRow(0));
    QWidget *w = m_console->window();
    auto *notes = find<QPlainTextEdit>(w, "notesText");
    QTRY_VERIFY_WITH_TIMEOUT(
        notes->toPlainText().contains(QStringLiteral("Billing endpoint retired")), kGuiWait);
    // Webhook and user text is shown as typed, never as markup.
    QVERIFY(notes->toPlainText().contains(QStringLiteral("<b>not</b> HTML")));
    QCOMPARE(find<QTreeWidget>(w, "auditTree")->topLevelItemCount(), 1);
    auto *edit = find<QLineEdit>(w, "noteEdit");
    QVERIFY(!edit->isHidden());
    QTest::keyClicks(edit, QStringLiteral("called the billing team"));
    QTest::keyClick(edit, Qt::Key_Return);
    // The receiver stored it, under the signed-in person's name.
    QVERIFY(m_receiver->waitForValue(
        QStringLiteral("SELECT author FROM notes WHERE event_id = ? AND body = ?"),
        { m_s.failed, QStringLiteral("called the billing team") }, QStringLiteral("sam-support"), kGuiWait));
    QTRY_VERIFY_WITH_TIMEOUT(edit->text().isEmpty(), kGuiWait);
}

void TstConsoleActions::replayNeedsPreviewReasonAndTypedConfirmation()
{
    QVERIFY(m_console && m_console->session());
    const qint64 before
        = m_receiver->scalar(QStringLiteral("SELECT coalesce(max(id), 0) FROM replays")).toLongLong();
    search(QStringLiteral("evt_failed_1"));
    QTRY_VERIFY_WITH_TIMEOUT(table()->model()->rowCount() == 1
            && table()->model()->index(0, 0).data(EventTableModel::LoadedRole).toBool(),
        kGuiWait);
    QVERIFY(selectRow(0));
    MainWindow *w = m_console->window();
    auto *replaySelected = find<QPushButton>(w, "replaySelectedButton");
    QVERIFY(replaySelected->isVisible());
    QTRY_VERIFY(replaySelected->isEnabled());
    QTest::mouseClick(replaySelected, Qt::LeftButton);
    ReplayDialog *dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (dialog = w->findChild<ReplayDialog *>(QStringLiteral("replayDialog"))) != nullptr, kGuiWait);
    auto *summary = find<QLabel>(dialog, "replaySummary");
    // The receiver's preview: the selected event's one delivery, to the high-risk billing.
    QTRY_VERIFY_WITH_TIMEOUT(summary->text().contains(QStringLiteral("billing")), kGuiWait);
    // Webhook or server text is never markup.
    QCOMPARE(summary->textFormat(), Qt::PlainText);
    auto *submit = find<QPushButton>(dialog, "replaySubmit");
    auto *cancel = find<QPushButton>(dialog, "replayCancel");
    QVERIFY(cancel->isDefault());
    QCOMPARE(submit->text(), QStringLiteral("Request approval to replay 1 delivery"));
    QVERIFY(!submit->isEnabled());
    QTest::keyClicks(
        find<QPlainTextEdit>(dialog, "replayReason"), QStringLiteral("billing endpoint restored"));
    QVERIFY(!submit->isEnabled()); // high risk: the count must be typed
    auto *confirm = find<QLineEdit>(dialog, "replayConfirm");
    QVERIFY(confirm->isVisible());
    QTest::keyClicks(confirm, QStringLiteral("replay 2"));
    QVERIFY(!submit->isEnabled());
    confirm->clear();
    QTest::keyClicks(confirm, QStringLiteral("replay 1"));
    QVERIFY(submit->isEnabled());
    QTest::keyClicks(find<QLineEdit>(dialog, "replayTicket"), QStringLiteral("INC-42"));
    QTest::mouseClick(submit, Qt::LeftButton);
    // The receiver holds the request: the previewed delivery, the reason and ticket as typed,
    // waiting for a second person.
    QVERIFY(m_receiver->waitForValue(
        QStringLiteral("SELECT count(*) FROM replays WHERE id > ?"), { before }, 1, kGuiWait));
    const qint64 id = m_receiver->scalar(QStringLiteral("SELECT max(id) FROM replays")).toLongLong();
    auto column = [this, id](const char *name) {
        return m_receiver
            ->scalar(QStringLiteral("SELECT %1 FROM replays WHERE id = ?").arg(QLatin1String(name)), { id })
            .toString();
    };
    QCOMPARE(column("reason"), QStringLiteral("billing endpoint restored"));
    QCOMPARE(column("ticket"), QStringLiteral("INC-42"));
    QCOMPARE(column("requested_by"), QStringLiteral("sam-support"));
    QCOMPARE(column("status"), QStringLiteral("pending_approval"));
    QCOMPARE(
        m_receiver->scalar(QStringLiteral("SELECT delivery_id FROM replay_items WHERE replay_id = ?"), { id })
            .toLongLong(),
        m_receiver->deliveryId(m_s.failed, QStringLiteral("billing")));
    m_othersReplay = id;
    QTRY_VERIFY_WITH_TIMEOUT(
        w->statusBar()->currentMessage().contains(QStringLiteral("Replay #%1").arg(id)), kGuiWait);
}

void TstConsoleActions::operatorApprovesSomeoneElsesRequest()
{
    m_console.reset();
    // The inbox: the request support made above, one of the operator's own, and another
    // operator's (made through the API, as their consoles would).
    QVERIFY(m_othersReplay > 0);
    const qint64 own = m_receiver->requestReplay(QStringLiteral("ana-operator"),
        { m_receiver->deliveryId(m_s.succeeded, QStringLiteral("fulfillment")) }, QStringLiteral("mine"));
    QVERIFY(own > 0);
    const qint64 omars = m_receiver->requestReplay(QStringLiteral("omar-operator"),
        { m_receiver->deliveryId(m_s.unknown, QStringLiteral("fulfillment")) }, QStringLiteral("omar's"));
    QVERIFY(omars > 0);
    const qint64 audited = m_receiver->scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong();
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_clock);
    m_console->window()->show();
    QString problem;
    QVERIFY2(connectWith(*m_console, QStringLiteral("ops"), m_t->url().sqlitePath,
                 tokenOf(QStringLiteral("ana-operator")), &problem, receiverUrl()),
        qPrintable(problem));
    MainWindow *w = m_console->window();
    QVERIFY(w->isPageAvailable(MainWindow::ApprovalsPage));
    QApplication::setActiveWindow(w);
    QVERIFY(QTest::qWaitForWindowActive(w));
    QTest::keyClick(w, Qt::Key_6, Qt::ControlModifier);
    QCOMPARE(w->currentPage(), MainWindow::ApprovalsPage);
    auto *inbox = find<QTableView>(w, "approvalTable");
    QTRY_COMPARE_WITH_TIMEOUT(inbox->model()->rowCount(), 3, kGuiWait);
    auto rowOf = [inbox](qint64 replay) {
        for (int row = 0; row < inbox->model()->rowCount(); ++row) {
            if (inbox->model()->index(row, 0).data(ApprovalModel::ReplayIdRole).toLongLong() == replay)
                return row;
        }
        return -1;
    };
    auto *approve = find<QPushButton>(w, "approveButton");
    QVERIFY(rowOf(own) >= 0);
    inbox->selectRow(rowOf(own)); // the operator's own request
    QVERIFY(inbox->model()->index(rowOf(own), 0).data(ApprovalModel::OwnRequestRole).toBool());
    QVERIFY(!approve->isEnabled());
    inbox->selectRow(rowOf(m_othersReplay));
    QVERIFY(approve->isEnabled());
    Prompter::clearAskedQuestions();
    Prompter::setNextAnswers({ { true, QStringLiteral("checked the selection") } });
    QTest::mouseClick(approve, Qt::LeftButton);
    QCOMPARE(Prompter::askedQuestions().size(), 1);
    QCOMPARE(Prompter::askedQuestions().first().confirmLabel,
        QStringLiteral("Approve replay #%1").arg(m_othersReplay));
    QVERIFY(Prompter::askedQuestions().first().askReason);
    // The receiver recorded the decision with the reason typed, by the signed-in operator.
    QVERIFY(m_receiver->waitForValue(QStringLiteral("SELECT decision_reason FROM replays WHERE id = ?"),
        { m_othersReplay }, QStringLiteral("checked the selection"), kGuiWait));
    QCOMPARE(
        m_receiver->scalar(QStringLiteral("SELECT approved_by FROM replays WHERE id = ?"), { m_othersReplay })
            .toString(),
        QStringLiteral("ana-operator"));
    // A cancelled prompt sends nothing: omar's request stays undecided and nothing is audited.
    Prompter::setNextAnswers({ { false, QString() } });
    QTRY_VERIFY_WITH_TIMEOUT(inbox->model()->rowCount() == 2 && rowOf(m_othersReplay) < 0, kGuiWait);
    const qint64 auditedNow
        = m_receiver->scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong();
    QVERIFY(auditedNow > audited); // the approval above was audited
    inbox->selectRow(rowOf(omars));
    QVERIFY(approve->isEnabled());
    QTest::mouseClick(approve, Qt::LeftButton);
    QTest::qWait(50);
    QCOMPARE(Prompter::askedQuestions().size(), 2);
    QCOMPARE(
        m_receiver->scalar(QStringLiteral("SELECT status FROM replays WHERE id = ?"), { omars }).toString(),
        QStringLiteral("pending_approval"));
    QCOMPARE(m_receiver->scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), auditedNow);
}

void TstConsoleActions::consoleVerifiesTheAuditChainItself()
{
    QVERIFY(m_console && m_console->session()); // the operator from the previous test
    MainWindow *w = m_console->window();
    QVERIFY(w->isPageAvailable(MainWindow::AuditPage));
    AuditController *audit = m_console->audit();
    QSignalSpy verified(audit, &AuditController::verified);
    // Opening the page computes the chain status: no button to press.
    w->showPage(MainWindow::AuditPage);
    auto *entries = find<QTableView>(w, "auditTable");
    // The fixture's entry and what the receiver appended above (the note, the requests, the
    // approval) — and, once the page asks for a checkpoint, the receiver's refusal to sign this
    // broken chain, which it audits too. So the list is compared with the log as it is at each
    // look, not with a count read before the page opened.
    const auto logged
        = [this] { return m_receiver->scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toInt(); };
    QVERIFY(logged() > 1);
    QTRY_VERIFY_WITH_TIMEOUT(
        entries->model()->rowCount() > 1 && entries->model()->rowCount() == logged(), kGuiWait);
    QTRY_VERIFY_WITH_TIMEOUT(verified.size() >= 1, kGuiWait);
    // The fixture's entry carries made-up hashes: the console must notice by itself.
    QCOMPARE(verified.first().at(0).toBool(), false);
    QCOMPARE(verified.first().at(2).toLongLong(), qint64(1));
    QVERIFY2(find<QLabel>(w, "auditStatus")->text().startsWith(QStringLiteral("Chain broken at #1: ")),
        qPrintable(find<QLabel>(w, "auditStatus")->text()));
    const QString csv = m_dir->filePath(QStringLiteral("audit.csv"));
    QSignalSpy exported(audit, &AuditController::exported);
    audit->exportCsv(csv);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 1, kGuiWait);
    QVERIFY(exported.first().at(0).toBool());
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().split('\n');
    QVERIFY(lines.first().startsWith("seq,at_utc,actor,role,action,target"));
    QVERIFY(lines.value(1).startsWith("1,"));
    QVERIFY(lines.value(1).contains("note.add"));
}

void TstConsoleActions::auditorIsNotOfferedNotes()
{
    m_console.reset();
    ConsoleController console(*m_settings, m_secrets, m_clock);
    console.window()->show();
    QString problem;
    QVERIFY2(connectWith(console, QStringLiteral("audit"), m_t->url().sqlitePath,
                 tokenOf(QStringLiteral("aude-auditor")), &problem, receiverUrl()),
        qPrintable(problem));
    QCOMPARE(
        find<QLabel>(console.window(), "identityLabel")->text(), QStringLiteral("aude-auditor · auditor"));
    QVERIFY(find<QLineEdit>(console.window(), "noteEdit")->isHidden());
    QVERIFY(find<QPushButton>(console.window(), "addNoteButton")->isHidden());
}

void TstConsoleActions::tlsIsCheckedAgainstTheProfilesCa()
{
    // A self-signed certificate for 127.0.0.1, made for this test.
    const QString cert = m_dir->filePath(QStringLiteral("admin-cert.pem"));
    const QString key = m_dir->filePath(QStringLiteral("admin-key.pem"));
    QProcess openssl;
    openssl.start(QStringLiteral("openssl"),
        { QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
            QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-days"),
            QStringLiteral("2"), QStringLiteral("-subj"), QStringLiteral("/CN=redrive-test"),
            QStringLiteral("-addext"), QStringLiteral("subjectAltName=IP:127.0.0.1"),
            QStringLiteral("-keyout"), key, QStringLiteral("-out"), cert });
    QVERIFY(openssl.waitForFinished(60'000));
    QCOMPARE(openssl.exitCode(), 0);
    // A real redrived whose admin listener speaks TLS with that certificate, on a database of
    // its own: the console refuses it untrusted and signs in once the profile names the CA.
    RealReceiver tls;
    tls.useTls(cert, key);
    QString error;
    QVERIFY2(tls.start(&error), qPrintable(error));
    QCOMPARE(tls.adminUrl().scheme(), QStringLiteral("https"));

    for (const bool trusted : { false, true }) {
        ConsoleController console(*m_settings, m_secrets, m_clock);
        console.window()->show();
        console.showConnectionDialog();
        ConnectionDialog *dialog = console.connectionDialog();
        QVERIFY(dialog);
        QTest::mouseClick(find<QPushButton>(dialog, "newProfileButton"), Qt::LeftButton);
        QTest::keyClicks(find<QLineEdit>(dialog, "nameEdit"),
            trusted ? QStringLiteral("tls-ok") : QStringLiteral("tls-bad"));
        QTest::keyClicks(find<QLineEdit>(dialog, "sqlitePathEdit"), tls.databasePath());
        QTest::keyClicks(find<QLineEdit>(dialog, "adminUrlEdit"), tls.adminUrl().toString());
        QTest::keyClicks(find<QLineEdit>(dialog, "tokenEdit"), tls.token(QStringLiteral("sam-support")));
        if (trusted)
            QTest::keyClicks(find<QLineEdit>(dialog, "caFileEdit"), cert);
        bool gone = false;
        connect(dialog, &QObject::destroyed, this, [&gone] { gone = true; });
        auto *problem = find<QLabel>(dialog, "problemLabel");
        QTest::mouseClick(find<QPushButton>(dialog, "connectButton"), Qt::LeftButton);
        if (trusted) {
            QTRY_VERIFY_WITH_TIMEOUT(
                console.session() != nullptr || (!gone && problem->isVisible()), kGuiWait);
            QVERIFY2(console.session(), qPrintable(gone ? QString() : problem->text()));
            QCOMPARE(find<QLabel>(console.window(), "identityLabel")->text(),
                QStringLiteral("sam-support · support"));
        } else {
            QTRY_VERIFY_WITH_TIMEOUT(problem->isVisible(), kGuiWait);
            QVERIFY2(problem->text().contains(QStringLiteral("certificate this console does not trust")),
                qPrintable(problem->text()));
            QVERIFY(problem->text().contains(QStringLiteral("CA certificate in the profile")));
            QVERIFY(!console.session());
        }
    }
}

void TstConsoleActions::remainingAttemptsAreProjectedFromTheReceiverConfig()
{
    // A copy of the receiver's config, secrets and all: the console reads only the schedules.
    const QString config = m_dir->filePath(QStringLiteral("redrived.toml"));
    QFile f(config);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(
        "[delivery]\njitter = 0.0\n\n[[destinations]]\nname = \"fulfillment\"\nurl = \"https://x.internal/hooks\"\n"
        "max_attempts = 4\nretry_schedule = [\"5m\", \"30m\", \"2h\"]\nsigning_secret = \"env:NOT_SET_HERE\"\n");
    f.close();
    ConsoleController console(*m_settings, m_secrets, m_clock);
    console.window()->show();
    console.showConnectionDialog();
    ConnectionDialog *dialog = console.connectionDialog();
    QVERIFY(dialog);
    QTest::mouseClick(find<QPushButton>(dialog, "newProfileButton"), Qt::LeftButton);
    QTest::keyClicks(find<QLineEdit>(dialog, "nameEdit"), QStringLiteral("with-config"));
    QTest::keyClicks(find<QLineEdit>(dialog, "sqlitePathEdit"), m_t->url().sqlitePath);
    QTest::keyClicks(find<QLineEdit>(dialog, "receiverConfigEdit"), config);
    QTest::mouseClick(find<QPushButton>(dialog, "connectButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(console.session() != nullptr, kGuiWait);
    QVERIFY(console.session()->retrySchedules().has_value());

    auto *edit = find<QLineEdit>(console.window(), "searchEdit");
    QTest::keyClicks(edit, QStringLiteral("shop-unknown-1"));
    QTest::keyClick(edit, Qt::Key_Return);
    auto *list = find<QTableView>(console.window(), "eventsTable");
    QTRY_VERIFY_WITH_TIMEOUT(list->model()->rowCount() == 1
            && list->model()->index(0, 0).data(EventTableModel::LoadedRole).toBool(),
        kGuiWait);
    const QModelIndex cell = list->model()->index(0, EventTableModel::SourceColumn);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualRect(cell).center());
    auto *note = find<QLabel>(console.window(), "scheduleNote");
    // One attempt made; #2 is due at next_attempt_at, then +30 min for #3 and +2 h for #4.
    QTRY_VERIFY_WITH_TIMEOUT(note->text().contains(QStringLiteral("attempt 2 is due")), kGuiWait);
    QVERIFY2(note->text().contains(QStringLiteral("#3 ≈")) && note->text().contains(QStringLiteral("#4 ≈")),
        qPrintable(note->text()));
    QVERIFY2(note->text().contains(QStringLiteral("Dead letter after attempt 4")), qPrintable(note->text()));
}

QTEST_MAIN(TstConsoleActions)
#include "tst_consoleactions.moc"
