// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "api/adminclient.h"
#include "approvals/approvalmodel.h"
#include "approvals/approvalscontroller.h"
#include "auditor/auditcontroller.h"
#include "auditor/auditmodel.h"
#include "common/prompter.h"
#include "consoleguitest.h"
#include "detail/eventdetailview.h"
#include "events/eventtablemodel.h"
#include "newreplay/replaydialog.h"
#include "realreceiver.h"
#include "replays/replayhistorycontroller.h"
#include "replays/replayitemsmodel.h"
#include "replays/replaylistmodel.h"
#include "scriptabledestination.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTreeWidget>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

// The whole story of a repair, told once, in order, against one real `redrived` (SQLite,
// tokens from `redrived token create`): support replays a low-risk dead delivery from the
// event detail and watches it succeed on the Replays page; support requests a high-risk
// replay; an operator sees "Approvals (1)", browses the frozen selection and approves; the
// Replays page shows it completed; nobody can approve their own request; the auditor sees the
// request and the approval with the chain intact, and then catches an edited entry and a tail
// cut off after a saved checkpoint. Each step starts from the state the previous one left,
// as it would in a day at work. Dialogs and prompts are answered through their seams; the
// receiver's database says what really happened.
class TstWholeStory : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void supportRepairsALowRiskDeliveryFromTheDetail();
    void supportRequestsAHighRiskReplay();
    void operatorSeesTheRequestBrowsesAndApproves();
    void nobodyApprovesTheirOwnRequest();
    void auditorSeesItAllWithTheChainIntact();
    void auditorCatchesAnEditAndACutTail();

private:
    bool signIn(const QString &person);
    // Shows the event with this provider id in the detail and selects the delivery row to
    // `destination`; the row's Replay button.
    QPushButton *openDelivery(qint64 eventId, const QString &providerId, const QString &destination);
    qint64 maxReplayId();
    qint64 waitForReplayAfter(qint64 before);
    QString replayStatus(qint64 id);
    [[nodiscard]] QString replayOutcome() const
    {
        return find<QLabel>(m_console->window(), "replayOutcome")->text();
    }
    [[nodiscard]] QString auditStatus() const
    {
        return find<QLabel>(m_console->window(), "auditStatus")->text();
    }
    [[nodiscard]] QString checkpointStatus() const
    {
        return find<QLabel>(m_console->window(), "auditCheckpointStatus")->text();
    }
    bool pressF5();
    // A key press on the active main window, as a person would type it.
    bool press(int key, Qt::KeyboardModifiers modifiers);

    RealReceiver m_receiver;
    SystemClock m_systemClock;
    qint64 m_lowRisk = 0; // support's replay of crm
    qint64 m_highRisk = 0; // support's request for fulfillment
    qint64 m_highRiskDelivery = 0;
};

void TstWholeStory::initTestCase()
{
    QString error;
    QVERIFY2(m_receiver.start(&error), qPrintable(error));
    setUpSettings();
}

void TstWholeStory::cleanupTestCase()
{
    m_console.reset();
    m_receiver.stop();
}

void TstWholeStory::cleanup()
{
    ReplayDialog::setNextAnswers({});
    ReplayDialog::clearShown();
    Prompter::setNextAnswers({});
    Prompter::clearAskedQuestions();
    if (QTest::currentTestFailed())
        qWarning("redrived log:\n%s", m_receiver.log().right(4000).constData());
}

bool TstWholeStory::signIn(const QString &person)
{
    return signInTo(
        person, m_receiver.databasePath(), m_receiver.token(person), m_receiver.adminUrl(), m_systemClock);
}

