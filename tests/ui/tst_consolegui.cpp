// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "common/environmentbanner.h"
#include "connection/connectiondialog.h"
#include "connection/session.h"
#include "consolefixture.h"
#include "detail/detailcontroller.h"
#include "events/eventscontroller.h"
#include "events/eventtablemodel.h"
#include "fakeadminapi.h"
#include "approvals/approvalmodel.h"
#include "audit/auditcontroller.h"
#include "audit/auditmodel.h"
#include "common/prompter.h"
#include "main/consolecontroller.h"
#include "replay/replaydialog.h"
#include "query/downstream.h"
#include "secrets/secretstore.h"
#include "testdb.h"
#include "util/clock.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStatusBar>
#include <QTableView>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>
#include <QTreeWidget>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

namespace {
constexpr qint64 kBase = 1'750'000'000'000;
constexpr int kWait = 15'000;

template<typename T>
T *find(QWidget *root, const char *name)
{
    T *w = root->findChild<T *>(QLatin1String(name));
    if (!w)
        qWarning("no widget named %s", name);
    return w;
}
} // namespace

// The console driven through its real widgets, offscreen: connect through the dialog, filter,
// open events, read their attempts, check the downstream indicator for every state, follow a
// dead-letter group, use the keyboard, and see connection failures explained.
class TstConsoleGui : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void connectsThroughTheDialog();
    void eachDownstreamStateIsShown_data();
    void eachDownstreamStateIsShown();
    void overviewShowsTheBacklog();
    void statusFilterNarrowsTheList();
    void keyboardReachesEveryPage();
    void deadLetterGroupOpensTheFilteredList();
    void newEventsAreAnnouncedWithoutMovingTheSelection();
    void notesGoThroughTheAdminApi();
    void replayNeedsPreviewReasonAndTypedConfirmation();
    void operatorApprovesSomeoneElsesRequest();
    void consoleVerifiesTheAuditChainItself();
    void auditorIsNotOfferedNotes();
    void failuresAreExplained_data();
    void failuresAreExplained();

private:
    bool connectWith(ConsoleController &console, const QString &name, const QString &sqlitePath, const QString &token,
                     QString *problem = nullptr);
    void search(const QString &text);
    QTableView *table() const;
    bool selectRow(int row);

    std::unique_ptr<TestDatabase> m_t;
    std::unique_ptr<Db> m_writer;
    ConsoleFixture::Scenario m_s;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QSettings> m_settings;
    MemorySecretStore m_secrets;
    ManualClock m_clock{kBase + 60'000};
    FakeAdminApi m_api;
    std::unique_ptr<ConsoleController> m_console;
};

void TstConsoleGui::initTestCase()
{
    QString error;
    m_t = TestDatabase::create(Backend::Sqlite, &error);
    QVERIFY2(m_t, qPrintable(error));
    m_writer = m_t->open(QStringLiteral("writer"));
    ConsoleFixture fx(*m_writer);
    m_s = fx.addScenario(kBase);
    QVERIFY2(fx.lastError().isEmpty(), qPrintable(fx.lastError()));
    m_dir = std::make_unique<QTemporaryDir>();
    m_settings = std::make_unique<QSettings>(m_dir->filePath(QStringLiteral("redrive.ini")), QSettings::IniFormat);
    m_api.setToken("tok-123");
    QVERIFY(m_api.listen());
}

void TstConsoleGui::cleanupTestCase()
{
    m_console.reset();
}

