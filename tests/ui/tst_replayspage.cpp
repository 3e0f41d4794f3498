// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "api/permissions.h"
#include "replays/replayitemsmodel.h"
#include "replays/replaylistmodel.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

using namespace redrive;
using namespace redrive::ui;

// The Replays page's models: statuses parsed once, the outcome line, keyset paging and live
// updates in place — each model under QAbstractItemModelTester.
class TstReplaysPage : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void itemStatesRoundTrip();
    void everyRoleReadsReplays();
    void outcome_data();
    void outcome();
    void recordFromReceiverJson();
    void listModelPagesAndUpdates();
    void itemsModelPagesAndUpdates();
};

namespace {
QJsonObject replayJson(qint64 id, const QString &status, int count = 3)
{
    return QJsonObject { { QStringLiteral("id"), id }, { QStringLiteral("status"), status },
        { QStringLiteral("requested_by"), QStringLiteral("sue") },
        { QStringLiteral("reason"), QStringLiteral("crm down") }, { QStringLiteral("count"), count },
        { QStringLiteral("created_at"), QStringLiteral("2026-11-30T06:54:14Z") } };
}

ReplayRecord record(const char *statusName, int count, int succeeded, int failed, int skipped,
    const char *haltReason = nullptr, const char *decider = nullptr, const char *why = nullptr)
{
    const QString status = QString::fromUtf8(statusName);
    const QString halt = QString::fromUtf8(haltReason);
    const QString decidedBy = QString::fromUtf8(decider);
    const QString decisionReason = QString::fromUtf8(why);
    QJsonObject o = replayJson(7, status, count);
    o.insert(QStringLiteral("succeeded"), succeeded);
    o.insert(QStringLiteral("failed"), failed);
    o.insert(QStringLiteral("skipped"), skipped);
    o.insert(QStringLiteral("sent"), succeeded + failed);
    o.insert(QStringLiteral("halt_reason"), halt.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(halt));
    o.insert(QStringLiteral("decided_by"),
        decidedBy.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(decidedBy));
    o.insert(QStringLiteral("decision_reason"), decisionReason);
    return *ReplayRecord::fromJson(o);
}

ReplayItem item(qint64 delivery, const QString &state, std::optional<qint64> event = 100)
{
    return *ReplayItem::fromJson(QJsonObject { { QStringLiteral("delivery_id"), delivery },
        { QStringLiteral("frozen_status"), QStringLiteral("dead") }, { QStringLiteral("state"), state },
        { QStringLiteral("current_status"), event ? QJsonValue(QStringLiteral("succeeded")) : QJsonValue() },
        { QStringLiteral("event_id"), event ? QJsonValue(*event) : QJsonValue(QJsonValue::Null) },
        { QStringLiteral("destination"), event ? QJsonValue(QStringLiteral("crm")) : QJsonValue() } });
}
} // namespace

void TstReplaysPage::itemStatesRoundTrip()
{
    for (const auto s : { ReplayItemState::Waiting, ReplayItemState::Queued, ReplayItemState::Succeeded,
             ReplayItemState::Failed, ReplayItemState::Skipped })
        QCOMPARE(replayItemStateFromString(toString(s)), std::optional<ReplayItemState>(s));
    QCOMPARE(toString(ReplayItemState::Queued), QStringLiteral("queued"));
    QVERIFY(!replayItemStateFromString(u"sent"));
    for (const QString &name : allReplayStatusNames())
        QCOMPARE(toString(*replayStatusFromString(name)), name);
}

void TstReplaysPage::everyRoleReadsReplays()
{
    for (const QString &name : allRoleNames())
        QVERIFY2(Permissions::forRole(roleFromString(name)).readReplays, qPrintable(name));
    QVERIFY(!Permissions::forRole(std::nullopt).readReplays); // no admin API: nothing to read them from
}

