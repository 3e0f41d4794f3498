// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "connection/connectiondialog.h"
#include "consoleguitest.h"
#include "events/eventtablemodel.h"
#include "reconcile/reconcilecontroller.h"
#include "reconcile/reconcilerunmodel.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTest>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

// The Reconciliation page through the real widgets: what each source's runs show (from the
// database), who is offered Run now, and every way the admin API can refuse it or not answer.
// Sign-in and the refusals a real redrived gives are from real ones on loopback: the suite's, on
// the fixture's database (its "stripe" source has no [sources.reconcile]), and a bare one that
// knows no "stripe" at all and is stopped to be gone. The stand-in admin API only injects the
// answers no real receiver can be made to give here (see runNowRefusalsAreShownClearly_data); a
// run started for real is proven in tst_reconcilereceiver.
class TstReconcileGui : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void pageShowsEachSourcesLastRunAndItsRecentRuns();
    void supportSeesRunNowDisabledWithTheReason();
    void runNowRefusalsAreShownClearly_data();
    void runNowRefusalsAreShownClearly();
    void runNowWithTheReceiverGoneSaysSo();
    void eventsPageMarksAndFiltersReconciledEvents();
    void aConfiguredSourceIsListedBeforeItsFirstRun();

private:
    // Signs in as one of the suite receiver's people; `adminUrl`/`token`: another receiver.
    bool connectAs(const QString &person, const QUrl &adminUrl = {}, const QString &token = {});
    bool openPage();
    [[nodiscard]] QTableView *sources() const;

    qint64 m_stripeRun = 0;
    qint64 m_recovered = 0;
    // A second real redrived (its own database, only the "github" source): the real 404 for
    // stripe, then stopped after sign-in for the receiver that is gone.
    std::unique_ptr<RealReceiver> m_bare;
};

void TstReconcileGui::initTestCase()
{
    QVERIFY(setUpFixture());
    ConsoleFixture fx(*m_writer);
    const qint64 now = m_clock.nowMs();
    ConsoleFixture::RunSpec run;
    run.startedAt = now - 3'600'000;
    run.finishedAt = now - 3'598'000;
    run.checked = 40;
    fx.addReconcileRun(run);
    run.startedAt = now - 120'000;
    run.finishedAt = now - 118'000;
    run.checked = 42;
    run.missing = 2;
    run.recovered = 2;
    m_stripeRun = fx.addReconcileRun(run);
    ConsoleFixture::RunSpec gh;
    gh.source = QStringLiteral("github");
    gh.provider = QStringLiteral("github");
    gh.startedAt = now - 30'000;
    gh.finishedAt = now - 29'000;
    gh.status = QStringLiteral("failed");
    gh.error = QStringLiteral("GitHub answered 401 <b>Bad credentials</b>");
    fx.addReconcileRun(gh);
    ConsoleFixture::EventSpec e;
    e.source = QStringLiteral("stripe");
    e.type = QStringLiteral("payment_intent.succeeded");
    e.providerId = QStringLiteral("evt_lost_in_the_outage");
    e.verifiedBy = QStringLiteral(""); // listed by the provider's API, not signed
    e.origin = QStringLiteral("reconciled");
    e.receivedAt = now - 118'500;
    m_recovered = fx.addEvent(e);
    QVERIFY2(fx.lastError().isEmpty(), qPrintable(fx.lastError()));
    QVERIFY(setUpReceiver(
        "[[sources]]\nname = \"stripe\"\nscheme = \"stripe\"\nsecrets = [\"whsec_reconcilegui\"]\n"));
    m_bare = std::make_unique<RealReceiver>();
    QString error;
    QVERIFY2(m_bare->start(&error), qPrintable(error));
}

void TstReconcileGui::cleanupTestCase()
{
    m_console.reset();
    m_bare.reset();
}

bool TstReconcileGui::connectAs(const QString &person, const QUrl &adminUrl, const QString &token)
{
    m_console.reset();
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_clock);
    m_console->window()->show();
    if (!QTest::qWaitForWindowExposed(m_console->window()))
        return false;
    QString problem;
    const bool ok = connectWith(*m_console, person, m_t->url().sqlitePath,
        token.isEmpty() ? tokenOf(person) : token, &problem, adminUrl.isEmpty() ? receiverUrl() : adminUrl);
    if (!ok)
        qWarning("connect: %s", qPrintable(problem));
    return ok;
}

QTableView *TstReconcileGui::sources() const
{
    return find<QTableView>(m_console->window(), "reconcileSourceTable");
}