bool TstConsoleGui::connectWith(ConsoleController &console, const QString &name, const QString &sqlitePath,
                                const QString &token, QString *problem)
{
    console.showConnectionDialog();
    ConnectionDialog *dialog = console.connectionDialog();
    if (!dialog)
        return false;
    auto set = [dialog](const char *field, const QString &text) {
        auto *edit = dialog->findChild<QLineEdit *>(QLatin1String(field));
        edit->clear();
        QTest::keyClicks(edit, text);
    };
    QTest::mouseClick(find<QPushButton>(dialog, "newProfileButton"), Qt::LeftButton);
    set("nameEdit", name);
    set("environmentEdit", QStringLiteral("production"));
    set("sqlitePathEdit", sqlitePath);
    set("adminUrlEdit", m_api.url().toString());
    set("tokenEdit", token);
    QTest::mouseClick(find<QPushButton>(dialog, "connectButton"), Qt::LeftButton);
    // The dialog deletes itself once connected: stop looking at its label when it is gone.
    bool gone = false;
    connect(dialog, &QObject::destroyed, this, [&gone] { gone = true; });
    QLabel *problemLabel = find<QLabel>(dialog, "problemLabel");
    QDeadlineTimer deadline(kWait);
    while (!deadline.hasExpired() && !console.session() && !gone && problemLabel->isHidden())
        QTest::qWait(10);
    if (problem)
        *problem = !gone && problemLabel->isVisible() ? problemLabel->text() : QString();
    return console.session() != nullptr;
}

QTableView *TstConsoleGui::table() const
{
    return m_console->window()->findChild<QTableView *>(QStringLiteral("eventsTable"));
}

void TstConsoleGui::search(const QString &text)
{
    auto *edit = find<QLineEdit>(m_console->window(), "searchEdit");
    edit->clear();
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
}

bool TstConsoleGui::selectRow(int row)
{
    QTableView *t = table();
    const QModelIndex index = t->model()->index(row, EventTableModel::SourceColumn);
    t->scrollTo(index);
    QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, t->visualRect(index).center());
    return t->selectionModel()->currentIndex().row() == row;
}

void TstConsoleGui::connectsThroughTheDialog()
{
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_clock);
    m_console->window()->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_console->window()));
    QString problem;
    QVERIFY2(connectWith(*m_console, QStringLiteral("prod-eu"), m_t->url().sqlitePath, QStringLiteral("tok-123"), &problem),
             qPrintable(problem));
    MainWindow *w = m_console->window();
    QCOMPARE(find<QLabel>(w, "identityLabel")->text(), QStringLiteral("alice · support"));
    auto *banner = find<EnvironmentBanner>(w, "environmentBanner");
    QVERIFY(banner->isVisible());
    QVERIFY(banner->text().startsWith(QStringLiteral("PRODUCTION")));
    QVERIFY(w->windowTitle().contains(QStringLiteral("PRODUCTION")));
    // The token went to the keychain under the profile's key, and only the key name to settings.
    QVERIFY(m_secrets.contains(SecretStore::keyFor(QStringLiteral("prod-eu"), QStringLiteral("api-token"))));
    m_settings->sync();
    QFile ini(m_dir->filePath(QStringLiteral("redrive.ini")));
    QVERIFY(ini.open(QIODevice::ReadOnly));
    const QByteArray saved = ini.readAll();
    QVERIFY(saved.contains("prod-eu"));
    QVERIFY(!saved.contains("tok-123"));
    // The list shows every event, newest first.
    QTRY_COMPARE_WITH_TIMEOUT(table()->model()->rowCount(), 5, kWait);
    QTRY_COMPARE_WITH_TIMEOUT(table()->model()->index(0, EventTableModel::IdColumn).data(EventTableModel::EventIdRole).toLongLong(),
                              m_s.noRoute, kWait);
}

void TstConsoleGui::eachDownstreamStateIsShown_data()
{
    QTest::addColumn<QString>("providerId");
    QTest::addColumn<QString>("state");
    QTest::addColumn<QString>("label");
    QTest::addColumn<int>("attempts");
    QTest::addColumn<QString>("firstCategory");
    QTest::newRow("succeeded with reference") << "gh-delivery-1" << "succeeded_ref" << "Succeeded" << 2 << "HTTP retryable";
    QTest::newRow("failed") << "evt_failed_1" << "failed" << "Failed" << 1 << "HTTP permanent";
    QTest::newRow("outcome unknown") << "shop-unknown-1" << "outcome_unknown" << "Outcome unknown" << 1
                                     << "Timeout · outcome unknown";
    QTest::newRow("pending") << "gh-pending-1" << "pending" << "Pending" << 0 << "";
}

