// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "approvals/approvalmodel.h"
#include "approvals/approvalscontroller.h"
#include "common/prompter.h"
#include "consoleguitest.h"
#include "deadletters/deadlettermodel.h"
#include "events/eventtablemodel.h"
#include "newreplay/newreplaycontroller.h"
#include "newreplay/replaydialog.h"
#include "realreceiver.h"
#include "replays/replayitemsmodel.h"
#include "resolve/resolvecontroller.h"
#include "resolve/resolvedialog.h"
#include "scriptabledestination.h"

#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTreeWidget>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

// Replay where the user is, against the real receiver: from a delivery row of the event detail,
// from the events selection (succeeded deliveries left out unless asked for), from a dead-letter
// group; and the approvals inbox (count in the tab title, the frozen selection browsable,
// reject with a reason, one's own request not decidable). Resolve without replay the same way:
// a dead delivery from the event detail, a dead-letter group from its page, a cancelled one from
// the events selection. The dialogs and the prompts are answered through their seams; the
// receiver's database says what really happened.
class TstReplayFlowReceiver : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void supportReplaysADeadDeliveryFromTheEventDetail();
    void selectionLeavesSucceededDeliveriesOutUnlessAsked();
    void deadLetterGroupIsReplayedFromItsPage();
    void operatorBrowsesTheSelectionAndRejects();
    void supportResolvesADeadDeliveryFromTheEventDetail();
    void aDeadLetterGroupIsResolvedFromItsPage();
    void aCancelledResolveChangesNothing();

private:
    int groupRow(const QString &destination, const QString &category);
    bool signIn(const QString &person);
    bool showEvent(const QString &providerId);
    qint64 maxReplayId();
    qint64 waitForReplayAfter(qint64 before);
    QVariant scalar(const QString &sql, const QVariantList &binds = {})
    {
        return m_receiver.scalar(sql, binds);
    }

    RealReceiver m_receiver;
    SystemClock m_systemClock;
};

void TstReplayFlowReceiver::initTestCase()
{
    QString error;
    QVERIFY2(m_receiver.start(&error), qPrintable(error));
    setUpSettings();
}

void TstReplayFlowReceiver::cleanupTestCase()
{
    m_console.reset();
    m_receiver.stop();
}

void TstReplayFlowReceiver::cleanup()
{
    ReplayDialog::setNextAnswers({});
    ReplayDialog::clearShown();
    ResolveDialog::setNextAnswers({});
    ResolveDialog::clearShown();
    Prompter::setNextAnswers({});
    Prompter::clearAskedQuestions();
    if (QTest::currentTestFailed())
        qWarning("redrived log:\n%s", m_receiver.log().right(4000).constData());
}

bool TstReplayFlowReceiver::signIn(const QString &person)
{
    return signInTo(
        person, m_receiver.databasePath(), m_receiver.token(person), m_receiver.adminUrl(), m_systemClock);
}

bool TstReplayFlowReceiver::showEvent(const QString &providerId)
{
    m_console->window()->showPage(MainWindow::EventsPage);
    search(providerId);
    if (!QTest::qWaitFor(
            [&] {
                return table()->model()->rowCount() == 1
                    && table()->model()->index(0, 0).data(EventTableModel::LoadedRole).toBool();
            },
            kGuiWait))
        return false;
    return selectRow(0);
}

qint64 TstReplayFlowReceiver::maxReplayId()
{
    return scalar(QStringLiteral("SELECT coalesce(max(id), 0) FROM replays")).toLongLong();
}

qint64 TstReplayFlowReceiver::waitForReplayAfter(qint64 before)
{
    if (!m_receiver.waitForValue(
            QStringLiteral("SELECT count(*) FROM replays WHERE id > ?"), { before }, 1, kGuiWait))
        return 0;
    return maxReplayId();
}