// Ctrl+9, as a person would, then wait for the page's first read.
bool TstReconcileGui::openPage()
{
    MainWindow *w = m_console->window();
    QApplication::setActiveWindow(w);
    if (!QTest::qWaitForWindowActive(w))
        return false;
    QSignalSpy refreshed(m_console->reconcile(), &ReconcileController::refreshed);
    QTest::keyClick(w, Qt::Key_9, Qt::ControlModifier);
    if (w->currentPage() != MainWindow::ReconciliationPage)
        return false;
    return (refreshed.wait(kGuiWait) || !refreshed.isEmpty()) && sources()->model()->rowCount() == 2;
}

void TstReconcileGui::pageShowsEachSourcesLastRunAndItsRecentRuns()
{
    QVERIFY(connectAs(QStringLiteral("ana-operator")));
    QVERIFY(openPage());
    MainWindow *w = m_console->window();
    QTableView *table = sources();
    QCOMPARE(table->accessibleName(), QStringLiteral("Reconciliation by source"));
    auto cell = [table](int row, int column) { return table->model()->index(row, column).data().toString(); };
    QCOMPARE(cell(0, ReconcileRunModel::SourceColumn), QStringLiteral("github"));
    QCOMPARE(cell(0, ReconcileRunModel::StatusColumn), QStringLiteral("Failed"));
    // The receiver's reason, as text: markup in it is not rendered.
    QCOMPARE(cell(0, ReconcileRunModel::OutcomeColumn),
        QStringLiteral("Failed: GitHub answered 401 <b>Bad credentials</b>"));
    QCOMPARE(cell(1, ReconcileRunModel::SourceColumn), QStringLiteral("stripe"));
    QCOMPARE(cell(1, ReconcileRunModel::StartedColumn), QStringLiteral("2 min ago"));
    QCOMPARE(cell(1, ReconcileRunModel::CheckedColumn), QStringLiteral("42"));
    QCOMPARE(cell(1, ReconcileRunModel::OutcomeColumn), QStringLiteral("2 missing, all recovered"));
    auto *summary = find<QLabel>(w, "reconcileSummary");
    QCOMPARE(summary->textFormat(), Qt::PlainText);
    QVERIFY2(summary->text().contains(QStringLiteral("2 sources reconcile"))
            && summary->text().contains(QStringLiteral("the last run of 1 failed")),
        qPrintable(summary->text()));

    // The first source is selected; its recent runs are listed under it. Selecting stripe from
    // the keyboard lists stripe's two runs, newest first.
    auto *runs = find<QTableView>(w, "reconcileRunTable");
    QCOMPARE(runs->accessibleName(), QStringLiteral("Recent reconciliation runs"));
    QTRY_COMPARE_WITH_TIMEOUT(
        find<QLabel>(w, "reconcileRunsHeading")->text(), QStringLiteral("Recent runs of github"), kGuiWait);
    QCOMPARE(runs->model()->rowCount(), 1);
    table->setFocus();
    QTest::keyClick(table, Qt::Key_Down);
    QTRY_COMPARE_WITH_TIMEOUT(
        find<QLabel>(w, "reconcileRunsHeading")->text(), QStringLiteral("Recent runs of stripe"), kGuiWait);
    QTRY_COMPARE_WITH_TIMEOUT(runs->model()->rowCount(), 2, kGuiWait);
    QCOMPARE(runs->model()->index(0, 0).data(ReconcileRunModel::RunIdRole).toLongLong(), m_stripeRun);
    QCOMPARE(runs->model()->index(1, ReconcileRunModel::OutcomeColumn).data().toString(),
        QStringLiteral("Nothing missed (40 checked)"));

    // An operator is offered Run now for the selected source, named for it.
    auto *runNow = find<QPushButton>(w, "runNowButton");
    QVERIFY(runNow->isVisible());
    QVERIFY(runNow->isEnabled());
    QCOMPARE(runNow->text(), QStringLiteral("Run stripe &now"));
    QCOMPARE(runNow->accessibleName(), QStringLiteral("Run reconciliation of stripe now"));
    QVERIFY(runNow->accessibleDescription().isEmpty());
}

