// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "accessibletree.h"
#include "approvals/approvalscontroller.h"
#include "common/environmentbanner.h"
#include "common/prompter.h"
#include "connection/connectiondialog.h"
#include "consoleguitest.h"
#include "events/eventtablemodel.h"
#include "main/shortcutsdialog.h"
#include "newreplay/newreplaycontroller.h"
#include "newreplay/replaydialog.h"
#include "realreceiver.h"
#include "scriptabledestination.h"

#include <QAbstractItemModelTester>
#include <QAbstractItemView>
#include <QAccessible>
#include <QApplication>
#include <QDialog>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScopeGuard>
#include <QScreen>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

#include <memory>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

// What a screen reader hears: every page of the console for every role, and every dialog that
// acts, walked through the accessible tree (the same tree AT-SPI exports). An interactive
// control without an accessible name fails the test with its place named.
class TstAccessibility : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void everyPageNamesItsControls_data();
    void everyPageNamesItsControls();
    void connectionDialogNamesItsControls();
    void replayDialogNamesItsControls();
    void approveAndRejectPromptsNameTheirControls();
    void pauseAndResumePromptsNameTheirControls();
    void statusLabelsAnnounceWhatTheyShow();
    void windowLayoutIsKeptPerProfile();
    void shortcutsDialogListsEveryShortcut();

private:
    bool signIn(const QString &person);
    void expectNamed(QWidget *root, const QString &where);
    // Builds the dialog the Prompter would show for `question` and walks it: names, keyboard
    // path, and the environment banner of the profile `person` is signed in with.
    void expectPrompt(const Prompter::Question &question, const QString &person, const QString &where);

    RealReceiver m_receiver;
    SystemClock m_systemClock;
    qint64 m_event = 0;
    qint64 m_deadFulfillment = 0; // a high-risk dead delivery: replaying it needs an approval
};

void TstAccessibility::initTestCase()
{
    QAccessible::setActive(true);
    QString error;
    QVERIFY2(m_receiver.start(&error), qPrintable(error));
    setUpSettings();
    m_receiver.crm().enqueue(410);
    m_event = m_receiver.ingestAndSettle("a11y-1", &error);
    QVERIFY2(m_event, qPrintable(error));
    QVERIFY(m_receiver.ingestAndSettle("a11y-2", &error));
    m_receiver.fulfillment().enqueue(410);
    const qint64 third = m_receiver.ingestAndSettle("a11y-3", &error);
    QVERIFY2(third, qPrintable(error));
    m_deadFulfillment = m_receiver.deliveryId(third, QStringLiteral("fulfillment"));
    QVERIFY(m_deadFulfillment > 0);
}

void TstAccessibility::cleanupTestCase()
{
    Prompter::setNextAnswers({});
    ReplayDialog::setNextAnswers({});
    m_console.reset();
    m_receiver.stop();
}

bool TstAccessibility::signIn(const QString &person)
{
    return signInTo(
        person, m_receiver.databasePath(), m_receiver.token(person), m_receiver.adminUrl(), m_systemClock);
}

void TstAccessibility::expectNamed(QWidget *root, const QString &where)
{
    QVERIFY2(interactiveControlCount(root) > 0, qPrintable(where + QStringLiteral(": nothing to walk")));
    const QStringList unnamed = unnamedControls(root);
    QVERIFY2(unnamed.isEmpty(),
        qPrintable(where + QStringLiteral(": controls without an accessible name:\n  ")
            + unnamed.join(QStringLiteral("\n  "))));
    const QStringList silent = silentLabels(root);
    QVERIFY2(silent.isEmpty(),
        qPrintable(where + QStringLiteral(": labels whose text a screen reader does not hear:\n  ")
            + silent.join(QStringLiteral("\n  "))));
    const QStringList unreachable = keyboardUnreachableControls(root);
    QVERIFY2(unreachable.isEmpty(),
        qPrintable(where + QStringLiteral(": controls the keyboard cannot reach:\n  ")
            + unreachable.join(QStringLiteral("\n  "))));
}

void TstAccessibility::expectPrompt(
    const Prompter::Question &question, const QString &person, const QString &where)
{
    std::unique_ptr<QDialog> dialog(Prompter::createDialog(m_console->window(), question));
    dialog->show();
    QVERIFY(QTest::qWaitForWindowExposed(dialog.get()));
    expectNamed(dialog.get(), where);
    // Nobody approves or pauses in production thinking it is staging.
    auto *banner = find<EnvironmentBanner>(dialog.get(), "promptEnvironment");
    QVERIFY2(banner && banner->isVisible(), qPrintable(where + QStringLiteral(": no environment banner")));
    QCOMPARE(banner->text(), QStringLiteral("PRODUCTION — %1").arg(person));
    if (question.askReason) {
        auto *reason = find<QWidget>(dialog.get(), "promptReason");
        QCOMPARE(reason->accessibleName(), QStringLiteral("Reason"));
        QCOMPARE(QApplication::focusWidget(), reason); // typing goes into the reason
    }
}