void TstReplayFlowReceiver::supportReplaysADeadDeliveryFromTheEventDetail()
{
    m_receiver.crm().enqueue(410); // crm (low risk) dies; fulfillment succeeds
    QString error;
    const qint64 event = m_receiver.ingestAndSettle("detail-row-1", &error);
    QVERIFY2(event, qPrintable(error));
    const qint64 crm = m_receiver.deliveryId(event, QStringLiteral("crm"));
    const qint64 fulfillment = m_receiver.deliveryId(event, QStringLiteral("fulfillment"));
    QCOMPARE(scalar(QStringLiteral("SELECT status FROM deliveries WHERE id = ?"), { crm }).toString(),
        QStringLiteral("dead"));
    const int crmBefore = m_receiver.crm().requestCount();
    const int fulfillmentBefore = m_receiver.fulfillment().requestCount();

    QVERIFY(signIn(QStringLiteral("sam-support")));
    QVERIFY(showEvent(QStringLiteral("detail-row-1")));
    MainWindow *w = m_console->window();
    auto *deliveries = find<QTreeWidget>(w, "deliveryTree");
    QTRY_COMPARE_WITH_TIMEOUT(deliveries->topLevelItemCount(), 2, kGuiWait);
    QTreeWidgetItem *crmRow = nullptr;
    for (int i = 0; i < deliveries->topLevelItemCount(); ++i) {
        if (deliveries->topLevelItem(i)->text(0) == u"crm")
            crmRow = deliveries->topLevelItem(i);
    }
    QVERIFY(crmRow);
    deliveries->setCurrentItem(crmRow);
    auto *button = find<QPushButton>(w, "replayDeliveryButton");
    QVERIFY(button->isVisible());
    QVERIFY(button->isEnabled());
    QVERIFY(!button->accessibleName().isEmpty());
    const qint64 before = maxReplayId();
    ReplayDialog::setNextAnswers(
        { { true, QStringLiteral("crm endpoint restored"), QStringLiteral("INC-7"), false } });
    QTest::mouseClick(button, Qt::LeftButton);
    const qint64 replay = waitForReplayAfter(before);
    QVERIFY(replay > 0);
    // Only that delivery, low risk: no approval needed, it runs and crm gets it again.
    const auto shown = ReplayDialog::shown();
    QCOMPARE(shown.size(), 1);
    QCOMPARE(shown.first().preview.count, 1);
    QVERIFY(!shown.first().preview.requiresApproval);
    QVERIFY(shown.first().reasons.isEmpty());
    QCOMPARE(shown.first().environment, QStringLiteral("production"));
    QCOMPARE(
        scalar(QStringLiteral("SELECT count(*) FROM replay_items WHERE replay_id = ?"), { replay }).toInt(),
        1);
    QCOMPARE(scalar(QStringLiteral("SELECT delivery_id FROM replay_items WHERE replay_id = ?"), { replay })
                 .toLongLong(),
        crm);
    QVERIFY(m_receiver.waitForValue(
        QStringLiteral("SELECT status FROM deliveries WHERE id = ?"), { crm }, QStringLiteral("succeeded")));
    QCOMPARE(m_receiver.crm().requestCount(), crmBefore + 1);
    QCOMPARE(m_receiver.fulfillment().requestCount(), fulfillmentBefore);
    QCOMPARE(scalar(QStringLiteral("SELECT ticket FROM replays WHERE id = ?"), { replay }).toString(),
        QStringLiteral("INC-7"));
    (void)fulfillment;
}

