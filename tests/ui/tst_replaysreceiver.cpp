// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "consoleguitest.h"
#include "detail/eventdetailview.h"
#include "newreplay/newreplaycontroller.h"
#include "newreplay/replaydialog.h"
#include "realreceiver.h"
#include "replays/replayhistorycontroller.h"
#include "replays/replayitemsmodel.h"
#include "replays/replaylistmodel.h"
#include "scriptabledestination.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTreeWidget>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

// The Replays page against the real receiver: the request made in the replay dialog shows up
// on the page, its outcome follows the receiver's execution, and a delivery opens its event
// at the attempt the replay caused. Nothing here talks to a stand-in.
class TstReplaysReceiver : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void supportFollowsALowRiskReplayToItsEvent();
    void pollsOnlyWhileLiveAndVisible();
    void auditorReadsReplays();

private:
    bool signIn(const QString &person);
    // Dead-letters a crm delivery and requests its replay from the dialog; the replay's id.
    qint64 replayDeadCrmDelivery(const QByteArray &deliveryId, qint64 *eventId, qint64 *delivery);
    [[nodiscard]] QString outcomeText() const;

    RealReceiver m_receiver;
    SystemClock m_systemClock;
};

void TstReplaysReceiver::initTestCase()
{
    QString error;
    QVERIFY2(m_receiver.start(&error), qPrintable(error));
    setUpSettings();
}

void TstReplaysReceiver::cleanupTestCase()
{
    m_console.reset();
    m_receiver.stop();
}

void TstReplaysReceiver::cleanup()
{
    if (QTest::currentTestFailed())
        qWarning("redrived log:\n%s", m_receiver.log().right(4000).constData());
}

bool TstReplaysReceiver::signIn(const QString &person)
{
    return signInTo(
        person, m_receiver.databasePath(), m_receiver.token(person), m_receiver.adminUrl(), m_systemClock);
}

QString TstReplaysReceiver::outcomeText() const
{
    return find<QLabel>(m_console->window(), "replayOutcome")->text();
}

qint64 TstReplaysReceiver::replayDeadCrmDelivery(
    const QByteArray &deliveryId, qint64 *eventId, qint64 *delivery)
{
    m_receiver.crm().enqueue(410); // the first delivery to crm dies
    QString error;
    *eventId = m_receiver.ingestAndSettle(deliveryId, &error);
    if (!*eventId) {
        qWarning("ingest failed: %s", qPrintable(error));
        return 0;
    }
    *delivery = m_receiver.deliveryId(*eventId, QStringLiteral("crm"));
    const qint64 before
        = m_receiver.scalar(QStringLiteral("SELECT coalesce(max(id), 0) FROM replays")).toLongLong();
    m_console->newReplay()->replayDeliveries({ *delivery });
    ReplayDialog *dialog = nullptr;
    if (!QTest::qWaitFor([&] { return (dialog = m_console->newReplay()->dialog()) != nullptr; }, kGuiWait))
        return 0;
    auto *destinations = find<QTableWidget>(dialog, "replayDestinations");
    if (!QTest::qWaitFor([&] { return destinations->rowCount() > 0; }, kGuiWait))
        return 0;
    QTest::keyClicks(find<QPlainTextEdit>(dialog, "replayReason"), QStringLiteral("crm was down"));
    auto *submit = find<QPushButton>(dialog, "replaySubmit");
    if (!submit->isEnabled())
        return 0;
    QTest::mouseClick(submit, Qt::LeftButton);
    if (!m_receiver.waitForValue(
            QStringLiteral("SELECT count(*) FROM replays WHERE id > ?"), { before }, 1, kGuiWait))
        return 0;
    return m_receiver.scalar(QStringLiteral("SELECT max(id) FROM replays")).toLongLong();
}