QPushButton *TstWholeStory::openDelivery(
    qint64 eventId, const QString &providerId, const QString &destination)
{
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::EventsPage);
    search(providerId);
    if (!QTest::qWaitFor(
            [&] {
                return table()->model()->rowCount() == 1
                    && table()->model()->index(0, 0).data(EventTableModel::LoadedRole).toBool();
            },
            kGuiWait)
        || !selectRow(0))
        return nullptr;
    auto *deliveries = find<QTreeWidget>(w, "deliveryTree");
    // The detail of this event, not the one shown before it.
    if (!QTest::qWaitFor(
            [&] { return w->detail()->eventId() == eventId && deliveries->topLevelItemCount() == 2; },
            kGuiWait))
        return nullptr;
    for (int i = 0; i < deliveries->topLevelItemCount(); ++i) {
        if (deliveries->topLevelItem(i)->text(0) == destination)
            deliveries->setCurrentItem(deliveries->topLevelItem(i));
    }
    if (!deliveries->currentItem() || deliveries->currentItem()->text(0) != destination)
        return nullptr;
    return find<QPushButton>(w, "replayDeliveryButton");
}

qint64 TstWholeStory::maxReplayId()
{
    return m_receiver.scalar(QStringLiteral("SELECT coalesce(max(id), 0) FROM replays")).toLongLong();
}

qint64 TstWholeStory::waitForReplayAfter(qint64 before)
{
    if (!m_receiver.waitForValue(
            QStringLiteral("SELECT count(*) FROM replays WHERE id > ?"), { before }, 1, kGuiWait))
        return 0;
    return maxReplayId();
}

QString TstWholeStory::replayStatus(qint64 id)
{
    return m_receiver.scalar(QStringLiteral("SELECT status FROM replays WHERE id = ?"), { id }).toString();
}

bool TstWholeStory::pressF5()
{
    MainWindow *w = m_console->window();
    QApplication::setActiveWindow(w);
    if (!QTest::qWaitForWindowActive(w))
        return false;
    QSignalSpy updated(m_console->audit(), &AuditController::statusUpdated);
    QTest::keyClick(w, Qt::Key_F5);
    return updated.wait(kGuiWait);
}

bool TstWholeStory::press(int key, Qt::KeyboardModifiers modifiers)
{
    MainWindow *w = m_console->window();
    QApplication::setActiveWindow(w);
    if (!QTest::qWaitForWindowActive(w))
        return false;
    QTest::keyClick(w, Qt::Key(key), modifiers);
    return true;
}

// Support: crm (low risk) refused the order; the endpoint is fixed; replay that one delivery
// from the event detail. No approval is needed; the console goes to the request on the
// Replays page, which follows it to "completed: 1 succeeded".
void TstWholeStory::supportRepairsALowRiskDeliveryFromTheDetail()
{
    m_receiver.crm().enqueue(410);
    QString error;
    const qint64 event = m_receiver.ingestAndSettle("story-order-1042", &error);
    QVERIFY2(event, qPrintable(error));
    const qint64 crm = m_receiver.deliveryId(event, QStringLiteral("crm"));
    QCOMPARE(m_receiver.scalar(QStringLiteral("SELECT status FROM deliveries WHERE id = ?"), { crm }),
        QVariant(QStringLiteral("dead")));

    QVERIFY(signIn(QStringLiteral("sam-support")));
    MainWindow *w = m_console->window();
    QVERIFY(!w->isPageAvailable(MainWindow::ApprovalsPage)); // support never decides
    QPushButton *replay = openDelivery(event, QStringLiteral("story-order-1042"), QStringLiteral("crm"));
    QVERIFY(replay);
    QTRY_VERIFY_WITH_TIMEOUT(replay->isEnabled(), kGuiWait);
    const qint64 before = maxReplayId();
    ReplayDialog::setNextAnswers(
        { { true, QStringLiteral("crm endpoint fixed"), QStringLiteral("SUP-1042"), false } });
    QTest::mouseClick(replay, Qt::LeftButton);
    m_lowRisk = waitForReplayAfter(before);
    QVERIFY(m_lowRisk > 0);
    QCOMPARE(ReplayDialog::shown().size(), 1);
    QVERIFY(!ReplayDialog::shown().first().preview.requiresApproval);

    QTRY_COMPARE_WITH_TIMEOUT(w->currentPage(), MainWindow::ReplaysPage, kGuiWait);
    QTRY_COMPARE_WITH_TIMEOUT(m_console->replayHistory()->currentReplayId(), m_lowRisk, kGuiWait);
    QTRY_VERIFY2_WITH_TIMEOUT(replayOutcome().contains(QStringLiteral("completed: 1 succeeded")),
        qPrintable(replayOutcome()), kGuiWait);
    QCOMPARE(replayStatus(m_lowRisk), QStringLiteral("completed"));
    QCOMPARE(m_receiver.scalar(QStringLiteral("SELECT status FROM deliveries WHERE id = ?"), { crm }),
        QVariant(QStringLiteral("succeeded")));
}