void TstReplayFlowReceiver::selectionLeavesSucceededDeliveriesOutUnlessAsked()
{
    m_receiver.fulfillment().enqueue(410); // fulfillment dies; crm succeeds
    QString error;
    const qint64 event = m_receiver.ingestAndSettle("selection-1", &error);
    QVERIFY2(event, qPrintable(error));
    QCOMPARE(scalar(QStringLiteral("SELECT status FROM deliveries WHERE id = ?"),
                 { m_receiver.deliveryId(event, QStringLiteral("crm")) })
                 .toString(),
        QStringLiteral("succeeded"));

    QVERIFY(signIn(QStringLiteral("sam-support")));
    QVERIFY(showEvent(QStringLiteral("selection-1")));
    const qint64 before = maxReplayId();
    auto *replaySelected = find<QPushButton>(m_console->window(), "replaySelectedButton");
    QTRY_VERIFY(replaySelected->isEnabled());
    // First look, then cancel: only the dead fulfillment delivery is proposed.
    ReplayDialog::setNextAnswers({ { false, QString(), QString(), false } });
    QTest::mouseClick(replaySelected, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(ReplayDialog::shown().size(), 1, kGuiWait);
    ReplayDialog::Shown first = ReplayDialog::shown().first();
    QCOMPARE(first.preview.count, 1);
    QCOMPARE(first.preview.alreadySucceeded, 0);
    QCOMPARE(first.preview.destinations.size(), 1);
    QCOMPARE(first.preview.destinations.first().name, QStringLiteral("fulfillment"));
    QCOMPARE(first.succeededOffered, 1);
    QVERIFY(!first.succeededIncluded);
    QCOMPARE(first.reasons, QStringList { QStringLiteral("fulfillment is a high-risk destination") });
    // Asking for the succeeded one previews again with both, and says so.
    ReplayDialog::clearShown();
    ReplayDialog::setNextAnswers({ { false, QString(), QString(), true } });
    QTest::mouseClick(replaySelected, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(ReplayDialog::shown().size(), 2, kGuiWait);
    const ReplayDialog::Shown both = ReplayDialog::shown().last();
    QVERIFY(both.succeededIncluded);
    QCOMPARE(both.preview.count, 2);
    QCOMPARE(both.preview.alreadySucceeded, 1);
    QVERIFY(both.reasons.contains(QStringLiteral("1 delivery already succeeded downstream")));
    QCOMPARE(maxReplayId(), before); // cancelled both times: nothing was requested
}

void TstReplayFlowReceiver::deadLetterGroupIsReplayedFromItsPage()
{
    m_receiver.crm().enqueue(410);
    QString error;
    const qint64 event = m_receiver.ingestAndSettle("group-1", &error);
    QVERIFY2(event, qPrintable(error));
    const qint64 crm = m_receiver.deliveryId(event, QStringLiteral("crm"));
    QCOMPARE(scalar(QStringLiteral("SELECT last_category FROM deliveries WHERE id = ?"), { crm }).toString(),
        QStringLiteral("http_permanent"));

    QVERIFY(signIn(QStringLiteral("sam-support")));
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::DeadLettersPage);
    auto *groups = find<QTableView>(w, "deadLetterTable");
    int row = -1;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (int r = 0; r < groups->model()->rowCount(); ++r) {
                const QModelIndex i = groups->model()->index(r, 0);
                if (i.data(DeadLetterModel::DestinationRole).toString() == u"crm"
                    && i.data(DeadLetterModel::CategoryRole).toString() == u"http_permanent")
                    row = r;
            }
            return row >= 0;
        }(),
        kGuiWait);
    groups->selectRow(row);
    auto *button = find<QPushButton>(w, "replayGroupButton");
    QVERIFY(button->isEnabled());
    QVERIFY(!button->accessibleName().isEmpty());
    const qint64 before = maxReplayId();
    ReplayDialog::setNextAnswers({ { true, QStringLiteral("crm is back"), QString(), false } });
    QTest::mouseClick(button, Qt::LeftButton);
    const qint64 replay = waitForReplayAfter(before);
    QVERIFY(replay > 0);
    // Exactly the group: dead crm deliveries that failed permanently, ours among them.
    QVERIFY(
        scalar(QStringLiteral("SELECT count(*) FROM replay_items WHERE replay_id = ? AND delivery_id = ?"),
            { replay, crm })
            .toInt()
        == 1);
    QCOMPARE(scalar(QStringLiteral(
                        "SELECT count(*) FROM replay_items ri JOIN deliveries d ON d.id = ri.delivery_id "
                        "WHERE ri.replay_id = ? AND (d.destination <> 'crm' OR ri.frozen_status <> 'dead')"),
                 { replay })
                 .toInt(),
        0);
    QVERIFY(m_receiver.waitForValue(
        QStringLiteral("SELECT status FROM deliveries WHERE id = ?"), { crm }, QStringLiteral("succeeded")));
}