void TstReconcileGui::supportSeesRunNowDisabledWithTheReason()
{
    QVERIFY(connectAs(QStringLiteral("sam-support")));
    QVERIFY(openPage());
    MainWindow *w = m_console->window();
    QVERIFY(w->isPageAvailable(MainWindow::ReconciliationPage)); // reading is for every role
    auto *runNow = find<QPushButton>(w, "runNowButton");
    QVERIFY(runNow->isVisible());
    QVERIFY(!runNow->isEnabled());
    const QString why = QStringLiteral(
        "Only operators and administrators can start a reconciliation; you are signed in as support.");
    QCOMPARE(runNow->toolTip(), why);
    QCOMPARE(runNow->accessibleDescription(), why);
    QVERIFY(find<QLabel>(w, "reconcileSummary")->text().endsWith(why));
    // Disabled: nothing is sent. A request would leave a run or, refused, an audit entry.
    const QString audited = QStringLiteral("SELECT count(*) FROM audit_log");
    const QString runs = QStringLiteral("SELECT count(*) FROM reconcile_runs");
    const QVariant auditedBefore = m_receiver->scalar(audited);
    const QVariant runsBefore = m_receiver->scalar(runs);
    runNow->click();
    QTest::qWait(50);
    QCOMPARE(m_receiver->scalar(audited), auditedBefore);
    QCOMPARE(m_receiver->scalar(runs), runsBefore);
}

void TstReconcileGui::runNowRefusalsAreShownClearly_data()
{
    // Who answers: the suite's receiver ("real"), the bare one ("bare"), or the stand-in with
    // this status and body, for what no real receiver here can be made to answer.
    QTest::addColumn<QString>("receiver");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("expected");
    // Stand-in: a real receiver lets every operator start a reconciliation, so it never refuses
    // the role the console was told at sign-in; only a stand-in can.
    QTest::newRow("403") << QStringLiteral("stand-in") << 403 << QByteArray(R"({"error":"forbidden"})")
                         << QStringLiteral(
                                "The receiver refused to start a reconciliation of stripe for your "
                                "role (HTTP 403). The attempt is in its audit log.");
    QTest::newRow("404") << QStringLiteral("bare") << 0 << QByteArray()
                         << QStringLiteral("The receiver knows no source named stripe (HTTP 404)");
    // Stand-in: a run in progress needs a receiver that reconciles stripe with a run holding its
    // lease; the suite's receiver is configured without [sources.reconcile] (the next row).
    QTest::newRow("409 running")
        << QStringLiteral("stand-in") << 409
        << QByteArray(
               R"j({"error":"conflict","message":"reconciliation run 7 of stripe is already running (since 2025-06-15T12:00:00Z)"})j")
        << QStringLiteral(
               "The receiver did not start a reconciliation of stripe (HTTP 409): reconciliation run 7 of "
               "stripe is already running (since 2025-06-15T12:00:00Z)");
    QTest::newRow("409 not reconciled")
        << QStringLiteral("real") << 0 << QByteArray()
        << QStringLiteral(
               "The receiver did not start a reconciliation of stripe (HTTP 409): source stripe has no "
               "[sources.reconcile] section; nothing to run");
    // Stand-in: a real receiver answers 500 only when its database fails mid-request.
    QTest::newRow("500") << QStringLiteral("stand-in") << 500 << QByteArray(R"({"error":"internal"})")
                         << QStringLiteral("The reconciliation of stripe was not started: ");
    // Stand-in: the real 503 reply_timeout needs a hung database (PostgreSQL stopped with
    // SIGSTOP, in tst_consolehang); this suite's receiver is on SQLite.
    QTest::newRow("503 reply_timeout")
        << QStringLiteral("stand-in") << 503 << QByteArray(R"({"error":"reply_timeout","outcome":"unknown"})")
        << QStringLiteral("Starting a reconciliation of stripe was not confirmed: ");
}