void TstConsoleGui::eachDownstreamStateIsShown()
{
    QFETCH(QString, providerId);
    QFETCH(QString, state);
    QFETCH(QString, label);
    QFETCH(int, attempts);
    QFETCH(QString, firstCategory);
    QVERIFY(m_console && m_console->session());
    search(providerId);
    QTRY_VERIFY_WITH_TIMEOUT(table()->model()->rowCount() == 1
                                 && table()->model()->index(0, 0).data(EventTableModel::LoadedRole).toBool(),
                             kWait);
    // The list's own indicator column.
    QVERIFY(table()->model()->index(0, EventTableModel::DownstreamColumn).data().toString().contains(label));
    QVERIFY(selectRow(0));
    QWidget *w = m_console->window();
    const qint64 id = table()->model()->index(0, 0).data(EventTableModel::EventIdRole).toLongLong();
    auto *title = find<QLabel>(w, "detailTitle");
    QTRY_VERIFY_WITH_TIMEOUT(title->text().startsWith(QStringLiteral("Event %1 ").arg(id)), kWait);
    auto *deliveries = find<QTreeWidget>(w, "deliveryTree");
    QTRY_COMPARE_WITH_TIMEOUT(deliveries->topLevelItemCount(), 1, kWait);
    QTreeWidgetItem *delivery = deliveries->topLevelItem(0);
    QCOMPARE(delivery->data(2, Qt::UserRole).toString(), state);
    QVERIFY2(delivery->text(2).contains(label), qPrintable(delivery->text(2)));
    if (state == u"succeeded_ref")
        QCOMPARE(delivery->text(5), QStringLiteral("ORD-1001"));
    auto *timeline = find<QTreeWidget>(w, "attemptTree");
    QCOMPARE(timeline->topLevelItemCount(), attempts);
    if (attempts > 0) {
        QCOMPARE(timeline->topLevelItem(0)->text(6), firstCategory);
        QVERIFY(!timeline->topLevelItem(0)->text(7).isEmpty()); // the classification is explained
        timeline->setCurrentItem(timeline->topLevelItem(0));
        QVERIFY(!find<QPlainTextEdit>(w, "responseExcerpt")->toPlainText().isEmpty());
    }
    if (state == u"succeeded_ref")
        QCOMPARE(timeline->topLevelItem(0)->text(4), QStringLiteral("503"));
    if (state == u"outcome_unknown")
        QVERIFY(find<QLabel>(w, "scheduleNote")->text().contains(QStringLiteral("attempt 2 is due")));
}

void TstConsoleGui::overviewShowsTheBacklog()
{
    QVERIFY(m_console && m_console->session());
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::OverviewPage);
    auto *backlog = find<QLabel>(w, "backlogLabel");
    // Two deliveries wait (retrying and pending); the oldest since kBase + 2 s, "now" is kBase + 60 s.
    QTRY_COMPARE_WITH_TIMEOUT(backlog->text(), QStringLiteral("2 deliveries waiting; the oldest has waited 58 s."), kWait);
    w->showPage(MainWindow::EventsPage);
}