void TstAccessibility::everyPageNamesItsControls_data()
{
    QTest::addColumn<QString>("person");
    QTest::newRow("support") << QStringLiteral("sam-support");
    QTest::newRow("operator") << QStringLiteral("ana-operator");
    QTest::newRow("auditor") << QStringLiteral("aude-auditor");
    QTest::newRow("admin") << QStringLiteral("root-admin");
}

void TstAccessibility::everyPageNamesItsControls()
{
    QFETCH(QString, person);
    QVERIFY(signIn(person));
    MainWindow *w = m_console->window();
    // Every model behind a view, as the console fills it from the real receiver, under the
    // model tester while the pages are shown and refreshed.
    std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
    for (QAbstractItemView *view : w->findChildren<QAbstractItemView *>()) {
        if (view->model() && !qobject_cast<QAbstractItemView *>(view->parentWidget()))
            testers.push_back(std::make_unique<QAbstractItemModelTester>(
                view->model(), QAbstractItemModelTester::FailureReportingMode::QtTest));
    }
    QVERIFY(testers.size() >= 6);
    auto *events = find<QTableView>(w, "eventsTable");
    // An event is selected so the detail pane shows its deliveries, attempts and actions.
    QTRY_VERIFY_WITH_TIMEOUT(events->model()->rowCount() >= 2
            && events->model()->index(0, 0).data(EventTableModel::LoadedRole).toBool(),
        kGuiWait);
    events->selectRow(0);
    int walked = 0;
    for (int p = 0; p < MainWindow::PageCount; ++p) {
        const auto page = MainWindow::Page(p);
        if (!w->isPageAvailable(page))
            continue;
        w->showPage(page);
        QCOMPARE(w->currentPage(), page);
        QApplication::processEvents();
        expectNamed(w, QStringLiteral("%1, page %2").arg(person).arg(p));
        QStringList hidden = controlsOutOfSight(w);
        if (page == MainWindow::EventsPage) {
            // Support's first question, why it failed, is answered without scrolling sideways.
            const QHeaderView *header = events->horizontalHeader();
            for (int column : { int(EventTableModel::StatusColumn), int(EventTableModel::DownstreamColumn),
                     int(EventTableModel::LastFailureColumn) }) {
                const int right = header->sectionViewportPosition(column) + header->sectionSize(column);
                if (header->sectionViewportPosition(column) < 0 || right > events->viewport()->width())
                    hidden.append(QStringLiteral("the events list's column \"%1\" ends at %2 of %3 px")
                                      .arg(events->model()->headerData(column, Qt::Horizontal).toString())
                                      .arg(right)
                                      .arg(events->viewport()->width()));
            }
        }
        QVERIFY2(hidden.isEmpty(),
            qPrintable(QStringLiteral("%1, page %2 at %3x%4: out of sight:\n  ")
                           .arg(person)
                           .arg(p)
                           .arg(w->screen()->availableGeometry().width())
                           .arg(w->screen()->availableGeometry().height())
                + hidden.join(QStringLiteral("\n  "))));
        ++walked;
    }
    QVERIFY(walked >= 4);
}

void TstAccessibility::connectionDialogNamesItsControls()
{
    QVERIFY(signIn(QStringLiteral("sam-support")));
    m_console->showConnectionDialog();
    ConnectionDialog *dialog = m_console->connectionDialog();
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    expectNamed(dialog, QStringLiteral("connection dialog"));
    dialog->close();
}

void TstAccessibility::replayDialogNamesItsControls()
{
    QVERIFY(signIn(QStringLiteral("ana-operator")));
    m_console->newReplay()->replayDeliveries({ m_receiver.deliveryId(m_event, QStringLiteral("crm")),
        m_receiver.deliveryId(m_event, QStringLiteral("fulfillment")) });
    ReplayDialog *dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((dialog = m_console->newReplay()->dialog()) != nullptr, kGuiWait);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    // Wait for the receiver's preview so the dialog shows everything it can (high risk: the
    // typed confirmation too).
    QTRY_VERIFY_WITH_TIMEOUT(find<QWidget>(dialog, "replayConfirm")->isVisible(), kGuiWait);
    expectNamed(dialog, QStringLiteral("replay dialog"));
    auto *banner = find<EnvironmentBanner>(dialog, "replayEnvironment");
    QVERIFY(banner->isVisible());
    QCOMPARE(banner->text(), QStringLiteral("PRODUCTION — ana-operator"));
    dialog->close();
}

