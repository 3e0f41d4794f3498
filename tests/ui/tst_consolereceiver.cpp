// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "approvals/approvalmodel.h"
#include "common/prompter.h"
#include "consoleguitest.h"
#include "newreplay/newreplaycontroller.h"
#include "newreplay/replaydialog.h"
#include "realreceiver.h"
#include "scriptabledestination.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

// The console's write side against the real receiver: both programs running, the console's
// requests answered by the same redrived users run, tokens made by `redrived token create`.
// Nothing here talks to a stand-in.
class TstConsoleReceiver : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void operatorApprovesWhatSupportRequested();
    void requesterCannotDecideOwnAndAnotherRejects();

private:
    // A console signed in as `person` (a token name of RealReceiver).
    bool signIn(const QString &person);
    // Opens the replay dialog for these deliveries and submits it with `reason`, typing the
    // confirmation when the preview asks for it. Returns the replay id the receiver created.
    qint64 requestReplay(const QList<qint64> &deliveries, const QString &reason);
    // Decides the pending request `replayId` on the Approvals page.
    bool decide(qint64 replayId, bool approve, const QString &reason);
    QString replayStatus(qint64 id);

    RealReceiver m_receiver;
    SystemClock m_systemClock;
};

void TstConsoleReceiver::initTestCase()
{
    QString error;
    QVERIFY2(m_receiver.start(&error), qPrintable(error));
    setUpSettings();
}

void TstConsoleReceiver::cleanupTestCase()
{
    m_console.reset();
    m_receiver.stop();
}

void TstConsoleReceiver::cleanup()
{
    if (QTest::currentTestFailed())
        qWarning("redrived log:\n%s", m_receiver.log().right(4000).constData());
}

bool TstConsoleReceiver::signIn(const QString &person)
{
    return signInTo(
        person, m_receiver.databasePath(), m_receiver.token(person), m_receiver.adminUrl(), m_systemClock);
}

QString TstConsoleReceiver::replayStatus(qint64 id)
{
    return m_receiver.scalar(QStringLiteral("SELECT status FROM replays WHERE id = ?"), { id }).toString();
}

qint64 TstConsoleReceiver::requestReplay(const QList<qint64> &deliveries, const QString &reason)
{
    const qint64 before
        = m_receiver.scalar(QStringLiteral("SELECT coalesce(max(id), 0) FROM replays")).toLongLong();
    m_console->newReplay()->replayDeliveries(deliveries);
    ReplayDialog *dialog = nullptr;
    if (!QTest::qWaitFor([&] { return (dialog = m_console->newReplay()->dialog()) != nullptr; }, kGuiWait))
        return 0;
    auto *submit = find<QPushButton>(dialog, "replaySubmit");
    auto *summary = find<QLabel>(dialog, "replaySummary");
    // The preview is the receiver's answer: wait until it is shown (its destinations listed).
    auto *destinations = find<QTableWidget>(dialog, "replayDestinations");
    if (!QTest::qWaitFor([&] { return destinations->rowCount() > 0; }, kGuiWait))
        return 0;
    QTest::keyClicks(find<QPlainTextEdit>(dialog, "replayReason"), reason);
    auto *confirm = find<QLineEdit>(dialog, "replayConfirm");
    if (confirm->isVisible())
        QTest::keyClicks(confirm, QStringLiteral("replay %1").arg(deliveries.size()));
    if (!submit->isEnabled()) {
        qWarning("submit stays disabled: %s", qPrintable(summary->text()));
        return 0;
    }
    QTest::mouseClick(submit, Qt::LeftButton);
    if (!m_receiver.waitForValue(
            QStringLiteral("SELECT count(*) FROM replays WHERE id > ?"), { before }, 1, kGuiWait))
        return 0;
    return m_receiver.scalar(QStringLiteral("SELECT max(id) FROM replays")).toLongLong();
}

bool TstConsoleReceiver::decide(qint64 replayId, bool approve, const QString &reason)
{
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::ApprovalsPage);
    auto *inbox = find<QTableView>(w, "approvalTable");
    int row = -1;
    (void)QTest::qWaitFor(
        [&] {
            for (int r = 0; r < inbox->model()->rowCount(); ++r) {
                if (inbox->model()->index(r, 0).data(ApprovalModel::ReplayIdRole).toLongLong() == replayId)
                    row = r;
            }
            return row >= 0;
        },
        kGuiWait);
    if (row < 0)
        return false;
    inbox->selectRow(row);
    auto *button = find<QPushButton>(w, approve ? "approveButton" : "rejectButton");
    if (!button->isEnabled())
        return false;
    Prompter::clearAskedQuestions();
    Prompter::setNextAnswers({ { true, reason } });
    QTest::mouseClick(button, Qt::LeftButton);
    return Prompter::askedQuestions().size() == 1;
}