// Support: fulfillment (high risk) lost an order too. Support may ask, not act: the request
// waits for an operator, and the Replays page says so.
void TstWholeStory::supportRequestsAHighRiskReplay()
{
    m_receiver.fulfillment().enqueue(410);
    QString error;
    const qint64 event = m_receiver.ingestAndSettle("story-order-1043", &error);
    QVERIFY2(event, qPrintable(error));
    m_highRiskDelivery = m_receiver.deliveryId(event, QStringLiteral("fulfillment"));
    const int fulfillmentBefore = m_receiver.fulfillment().requestCount();

    QVERIFY(m_console); // still sam-support's console
    QPushButton *replay
        = openDelivery(event, QStringLiteral("story-order-1043"), QStringLiteral("fulfillment"));
    QVERIFY(replay);
    QTRY_VERIFY_WITH_TIMEOUT(replay->isEnabled(), kGuiWait);
    const qint64 before = maxReplayId();
    ReplayDialog::setNextAnswers(
        { { true, QStringLiteral("warehouse API restored"), QStringLiteral("SUP-1043"), false } });
    QTest::mouseClick(replay, Qt::LeftButton);
    m_highRisk = waitForReplayAfter(before);
    QVERIFY(m_highRisk > 0);
    const ReplayDialog::Shown shown = ReplayDialog::shown().first();
    QVERIFY(shown.preview.requiresApproval);
    QVERIFY(shown.reasons.contains(QStringLiteral("fulfillment is a high-risk destination")));
    QCOMPARE(replayStatus(m_highRisk), QStringLiteral("pending_approval"));
    QCOMPARE(m_receiver
                 .scalar(QStringLiteral("SELECT delivery_id FROM replay_items WHERE replay_id = ?"),
                     { m_highRisk })
                 .toLongLong(),
        m_highRiskDelivery);

    QTRY_COMPARE_WITH_TIMEOUT(m_console->replayHistory()->currentReplayId(), m_highRisk, kGuiWait);
    QTRY_VERIFY2_WITH_TIMEOUT(replayOutcome().contains(QStringLiteral("waiting for approval")),
        qPrintable(replayOutcome()), kGuiWait);
    QCOMPARE(m_receiver.fulfillment().requestCount(), fulfillmentBefore); // nothing sent yet
}