void TstAccessibility::approveAndRejectPromptsNameTheirControls()
{
    // Support asks for a high-risk replay; an operator opens the approve and reject prompts.
    QVERIFY(signIn(QStringLiteral("sam-support")));
    ReplayDialog::setNextAnswers({ { true, QStringLiteral("walk the prompts"), QString(), false } });
    m_console->newReplay()->replayDeliveries({ m_deadFulfillment });
    QVERIFY(m_receiver.waitForValue(
        QStringLiteral("SELECT count(*) FROM replays WHERE status = 'pending_approval'"), {}, 1));

    const QString person = QStringLiteral("ana-operator");
    QVERIFY(signIn(person));
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::ApprovalsPage);
    auto *inbox = find<QTableView>(w, "approvalTable");
    QTRY_COMPARE_WITH_TIMEOUT(inbox->model()->rowCount(), 1, kGuiWait);
    inbox->selectRow(0);
    expectNamed(w, QStringLiteral("approvals page with a request"));
    auto *approve = find<QPushButton>(w, "approveButton");
    auto *reject = find<QPushButton>(w, "rejectButton");
    QTRY_VERIFY_WITH_TIMEOUT(approve->isEnabled() && reject->isEnabled(), kGuiWait);
    Prompter::clearAskedQuestions();
    Prompter::setNextAnswers({ { false, QString() }, { false, QString() } });
    approve->click();
    reject->click();
    const QList<Prompter::Question> asked = Prompter::askedQuestions();
    QCOMPARE(asked.size(), 2);
    QVERIFY(asked.at(0).confirmLabel.startsWith(QStringLiteral("Approve")));
    QVERIFY(asked.at(1).confirmLabel.startsWith(QStringLiteral("Reject")));
    expectPrompt(asked.at(0), person, QStringLiteral("approve prompt"));
    expectPrompt(asked.at(1), person, QStringLiteral("reject prompt"));
}

void TstAccessibility::pauseAndResumePromptsNameTheirControls()
{
    const QString person = QStringLiteral("root-admin");
    QVERIFY(signIn(person));
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::DestinationsPage);
    auto *table = find<QTableView>(w, "destinationTable");
    QTRY_VERIFY_WITH_TIMEOUT(table->model()->rowCount() >= 2, kGuiWait);
    table->selectRow(0);
    auto *pause = find<QPushButton>(w, "pauseButton");
    auto *resume = find<QPushButton>(w, "resumeButton");
    QTRY_VERIFY_WITH_TIMEOUT(pause->isEnabled(), kGuiWait);
    Prompter::clearAskedQuestions();
    // Pause for real (the resume prompt needs a paused destination), then ask to resume and
    // decline, then resume for real so the receiver is left as found.
    Prompter::setNextAnswers({ { true, QStringLiteral("walk the prompts") } });
    pause->click();
    QTRY_VERIFY_WITH_TIMEOUT(resume->isEnabled(), kGuiWait);
    Prompter::setNextAnswers({ { false, QString() }, { true, QStringLiteral("done walking") } });
    resume->click();
    resume->click();
    QTRY_VERIFY_WITH_TIMEOUT(pause->isEnabled(), kGuiWait);
    const QList<Prompter::Question> asked = Prompter::askedQuestions();
    QCOMPARE(asked.size(), 3);
    expectPrompt(asked.at(0), person, QStringLiteral("pause prompt"));
    expectPrompt(asked.at(1), person, QStringLiteral("resume prompt"));
}

namespace {
// Which objects assistive technology was told had a new name, while installed; every event
// still goes on to the AT-SPI bridge.
QList<QObject *> g_renamed;
QAccessible::UpdateHandler g_bridge = nullptr;
void recordRename(QAccessibleEvent *event)
{
    if (event->type() == QAccessible::NameChanged)
        g_renamed.append(event->object());
    if (g_bridge)
        g_bridge(event);
}
} // namespace