void TstConsoleGui::statusFilterNarrowsTheList()
{
    QVERIFY(m_console && m_console->session());
    search(QString());
    QTRY_COMPARE_WITH_TIMEOUT(table()->model()->rowCount(), 5, kWait);
    QAction *dead = m_console->window()->findChild<QAction *>(QStringLiteral("status_dead"));
    QAction *retrying = m_console->window()->findChild<QAction *>(QStringLiteral("status_retrying"));
    QVERIFY(dead && retrying);
    dead->setChecked(true);
    QTRY_COMPARE_WITH_TIMEOUT(table()->model()->rowCount(), 1, kWait);
    retrying->setChecked(true);
    QTRY_COMPARE_WITH_TIMEOUT(table()->model()->rowCount(), 2, kWait);
    QTest::mouseClick(find<QPushButton>(m_console->window(), "clearFilterButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(table()->model()->rowCount(), 5, kWait);
    QVERIFY(!dead->isChecked());
}

void TstConsoleGui::keyboardReachesEveryPage()
{
    QVERIFY(m_console && m_console->session());
    MainWindow *w = m_console->window();
    QApplication::setActiveWindow(w);
    QVERIFY(QTest::qWaitForWindowActive(w));
    // Support staff see every page but the approvals inbox and the audit log (their shortcuts do
    // nothing); every other page is one shortcut away.
    QVERIFY(!w->isPageAvailable(MainWindow::ApprovalsPage));
    QVERIFY(!w->isPageAvailable(MainWindow::AuditPage));
    for (int page = MainWindow::PageCount - 1; page >= 0; --page) {
        const int before = int(w->currentPage());
        QTest::keyClick(w, Qt::Key(Qt::Key_1 + page), Qt::ControlModifier);
        QCOMPARE(int(w->currentPage()), w->isPageAvailable(MainWindow::Page(page)) ? page : before);
    }
    QTest::keyClick(w, Qt::Key_3, Qt::ControlModifier);
    QTest::keyClick(w, Qt::Key_F, Qt::ControlModifier);
    QCOMPARE(w->currentPage(), MainWindow::EventsPage);
    QTRY_COMPARE(QApplication::focusWidget(), find<QLineEdit>(w, "searchEdit"));
    // Ctrl+C on the list copies the selected event's id.
    QTRY_VERIFY_WITH_TIMEOUT(table()->model()->index(2, 0).data(EventTableModel::LoadedRole).toBool(), kWait);
    QVERIFY(selectRow(2));
    table()->setFocus();
    QApplication::clipboard()->clear();
    QTest::keyClick(table(), Qt::Key_C, Qt::ControlModifier);
    QCOMPARE(QApplication::clipboard()->text(),
             QString::number(table()->model()->index(2, 0).data(EventTableModel::EventIdRole).toLongLong()));
}

void TstConsoleGui::deadLetterGroupOpensTheFilteredList()
{
    QVERIFY(m_console && m_console->session());
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::DeadLettersPage);
    auto *groups = find<QTableView>(w, "deadLetterTable");
    QTRY_COMPARE_WITH_TIMEOUT(groups->model()->rowCount(), 1, kWait);
    QCOMPARE(groups->model()->index(0, 2).data().toLongLong(), qint64(1));
    groups->setFocus();
    groups->setCurrentIndex(groups->model()->index(0, 0));
    QTest::keyClick(groups, Qt::Key_Return);
    QTRY_COMPARE(w->currentPage(), MainWindow::EventsPage);
    QTRY_COMPARE_WITH_TIMEOUT(table()->model()->rowCount(), 1, kWait);
    QTRY_COMPARE_WITH_TIMEOUT(table()->model()->index(0, 0).data(EventTableModel::EventIdRole).toLongLong(), m_s.failed, kWait);
    QTest::mouseClick(find<QPushButton>(w, "clearFilterButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(table()->model()->rowCount(), 5, kWait);
}

void TstConsoleGui::newEventsAreAnnouncedWithoutMovingTheSelection()
{
    QVERIFY(m_console && m_console->session());
    QTRY_VERIFY_WITH_TIMEOUT(table()->model()->index(3, 0).data(EventTableModel::LoadedRole).toBool(), kWait);
    QVERIFY(selectRow(3));
    const qint64 selected = table()->model()->index(3, 0).data(EventTableModel::EventIdRole).toLongLong();
    ConsoleFixture fx(*m_writer);
    ConsoleFixture::EventSpec e;
    e.receivedAt = kBase + 50'000;
    fx.addEvent(e);
    fx.addEvent(e);
    m_console->events()->pollNow();
    auto *button = find<QPushButton>(m_console->window(), "newEventsButton");
    QTRY_VERIFY_WITH_TIMEOUT(button->isVisible(), kWait);
    QCOMPARE(button->text(), QStringLiteral("2 new events — click to show"));
    QCOMPARE(table()->model()->rowCount(), 5);
    QCOMPARE(table()->selectionModel()->currentIndex().row(), 3);
    QTest::mouseClick(button, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(table()->model()->rowCount(), 7, kWait);
    QVERIFY(!button->isVisible());
    const QModelIndex current = table()->selectionModel()->currentIndex();
    QCOMPARE(current.row(), 5);
    QCOMPARE(current.data(EventTableModel::EventIdRole).toLongLong(), selected);
}

void TstConsoleGui::notesGoThroughTheAdminApi()
{
    QVERIFY(m_console && m_console->session());
    m_api.route("POST", QByteArray("/admin/v1/events/") + QByteArray::number(m_s.failed) + "/notes",
                [](const FakeAdminApi::Request &) { return FakeAdminApi::Response{201, "{}"}; });
    search(QStringLiteral("evt_failed_1"));
    QTRY_VERIFY_WITH_TIMEOUT(table()->model()->rowCount() == 1
                                 && table()->model()->index(0, 0).data(EventTableModel::LoadedRole).toBool(),
                             kWait);
    QVERIFY(selectRow(0));
    QWidget *w = m_console->window();
    auto *notes = find<QPlainTextEdit>(w, "notesText");
    QTRY_VERIFY_WITH_TIMEOUT(notes->toPlainText().contains(QStringLiteral("Billing endpoint retired")), kWait);
    // Webhook and user text is shown as typed, never as markup.
    QVERIFY(notes->toPlainText().contains(QStringLiteral("<b>not</b> HTML")));
    QCOMPARE(find<QTreeWidget>(w, "auditTree")->topLevelItemCount(), 1);
    auto *edit = find<QLineEdit>(w, "noteEdit");
    QVERIFY(!edit->isHidden());
    QTest::keyClicks(edit, QStringLiteral("called the billing team"));
    QTest::keyClick(edit, Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(!m_api.requests().isEmpty() && m_api.requests().last().method == "POST", kWait);
    QVERIFY(m_api.requests().last().body.contains("called the billing team"));
    QTRY_VERIFY_WITH_TIMEOUT(edit->text().isEmpty(), kWait);
}

void TstConsoleGui::replayNeedsPreviewReasonAndTypedConfirmation()
{
    QVERIFY(m_console && m_console->session());
    QByteArray previewBody;
    m_api.route("POST", "/admin/v1/replays/preview", [&previewBody](const FakeAdminApi::Request &r) {
        previewBody = r.body;
        const QJsonObject preview{
            {QStringLiteral("selection_hash"), QString(64, u'a')},
            {QStringLiteral("count"), 1},
            {QStringLiteral("already_succeeded"), 0},
            {QStringLiteral("outcome_unknown"), 0},
            {QStringLiteral("requires_approval"), true},
            {QStringLiteral("destinations"),
             QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("billing")},
                                    {QStringLiteral("risk"), QStringLiteral("high")},
                                    {QStringLiteral("count"), 1}}}},
            {QStringLiteral("effect"), QStringLiteral("Sends 1 delivery to <b>billing</b> again.")}};
        return FakeAdminApi::Response{200, QJsonDocument(preview).toJson(QJsonDocument::Compact)};
    });
    QByteArray requestBody;
    m_api.route("POST", "/admin/v1/replays", [&requestBody](const FakeAdminApi::Request &r) {
        requestBody = r.body;
        return FakeAdminApi::Response{201, R"({"id":7,"status":"pending_approval"})"};
    });
    search(QStringLiteral("evt_failed_1"));
    QTRY_VERIFY_WITH_TIMEOUT(table()->model()->rowCount() == 1
                                 && table()->model()->index(0, 0).data(EventTableModel::LoadedRole).toBool(),
                             kWait);
    QVERIFY(selectRow(0));
    MainWindow *w = m_console->window();
    auto *replaySelected = find<QPushButton>(w, "replaySelectedButton");
    QVERIFY(replaySelected->isVisible());
    QTRY_VERIFY(replaySelected->isEnabled());
    QTest::mouseClick(replaySelected, Qt::LeftButton);
    ReplayDialog *dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((dialog = w->findChild<ReplayDialog *>(QStringLiteral("replayDialog"))) != nullptr, kWait);
    auto *summary = find<QLabel>(dialog, "replaySummary");
    QTRY_VERIFY_WITH_TIMEOUT(summary->text().contains(QStringLiteral("billing")), kWait);
    // The preview named exactly the selected event's delivery.
    const QJsonArray ids = QJsonDocument::fromJson(previewBody).object().value(QLatin1String("delivery_ids")).toArray();
    QCOMPARE(ids.size(), 1);
    // Webhook or server text is never markup.
    QCOMPARE(summary->textFormat(), Qt::PlainText);
    QVERIFY(summary->text().contains(QStringLiteral("<b>billing</b>")));
    auto *submit = find<QPushButton>(dialog, "replaySubmit");
    auto *cancel = find<QPushButton>(dialog, "replayCancel");
    QVERIFY(cancel->isDefault());
    QCOMPARE(submit->text(), QStringLiteral("Request approval to replay 1 delivery"));
    QVERIFY(!submit->isEnabled());
    QTest::keyClicks(find<QPlainTextEdit>(dialog, "replayReason"), QStringLiteral("billing endpoint restored"));
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
    QTRY_VERIFY_WITH_TIMEOUT(!requestBody.isEmpty(), kWait);
    const QJsonObject sent = QJsonDocument::fromJson(requestBody).object();
    QCOMPARE(sent.value(QLatin1String("selection_hash")).toString(), QString(64, u'a'));
    QCOMPARE(sent.value(QLatin1String("reason")).toString(), QStringLiteral("billing endpoint restored"));
    QCOMPARE(sent.value(QLatin1String("ticket")).toString(), QStringLiteral("INC-42"));
    QTRY_VERIFY_WITH_TIMEOUT(w->statusBar()->currentMessage().contains(QStringLiteral("Replay #7")), kWait);
}

void TstConsoleGui::operatorApprovesSomeoneElsesRequest()
{
    m_console.reset();
    m_api.setIdentity(QStringLiteral("olga"), QStringLiteral("operator"));
    m_api.route("GET", "/admin/v1/replays", [](const FakeAdminApi::Request &r) {
        if (!r.query.contains("status=pending_approval"))
            return FakeAdminApi::Response{400, R"({"error":"bad_request","field":"status"})"};
        return FakeAdminApi::Response{
            200, R"({"items":[{"id":7,"status":"pending_approval","requested_by":"alice","reason":"billing restored","count":1,"created_at":"2026-11-30T06:00:00Z"},)"
                 R"({"id":8,"status":"pending_approval","requested_by":"olga","reason":"mine","count":3,"created_at":"2026-11-30T06:01:00Z"}],"next_cursor":null})"};
    });
    QByteArray decision;
    m_api.route("POST", "/admin/v1/replays/7/approve", [&decision](const FakeAdminApi::Request &r) {
        decision = r.body;
        return FakeAdminApi::Response{200, R"({"id":7,"status":"approved"})"};
    });
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_clock);
    m_console->window()->show();
    QString problem;
    QVERIFY2(connectWith(*m_console, QStringLiteral("ops"), m_t->url().sqlitePath, QStringLiteral("tok-123"), &problem),
             qPrintable(problem));
    MainWindow *w = m_console->window();
    QVERIFY(w->isPageAvailable(MainWindow::ApprovalsPage));
    QApplication::setActiveWindow(w);
    QVERIFY(QTest::qWaitForWindowActive(w));
    QTest::keyClick(w, Qt::Key_5, Qt::ControlModifier);
    QCOMPARE(w->currentPage(), MainWindow::ApprovalsPage);
    auto *inbox = find<QTableView>(w, "approvalTable");
    QTRY_COMPARE_WITH_TIMEOUT(inbox->model()->rowCount(), 2, kWait);
    auto *approve = find<QPushButton>(w, "approveButton");
    inbox->selectRow(1); // olga's own request
    QVERIFY(inbox->model()->index(1, 0).data(ApprovalModel::OwnRequestRole).toBool());
    QVERIFY(!approve->isEnabled());
    inbox->selectRow(0);
    QVERIFY(approve->isEnabled());
    Prompter::clearAskedQuestions();
    Prompter::setNextAnswers({{true, QStringLiteral("checked the selection")}});
    QTest::mouseClick(approve, Qt::LeftButton);
    QCOMPARE(Prompter::askedQuestions().size(), 1);
    QCOMPARE(Prompter::askedQuestions().first().confirmLabel, QStringLiteral("Approve replay #7"));
    QVERIFY(Prompter::askedQuestions().first().askReason);
    QTRY_VERIFY_WITH_TIMEOUT(!decision.isEmpty(), kWait);
    QCOMPARE(QJsonDocument::fromJson(decision).object().value(QLatin1String("reason")).toString(),
             QStringLiteral("checked the selection"));
    // A cancelled prompt sends nothing.
    decision.clear();
    Prompter::setNextAnswers({{false, QString()}});
    QTRY_COMPARE_WITH_TIMEOUT(inbox->model()->rowCount(), 2, kWait);
    inbox->selectRow(0);
    QTest::mouseClick(approve, Qt::LeftButton);
    QTest::qWait(50);
    QVERIFY(decision.isEmpty());
}

void TstConsoleGui::consoleVerifiesTheAuditChainItself()
{
    QVERIFY(m_console && m_console->session()); // the operator from the previous test
    MainWindow *w = m_console->window();
    QVERIFY(w->isPageAvailable(MainWindow::AuditPage));
    w->showPage(MainWindow::AuditPage);
    auto *entries = find<QTableView>(w, "auditTable");
    QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), 1, kWait);
    AuditController *audit = m_console->audit();
    QSignalSpy verified(audit, &AuditController::verified);
    QTest::mouseClick(find<QPushButton>(w, "verifyButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(verified.size(), 1, kWait);
    // The fixture's entry carries made-up hashes: the console must notice by itself.
    QCOMPARE(verified.first().at(0).toBool(), false);
    QCOMPARE(verified.first().at(2).toLongLong(), qint64(1));
    QVERIFY(find<QLabel>(w, "auditStatus")->text().contains(QStringLiteral("BROKEN at entry 1")));
    const QString csv = m_dir->filePath(QStringLiteral("audit.csv"));
    QSignalSpy exported(audit, &AuditController::exported);
    audit->exportCsv(csv);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 1, kWait);
    QVERIFY(exported.first().at(0).toBool());
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().split('\n');
    QVERIFY(lines.first().startsWith("seq,at_utc,actor,role,action,target"));
    QVERIFY(lines.value(1).startsWith("1,"));
    QVERIFY(lines.value(1).contains("note.add"));
}