void TstReconcileGui::runNowRefusalsAreShownClearly()
{
    QFETCH(QString, receiver);
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(QString, expected);
    int posts = 0;
    m_api.route("POST", "/admin/v1/sources/stripe/reconcile", [&](const FakeAdminApi::Request &) {
        ++posts;
        return FakeAdminApi::Response { status, body };
    });
    const QString audited
        = QStringLiteral("SELECT count(*) FROM audit_log WHERE action = 'reconcile_requested'");
    const QVariant auditedBefore = m_receiver->scalar(audited);
    if (receiver == QLatin1String("stand-in")) {
        m_api.setIdentity(QStringLiteral("ana-operator"), QStringLiteral("operator"));
        QVERIFY(connectAs(QStringLiteral("ana-operator"), m_api.url(), QStringLiteral("tok-123")));
    } else if (receiver == QLatin1String("bare")) {
        QVERIFY(connectAs(QStringLiteral("ana-operator"), m_bare->adminUrl(),
            m_bare->token(QStringLiteral("ana-operator"))));
    } else {
        QVERIFY(connectAs(QStringLiteral("ana-operator")));
    }
    QVERIFY(openPage());
    MainWindow *w = m_console->window();
    sources()->selectRow(1);
    auto *runNow = find<QPushButton>(w, "runNowButton");
    QTRY_COMPARE_WITH_TIMEOUT(runNow->text(), QStringLiteral("Run stripe &now"), kGuiWait);
    // The keyboard path: the button's mnemonic.
    QTest::keyClick(w, Qt::Key_N, Qt::AltModifier);
    auto *result = find<QLabel>(w, "reconcileResult");
    QTRY_VERIFY_WITH_TIMEOUT(result->isVisible(), kGuiWait);
    QCOMPARE(posts, receiver == QLatin1String("stand-in") ? 1 : 0);
    QCOMPARE(m_receiver->scalar(audited), auditedBefore); // nothing was started
    QCOMPARE(result->textFormat(), Qt::PlainText);
    QCOMPARE(result->accessibleName(), QStringLiteral("Run now result"));
    QVERIFY2(result->text().startsWith(expected), qPrintable(result->text()));
    QTRY_VERIFY_WITH_TIMEOUT(runNow->isEnabled(), kGuiWait); // it may be asked again
    QVERIFY(!w->statusBar()->currentMessage().contains(QStringLiteral("started")));
}

void TstReconcileGui::runNowWithTheReceiverGoneSaysSo()
{
    // A real receiver that answered at sign-in and is stopped when Run now is pressed.
    QVERIFY(connectAs(
        QStringLiteral("ana-operator"), m_bare->adminUrl(), m_bare->token(QStringLiteral("ana-operator"))));
    m_bare->stop();
    QVERIFY(openPage());
    MainWindow *w = m_console->window();
    sources()->selectRow(1);
    auto *runNow = find<QPushButton>(w, "runNowButton");
    QTRY_VERIFY_WITH_TIMEOUT(runNow->isEnabled(), kGuiWait);
    runNow->click();
    auto *result = find<QLabel>(w, "reconcileResult");
    QTRY_VERIFY_WITH_TIMEOUT(result->isVisible(), kGuiWait);
    QVERIFY2(result->text().startsWith(QStringLiteral("The reconciliation of stripe was not started: ")),
        qPrintable(result->text()));
    QVERIFY2(result->text().size() > 50, qPrintable(result->text())); // with the reason
}

// The Events page: a recovered event says so in the list and in its detail, and the origin
// filter (named for screen readers, reached from the keyboard) finds exactly those.
void TstReconcileGui::eventsPageMarksAndFiltersReconciledEvents()
{
    QVERIFY(connectAs(QStringLiteral("sam-support")));
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::EventsPage);
    auto *origin = find<QComboBox>(w, "originFilter");
    QVERIFY(origin && origin->isVisible());
    QCOMPARE(origin->accessibleName(), QStringLiteral("Origin filter"));
    QCOMPARE(origin->currentText(), QStringLiteral("Any origin"));
    QTRY_VERIFY_WITH_TIMEOUT(table()->model()->rowCount() > 1, kGuiWait);
    origin->setFocus();
    QTest::keyClick(origin, Qt::Key_Down);
    QTest::keyClick(origin, Qt::Key_Down);
    QCOMPARE(origin->currentText(), QStringLiteral("Reconciled"));
    QTRY_VERIFY_WITH_TIMEOUT(table()->model()->rowCount() == 1
            && table()->model()->index(0, 0).data(EventTableModel::EventIdRole).toLongLong() == m_recovered,
        kGuiWait);
    const QModelIndex source = table()->model()->index(0, EventTableModel::SourceColumn);
    QCOMPARE(source.data().toString(), QStringLiteral("stripe · reconciled"));
    QCOMPARE(source.data(Qt::AccessibleTextRole).toString(),
        QStringLiteral("stripe, recovered by reconciliation"));
    QVERIFY(selectRow(0));
    QTRY_VERIFY_WITH_TIMEOUT(find<QLabel>(w, "fieldOrigin"), kGuiWait);
    QCOMPARE(find<QLabel>(w, "fieldOrigin")->text(), QStringLiteral("recovered by reconciliation"));
    QCOMPARE(find<QLabel>(w, "fieldVerifiedBy")->text(),
        QStringLiteral("— (read from the provider's API, not signed)"));

    // Webhooks: every event but the recovered one.
    QTest::keyClick(origin, Qt::Key_Up);
    QCOMPARE(origin->currentText(), QStringLiteral("Webhooks"));
    QTRY_VERIFY_WITH_TIMEOUT(table()->model()->rowCount() > 1
            && table()->model()->index(0, 0).data(EventTableModel::LoadedRole).toBool(),
        kGuiWait);
    for (int row = 0; row < table()->model()->rowCount(); ++row)
        QVERIFY(
            table()->model()->index(row, 0).data(EventTableModel::EventIdRole).toLongLong() != m_recovered);
    // Clear shows every event again.
    QTest::mouseClick(find<QPushButton>(w, "clearFilterButton"), Qt::LeftButton);
    QCOMPARE(origin->currentText(), QStringLiteral("Any origin"));
}

