// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "audit/auditlog.h"
#include "audit/checkpoint.h"
#include "audit/evidence.h"
#include "audit/evidencereader.h"
#include "audit/evidenceverifier.h"
#include "audit/signingkey.h"
#include "common/filechooser.h"
#include "common/prompter.h"
#include "common/timeformat.h"
#include "common/warningbanner.h"
#include "consoleguitest.h"
#include "destinations/destinationmodel.h"
#include "destinations/destinationscontroller.h"
#include "detail/detailcontroller.h"
#include "events/eventtablemodel.h"
#include "statusbar/receiverhealthcontroller.h"
#include "storage/circuitstore.h"
#include "tooltipsweep.h"

#include <QAccessible>
#include <QApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

// Operating the receivers from the console, through the real widgets: receiver health and
// durability warnings (read from the receivers' rows, which the tests edit as a receiver would
// leave them, so those sign in with the database only), the destinations page with pause /
// resume for administrators only, and evidence export checked by `redrive --verify-evidence`:
// those against a real redrived on the fixture's database, started once the receiver rows are
// no longer under test (its own heartbeat row would join them).
class TstConsoleOperations : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void receiverDurabilityAndSilenceAreWarned();
    void receiverDatabaseOutageIsShownThenRemembered();
    void receiverTooltipShowsItsTextLiterally();
    void supportSeesDestinationsButIsNotOfferedPauseOrEvidence();
    void adminPausesADestinationWithAReason();
    void adminPausesForAnHour();
    void anOpenCircuitIsShownAndAnAdminClosesIt();
    void evidenceExportVerifiesAndCatchesAFlippedByte();

private:
    bool sql(const QString &statement);
    bool refreshReceivers();
    [[nodiscard]] QString receiverStatus() const;
    // Signs in as one of the real receiver's people (starting it on first use).
    bool connectAs(const QString &person);
    bool connectReadOnly();
    int verifyWithCli(const QString &file, QString *output, const QStringList &extra = {});

    std::unique_ptr<audit::SigningKey> m_key;
};

void TstConsoleOperations::initTestCase()
{
    QVERIFY(setUpFixture());
}

void TstConsoleOperations::cleanupTestCase()
{
    m_console.reset();
}

bool TstConsoleOperations::sql(const QString &statement)
{
    QString error;
    if (succeeded(m_writer->exec(statement), &error))
        return true;
    qWarning("%s", qPrintable(error));
    return false;
}

bool TstConsoleOperations::connectReadOnly()
{
    m_console.reset();
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_clock);
    m_console->window()->show();
    if (!QTest::qWaitForWindowExposed(m_console->window()))
        return false;
    QString problem;
    const bool ok = ConsoleGuiTest::connectReadOnly(
        *m_console, QStringLiteral("read-only"), m_t->url().sqlitePath, &problem);
    if (!ok)
        qWarning("connect: %s", qPrintable(problem));
    return ok;
}

bool TstConsoleOperations::connectAs(const QString &person)
{
    if (!m_receiver) {
        // The scenario's one audit entry carries made-up hashes, and a real receiver refuses to
        // sign evidence over a chain that does not verify: it starts on an empty, intact chain.
        const QString appendOnly
            = QStringLiteral("CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT "
                             "RAISE(ABORT, 'audit_log is append-only'); END");
        if (!sql(QStringLiteral("DROP TRIGGER audit_log_no_delete"))
            || !sql(QStringLiteral("DELETE FROM audit_log")) || !sql(appendOnly))
            return false;
        if (!setUpReceiver())
            return false;
        auto key = audit::SigningKey::load(m_receiver->auditKeyPath());
        if (!key) {
            qWarning("the receiver's audit key: %s", qPrintable(key.error()));
            return false;
        }
        m_key = std::move(*key);
    }
    m_console.reset();
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_clock);
    m_console->window()->show();
    if (!QTest::qWaitForWindowExposed(m_console->window()))
        return false;
    QString problem;
    const bool ok
        = connectWith(*m_console, person, m_t->url().sqlitePath, tokenOf(person), &problem, receiverUrl());
    if (!ok)
        qWarning("connect: %s", qPrintable(problem));
    return ok;
}

