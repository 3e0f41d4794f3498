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

// The console's actions through the admin API, driven through the real widgets: notes, the
// replay dialog (preview, reason, typed confirmation), the approvals inbox, the audit chain the
// console verifies itself, role-gated offers, and TLS checked against the profile's CA.
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
};

void TstConsoleActions::initTestCase()
{
    QVERIFY(setUpFixture());
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_clock);
    m_console->window()->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_console->window()));
    QString problem;
    QVERIFY2(connectWith(*m_console, QStringLiteral("support"), m_t->url().sqlitePath,
                 QStringLiteral("tok-123"), &problem),
        qPrintable(problem));
}

void TstConsoleActions::cleanupTestCase()
{
    m_console.reset();
}

void TstConsoleActions::notesGoThroughTheAdminApi()
{
    QVERIFY(m_console && m_console->session());
    m_api.route("POST", QByteArray("/admin/v1/events/") + QByteArray::number(m_s.failed) + "/notes",
        [](const FakeAdminApi::Request &) {
            return FakeAdminApi::Response { 201, "{}" };
        });
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
    QTRY_VERIFY_WITH_TIMEOUT(
        !m_api.requests().isEmpty() && m_api.requests().last().method == "POST", kGuiWait);
    QVERIFY(m_api.requests().last().body.contains("called the billing team"));
    QTRY_VERIFY_WITH_TIMEOUT(edit->text().isEmpty(), kGuiWait);
}

void TstConsoleActions::replayNeedsPreviewReasonAndTypedConfirmation()
{
    QVERIFY(m_console && m_console->session());
    QByteArray previewBody;
    m_api.route("POST", "/admin/v1/replays/preview", [&previewBody](const FakeAdminApi::Request &r) {
        previewBody = r.body;
        const QJsonObject preview { { QStringLiteral("selection_hash"), QString(64, u'a') },
            { QStringLiteral("count"), 1 }, { QStringLiteral("already_succeeded"), 0 },
            { QStringLiteral("outcome_unknown"), 0 }, { QStringLiteral("requires_approval"), true },
            { QStringLiteral("destinations"),
                QJsonArray { QJsonObject { { QStringLiteral("name"), QStringLiteral("billing") },
                    { QStringLiteral("risk"), QStringLiteral("high") }, { QStringLiteral("count"), 1 } } } },
            { QStringLiteral("effect"), QStringLiteral("Sends 1 delivery to <b>billing</b> again.") } };
        return FakeAdminApi::Response { 200, QJsonDocument(preview).toJson(QJsonDocument::Compact) };
    });
    QByteArray requestBody;
    m_api.route("POST", "/admin/v1/replays", [&requestBody](const FakeAdminApi::Request &r) {
        requestBody = r.body;
        return FakeAdminApi::Response { 201, R"({"id":7,"status":"pending_approval"})" };
    });
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
    QTRY_VERIFY_WITH_TIMEOUT(summary->text().contains(QStringLiteral("billing")), kGuiWait);
    // The preview named exactly the selected event's delivery.
    const QJsonArray ids
        = QJsonDocument::fromJson(previewBody).object().value(QLatin1String("delivery_ids")).toArray();
    QCOMPARE(ids.size(), 1);
    // Webhook or server text is never markup.
    QCOMPARE(summary->textFormat(), Qt::PlainText);
    QVERIFY(summary->text().contains(QStringLiteral("<b>billing</b>")));
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
    QTRY_VERIFY_WITH_TIMEOUT(!requestBody.isEmpty(), kGuiWait);
    const QJsonObject sent = QJsonDocument::fromJson(requestBody).object();
    QCOMPARE(sent.value(QLatin1String("selection_hash")).toString(), QString(64, u'a'));
    QCOMPARE(sent.value(QLatin1String("reason")).toString(), QStringLiteral("billing endpoint restored"));
    QCOMPARE(sent.value(QLatin1String("ticket")).toString(), QStringLiteral("INC-42"));
    QTRY_VERIFY_WITH_TIMEOUT(
        w->statusBar()->currentMessage().contains(QStringLiteral("Replay #7")), kGuiWait);
}