void TstReplayFlowReceiver::operatorBrowsesTheSelectionAndRejects()
{
    m_receiver.fulfillment().enqueue(410);
    QString error;
    const qint64 event = m_receiver.ingestAndSettle("inbox-1", &error);
    QVERIFY2(event, qPrintable(error));
    const qint64 dead = m_receiver.deliveryId(event, QStringLiteral("fulfillment"));
    QCOMPARE(
        scalar(QStringLiteral("SELECT count(*) FROM replays WHERE status = 'pending_approval'")).toInt(), 0);

    // ana asks; she cannot decide her own request.
    QVERIFY(signIn(QStringLiteral("ana-operator")));
    const qint64 before = maxReplayId();
    ReplayDialog::setNextAnswers(
        { { true, QStringLiteral("after the outage"), QStringLiteral("OPS-3"), false } });
    m_console->newReplay()->replayDeliveries({ dead });
    const qint64 replay = waitForReplayAfter(before);
    QVERIFY(replay > 0);
    QCOMPARE(scalar(QStringLiteral("SELECT status FROM replays WHERE id = ?"), { replay }).toString(),
        QStringLiteral("pending_approval"));
    MainWindow *w = m_console->window();
    m_console->approvals()->refresh();
    auto *inbox = find<QTableView>(w, "approvalTable");
    QTRY_COMPARE_WITH_TIMEOUT(inbox->model()->rowCount(), 1, kGuiWait);
    QCOMPARE(m_console->approvals()->pendingCount(), 0); // her own does not wait for her
    w->showPage(MainWindow::ApprovalsPage);
    inbox->selectRow(0);
    QVERIFY(!find<QPushButton>(w, "approveButton")->isEnabled());
    QVERIFY(!find<QPushButton>(w, "rejectButton")->isEnabled());
    QVERIFY(
        find<QLabel>(w, "approvalEffect")->text().contains(QStringLiteral("another operator must decide")));

    // omar sees it counted while on another page, browses the frozen selection and rejects.
    QVERIFY(signIn(QStringLiteral("omar-operator")));
    w = m_console->window();
    QCOMPARE(w->currentPage(), MainWindow::EventsPage);
    auto *tabs = find<QTabWidget>(w, "pages");
    QVERIFY(tabs);
    QTRY_COMPARE_WITH_TIMEOUT(
        tabs->tabText(MainWindow::ApprovalsPage), QStringLiteral("&Approvals (1)"), kGuiWait);
    QTRY_COMPARE_WITH_TIMEOUT(m_console->approvals()->pendingCount(), 1, kGuiWait);
    auto *note = m_console->approvals()->statusNote();
    QVERIFY(note->isVisible());
    QCOMPARE(note->text(), QStringLiteral("1 replay request waits for your approval"));

    w->showPage(MainWindow::ApprovalsPage);
    inbox = find<QTableView>(w, "approvalTable");
    QTRY_COMPARE_WITH_TIMEOUT(inbox->model()->rowCount(), 1, kGuiWait);
    const QModelIndex first = inbox->model()->index(0, 0);
    QCOMPARE(first.data(ApprovalModel::ReplayIdRole).toLongLong(), replay);
    QCOMPARE(inbox->model()->index(0, ApprovalModel::RequestedByColumn).data().toString(),
        QStringLiteral("ana-operator"));
    QCOMPARE(
        inbox->model()->index(0, ApprovalModel::TicketColumn).data().toString(), QStringLiteral("OPS-3"));
    QCOMPARE(inbox->model()->index(0, ApprovalModel::RiskColumn).data().toString(), QStringLiteral("high"));
    QVERIFY(!inbox->model()->index(0, ApprovalModel::ExpiresColumn).data().toString().isEmpty());
    inbox->selectRow(0);
    auto *effect = find<QLabel>(w, "approvalEffect");
    QVERIFY2(effect->text().contains(QStringLiteral("fulfillment is a high-risk destination")),
        qPrintable(effect->text()));
    auto *items = find<QTableView>(w, "approvalItemsTable");
    QVERIFY(!items->accessibleName().isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(items->model()->rowCount(), 1, kGuiWait);
    const ReplayItem *item = m_console->approvals()->items()->itemAt(items->model()->index(0, 0));
    QVERIFY(item);
    QCOMPARE(item->deliveryId, dead);
    QVERIFY(item->eventId == event);
    QCOMPARE(item->destination, QStringLiteral("fulfillment"));
    QVERIFY(item->frozenStatus == DeliveryStatus::Dead);
    QVERIFY(item->outcomeUnknownFrozenOrNow() == false);
    QVERIFY(item->frozenOutcomeUnknown.has_value());

    // A reject without a reason is not sent; with one it is, bound to the frozen selection.
    auto *reject = find<QPushButton>(w, "rejectButton");
    QVERIFY(reject->isEnabled());
    Prompter::setNextAnswers({ { true, QString() } });
    QTest::mouseClick(reject, Qt::LeftButton);
    QCOMPARE(Prompter::askedQuestions().size(), 1);
    QVERIFY(Prompter::askedQuestions().first().askReason);
    QCOMPARE(Prompter::askedQuestions().first().environment, QStringLiteral("production"));
    QCOMPARE(Prompter::askedQuestions().first().profileName, QStringLiteral("omar-operator"));
    Prompter::setNextAnswers({ { true, QStringLiteral("the customer cancelled the order") } });
    QTest::mouseClick(reject, Qt::LeftButton);
    QCOMPARE(Prompter::askedQuestions().size(), 2);
    QCOMPARE(Prompter::askedQuestions().last().confirmLabel, QStringLiteral("Reject replay #%1").arg(replay));
    QVERIFY(m_receiver.waitForValue(
        QStringLiteral("SELECT status FROM replays WHERE id = ?"), { replay }, QStringLiteral("rejected")));
    QCOMPARE(
        scalar(QStringLiteral("SELECT decision_reason FROM replays WHERE id = ?"), { replay }).toString(),
        QStringLiteral("the customer cancelled the order"));
    // The inbox empties and the title drops its count.
    QTRY_COMPARE_WITH_TIMEOUT(inbox->model()->rowCount(), 0, kGuiWait);
    QTRY_COMPARE_WITH_TIMEOUT(
        tabs->tabText(MainWindow::ApprovalsPage), QStringLiteral("&Approvals"), kGuiWait);
    QVERIFY(!note->isVisible());
}

int TstReplayFlowReceiver::groupRow(const QString &destination, const QString &category)
{
    auto *groups = find<QTableView>(m_console->window(), "deadLetterTable");
    for (int r = 0; r < groups->model()->rowCount(); ++r) {
        const QModelIndex i = groups->model()->index(r, 0);
        if (i.data(DeadLetterModel::DestinationRole).toString() == destination
            && i.data(DeadLetterModel::CategoryRole).toString() == category)
            return r;
    }
    return -1;
}

void TstReplayFlowReceiver::supportResolvesADeadDeliveryFromTheEventDetail()
{
    m_receiver.crm().enqueue(410); // crm dies; support refunds the customer by hand instead
    QString error;
    const qint64 event = m_receiver.ingestAndSettle("resolve-row-1", &error);
    QVERIFY2(event, qPrintable(error));
    const qint64 crm = m_receiver.deliveryId(event, QStringLiteral("crm"));
    QCOMPARE(scalar(QStringLiteral("SELECT status FROM deliveries WHERE id = ?"), { crm }).toString(),
        QStringLiteral("dead"));
    const int crmBefore = m_receiver.crm().requestCount();

    QVERIFY(signIn(QStringLiteral("sam-support")));
    QVERIFY(showEvent(QStringLiteral("resolve-row-1")));
    MainWindow *w = m_console->window();
    auto *deliveries = find<QTreeWidget>(w, "deliveryTree");
    QTRY_COMPARE_WITH_TIMEOUT(deliveries->topLevelItemCount(), 2, kGuiWait);
    auto crmRow = [&]() -> QTreeWidgetItem * {
        for (int i = 0; i < deliveries->topLevelItemCount(); ++i) {
            if (deliveries->topLevelItem(i)->text(0) == u"crm")
                return deliveries->topLevelItem(i);
        }
        return nullptr;
    };
    QVERIFY(crmRow());
    auto *button = find<QPushButton>(w, "resolveDeliveryButton");
    // On the succeeded fulfillment row there is nothing to resolve.
    for (int i = 0; i < deliveries->topLevelItemCount(); ++i) {
        if (deliveries->topLevelItem(i)->text(0) == u"fulfillment")
            deliveries->setCurrentItem(deliveries->topLevelItem(i));
    }
    QVERIFY(button->isVisible());
    QVERIFY(!button->isEnabled());
    deliveries->setCurrentItem(crmRow());
    QVERIFY(button->isEnabled());
    QVERIFY(!button->accessibleName().isEmpty());
    ResolveDialog::setNextAnswers({ { true, Resolution::HandledManually,
        QStringLiteral("refunded by hand in the payment console"), QStringLiteral("SUP-77") } });
    QTest::mouseClick(button, Qt::LeftButton);
    QVERIFY(m_receiver.waitForValue(
        QStringLiteral("SELECT status FROM deliveries WHERE id = ?"), { crm }, QStringLiteral("resolved")));
    const auto shown = ResolveDialog::shown();
    QCOMPARE(shown.size(), 1);
    QCOMPARE(shown.first().count, 1);
    QCOMPARE(shown.first().environment, QStringLiteral("production"));
    QCOMPARE(scalar(QStringLiteral("SELECT actor || ' ' || role || ' ' || resolution || ' ' || ticket FROM "
                                   "delivery_resolutions WHERE delivery_id = ?"),
                 { crm })
                 .toString(),
        QStringLiteral("sam-support support handled_manually SUP-77"));
    QCOMPARE(scalar(QStringLiteral("SELECT count(*) FROM audit_log WHERE action = 'deliveries_resolved' AND "
                                   "target = ? AND actor = 'sam-support'"),
                 { QStringLiteral("delivery:%1").arg(crm) })
                 .toInt(),
        1);
    // The detail reloads and says who resolved it and why; a replay of it is not offered.
    auto *note = find<QLabel>(w, "scheduleNote");
    QTRY_VERIFY_WITH_TIMEOUT(note->text().contains(QStringLiteral("resolved by sam-support")), kGuiWait);
    QVERIFY2(note->text().contains(QStringLiteral("refunded by hand in the payment console")),
        qPrintable(note->text()));
    QVERIFY(note->text().contains(QStringLiteral("SUP-77")));
    QTRY_VERIFY_WITH_TIMEOUT(crmRow() && crmRow()->text(1) == QStringLiteral("resolved"), kGuiWait);
    deliveries->setCurrentItem(crmRow());
    QVERIFY(!find<QPushButton>(w, "replayDeliveryButton")->isEnabled());
    QVERIFY(!button->isEnabled());
    QCOMPARE(m_receiver.crm().requestCount(), crmBefore); // nothing was sent
}

void TstReplayFlowReceiver::aDeadLetterGroupIsResolvedFromItsPage()
{
    m_receiver.fulfillment().enqueue(410);
    m_receiver.fulfillment().enqueue(410);
    QString error;
    QVERIFY2(m_receiver.ingestAndSettle("resolve-group-1", &error), qPrintable(error));
    QVERIFY2(m_receiver.ingestAndSettle("resolve-group-2", &error), qPrintable(error));
    const QString groupSql = QStringLiteral(
        "SELECT count(*) FROM deliveries WHERE destination = 'fulfillment' AND status = 'dead' "
        "AND last_category = 'http_permanent'");
    const int group = scalar(groupSql).toInt();
    QVERIFY(group >= 2);
    const int otherDead
        = scalar(QStringLiteral("SELECT count(*) FROM deliveries WHERE status = 'dead'")).toInt() - group;

    QVERIFY(signIn(QStringLiteral("sam-support")));
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::DeadLettersPage);
    QTRY_VERIFY_WITH_TIMEOUT(
        groupRow(QStringLiteral("fulfillment"), QStringLiteral("http_permanent")) >= 0, kGuiWait);
    find<QTableView>(w, "deadLetterTable")
        ->selectRow(groupRow(QStringLiteral("fulfillment"), QStringLiteral("http_permanent")));
    auto *button = find<QPushButton>(w, "resolveGroupButton");
    QVERIFY(button->isVisible());
    QVERIFY(button->isEnabled());
    QVERIFY(!button->accessibleName().isEmpty());
    ResolveDialog::setNextAnswers(
        { { true, Resolution::NotNeeded, QStringLiteral("orders were cancelled upstream"), QString() } });
    QTest::mouseClick(button, Qt::LeftButton);
    QVERIFY(m_receiver.waitForValue(groupSql, {}, 0));
    QCOMPARE(ResolveDialog::shown().size(), 1);
    QCOMPARE(ResolveDialog::shown().first().count, group); // exactly the group, as shown
    QCOMPARE(
        scalar(QStringLiteral("SELECT count(*) FROM deliveries WHERE status = 'dead'")).toInt(), otherDead);
    QCOMPARE(
        scalar(QStringLiteral("SELECT count(*) FROM delivery_resolutions WHERE resolution = 'not_needed' "
                              "AND reason = 'orders were cancelled upstream'"))
            .toInt(),
        group);
    // The group leaves the page.
    QTRY_COMPARE_WITH_TIMEOUT(
        groupRow(QStringLiteral("fulfillment"), QStringLiteral("http_permanent")), -1, kGuiWait);
}