void TstAccessibility::statusLabelsAnnounceWhatTheyShow()
{
    // Under the offscreen platform Qt sends no accessibility events at all; the CTest entry
    // tst_accessibility.atspi runs this function on a real X server with the AT-SPI bus
    // (tests/ui/with-atspi.sh), where a screen reader would be told.
    const bool atspi = qEnvironmentVariableIntValue("REDRIVE_TEST_ATSPI") == 1;
    if (atspi) {
        QTRY_VERIFY_WITH_TIMEOUT(QAccessible::isActive(), kGuiWait);
        g_renamed.clear();
        g_bridge = QAccessible::installUpdateHandler(recordRename);
    }
    const auto restore = qScopeGuard([atspi] {
        if (atspi)
            QAccessible::installUpdateHandler(g_bridge);
    });
    // The auditor's chain status goes from "Checking the chain…" to the verdict once the console
    // has verified the receiver's chain itself: a screen reader hears the verdict, and what the
    // label is for after it.
    QVERIFY(signIn(QStringLiteral("aude-auditor")));
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::AuditPage);
    auto *chain = find<QLabel>(w, "auditStatus");
    QTRY_VERIFY_WITH_TIMEOUT(chain->text().startsWith(QStringLiteral("Chain intact")), kGuiWait);
    QAccessibleInterface *iface = QAccessible::queryAccessibleInterface(chain);
    QCOMPARE(spokenText(iface->text(QAccessible::Name)), spokenText(chain->text()));
    QCOMPARE(iface->text(QAccessible::Description), QStringLiteral("Audit chain status"));
    // The status bar's receiver health is heard as it reads, heartbeat and all.
    auto *receiver = find<QLabel>(w, "receiverStatus");
    QTRY_VERIFY_WITH_TIMEOUT(receiver->text().startsWith(QStringLiteral("Receiver ")), kGuiWait);
    QCOMPARE(spokenText(QAccessible::queryAccessibleInterface(receiver)->text(QAccessible::Name)),
        spokenText(receiver->text()));
    if (atspi) {
        QVERIFY2(g_renamed.contains(chain), "the chain verdict was not announced");
        QVERIFY2(g_renamed.contains(receiver), "the receiver status was not announced");
    }
}

void TstAccessibility::windowLayoutIsKeptPerProfile()
{
    // First: the window fits the screen, and its title names the environment once; the platform
    // adds the application's name.
    const QString person = QStringLiteral("sam-support");
    m_settings->remove(QStringLiteral("layout"));
    QVERIFY(signIn(person));
    MainWindow *w = m_console->window();
    const QRect screen = w->screen()->availableGeometry();
    QVERIFY(screen.contains(w->frameGeometry()));
    QCOMPARE(w->windowTitle(), QStringLiteral("PRODUCTION (%1)").arg(person));
    auto *split = find<QSplitter>(w, "eventsSplit");
    QCOMPARE(split->orientation(), Qt::Vertical); // no room beside the list on a laptop
    // The user makes it narrower and gives the list more room; the next sign-in keeps both.
    w->resize(1000, 600);
    QTRY_COMPARE_WITH_TIMEOUT(w->size(), QSize(1000, 600), kGuiWait);
    split->setSizes({ 400, 100 });
    const QList<int> sizes = split->sizes();
    QVERIFY(signIn(person));
    w = m_console->window();
    split = find<QSplitter>(w, "eventsSplit");
    QTRY_COMPARE_WITH_TIMEOUT(w->size(), QSize(1000, 600), kGuiWait);
    QCOMPARE(split->sizes(), sizes);
    // Another profile keeps its own (here: none yet, so the first geometry).
    QVERIFY(signIn(QStringLiteral("ana-operator")));
    QVERIFY(m_console->window()->size() != QSize(1000, 600));
    // A damaged value is ignored, not applied.
    m_settings->setValue(QStringLiteral("layout/%1/window").arg(person), QByteArray("not a layout"));
    QVERIFY(signIn(person));
    QVERIFY(m_console->window()->size() != QSize(1000, 600));
    QVERIFY(screen.contains(m_console->window()->frameGeometry()));
}

void TstAccessibility::shortcutsDialogListsEveryShortcut()
{
    QVERIFY(signIn(QStringLiteral("ana-operator")));
    MainWindow *w = m_console->window();
    QAction *help = w->findChild<QAction *>(QStringLiteral("shortcutsAction"));
    QVERIFY(help);
    QCOMPARE(help->shortcut(), QKeySequence(QKeySequence::HelpContents));
    help->trigger();
    auto *dialog = w->findChild<ShortcutsDialog *>(QStringLiteral("shortcutsDialog"));
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    expectNamed(dialog, QStringLiteral("keyboard shortcuts"));
    auto *table = find<QTableWidget>(dialog, "shortcutsTable");
    QStringList rows;
    for (int r = 0; r < table->rowCount(); ++r)
        rows.append(
            QStringLiteral("%1 | %2 | %3")
                .arg(table->item(r, 0)->text(), table->item(r, 1)->text(), table->item(r, 2)->text()));
    const QString all = rows.join(u'\n');
    // The pages, search and refresh from the menus; replay where the selection is.
    for (int page = 1; page <= 8; ++page)
        QVERIFY2(all.contains(QStringLiteral("Ctrl+%1 | ").arg(page)), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("Ctrl+F | Find event | View menu")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("F5 | Refresh | View menu")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("Ctrl+R | ")), qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("F1 | Keyboard shortcuts | Help menu")), qPrintable(all));
    QCOMPARE(table->rowCount(), ShortcutsDialog::collect(w).size());
    dialog->close();
}

QTEST_MAIN(TstAccessibility)
#include "tst_accessibility.moc"