QString TstConsoleOperations::receiverStatus() const
{
    return m_console->window()->findChild<QLabel *>(QStringLiteral("receiverStatus"))->text();
}

bool TstConsoleOperations::refreshReceivers()
{
    // F5, as a person would; the receivers are refreshed on every page.
    MainWindow *w = m_console->window();
    QApplication::setActiveWindow(w);
    if (!QTest::qWaitForWindowActive(w))
        return false;
    QSignalSpy refreshed(m_console->receivers(), &ReceiverHealthController::refreshed);
    QTest::keyClick(w, Qt::Key_F5);
    return refreshed.wait(kGuiWait) || !refreshed.isEmpty();
}

int TstConsoleOperations::verifyWithCli(const QString &file, QString *output, const QStringList &extra)
{
    QProcess p;
    p.start(qEnvironmentVariable("REDRIVE_BINARY_DIR") + QStringLiteral("/app/redrive/redrive"),
        QStringList { QStringLiteral("--verify-evidence"), file } + extra);
    if (!p.waitForFinished(60'000))
        return -1;
    *output = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

void TstConsoleOperations::receiverDurabilityAndSilenceAreWarned()
{
    QVERIFY(connectReadOnly());
    MainWindow *w = m_console->window();
    auto *banner = find<WarningBanner>(w, "receiverWarning");
    // The scenario's receiver is FULL and beat 10 s ago ("now" is base + 60 s): no warning.
    QTRY_COMPARE_WITH_TIMEOUT(
        receiverStatus(), QStringLiteral("Receiver web-1:4242 · heartbeat 10 s ago"), kGuiWait);
    QVERIFY(banner->isHidden());
    QVERIFY(find<QLabel>(w, "receiverStatus")->toolTip().contains(QStringLiteral("survives power loss")));

    // The same receiver restarted with synchronous=NORMAL.
    QVERIFY(sql(QStringLiteral(
        "UPDATE receiver_instances SET durability = 'sqlite journal_mode=wal synchronous=NORMAL', "
        "power_loss_durable = 0")));
    QVERIFY(refreshReceivers());
    QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), kGuiWait);
    QCOMPARE(banner->warnings(),
        QStringList { QStringLiteral(
            "Receiver web-1:4242 runs SQLite journal_mode=wal synchronous=NORMAL: acknowledged "
            "events may be lost on power failure.") });
    QVERIFY(banner->text().startsWith(QStringLiteral("⚠ Receiver web-1:4242")));
    QVERIFY(receiverStatus().startsWith(QStringLiteral("⚠ ")));
    QVERIFY(find<QLabel>(w, "receiverStatus")->toolTip().contains(QStringLiteral("NOT power-loss durable")));
    // It stays in sight on every page.
    w->showPage(MainWindow::DeadLettersPage);
    QVERIFY(banner->isVisible());
    w->showPage(MainWindow::EventsPage);

    // Then it stopped beating ten minutes ago.
    QVERIFY(sql(
        QStringLiteral("UPDATE receiver_instances SET heartbeat_at = %1").arg(kGuiBase + 60'000 - 600'000)));
    QVERIFY(refreshReceivers());
    QTRY_COMPARE_WITH_TIMEOUT(banner->warnings(),
        QStringList { QStringLiteral("No receiver heartbeat for 10 min (last: web-1:4242): webhooks "
                                     "may not be recorded or delivered.") },
        kGuiWait);
    QCOMPARE(receiverStatus(), QStringLiteral("⚠ No receiver heartbeat for 10 min"));

    // Back to FULL and beating: the warning goes away by itself.
    QVERIFY(sql(QStringLiteral(
        "UPDATE receiver_instances SET durability = 'sqlite journal_mode=wal synchronous=FULL', "
        "power_loss_durable = 1, heartbeat_at = %1")
                    .arg(kGuiBase + 50'000)));
    QVERIFY(refreshReceivers());
    QTRY_VERIFY_WITH_TIMEOUT(banner->isHidden(), kGuiWait);
    QCOMPARE(receiverStatus(), QStringLiteral("Receiver web-1:4242 · heartbeat 10 s ago"));
}

// A receiver's last database outage, as it records it with its heartbeat: in the banner while
// it lasts or for a while after, then only in the tooltip.
void TstConsoleOperations::receiverDatabaseOutageIsShownThenRemembered()
{
    QVERIFY(connectReadOnly());
    MainWindow *w = m_console->window();
    auto *banner = find<WarningBanner>(w, "receiverWarning");
    // Heard by what they show: no fixed accessible name replaces the text.
    QCOMPARE(banner->accessibleDescription(), QStringLiteral("Receiver warning"));
    QVERIFY(banner->accessibleName().isEmpty());
    QVERIFY(find<QLabel>(w, "receiverStatus")->accessibleName().isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(
        receiverStatus(), QStringLiteral("Receiver web-1:4242 · heartbeat 10 s ago"), kGuiWait);
    QVERIFY(banner->isHidden());

    // Down from base + 30 s to base + 38 s ("now" is base + 60 s), 412 webhooks refused.
    const qint64 began = kGuiBase + 30'000;
    const qint64 ended = kGuiBase + 38'000;
    QVERIFY(
        sql(QStringLiteral("UPDATE receiver_instances SET db_outage_began_at = %1, db_outage_ended_at = %2, "
                           "db_outage_refused = 412")
                .arg(began)
                .arg(ended)));
    QVERIFY(refreshReceivers());
    QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), kGuiWait);
    const QString expected
        = QStringLiteral("Receiver web-1:4242: database unreachable %1–%2 (8 s, 412 requests "
                         "refused).")
              .arg(TimeFormat::display(began), TimeFormat::display(ended).mid(11));
    QCOMPARE(banner->warnings(), QStringList { expected });
    QVERIFY(receiverStatus().startsWith(QStringLiteral("⚠ ")));
    QVERIFY(
        find<QLabel>(w, "receiverStatus")->toolTip().contains(QStringLiteral("; last database unreachable")));

    // While it lasts (a receiver that recorded its start, or a row written mid-outage).
    QVERIFY(sql(
        QStringLiteral("UPDATE receiver_instances SET db_outage_ended_at = NULL, db_outage_refused = 1")));
    QVERIFY(refreshReceivers());
    QTRY_COMPARE_WITH_TIMEOUT(banner->warnings(),
        QStringList { QStringLiteral("Receiver web-1:4242: database unreachable since %1 (ongoing, 1 request "
                                     "refused so far).")
                          .arg(TimeFormat::display(began)) },
        kGuiWait);

    // Long over: the banner clears, the tooltip keeps it.
    QVERIFY(
        sql(QStringLiteral("UPDATE receiver_instances SET db_outage_began_at = %1, db_outage_ended_at = %2")
                .arg(kGuiBase - 3'600'000)
                .arg(kGuiBase - 3'590'000)));
    QVERIFY(refreshReceivers());
    QTRY_VERIFY_WITH_TIMEOUT(banner->isHidden(), kGuiWait);
    QCOMPARE(receiverStatus(), QStringLiteral("Receiver web-1:4242 · heartbeat 10 s ago"));
    QVERIFY(
        find<QLabel>(w, "receiverStatus")->toolTip().contains(QStringLiteral("; last database unreachable")));
    QVERIFY(sql(QStringLiteral(
        "UPDATE receiver_instances SET db_outage_began_at = NULL, db_outage_ended_at = NULL, db_outage_refused = NULL")));
}

// The receiver's row is anyone's with write access to the database: its version and durability
// text show in the status tooltip as the characters they are, never as markup.
void TstConsoleOperations::receiverTooltipShowsItsTextLiterally()
{
    QVERIFY(connectReadOnly());
    auto *status = find<QLabel>(m_console->window(), "receiverStatus");
    QTRY_COMPARE_WITH_TIMEOUT(
        receiverStatus(), QStringLiteral("Receiver web-1:4242 · heartbeat 10 s ago"), kGuiWait);
    const QString hostile = QStringLiteral("<img src=x width=3000>");
    QVERIFY(
        sql(QStringLiteral("UPDATE receiver_instances SET version = '%1', durability = '%1'").arg(hostile)));
    QVERIFY(refreshReceivers());
    ToolTipSweep sweep(hostile);
    sweep.check(status->toolTip(), QStringLiteral("receiverStatus"));
    QVERIFY(sweep.clean());
    QCOMPARE(sweep.carrying, 1);
    QVERIFY(sql(QStringLiteral("UPDATE receiver_instances SET version = '0.1.0', "
                               "durability = 'sqlite journal_mode=wal synchronous=FULL'")));
    QVERIFY(refreshReceivers());
    QTRY_COMPARE_WITH_TIMEOUT(
        receiverStatus(), QStringLiteral("Receiver web-1:4242 · heartbeat 10 s ago"), kGuiWait);
}

void TstConsoleOperations::supportSeesDestinationsButIsNotOfferedPauseOrEvidence()
{
    QVERIFY(connectAs(QStringLiteral("sam-support")));
    MainWindow *w = m_console->window();
    QVERIFY(w->isPageAvailable(MainWindow::DestinationsPage));
    QApplication::setActiveWindow(w);
    QVERIFY(QTest::qWaitForWindowActive(w));
    QTest::keyClick(w, Qt::Key_8, Qt::ControlModifier);
    QCOMPARE(w->currentPage(), MainWindow::DestinationsPage);
    auto *table = find<QTableView>(w, "destinationTable");
    QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 2, kGuiWait);
    auto cell = [table](int row, int column) { return table->model()->index(row, column).data().toString(); };
    QCOMPARE(cell(0, DestinationModel::NameColumn), QStringLiteral("billing"));
    QCOMPARE(cell(0, DestinationModel::DeadColumn), QStringLiteral("1"));
    QCOMPARE(cell(0, DestinationModel::SuccessRateColumn), QStringLiteral("0.0 % of 1"));
    QVERIFY(cell(0, DestinationModel::LastFailureColumn).startsWith(QStringLiteral("HTTP permanent, ")));
    QCOMPARE(cell(1, DestinationModel::NameColumn), QStringLiteral("fulfillment"));
    QCOMPARE(cell(1, DestinationModel::StateColumn), QStringLiteral("Active"));
    QCOMPARE(cell(1, DestinationModel::BacklogColumn), QStringLiteral("2"));
    QCOMPARE(cell(1, DestinationModel::SuccessRateColumn), QStringLiteral("33.3 % of 3"));
    // Reading is for everyone; pausing is not offered to support, and neither is evidence.
    table->selectRow(1);
    QVERIFY(find<QPushButton>(w, "pauseButton")->isHidden());
    QVERIFY(find<QPushButton>(w, "resumeButton")->isHidden());
    QVERIFY(find<QPushButton>(w, "exportEvidenceButton")->isHidden());
}

void TstConsoleOperations::adminPausesADestinationWithAReason()
{
    const QString state = QStringLiteral("SELECT count(*) FROM destination_state WHERE name = 'fulfillment'");
    const QString audited = QStringLiteral("SELECT count(*) FROM audit_log");
    QVERIFY(connectAs(QStringLiteral("root-admin")));
    const QVariant auditedBefore = m_receiver->scalar(audited);
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::DestinationsPage);
    auto *table = find<QTableView>(w, "destinationTable");
    QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 2, kGuiWait);
    auto *pause = find<QPushButton>(w, "pauseButton");
    auto *resume = find<QPushButton>(w, "resumeButton");
    QVERIFY(pause->isVisible());
    QVERIFY(!pause->isEnabled()); // nothing selected yet
    table->selectRow(1);
    QCOMPARE(pause->text(), QStringLiteral("Pause fulfillment…"));
    QVERIFY(pause->isEnabled());
    QVERIFY(!resume->isEnabled()); // it is not paused

    // Cancelling the prompt sends nothing.
    Prompter::clearAskedQuestions();
    Prompter::setNextAnswers({ { false, QString() } });
    QTest::mouseClick(pause, Qt::LeftButton);
    QCOMPARE(Prompter::askedQuestions().size(), 1);
    const Prompter::Question asked = Prompter::askedQuestions().first();
    QCOMPARE(asked.confirmLabel, QStringLiteral("Pause fulfillment"));
    QVERIFY(asked.askReason);
    QVERIFY(asked.text.contains(QStringLiteral("2 are waiting now")));
    QTest::qWait(50);
    QCOMPARE(m_receiver->scalar(state).toInt(), 0);
    QCOMPARE(m_receiver->scalar(audited), auditedBefore);

    QSignalSpy refreshed(m_console->destinations(), &DestinationsController::refreshed);
    Prompter::setNextAnswers({ { true, QStringLiteral("fulfillment API maintenance window") } });
    QTest::mouseClick(pause, Qt::LeftButton);
    // The receiver paused it, with the reason typed, under the administrator's name.
    QVERIFY(m_receiver->waitForValue(
        QStringLiteral("SELECT reason FROM destination_state WHERE name = 'fulfillment' AND paused = 1"), {},
        QStringLiteral("fulfillment API maintenance window"), kGuiWait));
    QCOMPARE(
        m_receiver
            ->scalar(QStringLiteral("SELECT changed_by FROM destination_state WHERE name = 'fulfillment'"))
            .toString(),
        QStringLiteral("root-admin"));
    // The page reads the new state back at once (well before the console's 10 s periodic
    // refresh could) and names who paused it, when and why.
    QTRY_COMPARE_WITH_TIMEOUT(table->model()->index(1, DestinationModel::StateColumn).data().toString(),
        QStringLiteral("Paused"), 8'000);
    // The receiver stamped the change with its own clock; the console's is set 5 s later.
    const qint64 changedAt
        = m_receiver
              ->scalar(QStringLiteral("SELECT changed_at FROM destination_state WHERE name = 'fulfillment'"))
              .toLongLong();
    m_clock.setMs(changedAt + 5'000);
    QSignalSpy again(m_console->destinations(), &DestinationsController::refreshed);
    QApplication::setActiveWindow(w);
    QVERIFY(QTest::qWaitForWindowActive(w));
    QTest::keyClick(w, Qt::Key_F5);
    QVERIFY(again.wait(kGuiWait) || !again.isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(table->model()->index(1, DestinationModel::ChangedColumn).data().toString(),
        QStringLiteral("Paused by root-admin, 5 s ago: fulfillment API maintenance window"), kGuiWait);
    QVERIFY(table->model()->index(1, 0).data(DestinationModel::PausedRole).toBool());
    QCOMPARE(table->selectionModel()->currentIndex().row(), 1); // the selection stayed on it
    QVERIFY(!pause->isEnabled());
    QVERIFY(resume->isEnabled());
    QCOMPARE(resume->text(), QStringLiteral("Resume fulfillment…"));
    QVERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("fulfillment paused")));
    QVERIFY(find<QLabel>(w, "destinationSummary")->text().contains(QStringLiteral("1 paused")));
}

void TstConsoleOperations::adminPausesForAnHour()
{
    QVERIFY(m_console && m_console->session()); // root-admin, fulfillment paused until resumed
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::DestinationsPage);
    auto *table = find<QTableView>(w, "destinationTable");
    QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 2, kGuiWait);
    table->selectRow(0);
    const QString name = table->model()->index(0, DestinationModel::NameColumn).data().toString();
    auto *pause = find<QPushButton>(w, "pauseButton");
    QVERIFY(pause->isEnabled());
    // The receiver checks the end against its own clock: the console's reads the same time.
    m_clock.setMs(QDateTime::currentMSecsSinceEpoch());
    const qint64 until = m_clock.nowMs() + 3'600'000;
    Prompter::clearAskedQuestions();
    Prompter::setNextAnswers({ { true, QStringLiteral("provider maintenance, one hour"), 1 } });
    QTest::mouseClick(pause, Qt::LeftButton);
    QCOMPARE(Prompter::askedQuestions().size(), 1);
    const Prompter::Question asked = Prompter::askedQuestions().first();
    QCOMPARE(asked.choices.size(), 4);
    QCOMPARE(asked.choices.at(0), QStringLiteral("When someone resumes it"));
    QCOMPARE(asked.choices.at(1), QStringLiteral("In 1 hour"));
    QVERIFY(asked.choices.at(3).startsWith(QStringLiteral("At 06:00 (")));
    // The real receiver stored the end the console computed, and the page says it.
    QVERIFY(m_receiver->waitForValue(
        QStringLiteral("SELECT paused_until FROM destination_state WHERE name = ? AND paused = 1"), { name },
        until, kGuiWait));
    QTRY_COMPARE_WITH_TIMEOUT(table->model()->index(0, DestinationModel::StateColumn).data().toString(),
        QStringLiteral("Paused until %1").arg(TimeFormat::display(until)), kGuiWait);
    QVERIFY(table->model()
                ->index(0, DestinationModel::StateColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("resumes it by itself")));
    // The resume prompt offers no end.
    Prompter::clearAskedQuestions();
    Prompter::setNextAnswers({ { false, QString() } });
    QTRY_VERIFY_WITH_TIMEOUT(find<QPushButton>(w, "resumeButton")->isEnabled(), kGuiWait);
    QTest::mouseClick(find<QPushButton>(w, "resumeButton"), Qt::LeftButton);
    QCOMPARE(Prompter::askedQuestions().size(), 1);
    QVERIFY(Prompter::askedQuestions().first().choices.isEmpty());
}