void TstReplaysPage::outcome_data()
{
    QTest::addColumn<ReplayRecord>("replay");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<bool>("live");
    QTest::newRow("completed") << record("completed", 13, 12, 1, 0) << "completed: 12 succeeded, 1 failed"
                               << false;
    QTest::newRow("completed clean") << record("completed", 1, 1, 0, 0) << "completed: 1 succeeded" << false;
    QTest::newRow("completed with skips")
        << record("completed", 4, 2, 0, 2) << "completed: 2 succeeded, 2 skipped" << false;
    QTest::newRow("executing") << record("executing", 10, 2, 1, 0)
                               << "executing: 3 of 10 sent · 2 succeeded, 1 failed" << true;
    QTest::newRow("halted") << record("halted", 10, 1, 3, 0, "3 of the first 4 finished attempts failed")
                            << "halted: 3 of the first 4 finished attempts failed" << false;
    QTest::newRow("halted, older receiver")
        << record("halted", 10, 1, 3, 0) << "halted: too many of its first attempts failed; 6 not sent"
        << false;
    QTest::newRow("pending") << record("pending_approval", 2, 0, 0, 0) << "waiting for approval: 2 deliveries"
                             << false;
    QTest::newRow("approved") << record("approved", 1, 0, 0, 0, nullptr, "olga")
                              << "approved by olga: 1 delivery about to start" << true;
    QTest::newRow("rejected") << record("rejected", 1, 0, 0, 0, nullptr, "olga", "not on a Friday")
                              << "rejected by olga: not on a Friday" << false;
    QTest::newRow("cancelled") << record("cancelled", 1, 0, 0, 0, nullptr, nullptr, "wrong ticket")
                               << "cancelled: wrong ticket" << false;
    QTest::newRow("expired") << record("expired", 1, 0, 0, 0)
                             << "expired: it was not approved or started in time; nothing was sent" << false;
    QTest::newRow("unknown status") << record("paused_by_moon", 1, 0, 0, 0) << "paused_by_moon" << false;
}

void TstReplaysPage::outcome()
{
    QFETCH(ReplayRecord, replay);
    QFETCH(QString, expected);
    QFETCH(bool, live);
    QCOMPARE(replayOutcome(replay), expected);
    QCOMPARE(replay.isLive(), live);
}

void TstReplaysPage::recordFromReceiverJson()
{
    QJsonObject o = replayJson(42, QStringLiteral("executing"), 10);
    o.insert(QStringLiteral("succeeded"), 2);
    o.insert(QStringLiteral("failed"), 1);
    o.insert(QStringLiteral("skipped"), 1);
    o.insert(QStringLiteral("queued"), 5); // the receiver's cumulative hand-overs; not shown
    o.insert(QStringLiteral("ticket"), QStringLiteral("OPS-9"));
    o.insert(QStringLiteral("finished_at"), QJsonValue(QJsonValue::Null));
    ReplayRecord r = *ReplayRecord::fromJson(o);
    QCOMPARE(r.id, qint64(42));
    QCOMPARE(r.status.value(), std::optional<ReplayStatus>(ReplayStatus::Executing));
    QCOMPARE(r.sent, 3); // no "sent" field (an older receiver): succeeded + failed
    QCOMPARE(r.unsent(), 6);
    QCOMPARE(r.ticket, QStringLiteral("OPS-9"));
    QVERIFY(r.createdAt.ms);
    QVERIFY(r.finishedAt.isNull());
    o.insert(QStringLiteral("sent"), 4);
    QCOMPARE(ReplayRecord::fromJson(o)->sent, 4);
    QCOMPARE(ReplayRecord::fromJson(o)->unsent(), 5);
}

void TstReplaysPage::listModelPagesAndUpdates()
{
    ReplayListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy asked(&model, &ReplayListModel::fetchMoreRequested);
    QVERIFY(!model.canFetchMore({}));
    model.setReplays({ *ReplayRecord::fromJson(replayJson(9, QStringLiteral("executing"))),
                         *ReplayRecord::fromJson(replayJson(8, QStringLiteral("completed"))) },
        QStringLiteral("c8"));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), int(ReplayListModel::ColumnCount));
    QCOMPARE(model.replayAt(model.index(0, 0))->id, qint64(9));
    QCOMPARE(
        model.data(model.index(1, ReplayListModel::StatusColumn)).toString(), QStringLiteral("completed"));
    QCOMPARE(model.data(model.index(0, ReplayListModel::QueuedColumn)).toInt(), 3);
    // Words, not the receiver's names; nothing counted as queued before an approval.
    const ReplayRecord pending = *ReplayRecord::fromJson(replayJson(10, QStringLiteral("pending_approval")));
    QCOMPARE(replayStatusLabel(pending), QStringLiteral("waiting for approval"));
    QVERIFY(!pending.canQueue());
    QCOMPARE(model.data(model.index(0, 0), ReplayListModel::ReplayIdRole).toLongLong(), qint64(9));
    QVERIFY(!model.data(model.index(0, ReplayListModel::CreatedColumn)).toString().isEmpty());
    QVERIFY(!model.replayAt(model.index(2, 0)));
    QVERIFY(!model.replayAt({}));

    // Keyset paging: the next page is asked for once, whatever the view does meanwhile.
    model.fetchMore({});
    model.fetchMore({});
    QVERIFY(!model.canFetchMore({}));
    QCOMPARE(asked.size(), 1);
    QCOMPARE(asked.at(0).at(0).toString(), QStringLiteral("c8"));
    // A request created meanwhile shifts the pages: the one already listed is not listed twice.
    model.appendReplays({ *ReplayRecord::fromJson(replayJson(8, QStringLiteral("completed"))),
                            *ReplayRecord::fromJson(replayJson(7, QStringLiteral("halted"))) },
        QString());
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.replayAt(model.index(2, 0))->id, qint64(7));
    QVERIFY(!model.canFetchMore({}));

    // A poll's fresher copy changes the row in place.
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    ReplayRecord fresh = record("completed", 3, 3, 0, 0);
    fresh.id = 9;
    QVERIFY(model.updateReplay(fresh));
    QCOMPARE(changed.size(), 1);
    QCOMPARE(model.data(model.index(0, ReplayListModel::OutcomeColumn)).toString(),
        QStringLiteral("completed: 3 succeeded"));
    QCOMPARE(model.indexOf(9).row(), 0);
    fresh.id = 1234;
    QVERIFY(!model.updateReplay(fresh));
    model.setReplays({}, QString());
    QCOMPARE(model.rowCount(), 0);
}

