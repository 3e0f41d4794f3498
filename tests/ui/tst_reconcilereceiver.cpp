// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "consoleguitest.h"
#include "events/eventtablemodel.h"
#include "providerstandins.h"
#include "realreceiver.h"
#include "reconcile/reconcilecontroller.h"
#include "reconcile/reconcilerunmodel.h"

#include <QApplication>
#include <QDateTime>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

// Reconciliation between both real programs: redrived reconciles a Stripe source against the
// loopback stand-in of Stripe's events API (tests/reconcile) on its schedule; the console's
// Reconciliation page shows that run; an operator's Run now goes through the real admin API
// (POST sources/stripe/reconcile), the page follows the new run until it has recovered the event
// Stripe listed since, and the Events page marks the recovered events.
class TstReconcileReceiver : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void runNowRecoversWhatStripeListedAndThePageFollowsIt();

private:
    static inline const QByteArray kKey = "sk_test_console_reconcile";
    RealReceiver m_receiver;
    StripeStandIn m_stripe { kKey };
    SystemClock m_systemClock;
};

void TstReconcileReceiver::initTestCase()
{
    QString error;
    QVERIFY2(m_stripe.start(&error), qPrintable(error));
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    // Two events whose webhooks never came: the scheduled run at start recovers them.
    m_stripe.addEvent(
        QStringLiteral("evt_console_lost_1"), QStringLiteral("payment_intent.succeeded"), now - 120);
    m_stripe.addEvent(QStringLiteral("evt_console_lost_2"), QStringLiteral("invoice.paid"), now - 60);
    m_receiver.setExtraConfig("[[sources]]\nname = \"stripe\"\nscheme = \"stripe\"\n"
                              "secrets = [\"whsec_console_reconcile\"]\n"
                              "[sources.reconcile]\nprovider = \"stripe\"\napi_url = \""
        + m_stripe.url().toUtf8() + "\"\ncredential = \"" + kKey
        + "\"\nevery = \"1h\"\nlookback = \"1h\"\n\n"
          "[[routes]]\nsource = \"stripe\"\ndestinations = [\"crm\"]\n");
    QVERIFY2(m_receiver.start(&error), qPrintable(error));
    setUpSettings();
}

void TstReconcileReceiver::cleanupTestCase()
{
    m_console.reset();
    m_receiver.stop();
}

void TstReconcileReceiver::cleanup()
{
    if (QTest::currentTestFailed())
        qWarning("redrived log:\n%s", m_receiver.log().right(4000).constData());
}

void TstReconcileReceiver::runNowRecoversWhatStripeListedAndThePageFollowsIt()
{
    // The scheduled run at start: both events recovered, each delivered to crm.
    QVERIFY(
        m_receiver.waitForValue(QStringLiteral("SELECT count(*) FROM reconcile_runs WHERE source = 'stripe' "
                                               "AND status = 'ok' AND recovered = 2"),
            {}, 1, 30'000));
    QVERIFY(m_receiver.waitForValue(
        QStringLiteral("SELECT count(*) FROM events WHERE source = 'stripe' AND origin = 'reconciled'"), {},
        2));

    QVERIFY(signInTo(QStringLiteral("ana-operator"), m_receiver.databasePath(),
        m_receiver.token(QStringLiteral("ana-operator")), m_receiver.adminUrl(), m_systemClock));
    MainWindow *w = m_console->window();
    m_console->reconcile()->setFollowInterval(200);
    QApplication::setActiveWindow(w);
    QVERIFY(QTest::qWaitForWindowActive(w));
    QTest::keyClick(w, Qt::Key_9, Qt::ControlModifier);
    QCOMPARE(w->currentPage(), MainWindow::ReconciliationPage);
    auto *sources = find<QTableView>(w, "reconcileSourceTable");
    QTRY_COMPARE_WITH_TIMEOUT(sources->model()->rowCount(), 1, kGuiWait);
    auto cell = [sources](int column) { return sources->model()->index(0, column).data().toString(); };
    QCOMPARE(cell(ReconcileRunModel::SourceColumn), QStringLiteral("stripe"));
    QCOMPARE(cell(ReconcileRunModel::StatusColumn), QStringLiteral("OK"));
    QCOMPARE(cell(ReconcileRunModel::OutcomeColumn), QStringLiteral("2 missing, all recovered"));
    const qint64 scheduledRun = sources->model()->index(0, 0).data(ReconcileRunModel::RunIdRole).toLongLong();

    // Stripe lists one more event it never sent; the operator reconciles now.
    m_stripe.addEvent(QStringLiteral("evt_console_lost_3"), QStringLiteral("payment_intent.succeeded"),
        QDateTime::currentSecsSinceEpoch() - 5);
    auto *runNow = find<QPushButton>(w, "runNowButton");
    QTRY_VERIFY_WITH_TIMEOUT(runNow->isEnabled(), kGuiWait);
    QCOMPARE(runNow->accessibleName(), QStringLiteral("Run reconciliation of stripe now"));
    QTest::keyClick(w, Qt::Key_N, Qt::AltModifier);
    auto *result = find<QLabel>(w, "reconcileResult");
    QTRY_VERIFY_WITH_TIMEOUT(result->isVisible(), kGuiWait);
    QVERIFY2(result->text().startsWith(QStringLiteral("Reconciliation of stripe started (run #")),
        qPrintable(result->text()));
    // The receiver audited who asked, and the page follows the new run to its end.
    QVERIFY(m_receiver.waitForValue(
        QStringLiteral("SELECT requested_by FROM reconcile_runs WHERE id > ? ORDER BY id DESC LIMIT 1"),
        { scheduledRun }, QStringLiteral("ana-operator")));
    QTRY_VERIFY_WITH_TIMEOUT(
        sources->model()->index(0, 0).data(ReconcileRunModel::RunIdRole).toLongLong() > scheduledRun
            && cell(ReconcileRunModel::StatusColumn) == u"OK",
        kGuiWait);
    QCOMPARE(cell(ReconcileRunModel::CheckedColumn), QStringLiteral("3"));
    QCOMPARE(cell(ReconcileRunModel::OutcomeColumn), QStringLiteral("1 missing, all recovered"));
    auto *runs = find<QTableView>(w, "reconcileRunTable");
    QTRY_COMPARE_WITH_TIMEOUT(runs->model()->rowCount(), 2, kGuiWait);
    QVERIFY(runs->model()
                ->index(0, ReconcileRunModel::StartedColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("asked for by ana-operator")));

    // The Events page marks what reconciliation recovered.
    w->showPage(MainWindow::EventsPage);
    search(QStringLiteral("evt_console_lost_3"));
    QTRY_VERIFY_WITH_TIMEOUT(table()->model()->rowCount() == 1
            && table()->model()->index(0, 0).data(EventTableModel::LoadedRole).toBool(),
        kGuiWait);
    QCOMPARE(table()->model()->index(0, EventTableModel::SourceColumn).data().toString(),
        QStringLiteral("stripe · reconciled"));
    QVERIFY(selectRow(0));
    QTRY_VERIFY_WITH_TIMEOUT(find<QLabel>(w, "fieldOrigin"), kGuiWait);
    QTRY_COMPARE_WITH_TIMEOUT(
        find<QLabel>(w, "fieldOrigin")->text(), QStringLiteral("recovered by reconciliation"), kGuiWait);
}

QTEST_MAIN(TstReconcileReceiver)
#include "tst_reconcilereceiver.moc"