// The operator opens the console on another page and is told a decision waits; browses the
// frozen selection (the very delivery support chose, dead at freeze) and approves with a
// reason. The replay runs and the Replays page shows it completed.
void TstWholeStory::operatorSeesTheRequestBrowsesAndApproves()
{
    QVERIFY(m_highRisk > 0);
    QVERIFY(signIn(QStringLiteral("ana-operator")));
    MainWindow *w = m_console->window();
    QCOMPARE(w->currentPage(), MainWindow::EventsPage);
    auto *tabs = find<QTabWidget>(w, "pages");
    QVERIFY(tabs);
    QTRY_COMPARE_WITH_TIMEOUT(
        tabs->tabText(MainWindow::ApprovalsPage), QStringLiteral("&Approvals (1)"), kGuiWait);

    QVERIFY(press(Qt::Key_6, Qt::ControlModifier)); // the keyboard path to the inbox
    QTRY_COMPARE_WITH_TIMEOUT(w->currentPage(), MainWindow::ApprovalsPage, kGuiWait);
    auto *inbox = find<QTableView>(w, "approvalTable");
    QTRY_COMPARE_WITH_TIMEOUT(inbox->model()->rowCount(), 1, kGuiWait);
    QCOMPARE(inbox->model()->index(0, 0).data(ApprovalModel::ReplayIdRole).toLongLong(), m_highRisk);
    QCOMPARE(inbox->model()->index(0, ApprovalModel::RequestedByColumn).data().toString(),
        QStringLiteral("sam-support"));
    QCOMPARE(
        inbox->model()->index(0, ApprovalModel::TicketColumn).data().toString(), QStringLiteral("SUP-1043"));
    inbox->selectRow(0);
    auto *items = find<QTableView>(w, "approvalItemsTable");
    QTRY_COMPARE_WITH_TIMEOUT(items->model()->rowCount(), 1, kGuiWait);
    const ReplayItem *item = m_console->approvals()->items()->itemAt(items->model()->index(0, 0));
    QVERIFY(item);
    QCOMPARE(item->deliveryId, m_highRiskDelivery);
    QCOMPARE(item->destination, QStringLiteral("fulfillment"));
    QVERIFY(item->frozenStatus == DeliveryStatus::Dead);

    const int fulfillmentBefore = m_receiver.fulfillment().requestCount();
    auto *approve = find<QPushButton>(w, "approveButton");
    QVERIFY(approve->isEnabled());
    Prompter::setNextAnswers({ { true, QStringLiteral("confirmed with the warehouse") } });
    QTest::mouseClick(approve, Qt::LeftButton);
    QCOMPARE(Prompter::askedQuestions().size(), 1);
    QCOMPARE(Prompter::askedQuestions().first().environment, QStringLiteral("production"));
    QVERIFY(m_receiver.waitForValue(QStringLiteral("SELECT status FROM replays WHERE id = ?"), { m_highRisk },
        QStringLiteral("completed")));
    QCOMPARE(
        m_receiver.scalar(QStringLiteral("SELECT approved_by FROM replays WHERE id = ?"), { m_highRisk }),
        QVariant(QStringLiteral("ana-operator")));
    QCOMPARE(m_receiver.fulfillment().requestCount(), fulfillmentBefore + 1);
    QTRY_COMPARE_WITH_TIMEOUT(
        tabs->tabText(MainWindow::ApprovalsPage), QStringLiteral("&Approvals"), kGuiWait);

    // On the Replays page, by the keyboard: the request, completed.
    QVERIFY(press(Qt::Key_5, Qt::ControlModifier));
    QTRY_COMPARE_WITH_TIMEOUT(w->currentPage(), MainWindow::ReplaysPage, kGuiWait);
    auto *list = find<QTableView>(w, "replayTable");
    const ReplayListModel *model = m_console->replayHistory()->model();
    QTRY_VERIFY_WITH_TIMEOUT(model->indexOf(m_highRisk).isValid(), kGuiWait);
    list->selectRow(model->indexOf(m_highRisk).row());
    QTRY_COMPARE_WITH_TIMEOUT(m_console->replayHistory()->currentReplayId(), m_highRisk, kGuiWait);
    QTRY_VERIFY2_WITH_TIMEOUT(replayOutcome().contains(QStringLiteral("completed: 1 succeeded")),
        qPrintable(replayOutcome()), kGuiWait);
    QVERIFY2(
        replayOutcome().contains(QStringLiteral("Approved by ana-operator: confirmed with the warehouse")),
        qPrintable(replayOutcome()));
}

