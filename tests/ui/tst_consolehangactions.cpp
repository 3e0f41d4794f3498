// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "approvals/approvalmodel.h"
#include "approvals/approvalscontroller.h"
#include "common/prompter.h"
#include "connection/session.h"
#include "destinations/destinationmodel.h"
#include "destinations/destinationscontroller.h"
#include "hangfixture.h"
#include "incidents/incidentmodel.h"
#include "incidents/incidentscontroller.h"
#include "main/consolecontroller.h"
#include "main/mainwindow.h"
#include "scriptabledestination.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

namespace {

// Longer than any test function here.
constexpr int kNoBackgroundReads = 3'600'000;

} // namespace

// The console's other actions against a real redrived whose PostgreSQL hangs (HangFixture:
// SIGSTOP, `[admin] reply_timeout = "300ms"`): approving a replay (an operator other than the
// requester), acknowledging an incident (support) and pausing a destination (admin), each
// through its page's button and the Prompter. While the database hangs the page says the action
// was not confirmed and may still be recorded — not that it was refused or failed. Once the
// database runs again the receiver has recorded it exactly once (one audit entry), and the page
// reads normally and shows it.
class TstConsoleHangActions : public HangFixture {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase() { stopAll(); }
    void cleanup();
    void approvalIsNotConfirmedWhileTheDatabaseHangs();
    void acknowledgementIsNotConfirmedWhileTheDatabaseHangs();
    void pauseIsNotConfirmedWhileTheDatabaseHangs();

private:
    bool signIn(const QString &person);
    // Waits (bounded) until the console has no admin request in flight: each reply deletes itself
    // once answered, so none is left to answer while the database hangs.
    bool waitForAdminIdle();
    // Lets the console's page refresh run (the background read a person leaves the page to)
    // until it has sent a read to the admin API, then lengthens it again and waits until that
    // read was answered.
    bool backgroundRefreshAnswered();
    qint64 requestReplay(const QString &person, qint64 deliveryId);
    int auditEntries(const QString &action, const QString &target);
};

void TstConsoleHangActions::initTestCase()
{
    QString error;
    QVERIFY2(startHangingReceiver(&error), qPrintable(error));
}

void TstConsoleHangActions::cleanup()
{
    thawAndReport();
    Prompter::setNextAnswers({});
    Prompter::clearAskedQuestions();
}

bool TstConsoleHangActions::signIn(const QString &person)
{
    if (!openConsole(person, person))
        return false;
    // The console reads the visible page again every 10 s and the approvals inbox every 15 s:
    // lengthened, so a background read runs only when a test asks for one.
    m_console->setRefreshInterval(kNoBackgroundReads);
    m_console->approvals()->setPollInterval(kNoBackgroundReads);
    return true;
}

bool TstConsoleHangActions::waitForAdminIdle()
{
    AdminClient *admin = m_console->session()->admin();
    return admin
        && QTest::qWaitFor(
            [admin] { return admin->findChildren<ApiReply *>(Qt::FindDirectChildrenOnly).isEmpty(); },
            kGuiWait);
}

bool TstConsoleHangActions::backgroundRefreshAnswered()
{
    AdminClient *admin = m_console->session()->admin();
    if (!admin || !waitForAdminIdle())
        return false;
    m_console->setRefreshInterval(50);
    const bool sent = QTest::qWaitFor(
        [admin] { return !admin->findChildren<ApiReply *>(Qt::FindDirectChildrenOnly).isEmpty(); }, kGuiWait);
    m_console->setRefreshInterval(kNoBackgroundReads);
    return sent && waitForAdminIdle();
}

// `person` previews the delivery's replay and asks for it through the admin API; its id, or 0.
qint64 TstConsoleHangActions::requestReplay(const QString &person, qint64 deliveryId)
{
    AdminClient admin(m_receiver.adminUrl(), m_receiver.token(person), {});
    const auto preview = await(admin.post(QStringLiteral("replays/preview"),
        { { QStringLiteral("delivery_ids"), QJsonArray { deliveryId } } }));
    if (!preview || !preview->error.ok())
        return 0;
    const QString hash = preview->body.object().value(QLatin1String("selection_hash")).toString();
    const auto created = await(admin.post(QStringLiteral("replays"),
        { { QStringLiteral("selection_hash"), hash },
            { QStringLiteral("reason"), QStringLiteral("fulfillment is back") } }));
    if (!created || !created->error.ok())
        return 0;
    return created->body.object().value(QLatin1String("id")).toInteger();
}