// Support replays a dead low-risk delivery: the console takes them to the new request, which
// completes with "completed: 1 succeeded"; its delivery is listed with its outcome, and opening
// it shows the event on the Events page with the replay's attempt selected.
void TstReplaysReceiver::supportFollowsALowRiskReplayToItsEvent()
{
    QVERIFY(signIn(QStringLiteral("sam-support")));
    MainWindow *w = m_console->window();
    QVERIFY(w->isPageAvailable(MainWindow::ReplaysPage));
    qint64 event = 0;
    qint64 delivery = 0;
    const qint64 replay = replayDeadCrmDelivery("replays-page-1", &event, &delivery);
    QVERIFY(replay > 0);

    ReplayHistoryController *page = m_console->replayHistory();
    QTRY_COMPARE_WITH_TIMEOUT(w->currentPage(), MainWindow::ReplaysPage, kGuiWait);
    QTRY_COMPARE_WITH_TIMEOUT(page->currentReplayId(), replay, kGuiWait);
    QTRY_VERIFY2_WITH_TIMEOUT(outcomeText().contains(QStringLiteral("completed: 1 succeeded")),
        qPrintable(outcomeText()), kGuiWait);
    QVERIFY2(outcomeText().contains(QStringLiteral("Requested by sam-support: crm was down")),
        qPrintable(outcomeText()));
    QCOMPARE(
        m_receiver.scalar(QStringLiteral("SELECT status FROM replays WHERE id = ?"), { replay }).toString(),
        QStringLiteral("completed"));
    QTRY_VERIFY_WITH_TIMEOUT(!page->isPolling(), kGuiWait); // finished: nothing left to follow

    // The list row carries the counts the receiver reports.
    const ReplayListModel *list = page->model();
    const ReplayRecord *r = list->replayAt(list->indexOf(replay));
    QVERIFY(r);
    QCOMPARE(r->status.value(), std::optional<ReplayStatus>(ReplayStatus::Completed));
    QCOMPARE(r->sent, 1);
    QCOMPARE(r->succeeded, 1);
    QCOMPARE(r->unsent(), 0);
    QVERIFY(r->finishedAt.ms);

    // Its one delivery, with the replay's outcome.
    auto *itemsTable = find<QTableView>(w, "replayItemsTable");
    QVERIFY(!itemsTable->accessibleName().isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(itemsTable->model()->rowCount(), 1, kGuiWait);
    QTRY_COMPARE_WITH_TIMEOUT(page->items()->itemAt(page->items()->index(0, 0))->state.value(),
        std::optional<ReplayItemState>(ReplayItemState::Succeeded), kGuiWait);
    const ReplayItem *item = page->items()->itemAt(page->items()->index(0, 0));
    QCOMPARE(item->deliveryId, delivery);
    QCOMPARE(item->eventId, std::optional<qint64>(event));
    QCOMPARE(item->currentStatus.value(), std::optional<DeliveryStatus>(DeliveryStatus::Succeeded));
    QCOMPARE(itemsTable->model()->index(0, ReplayItemsModel::OutcomeColumn).data().toString(),
        QStringLiteral("succeeded"));

    // Enter on the delivery: the Events page, the event's detail, the replay's attempt current.
    itemsTable->setFocus();
    itemsTable->setCurrentIndex(itemsTable->model()->index(0, 0));
    QVERIFY(find<QPushButton>(w, "replayOpenEventButton")->isEnabled());
    QTest::keyClick(itemsTable, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(w->currentPage(), MainWindow::EventsPage, kGuiWait);
    auto *attempts = find<QTreeWidget>(w, "attemptTree");
    QTRY_VERIFY_WITH_TIMEOUT(attempts->currentItem() != nullptr, kGuiWait);
    QCOMPARE(w->detail()->eventId(), event);
    QCOMPARE(
        attempts->currentItem()->text(3), QStringLiteral("replay #%1").arg(replay)); // the Trigger column
    QCOMPARE(attempts->currentItem()->text(1), QStringLiteral("crm"));
    auto *tabs = find<QTabWidget>(w, "detailTabs");
    QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("Attempts"));
}

// While the selected replay executes, the page follows it; hidden, it stops asking; shown
// again, it resumes — and it stops for good once the replay has finished.
void TstReplaysReceiver::pollsOnlyWhileLiveAndVisible()
{
    QVERIFY(signIn(QStringLiteral("sam-support")));
    MainWindow *w = m_console->window();
    ReplayHistoryController *page = m_console->replayHistory();
    // The replay's attempt hangs until crm's 3 s timeout: the replay executes that long.
    ScriptableDestination::Response hang;
    hang.hang = true;
    m_receiver.crm().enqueue(410);
    QString error;
    const qint64 event = m_receiver.ingestAndSettle("replays-page-live", &error);
    QVERIFY2(event, qPrintable(error));
    m_receiver.crm().enqueue(hang);
    const qint64 delivery = m_receiver.deliveryId(event, QStringLiteral("crm"));
    const qint64 before
        = m_receiver.scalar(QStringLiteral("SELECT coalesce(max(id), 0) FROM replays")).toLongLong();
    m_console->newReplay()->replayDeliveries({ delivery });
    ReplayDialog *dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((dialog = m_console->newReplay()->dialog()) != nullptr, kGuiWait);
    auto *destinations = find<QTableWidget>(dialog, "replayDestinations");
    QTRY_VERIFY_WITH_TIMEOUT(destinations->rowCount() > 0, kGuiWait);
    QTest::keyClicks(find<QPlainTextEdit>(dialog, "replayReason"), QStringLiteral("watch it run"));
    QTest::mouseClick(find<QPushButton>(dialog, "replaySubmit"), Qt::LeftButton);
    QVERIFY(m_receiver.waitForValue(
        QStringLiteral("SELECT count(*) FROM replays WHERE id > ? AND status = 'executing'"), { before }, 1,
        kGuiWait));
    const qint64 replay = m_receiver.scalar(QStringLiteral("SELECT max(id) FROM replays")).toLongLong();

    QTRY_COMPARE_WITH_TIMEOUT(page->currentReplayId(), replay, kGuiWait);
    // The attempt hangs for crm's 3 s timeout: the page shows the replay executing meanwhile.
    QTRY_VERIFY2_WITH_TIMEOUT(outcomeText().contains(QStringLiteral("executing: 0 of 1 sent")),
        qPrintable(outcomeText()), kGuiWait);
    QVERIFY2(page->isPolling(), "the executing replay was not followed");

    // Hidden: the next tick stops the timer, while the receiver still executes the replay.
    w->showPage(MainWindow::EventsPage);
    QTRY_VERIFY_WITH_TIMEOUT(!page->isPolling(), 2 * ReplayHistoryController::kPollIntervalMs + 500);
    QCOMPARE(
        m_receiver.scalar(QStringLiteral("SELECT status FROM replays WHERE id = ?"), { replay }).toString(),
        QStringLiteral("executing"));

    // Shown again: the page refreshes and follows it to its end (the hung attempt failed).
    w->showPage(MainWindow::ReplaysPage);
    QTRY_VERIFY2_WITH_TIMEOUT(outcomeText().contains(QStringLiteral("completed: 0 succeeded, 1 failed")),
        qPrintable(outcomeText()), kGuiWait);
    QTRY_VERIFY_WITH_TIMEOUT(!page->isPolling(), kGuiWait);
    const ReplayItem *item = page->items()->itemAt(page->items()->index(0, 0));
    QVERIFY(item);
    QCOMPARE(item->state.value(), std::optional<ReplayItemState>(ReplayItemState::Failed));
}

// Auditors cannot replay but do review who replayed what: the page is theirs too.
void TstReplaysReceiver::auditorReadsReplays()
{
    const qint64 newest = m_receiver.scalar(QStringLiteral("SELECT max(id) FROM replays")).toLongLong();
    QVERIFY(newest > 0);
    QVERIFY(signIn(QStringLiteral("aude-auditor")));
    MainWindow *w = m_console->window();
    QVERIFY(w->isPageAvailable(MainWindow::ReplaysPage));
    w->showPage(MainWindow::ReplaysPage);
    auto *table = find<QTableView>(w, "replayTable");
    QVERIFY(!table->accessibleName().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(table->model()->rowCount() >= 2, kGuiWait);
    QCOMPARE(m_console->replayHistory()->model()->replayAt(table->model()->index(0, 0))->id, newest);
    QCOMPARE(table->model()->index(0, ReplayListModel::RequestedByColumn).data().toString(),
        QStringLiteral("sam-support"));
}

QTEST_MAIN(TstReplaysReceiver)
#include "tst_replaysreceiver.moc"