void TstConsoleActions::operatorApprovesSomeoneElsesRequest()
{
    m_console.reset();
    m_api.setIdentity(QStringLiteral("olga"), QStringLiteral("operator"));
    m_api.route("GET", "/admin/v1/replays", [](const FakeAdminApi::Request &r) {
        if (!r.query.contains("status=pending_approval"))
            return FakeAdminApi::Response { 400, R"({"error":"bad_request","field":"status"})" };
        return FakeAdminApi::Response {
            200,
            R"({"items":[{"id":7,"status":"pending_approval","requested_by":"alice","reason":"billing restored","count":1,"created_at":"2026-11-30T06:00:00Z"},)"
            R"({"id":8,"status":"pending_approval","requested_by":"olga","reason":"mine","count":3,"created_at":"2026-11-30T06:01:00Z"}],"next_cursor":null})"
        };
    });
    QByteArray decision;
    m_api.route("POST", "/admin/v1/replays/7/approve", [&decision](const FakeAdminApi::Request &r) {
        decision = r.body;
        return FakeAdminApi::Response { 200, R"({"id":7,"status":"approved"})" };
    });
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_clock);
    m_console->window()->show();
    QString problem;
    QVERIFY2(connectWith(*m_console, QStringLiteral("ops"), m_t->url().sqlitePath, QStringLiteral("tok-123"),
                 &problem),
        qPrintable(problem));
    MainWindow *w = m_console->window();
    QVERIFY(w->isPageAvailable(MainWindow::ApprovalsPage));
    QApplication::setActiveWindow(w);
    QVERIFY(QTest::qWaitForWindowActive(w));
    QTest::keyClick(w, Qt::Key_6, Qt::ControlModifier);
    QCOMPARE(w->currentPage(), MainWindow::ApprovalsPage);
    auto *inbox = find<QTableView>(w, "approvalTable");
    QTRY_COMPARE_WITH_TIMEOUT(inbox->model()->rowCount(), 2, kGuiWait);
    auto *approve = find<QPushButton>(w, "approveButton");
    inbox->selectRow(1); // olga's own request
    QVERIFY(inbox->model()->index(1, 0).data(ApprovalModel::OwnRequestRole).toBool());
    QVERIFY(!approve->isEnabled());
    inbox->selectRow(0);
    QVERIFY(approve->isEnabled());
    Prompter::clearAskedQuestions();
    Prompter::setNextAnswers({ { true, QStringLiteral("checked the selection") } });
    QTest::mouseClick(approve, Qt::LeftButton);
    QCOMPARE(Prompter::askedQuestions().size(), 1);
    QCOMPARE(Prompter::askedQuestions().first().confirmLabel, QStringLiteral("Approve replay #7"));
    QVERIFY(Prompter::askedQuestions().first().askReason);
    QTRY_VERIFY_WITH_TIMEOUT(!decision.isEmpty(), kGuiWait);
    QCOMPARE(QJsonDocument::fromJson(decision).object().value(QLatin1String("reason")).toString(),
        QStringLiteral("checked the selection"));
    // A cancelled prompt sends nothing.
    decision.clear();
    Prompter::setNextAnswers({ { false, QString() } });
    QTRY_COMPARE_WITH_TIMEOUT(inbox->model()->rowCount(), 2, kGuiWait);
    inbox->selectRow(0);
    QTest::mouseClick(approve, Qt::LeftButton);
    QTest::qWait(50);
    QVERIFY(decision.isEmpty());
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
    QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), 1, kGuiWait);
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
    m_api.setIdentity(QStringLiteral("audrey"), QStringLiteral("auditor"));
    ConsoleController console(*m_settings, m_secrets, m_clock);
    console.window()->show();
    QString problem;
    QVERIFY2(connectWith(console, QStringLiteral("audit"), m_t->url().sqlitePath, QStringLiteral("tok-123"),
                 &problem),
        qPrintable(problem));
    QCOMPARE(find<QLabel>(console.window(), "identityLabel")->text(), QStringLiteral("audrey · auditor"));
    QVERIFY(find<QLineEdit>(console.window(), "noteEdit")->isHidden());
    QVERIFY(find<QPushButton>(console.window(), "addNoteButton")->isHidden());
    m_api.setIdentity(QStringLiteral("alice"), QStringLiteral("support"));
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
    FakeAdminApi tls;
    tls.setToken("tok-123");
    QVERIFY(tls.listenTls(cert, key));

    for (const bool trusted : { false, true }) {
        ConsoleController console(*m_settings, m_secrets, m_clock);
        console.window()->show();
        console.showConnectionDialog();
        ConnectionDialog *dialog = console.connectionDialog();
        QVERIFY(dialog);
        QTest::mouseClick(find<QPushButton>(dialog, "newProfileButton"), Qt::LeftButton);
        QTest::keyClicks(find<QLineEdit>(dialog, "nameEdit"),
            trusted ? QStringLiteral("tls-ok") : QStringLiteral("tls-bad"));
        QTest::keyClicks(find<QLineEdit>(dialog, "sqlitePathEdit"), m_t->url().sqlitePath);
        QTest::keyClicks(find<QLineEdit>(dialog, "adminUrlEdit"), tls.url().toString());
        QTest::keyClicks(find<QLineEdit>(dialog, "tokenEdit"), QStringLiteral("tok-123"));
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
            QCOMPARE(
                find<QLabel>(console.window(), "identityLabel")->text(), QStringLiteral("alice · support"));
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