int TstConsoleHangActions::auditEntries(const QString &action, const QString &target)
{
    const QVariant n = m_receiver.scalar(
        QStringLiteral("SELECT count(*) FROM audit_log WHERE action = ? AND target = ?"), { action, target });
    return n.isValid() ? n.toInt() : -1;
}

// omar approves ana's replay of a high-risk delivery on the Approvals page.
void TstConsoleHangActions::approvalIsNotConfirmedWhileTheDatabaseHangs()
{
    m_receiver.fulfillment().enqueue(410); // fulfillment (high risk) dies at once
    QString error;
    const qint64 event = m_receiver.ingestAndSettle("hang-approval-1", &error);
    QVERIFY2(event, qPrintable(error));
    const qint64 replay = requestReplay(
        QStringLiteral("ana-operator"), m_receiver.deliveryId(event, QStringLiteral("fulfillment")));
    QVERIFY(replay > 0);
    QCOMPARE(
        m_receiver.scalar(QStringLiteral("SELECT status FROM replays WHERE id = ?"), { replay }).toString(),
        QStringLiteral("pending_approval"));
    const int sentBefore = m_receiver.fulfillment().requestCount();

    QVERIFY(signIn(QStringLiteral("omar-operator")));
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::ApprovalsPage);
    auto *inbox = find<QTableView>(w, "approvalTable");
    auto *summary = find<QLabel>(w, "approvalSummary");
    auto *approve = find<QPushButton>(w, "approveButton");
    int row = -1;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (int r = 0; r < inbox->model()->rowCount(); ++r) {
                if (inbox->model()->index(r, 0).data(ApprovalModel::ReplayIdRole).toLongLong() == replay)
                    row = r;
            }
            return row >= 0;
        }(),
        kGuiWait);
    inbox->selectRow(row);
    QVERIFY(approve->isEnabled());
    QVERIFY(waitForAdminIdle()); // the inbox and the frozen selection read
    const QString before = summary->text();
    QVERIFY2(before.contains(QLatin1String("for a decision")), qPrintable(before));

    QVERIFY(freeze());
    Prompter::setNextAnswers({ { true, QStringLiteral("checked with the customer") } });
    QElapsedTimer clock;
    clock.start();
    QTest::mouseClick(approve, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(summary->text() != before, kGuiWait);
    const qint64 ms = clock.elapsed();
    QCOMPARE(Prompter::askedQuestions().size(), 1);
    QCOMPARE(
        Prompter::askedQuestions().first().confirmLabel, QStringLiteral("Approve replay #%1").arg(replay));
    QCOMPARE(summary->text(),
        unconfirmedLine(QStringLiteral("The approval of replay #%1 was not confirmed: ").arg(replay)));
    QVERIFY(!summary->text().contains(QLatin1String("was not approved")));
    QVERIFY(!summary->text().contains(QLatin1String("failed")));
    QVERIFY2(ms <= kAnswerBoundMs, qPrintable(QStringLiteral("the approval's answer took %1 ms").arg(ms)));
    verifyNoTokenShown(m_receiver.token(QStringLiteral("omar-operator")));
    // The page's background refresh, the database still hung: its read fails too, and says so
    // under the line that the approval's outcome is unknown, which stays.
    QVERIFY(backgroundRefreshAnswered());
    QVERIFY2(summary->text().startsWith(unconfirmedLine(
                 QStringLiteral("The approval of replay #%1 was not confirmed: ").arg(replay))),
        qPrintable(summary->text()));
    QVERIFY2(summary->text().endsWith(QStringLiteral("\nReplay requests could not be read: ") + kReadWording),
        qPrintable(summary->text()));
    thaw();

    // The receiver finishes the held decision: approved once, by omar, and the replay runs once.
    QVERIFY(m_receiver.waitForValue(QStringLiteral("SELECT status FROM replays WHERE id = ?"), { replay },
        QStringLiteral("completed"), 30'000));
    QCOMPARE(m_receiver.scalar(QStringLiteral("SELECT approved_by FROM replays WHERE id = ?"), { replay })
                 .toString(),
        QStringLiteral("omar-operator"));
    const QString target = QStringLiteral("replay:%1").arg(replay);
    QCOMPARE(auditEntries(QStringLiteral("replay_approved"), target), 1);
    QCOMPARE(auditEntries(QStringLiteral("replay_rejected"), target), 0);
    QCOMPARE(m_receiver.fulfillment().requestCount(), sentBefore + 1);

    // Checking the page, as the line asked: it reads again and the request is no longer waiting.
    QSignalSpy refreshed(m_console->approvals(), &ApprovalsController::refreshed);
    refreshByHand();
    QTRY_VERIFY_WITH_TIMEOUT(!refreshed.isEmpty(), kGuiWait);
    QCOMPARE(inbox->model()->rowCount(), 0); // the only request of this suite
    QCOMPARE(summary->text(), QStringLiteral("No replay requests are waiting for approval."));
}

// sam (support) acknowledges crm's incident on the Dead letters page.
void TstConsoleHangActions::acknowledgementIsNotConfirmedWhileTheDatabaseHangs()
{
    m_receiver.crm().enqueue(410); // crm gives up at the first failure: a dead letter at once
    QString error;
    QVERIFY2(m_receiver.ingestAndSettle("hang-incident-1", &error), qPrintable(error));
    const QString openCrm
        = QStringLiteral("SELECT count(*) FROM incidents WHERE closed_at IS NULL AND destination = 'crm'");
    QVERIFY(m_receiver.waitForValue(openCrm, {}, 1));
    const qint64 id = m_receiver
                          .scalar(QStringLiteral("SELECT id FROM incidents WHERE closed_at IS NULL AND "
                                                 "destination = 'crm'"))
                          .toLongLong();
    QVERIFY(id > 0);

    QVERIFY(signIn(QStringLiteral("sam-support")));
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::DeadLettersPage);
    auto *table = find<QTableView>(w, "incidentTable");
    auto *summary = find<QLabel>(w, "incidentSummary");
    auto *acknowledge = find<QPushButton>(w, "acknowledgeIncidentButton");
    IncidentModel *model = m_console->incidents()->model();
    auto rowOf = [model, id] {
        for (int r = 0; r < model->rowCount(); ++r) {
            if (model->index(r, 0).data(IncidentModel::IdRole).toLongLong() == id)
                return r;
        }
        return -1;
    };
    QTRY_VERIFY_WITH_TIMEOUT(rowOf() >= 0, kGuiWait);
    table->selectRow(rowOf());
    QVERIFY(acknowledge->isEnabled());
    QVERIFY(waitForAdminIdle());

    QVERIFY(freeze());
    const QString note = QStringLiteral("crm answers 410 since the deploy; rolling back");
    Prompter::setNextAnswers({ { true, note } });
    QElapsedTimer clock;
    clock.start();
    QTest::mouseClick(acknowledge, Qt::LeftButton);
    const QString asking = QStringLiteral("Acknowledging incident #%1…").arg(id);
    QTRY_VERIFY_WITH_TIMEOUT(summary->text() != asking && acknowledge->isEnabled(), kGuiWait);
    const qint64 ms = clock.elapsed();
    QCOMPARE(Prompter::askedQuestions().size(), 1);
    QCOMPARE(summary->text(),
        unconfirmedLine(QStringLiteral("The acknowledgement of incident #%1 was not confirmed: ").arg(id)));
    QVERIFY(!summary->text().contains(QLatin1String("was not acknowledged")));
    QVERIFY(!summary->text().contains(QLatin1String("failed")));
    QVERIFY2(
        ms <= kAnswerBoundMs, qPrintable(QStringLiteral("the acknowledgement's answer took %1 ms").arg(ms)));
    verifyNoTokenShown(m_receiver.token(QStringLiteral("sam-support")));
    thaw();

    // Recorded once, with sam's note; the page reads again and shows who is on it.
    QVERIFY(m_receiver.waitForValue(QStringLiteral("SELECT acknowledged_by FROM incidents WHERE id = ?"),
        { id }, QStringLiteral("sam-support"), 20'000));
    QCOMPARE(m_receiver.scalar(QStringLiteral("SELECT note FROM incidents WHERE id = ?"), { id }).toString(),
        note);
    QCOMPARE(auditEntries(QStringLiteral("incident_acknowledged"), QStringLiteral("incident:%1").arg(id)), 1);
    refreshByHand();
    auto shown = [model, &rowOf] { return model->incidentAt(model->index(rowOf(), 0)); };
    QTRY_VERIFY_WITH_TIMEOUT(shown() && shown()->acknowledged(), kGuiWait);
    QCOMPARE(shown()->acknowledgedBy, QStringLiteral("sam-support"));
    QCOMPARE(shown()->note, note);
    QVERIFY2(QRegularExpression(QStringLiteral("^(1 open incident|\\d+ open incidents), "))
                 .match(summary->text())
                 .hasMatch(),
        qPrintable(summary->text()));
    table->selectRow(rowOf());
    QVERIFY(!acknowledge->isEnabled()); // acknowledged once is enough
}

// root (admin) pauses crm on the Destinations page. Last: crm stays paused.
void TstConsoleHangActions::pauseIsNotConfirmedWhileTheDatabaseHangs()
{
    QString error;
    QVERIFY2(
        m_receiver.ingestAndSettle("hang-pause-1", &error), qPrintable(error)); // both destinations listed
    QVERIFY(signIn(QStringLiteral("root-admin")));
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::DestinationsPage);
    auto *table = find<QTableView>(w, "destinationTable");
    auto *summary = find<QLabel>(w, "destinationSummary");
    auto *pause = find<QPushButton>(w, "pauseButton");
    DestinationModel *model = m_console->destinations()->model();
    auto crmRow = [model] {
        for (int r = 0; r < model->rowCount(); ++r) {
            if (model->index(r, DestinationModel::NameColumn).data().toString() == u"crm")
                return r;
        }
        return -1;
    };
    QTRY_VERIFY_WITH_TIMEOUT(crmRow() >= 0, kGuiWait);
    table->selectRow(crmRow());
    QVERIFY(pause->isEnabled());
    QCOMPARE(pause->text(), QStringLiteral("Pause crm…"));
    const QString before = summary->text();
    QVERIFY2(before.contains(QLatin1String("none paused")), qPrintable(before));
    QVERIFY(waitForAdminIdle());

    QVERIFY(freeze());
    Prompter::setNextAnswers({ { true, QStringLiteral("crm maintenance") } });
    QElapsedTimer clock;
    clock.start();
    QTest::mouseClick(pause, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(summary->text() != before, kGuiWait);
    const qint64 ms = clock.elapsed();
    QCOMPARE(Prompter::askedQuestions().size(), 1);
    QCOMPARE(Prompter::askedQuestions().first().confirmLabel, QStringLiteral("Pause crm"));
    QCOMPARE(summary->text(), unconfirmedLine(QStringLiteral("Pausing crm was not confirmed: ")));
    QVERIFY(!summary->text().contains(QLatin1String("was not paused")));
    QVERIFY(!summary->text().contains(QLatin1String("failed")));
    QVERIFY2(ms <= kAnswerBoundMs, qPrintable(QStringLiteral("the pause's answer took %1 ms").arg(ms)));
    verifyNoTokenShown(m_receiver.token(QStringLiteral("root-admin")));
    thaw();

    // Recorded once, by root; the page reads again and shows crm paused, to be resumed.
    QVERIFY(m_receiver.waitForValue(
        QStringLiteral("SELECT paused FROM destination_state WHERE name = 'crm'"), {}, 1, 20'000));
    QCOMPARE(m_receiver.scalar(QStringLiteral("SELECT changed_by FROM destination_state WHERE name = 'crm'"))
                 .toString(),
        QStringLiteral("root-admin"));
    QCOMPARE(auditEntries(QStringLiteral("destination_paused"), QStringLiteral("destination:crm")), 1);
    QSignalSpy refreshed(m_console->destinations(), &DestinationsController::refreshed);
    refreshByHand();
    QTRY_VERIFY_WITH_TIMEOUT(
        !refreshed.isEmpty() && model->index(crmRow(), 0).data(DestinationModel::PausedRole).toBool(),
        kGuiWait);
    QCOMPARE(summary->text(),
        QStringLiteral("%1 destinations; 1 paused — their deliveries wait until resumed. Select a "
                       "destination to pause or resume it.")
            .arg(model->rowCount()));
    table->selectRow(crmRow());
    QVERIFY(!pause->isEnabled());
    auto *resume = find<QPushButton>(w, "resumeButton");
    QVERIFY(resume->isEnabled());
    QCOMPARE(resume->text(), QStringLiteral("Resume crm…"));
}

QTEST_MAIN(TstConsoleHangActions)
#include "tst_consolehangactions.moc"