// A requester cannot decide their own request: not in the console (the buttons stay disabled
// and say why) and not by calling the admin API directly.
void TstWholeStory::nobodyApprovesTheirOwnRequest()
{
    m_receiver.fulfillment().enqueue(410);
    QString error;
    const qint64 event = m_receiver.ingestAndSettle("story-order-1044", &error);
    QVERIFY2(event, qPrintable(error));
    const qint64 dead = m_receiver.deliveryId(event, QStringLiteral("fulfillment"));

    QVERIFY(signIn(QStringLiteral("omar-operator")));
    QPushButton *replay
        = openDelivery(event, QStringLiteral("story-order-1044"), QStringLiteral("fulfillment"));
    QVERIFY(replay);
    QTRY_VERIFY_WITH_TIMEOUT(replay->isEnabled(), kGuiWait);
    const qint64 before = maxReplayId();
    ReplayDialog::setNextAnswers({ { true, QStringLiteral("my own request"), QString(), false } });
    QTest::mouseClick(replay, Qt::LeftButton);
    const qint64 own = waitForReplayAfter(before);
    QVERIFY(own > 0);
    QCOMPARE(replayStatus(own), QStringLiteral("pending_approval"));

    MainWindow *w = m_console->window();
    w->showPage(MainWindow::ApprovalsPage);
    auto *inbox = find<QTableView>(w, "approvalTable");
    int row = -1;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (int r = 0; r < inbox->model()->rowCount(); ++r) {
                if (inbox->model()->index(r, 0).data(ApprovalModel::ReplayIdRole).toLongLong() == own)
                    row = r;
            }
            return row >= 0;
        }(),
        kGuiWait);
    inbox->selectRow(row);
    QVERIFY(!find<QPushButton>(w, "approveButton")->isEnabled());
    QVERIFY(!find<QPushButton>(w, "rejectButton")->isEnabled());
    QVERIFY(
        find<QLabel>(w, "approvalEffect")->text().contains(QStringLiteral("another operator must decide")));

    // The receiver refuses it too, whatever the client.
    AdminClient client(m_receiver.adminUrl(), m_receiver.token(QStringLiteral("omar-operator")), {});
    ApiReply *reply = client.post(QStringLiteral("replays/%1/approve").arg(own),
        { { QStringLiteral("reason"), QStringLiteral("trust me") } });
    QSignalSpy done(reply, &ApiReply::finished);
    QVERIFY(done.wait(kGuiWait));
    const auto refused = done.first().at(1).value<ApiError>();
    QVERIFY(!refused.ok());
    QCOMPARE(replayStatus(own), QStringLiteral("pending_approval"));
    QCOMPARE(m_receiver.scalar(QStringLiteral("SELECT status FROM deliveries WHERE id = ?"), { dead }),
        QVariant(QStringLiteral("dead")));
}

// The auditor: who asked, who approved, why — and the chain intact to the receiver's own
// signed checkpoint, checked by the console without a click.
void TstWholeStory::auditorSeesItAllWithTheChainIntact()
{
    QVERIFY(m_highRisk > 0);
    QVERIFY(signIn(QStringLiteral("aude-auditor")));
    MainWindow *w = m_console->window();
    QVERIFY(!w->isPageAvailable(MainWindow::ApprovalsPage));
    QVERIFY(press(Qt::Key_7, Qt::ControlModifier));
    QTRY_COMPARE_WITH_TIMEOUT(w->currentPage(), MainWindow::AuditPage, kGuiWait);
    QTRY_VERIFY2_WITH_TIMEOUT(
        auditStatus().startsWith(QStringLiteral("Chain intact to #")), qPrintable(auditStatus()), kGuiWait);
    QTRY_VERIFY2_WITH_TIMEOUT(
        auditStatus().contains(QStringLiteral(" verified (key ")), qPrintable(auditStatus()), kGuiWait);

    auto *target = find<QLineEdit>(w, "auditTargetFilter");
    QTest::keyClicks(target, QStringLiteral("replay:%1").arg(m_highRisk));
    QTest::keyClick(target, Qt::Key_Return);
    auto *table = find<QTableView>(w, "auditTable");
    QStringList seen;
    QTRY_VERIFY2_WITH_TIMEOUT(
        [&] {
            seen.clear();
            for (int r = 0; r < table->model()->rowCount(); ++r)
                seen << table->model()->index(r, AuditModel::ActorColumn).data().toString() + u' '
                        + table->model()->index(r, AuditModel::ActionColumn).data().toString();
            return seen.contains(QStringLiteral("sam-support replay_requested"))
                && seen.contains(QStringLiteral("ana-operator replay_approved"));
        }(),
        qPrintable(seen.join(u", ")), kGuiWait);
    QTest::mouseClick(find<QPushButton>(w, "auditClearFilter"), Qt::LeftButton);
}