void TstReplaysPage::itemsModelPagesAndUpdates()
{
    ReplayItemsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy asked(&model, &ReplayItemsModel::fetchMoreRequested);
    model.setItems(
        5, { item(11, QStringLiteral("queued")), item(12, QStringLiteral("waiting"), std::nullopt) }, 12);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.replayId(), qint64(5));
    const ReplayItem *first = model.itemAt(model.index(0, 0));
    QCOMPARE(first->state.value(), std::optional<ReplayItemState>(ReplayItemState::Queued));
    QCOMPARE(first->frozenStatus.value(), std::optional<DeliveryStatus>(DeliveryStatus::Dead));
    QCOMPARE(model.data(model.index(0, ReplayItemsModel::OutcomeColumn)).toString(),
        QStringLiteral("queued for delivery"));
    QCOMPARE(model.data(model.index(0, 0), ReplayItemsModel::EventIdRole).toLongLong(), qint64(100));
    // A delivery retention removed: no event to open, said so.
    QVERIFY(!model.itemAt(model.index(1, 0))->eventId);
    QVERIFY(model.data(model.index(1, 0), ReplayItemsModel::EventIdRole).isNull());
    QCOMPARE(model.data(model.index(1, ReplayItemsModel::EventColumn)).toString(), QStringLiteral("—"));

    // Asked once, whatever the view (or the model tester) does meanwhile.
    model.fetchMore({});
    model.fetchMore({});
    QVERIFY(!model.canFetchMore({}));
    QCOMPARE(asked.size(), 1);
    QCOMPARE(asked.at(0).at(0).toLongLong(), qint64(5));
    QCOMPARE(asked.at(0).at(1).toLongLong(), qint64(12));
    model.appendItems(6, { item(99, QStringLiteral("queued")) }, std::nullopt); // another replay's page
    QCOMPARE(model.rowCount(), 2);
    model.appendItems(5, { item(13, QStringLiteral("skipped")) }, std::nullopt);
    QCOMPARE(model.rowCount(), 3);
    QVERIFY(!model.canFetchMore({}));

    // A poll moves the states on without a reset (selection and scroll stay).
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.updateItems(5, { item(11, QStringLiteral("succeeded")), item(77, QStringLiteral("failed")) });
    QCOMPARE(reset.size(), 0);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.itemAt(model.index(0, 0))->state.value(),
        std::optional<ReplayItemState>(ReplayItemState::Succeeded));
    QCOMPARE(
        model.data(model.index(0, ReplayItemsModel::OutcomeColumn)).toString(), QStringLiteral("succeeded"));
    model.updateItems(6, { item(11, QStringLiteral("failed")) }); // not the replay shown
    QCOMPARE(model.itemAt(model.index(0, 0))->state.value(),
        std::optional<ReplayItemState>(ReplayItemState::Succeeded));
    model.setItems(0, { item(1, QStringLiteral("queued")) }, 3);
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.canFetchMore({}));
}

QTEST_GUILESS_MAIN(TstReplaysPage)
#include "tst_replayspage.moc"