void TstReplayFlowReceiver::aCancelledResolveChangesNothing()
{
    m_receiver.crm().enqueue(410);
    QString error;
    const qint64 event = m_receiver.ingestAndSettle("resolve-cancel-1", &error);
    QVERIFY2(event, qPrintable(error));
    const qint64 crm = m_receiver.deliveryId(event, QStringLiteral("crm"));
    QVERIFY(signIn(QStringLiteral("sam-support")));
    QVERIFY(showEvent(QStringLiteral("resolve-cancel-1")));
    const qint64 audits = scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong();
    auto *action = m_console->window()->findChild<QAction *>(QStringLiteral("resolveSelectionAction"));
    QVERIFY(action);
    QVERIFY(!action->text().isEmpty());
    ResolveDialog::setNextAnswers({ { false, Resolution::HandledManually, QString(), QString() } });
    action->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(ResolveDialog::shown().size(), 1, kGuiWait);
    QCOMPARE(ResolveDialog::shown().first().count, 1);
    QTRY_VERIFY_WITH_TIMEOUT(!m_console->resolve()->dialog(), kGuiWait); // cancelled and closed
    QCOMPARE(scalar(QStringLiteral("SELECT status FROM deliveries WHERE id = ?"), { crm }).toString(),
        QStringLiteral("dead"));
    QCOMPARE(scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toLongLong(), audits);
}

QTEST_MAIN(TstReplayFlowReceiver)
#include "tst_replayflowreceiver.moc"