void TstConsoleOperations::anOpenCircuitIsShownAndAnAdminClosesIt()
{
    QVERIFY(m_console && m_console->session()); // root-admin
    MainWindow *w = m_console->window();
    // billing's circuit opened, as the delivery engine opens it (and not paused, so the circuit shows).
    QVERIFY(sql(QStringLiteral("UPDATE destination_state SET paused = 0, paused_until = NULL")));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_clock.setMs(now);
    QVERIFY(markCircuitOpen(*m_writer, QStringLiteral("billing"),
        QStringLiteral("5 retryable failures in a row"), now, now + 3'600'000)
                .value_or(false));
    // The receivers banner says so on every page.
    QVERIFY(refreshReceivers());
    QTRY_VERIFY_WITH_TIMEOUT(find<WarningBanner>(w, "receiverWarning")
                                 ->warnings()
                                 .join(QLatin1Char('\n'))
                                 .contains(QStringLiteral("Circuit open for billing")),
        kGuiWait);

    w->showPage(MainWindow::DestinationsPage);
    auto *table = find<QTableView>(w, "destinationTable");
    auto *model = qobject_cast<DestinationModel *>(table->model());
    QVERIFY(model);
    QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(QStringLiteral("billing")) >= 0
            && model->index(model->rowOf(QStringLiteral("billing")), DestinationModel::StateColumn)
                   .data()
                   .toString()
                   .startsWith(QStringLiteral("Circuit open, next probe")),
        kGuiWait);
    const int row = model->rowOf(QStringLiteral("billing"));
    QVERIFY(model->index(row, DestinationModel::StateColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("5 retryable failures in a row")));
    QVERIFY(
        find<QLabel>(w, "destinationSummary")->text().contains(QStringLiteral("1 circuit open (billing)")));
    table->selectRow(row);
    auto *close = find<QPushButton>(w, "closeCircuitButton");
    QTRY_VERIFY_WITH_TIMEOUT(close->isEnabled(), kGuiWait);
    QCOMPARE(close->text(), QStringLiteral("Close circuit of billing…"));

    // Closed by hand through the real receiver, with the reason asked for, and audited.
    Prompter::clearAskedQuestions();
    Prompter::setNextAnswers({ { true, QStringLiteral("billing confirmed the fix") } });
    QTest::mouseClick(close, Qt::LeftButton);
    QCOMPARE(Prompter::askedQuestions().size(), 1);
    QCOMPARE(Prompter::askedQuestions().first().confirmLabel, QStringLiteral("Close circuit of billing"));
    QVERIFY(m_receiver->waitForValue(
        QStringLiteral("SELECT count(*) FROM audit_log WHERE action = 'circuit_closed' "
                       "AND target = 'destination:billing' AND reason = ?"),
        { QStringLiteral("billing confirmed the fix") }, 1, kGuiWait));
    QVERIFY(
        m_receiver->waitForValue(QStringLiteral("SELECT circuit_open FROM destination_state WHERE name = ?"),
            { QStringLiteral("billing") }, 0, kGuiWait));
    QTRY_COMPARE_WITH_TIMEOUT(
        model->index(model->rowOf(QStringLiteral("billing")), DestinationModel::StateColumn)
            .data()
            .toString(),
        QStringLiteral("Active"), kGuiWait);
    QTRY_VERIFY_WITH_TIMEOUT(!close->isEnabled(), kGuiWait);
}