// The four-eyes path end to end: support asks for a high-risk replay, an operator approves it
// in the inbox, and the receiver executes it — the second request reaches the destination.
void TstConsoleReceiver::operatorApprovesWhatSupportRequested()
{
    m_receiver.fulfillment().enqueue(410); // the first delivery to fulfillment dies
    QString error;
    const qint64 event = m_receiver.ingestAndSettle("approve-flow-1", &error);
    QVERIFY2(event, qPrintable(error));
    const qint64 dead = m_receiver.deliveryId(event, QStringLiteral("fulfillment"));
    QCOMPARE(
        m_receiver.scalar(QStringLiteral("SELECT status FROM deliveries WHERE id = ?"), { dead }).toString(),
        QStringLiteral("dead"));
    const int sentBefore = m_receiver.fulfillment().requestCount();

    QVERIFY(signIn(QStringLiteral("sam-support")));
    const qint64 replay = requestReplay({ dead }, QStringLiteral("fulfillment endpoint fixed"));
    QVERIFY(replay > 0);
    QCOMPARE(replayStatus(replay), QStringLiteral("pending_approval"));
    QCOMPARE(m_receiver.scalar(QStringLiteral("SELECT requested_by FROM replays WHERE id = ?"), { replay })
                 .toString(),
        QStringLiteral("sam-support"));

    QVERIFY(signIn(QStringLiteral("ana-operator")));
    QVERIFY(decide(replay, true, QStringLiteral("checked the order with the customer")));
    // The receiver accepted the console's decision: no error shown, the request moved on.
    QVERIFY(m_receiver.waitForValue(QStringLiteral("SELECT approved_by FROM replays WHERE id = ?"),
        { replay }, QStringLiteral("ana-operator")));
    QVERIFY2(!find<QLabel>(m_console->window(), "approvalSummary")
                  ->text()
                  .contains(QStringLiteral("not approved")),
        qPrintable(find<QLabel>(m_console->window(), "approvalSummary")->text()));
    QVERIFY(m_receiver.waitForValue(
        QStringLiteral("SELECT status FROM replays WHERE id = ?"), { replay }, QStringLiteral("completed")));
    QVERIFY(m_receiver.waitForValue(
        QStringLiteral("SELECT status FROM deliveries WHERE id = ?"), { dead }, QStringLiteral("succeeded")));
    QCOMPARE(m_receiver.fulfillment().requestCount(), sentBefore + 1);
    // The decision is in the audit chain with the approver's reason.
    QCOMPARE(m_receiver
                 .scalar(QStringLiteral("SELECT actor || '|' || reason FROM audit_log WHERE action = "
                                        "'replay_approved' AND target = ?"),
                     { QStringLiteral("replay:%1").arg(replay) })
                 .toString(),
        QStringLiteral("ana-operator|checked the order with the customer"));
}

// Nobody decides their own request: the inbox does not offer it, and another operator's
// rejection (with a reason) is accepted by the receiver and nothing is sent.
void TstConsoleReceiver::requesterCannotDecideOwnAndAnotherRejects()
{
    m_receiver.fulfillment().enqueue(410);
    QString error;
    const qint64 event = m_receiver.ingestAndSettle("reject-flow-1", &error);
    QVERIFY2(event, qPrintable(error));
    const qint64 dead = m_receiver.deliveryId(event, QStringLiteral("fulfillment"));
    const int sentBefore = m_receiver.fulfillment().requestCount();

    QVERIFY(signIn(QStringLiteral("ana-operator")));
    const qint64 replay = requestReplay({ dead }, QStringLiteral("retry after the outage"));
    QVERIFY(replay > 0);
    QCOMPARE(replayStatus(replay), QStringLiteral("pending_approval"));
    QVERIFY(!decide(replay, true, QStringLiteral("my own")));
    QVERIFY(!find<QPushButton>(m_console->window(), "rejectButton")->isEnabled());

    QVERIFY(signIn(QStringLiteral("omar-operator")));
    QVERIFY(decide(replay, false, QStringLiteral("the customer cancelled the order")));
    QVERIFY(m_receiver.waitForValue(
        QStringLiteral("SELECT status FROM replays WHERE id = ?"), { replay }, QStringLiteral("rejected")));
    QCOMPARE(m_receiver
                 .scalar(QStringLiteral("SELECT actor || '|' || reason FROM audit_log WHERE action = "
                                        "'replay_rejected' AND target = ?"),
                     { QStringLiteral("replay:%1").arg(replay) })
                 .toString(),
        QStringLiteral("omar-operator|the customer cancelled the order"));
    QCOMPARE(m_receiver.fulfillment().requestCount(), sentBefore);
    QCOMPARE(
        m_receiver.scalar(QStringLiteral("SELECT status FROM deliveries WHERE id = ?"), { dead }).toString(),
        QStringLiteral("dead"));
}

QTEST_MAIN(TstConsoleReceiver)
#include "tst_consolereceiver.moc"
