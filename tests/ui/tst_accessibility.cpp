// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "accessibletree.h"
#include "connection/connectiondialog.h"
#include "consoleguitest.h"
#include "events/eventtablemodel.h"
#include "realreceiver.h"
#include "replay/replaycontroller.h"
#include "replay/replaydialog.h"
#include "scriptabledestination.h"

#include <QAccessible>
#include <QApplication>
#include <QTableView>
#include <QTest>

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

private:
    bool signIn(const QString &person);
    void expectNamed(QWidget *root, const QString &where);

    RealReceiver m_receiver;
    SystemClock m_systemClock;
    qint64 m_event = 0;
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
}

void TstAccessibility::cleanupTestCase()
{
    m_console.reset();
    m_receiver.stop();
}

bool TstAccessibility::signIn(const QString &person)
{
    m_console.reset();
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_systemClock);
    m_console->window()->show();
    if (!QTest::qWaitForWindowExposed(m_console->window()))
        return false;
    QString problem;
    const bool ok = connectWith(*m_console, person, m_receiver.databasePath(), m_receiver.token(person),
        &problem, m_receiver.adminUrl());
    if (!ok)
        qWarning("%s could not connect: %s", qPrintable(person), qPrintable(problem));
    return ok;
}

void TstAccessibility::expectNamed(QWidget *root, const QString &where)
{
    QVERIFY2(interactiveControlCount(root) > 0, qPrintable(where + QStringLiteral(": nothing to walk")));
    const QStringList unnamed = unnamedControls(root);
    QVERIFY2(unnamed.isEmpty(),
        qPrintable(where + QStringLiteral(": controls without an accessible name:\n  ")
            + unnamed.join(QStringLiteral("\n  "))));
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
    m_console->replay()->replayDeliveries({ m_receiver.deliveryId(m_event, QStringLiteral("crm")),
        m_receiver.deliveryId(m_event, QStringLiteral("fulfillment")) });
    ReplayDialog *dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((dialog = m_console->replay()->dialog()) != nullptr, kGuiWait);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    // Wait for the receiver's preview so the dialog shows everything it can (high risk: the
    // typed confirmation too).
    QTRY_VERIFY_WITH_TIMEOUT(find<QWidget>(dialog, "replayConfirm")->isVisible(), kGuiWait);
    expectNamed(dialog, QStringLiteral("replay dialog"));
    dialog->close();
}

QTEST_MAIN(TstAccessibility)
#include "tst_accessibility.moc"