void TstConsoleGui::auditorIsNotOfferedNotes()
{
    m_console.reset();
    m_api.setIdentity(QStringLiteral("audrey"), QStringLiteral("auditor"));
    ConsoleController console(*m_settings, m_secrets, m_clock);
    console.window()->show();
    QString problem;
    QVERIFY2(connectWith(console, QStringLiteral("audit"), m_t->url().sqlitePath, QStringLiteral("tok-123"), &problem),
             qPrintable(problem));
    QCOMPARE(find<QLabel>(console.window(), "identityLabel")->text(), QStringLiteral("audrey · auditor"));
    QVERIFY(find<QLineEdit>(console.window(), "noteEdit")->isHidden());
    QVERIFY(find<QPushButton>(console.window(), "addNoteButton")->isHidden());
    m_api.setIdentity(QStringLiteral("alice"), QStringLiteral("support"));
}

void TstConsoleGui::failuresAreExplained_data()
{
    QTest::addColumn<QString>("setup");
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("expected");
    QTest::newRow("wrong token") << "ok" << "nope" << "rejected the token";
    QTest::newRow("missing file") << "missing" << "tok-123" << "There is no database file";
    QTest::newRow("not a database") << "garbage" << "tok-123" << "is not a SQLite database";
    QTest::newRow("never migrated") << "empty" << "tok-123" << "is not a Redrive database, or it was never migrated";
    QTest::newRow("schema too new") << "newer" << "tok-123" << "newer than this console understands";
    QTest::newRow("admin api down") << "down" << "tok-123" << "Nothing is listening";
}