// A source whose [sources.reconcile] has not run yet (every = "0": only when asked) is listed from
// the profile's copy of the receiver configuration, so an operator can start its first run.
void TstReconcileGui::aConfiguredSourceIsListedBeforeItsFirstRun()
{
    const QString configFile = m_dir->filePath(QStringLiteral("redrived-copy.toml"));
    QFile config(configFile);
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write("[[sources]]\nname = \"stripe\"\nscheme = \"stripe\"\nsecrets = [\"env:S\"]\n"
                 "[sources.reconcile]\nprovider = \"stripe\"\ncredential = \"env:STRIPE_API_KEY\"\n"
                 "\n[[sources]]\nname = \"acme-github\"\nscheme = \"github\"\nsecrets = [\"env:G\"]\n"
                 "[sources.reconcile]\nprovider = \"github\"\ncredential = \"env:GH\"\nevery = \"0\"\n"
                 "hook = \"repos/acme/shop/hooks/1\"\n");
    config.close();
    m_console.reset();
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_clock);
    m_console->window()->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_console->window()));
    m_console->showConnectionDialog();
    ConnectionDialog *dialog = m_console->connectionDialog();
    QVERIFY(dialog);
    QTest::mouseClick(find<QPushButton>(dialog, "newProfileButton"), Qt::LeftButton);
    const std::pair<const char *, QString> fields[] = { { "nameEdit", QStringLiteral("with-config") },
        { "environmentEdit", QStringLiteral("production") }, { "sqlitePathEdit", m_t->url().sqlitePath },
        { "adminUrlEdit", receiverUrl().toString() },
        { "tokenEdit", tokenOf(QStringLiteral("ana-operator")) }, { "receiverConfigEdit", configFile } };
    for (const auto &[field, text] : fields)
        find<QLineEdit>(dialog, field)->setText(text);
    QString problem;
    QVERIFY2(pressConnect(*m_console, dialog, &problem), qPrintable(problem));
    MainWindow *w = m_console->window();
    QApplication::setActiveWindow(w);
    QVERIFY(QTest::qWaitForWindowActive(w));
    QTest::keyClick(w, Qt::Key_9, Qt::ControlModifier);
    QTableView *table = sources();
    QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 3, kGuiWait); // acme-github, github, stripe
    auto cell = [table](int row, int column) { return table->model()->index(row, column).data().toString(); };
    QCOMPARE(cell(0, ReconcileRunModel::SourceColumn), QStringLiteral("acme-github"));
    QCOMPARE(cell(0, ReconcileRunModel::ProviderColumn), QStringLiteral("github"));
    QCOMPARE(cell(0, ReconcileRunModel::StatusColumn), QStringLiteral("Not run yet"));
    QCOMPARE(cell(0, ReconcileRunModel::StartedColumn), QStringLiteral("—"));
    QVERIFY(cell(0, ReconcileRunModel::OutcomeColumn).startsWith(QStringLiteral("Configured; no run yet")));
    QCOMPARE(
        cell(2, ReconcileRunModel::OutcomeColumn), QStringLiteral("2 missing, all recovered")); // it has runs
    table->selectRow(0);
    auto *runNow = find<QPushButton>(w, "runNowButton");
    QTRY_COMPARE_WITH_TIMEOUT(
        runNow->accessibleName(), QStringLiteral("Run reconciliation of acme-github now"), kGuiWait);
    QVERIFY(runNow->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(find<QTableView>(w, "reconcileRunTable")->model()->rowCount(), 0, kGuiWait);
}

QTEST_MAIN(TstReconcileGui)
#include "tst_reconcilegui.moc"