void TstConsoleOperations::evidenceExportVerifiesAndCatchesAFlippedByte()
{
    QVERIFY(m_console && m_console->session()); // root-admin
    // Audit entries and a note about the succeeded event, as other consoles' requests left them.
    for (const char *reason : { "customer called about ORD-1001", "evidence requested by legal" }) {
        const auto appended = withTransaction(*m_writer, [&] {
            return audit::appendAuditEntry(*m_writer,
                audit::AuditRecord { QStringLiteral("olga"), QStringLiteral("operator"),
                    QStringLiteral("note_added"), QStringLiteral("event:%1").arg(m_s.succeeded),
                    QLatin1String(reason), {} },
                m_clock.nowMs());
        });
        QVERIFY2(appended, qPrintable(appended.error()));
    }
    ConsoleFixture notes(*m_writer);
    notes.addNote(
        m_s.succeeded, QStringLiteral("bob"), QStringLiteral("customer confirmed delivery"), m_clock.nowMs());
    QVERIFY2(notes.lastError().isEmpty(), qPrintable(notes.lastError()));

    const QString evidenceAudited
        = QStringLiteral("SELECT count(*) FROM audit_log WHERE action = 'evidence_exported'");
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::EventsPage);
    search(QStringLiteral("gh-delivery-1"));
    QTRY_VERIFY_WITH_TIMEOUT(table()->model()->rowCount() == 1
            && table()->model()->index(0, 0).data(EventTableModel::LoadedRole).toBool(),
        kGuiWait);
    QVERIFY(selectRow(0));
    QTRY_VERIFY_WITH_TIMEOUT(
        find<QLabel>(w, "detailTitle")->text().startsWith(QStringLiteral("Event %1 ").arg(m_s.succeeded)),
        kGuiWait);
    auto *tabs = find<QTabWidget>(w, "detailTabs");
    tabs->setCurrentIndex(tabs->count() - 1); // Notes & audit
    auto *exportButton = find<QPushButton>(w, "exportEvidenceButton");
    QTRY_VERIFY(exportButton->isVisible());

    // A cancelled file dialog asks the receiver for nothing.
    const QVariant exportsBefore = m_receiver->scalar(evidenceAudited);
    FileChooser::setNextAnswers({ QString() });
    QTest::mouseClick(exportButton, Qt::LeftButton);
    QTest::qWait(50);
    QCOMPARE(m_receiver->scalar(evidenceAudited), exportsBefore);

    const QString file = m_dir->filePath(QStringLiteral("evidence.json"));
    QSignalSpy exported(m_console->detail(), &DetailController::evidenceExported);
    FileChooser::setNextAnswers({ file });
    QTest::mouseClick(exportButton, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 1, kGuiWait);
    QVERIFY2(exported.first().at(0).toBool(), qPrintable(exported.first().at(1).toString()));
    // One export, by the receiver (audited there, signed with its key): the console assembles
    // nothing itself.
    QCOMPARE(m_receiver->scalar(evidenceAudited).toInt(), exportsBefore.toInt() + 1);
    const QString status = find<QLabel>(w, "evidenceStatus")->text();
    QVERIFY2(status.contains(QStringLiteral("written to ") + file), qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("signed by receiver key ") + m_key->keyId()), qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("--key-id ") + m_key->keyId()), qPrintable(status));

    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray original = f.readAll();
    f.close();
    audit::KeyPin pin;
    pin.publicKey = m_key->publicKey();
    const audit::EvidenceVerdict verdict = audit::verifyEvidence(original, pin);
    QVERIFY2(verdict.ok, qPrintable(verdict.problem));
    const QJsonObject bundle = QJsonDocument::fromJson(original).object();
    QCOMPARE(bundle.value(QLatin1String("exported")).toObject().value(QLatin1String("by")).toString(),
        QStringLiteral("root-admin"));
    QVERIFY(bundle.value(QLatin1String("audit"))
                .toObject()
                .value(QLatin1String("linked_to_checkpoint"))
                .toBool());
    QString output;
    QCOMPARE(verifyWithCli(file, &output), 0);
    QVERIFY2(output.contains(QStringLiteral("evidence intact (signed, key not pinned)")), qPrintable(output));
    QCOMPARE(verifyWithCli(file, &output, { QStringLiteral("--key-id"), m_key->keyId() }), 0);
    QVERIFY2(output.contains(QStringLiteral("evidence intact (signed by the pinned receiver key)")),
        qPrintable(output));

    // One byte of the body flipped.
    QJsonObject tampered = bundle;
    QByteArray body
        = QByteArray::fromBase64(bundle.value(QLatin1String("body_base64")).toString().toLatin1());
    body[5] = char(body[5] ^ 0x20);
    tampered.insert(QStringLiteral("body_base64"), QString::fromLatin1(body.toBase64()));
    const QString bodyFile = m_dir->filePath(QStringLiteral("evidence-body.json"));
    QFile bf(bodyFile);
    QVERIFY(bf.open(QIODevice::WriteOnly));
    bf.write(QJsonDocument(tampered).toJson());
    bf.close();
    QCOMPARE(verifyWithCli(bodyFile, &output), 1);
    QVERIFY2(output.contains(QStringLiteral("the body's SHA-256 is")), qPrintable(output));

    // One byte of an audit entry flipped, and one of the note, in the file as written.
    for (const auto &[text, problem] :
        { std::pair { "customer called about ORD-1001", "evidence FAILED verification: audit entry" },
            std::pair { "customer confirmed delivery", "the notes (\"notes\") changed" } }) {
        QByteArray raw = original;
        const qsizetype at = raw.indexOf(text);
        QVERIFY(at > 0);
        QCOMPARE(raw.indexOf(text, at + 1), qsizetype(-1)); // only there
        raw[at] = 'C';
        const QString edited = m_dir->filePath(QStringLiteral("evidence-edited.json"));
        QFile ef(edited);
        QVERIFY(ef.open(QIODevice::WriteOnly));
        ef.write(raw);
        ef.close();
        QCOMPARE(verifyWithCli(edited, &output), 1);
        QVERIFY2(output.contains(QLatin1String(problem)), qPrintable(output));
    }

    // A receiver without an audit key: the console says what to configure and writes nothing.
    // The same database, now served by a redrived whose administrator set no audit key.
    m_receiver->stop();
    RealReceiver keyless;
    keyless.useSqliteFile(m_t->url().sqlitePath);
    keyless.setDeliverySettings("enabled = false\n");
    keyless.withoutAuditKey();
    keyless.shareTokensOf(*m_receiver);
    keyless.setExtraConfig("[[destinations]]\nname = \"billing\"\nurl = \"http://127.0.0.1:9/billing\"\n"
                           "risk = \"high\"\nmax_attempts = 1\nallow_private = true\n");
    QString error;
    QVERIFY2(keyless.start(&error), qPrintable(error));
    m_console.reset();
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_clock);
    m_console->window()->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_console->window()));
    QString problem;
    QVERIFY2(connectWith(*m_console, QStringLiteral("keyless"), m_t->url().sqlitePath,
                 keyless.token(QStringLiteral("root-admin")), &problem, keyless.adminUrl()),
        qPrintable(problem));
    w = m_console->window();
    w->showPage(MainWindow::EventsPage);
    search(QStringLiteral("gh-delivery-1"));
    QTRY_VERIFY_WITH_TIMEOUT(table()->model()->rowCount() == 1
            && table()->model()->index(0, 0).data(EventTableModel::LoadedRole).toBool(),
        kGuiWait);
    QVERIFY(selectRow(0));
    tabs = find<QTabWidget>(w, "detailTabs");
    tabs->setCurrentIndex(tabs->count() - 1);
    exportButton = find<QPushButton>(w, "exportEvidenceButton");
    QTRY_VERIFY(exportButton->isVisible());
    QSignalSpy refused(m_console->detail(), &DetailController::evidenceExported);
    const QString none = m_dir->filePath(QStringLiteral("evidence-none.json"));
    FileChooser::setNextAnswers({ none });
    QTest::mouseClick(exportButton, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(refused.size(), 1, kGuiWait);
    QVERIFY(!refused.last().at(0).toBool());
    QVERIFY2(refused.last().at(1).toString().contains(QStringLiteral("admin.audit_key_file is not set")),
        qPrintable(refused.last().at(1).toString()));
    QVERIFY(!QFile::exists(none));
    QVERIFY(exportButton->isEnabled());
}

QTEST_MAIN(TstConsoleOperations)
#include "tst_consoleoperations.moc"