void TstConsoleGui::failuresAreExplained()
{
    QFETCH(QString, setup);
    QFETCH(QString, token);
    QFETCH(QString, expected);
    QString path = m_t->url().sqlitePath;
    const QString scratch = m_dir->filePath(setup + QLatin1String(".db"));
    if (setup == u"missing") {
        path = scratch;
    } else if (setup == u"garbage") {
        QFile f(scratch);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(4096, 'x'));
        path = scratch;
    } else if (setup == u"empty" || setup == u"newer") {
        StorageUrl url;
        url.sqlitePath = scratch;
        QString error;
        auto db = Db::open(url, QStringLiteral("scratch"), {}, &error);
        QVERIFY2(db, qPrintable(error));
        QVERIFY(db->exec(QStringLiteral("CREATE TABLE IF NOT EXISTS unrelated (x INTEGER)"), &error));
        if (setup != u"empty") {
            QVERIFY(db->exec(QStringLiteral("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, description TEXT, "
                                            "applied_at BIGINT)"),
                             &error));
            QVERIFY(db->exec(QStringLiteral("INSERT INTO schema_version VALUES (99, 'x', 0)"), &error));
        }
        path = scratch;
    }
    ConsoleController console(*m_settings, m_secrets, m_clock);
    console.window()->show();
    QUrl apiUrl = m_api.url();
    if (setup == u"down") {
        // A port that was free a moment ago: nothing listens there now.
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        apiUrl = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(probe.serverPort()));
    }
    console.showConnectionDialog();
    ConnectionDialog *dialog = console.connectionDialog();
    QVERIFY(dialog);
    QTest::mouseClick(find<QPushButton>(dialog, "newProfileButton"), Qt::LeftButton);
    QTest::keyClicks(find<QLineEdit>(dialog, "nameEdit"), QStringLiteral("broken-") + setup);
    QTest::keyClicks(find<QLineEdit>(dialog, "sqlitePathEdit"), path);
    QTest::keyClicks(find<QLineEdit>(dialog, "adminUrlEdit"), apiUrl.toString());
    QTest::keyClicks(find<QLineEdit>(dialog, "tokenEdit"), token);
    QTest::mouseClick(find<QPushButton>(dialog, "connectButton"), Qt::LeftButton);
    auto *problem = find<QLabel>(dialog, "problemLabel");
    QTRY_VERIFY_WITH_TIMEOUT(problem->isVisible(), kWait);
    QVERIFY2(problem->text().contains(expected), qPrintable(problem->text()));
    QVERIFY(!console.session());
    QVERIFY(!problem->text().contains(QStringLiteral("tok-123")));
    if (setup == u"empty")
        QVERIFY(problem->text().contains(QStringLiteral("redrived --config FILE migrate")));
    // A wrong token is never remembered.
    if (setup == u"ok")
        QVERIFY(!m_secrets.contains(SecretStore::keyFor(QStringLiteral("broken-ok"), QStringLiteral("api-token"))));
}

QTEST_MAIN(TstConsoleGui)
#include "tst_consolegui.moc"