// Someone with the database file: first cuts the newest entries after the auditor saved a
// checkpoint, then rewrites support's reason. The console names both.
void TstWholeStory::auditorCatchesAnEditAndACutTail()
{
    QVERIFY(m_console && m_highRisk > 0);
    MainWindow *w = m_console->window();
    QTest::mouseClick(find<QPushButton>(w, "saveCheckpointButton"), Qt::LeftButton);
    const qint64 head = m_receiver.scalar(QStringLiteral("SELECT max(seq) FROM audit_log")).toLongLong();
    QTRY_VERIFY2_WITH_TIMEOUT(checkpointStatus().startsWith(
                                  QStringLiteral("Nothing changed up to the saved checkpoint #%1").arg(head)),
        qPrintable(checkpointStatus()), kGuiWait);
    // The receiver signs this head too, and keeps it next to its key as the last one it signed.
    QVERIFY(pressF5());
    QTRY_VERIFY2_WITH_TIMEOUT(auditStatus().contains(QStringLiteral("checkpoint #%1 verified").arg(head)),
        qPrintable(auditStatus()), kGuiWait);

    QString error;
    QVERIFY2(m_receiver.tamper({ QStringLiteral("DROP TRIGGER audit_log_no_update"),
                                   QStringLiteral("DROP TRIGGER audit_log_no_delete"),
                                   QStringLiteral("DELETE FROM audit_log WHERE seq >= %1").arg(head - 1) },
                 &error),
        qPrintable(error));
    QVERIFY(pressF5());
    // The receiver refuses to sign the shorter log and records the refusal (it takes #head-1):
    // the console shows the refusal, and the saved checkpoint still finds #head missing.
    QTRY_VERIFY2_WITH_TIMEOUT(auditStatus().contains(QStringLiteral("does not extend the last signed head")),
        qPrintable(auditStatus()), kGuiWait);
    QTRY_VERIFY2_WITH_TIMEOUT(checkpointStatus().contains(
                                  QStringLiteral("the tail was cut off, first missing entry #%1").arg(head)),
        qPrintable(checkpointStatus()), kGuiWait);

    const qint64 requested
        = m_receiver
              .scalar(QStringLiteral(
                          "SELECT seq FROM audit_log WHERE action = 'replay_requested' AND target = ?"),
                  { QStringLiteral("replay:%1").arg(m_highRisk) })
              .toLongLong();
    QVERIFY(requested > 0);
    QVERIFY2(
        m_receiver.tamper(
            { QStringLiteral("UPDATE audit_log SET reason = 'routine check' WHERE seq = %1").arg(requested) },
            &error),
        qPrintable(error));
    QVERIFY(pressF5());
    QTRY_VERIFY2_WITH_TIMEOUT(
        auditStatus().startsWith(QStringLiteral("Chain broken at #%1: ").arg(requested)),
        qPrintable(auditStatus()), kGuiWait);
    QVERIFY2(checkpointStatus().contains(QStringLiteral("first changed entry #%1").arg(requested)),
        qPrintable(checkpointStatus()));
}

QTEST_MAIN(TstWholeStory)
#include "tst_wholestory.moc"
