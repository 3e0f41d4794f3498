// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// The pieces of "replay where the user is" and the approvals inbox that need no receiver: the
// approval reasons in words, the inbox's models (under QAbstractItemModelTester), and the
// replay dialog answered through its seam instead of clicks.
#include "approvals/approvalmodel.h"
#include "common/environmentbanner.h"
#include "newreplay/replaydialog.h"
#include "replays/replayitemsmodel.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QColor>
#include <QJsonArray>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace redrive;
using namespace redrive::ui;

namespace {

QJsonObject destination(const char *name, const char *risk, int count)
{
    return QJsonObject { { QStringLiteral("name"), QLatin1String(name) },
        { QStringLiteral("risk"), QLatin1String(risk) }, { QStringLiteral("count"), count } };
}

ReplayPreview preview(const QJsonObject &extra)
{
    QJsonObject o { { QStringLiteral("selection_hash"), QString(64, u'c') }, { QStringLiteral("count"), 3 } };
    for (auto it = extra.begin(); it != extra.end(); ++it)
        o.insert(it.key(), it.value());
    auto p = ReplayPreview::fromJson(o);
    if (!p)
        qFatal("preview: %s", qPrintable(p.error()));
    return *p;
}

} // namespace

class TstReplayFlow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cleanup();
    void approvalReasonsInWords_data();
    void approvalReasonsInWords();
    void approvalModelColumns();
    void replayItemModelShowsTheFrozenSelection();
    void dialogAnsweredThroughTheSeamSubmits();
    void dialogAnswerCanCancel();
    void dialogIncludesSucceededOnlyWhenAsked();
    void dialogShowsReasonsAndEnvironment();
};

void TstReplayFlow::cleanup()
{
    ReplayDialog::setNextAnswers({});
    ReplayDialog::clearShown();
}

void TstReplayFlow::approvalReasonsInWords_data()
{
    QTest::addColumn<QJsonObject>("json");
    QTest::addColumn<QStringList>("words");
    QTest::newRow("none") << QJsonObject {} << QStringList {};
    QTest::newRow("high risk") << QJsonObject {
        { QStringLiteral("approval_reasons"), QJsonArray { QStringLiteral("high_risk_destination") } },
        { QStringLiteral("destinations"),
            QJsonArray { destination("fulfillment", "high", 2), destination("crm", "low", 1) } }
    } << QStringList { QStringLiteral("fulfillment is a high-risk destination") };
    QTest::newRow("two high") << QJsonObject {
        { QStringLiteral("approval_reasons"), QJsonArray { QStringLiteral("high_risk_destination") } },
        { QStringLiteral("destinations"),
            QJsonArray { destination("fulfillment", "high", 2), destination("ledger", "high", 1) } }
    } << QStringList { QStringLiteral("fulfillment, ledger are high-risk destinations") };
    QTest::newRow("succeeded and unknown")
        << QJsonObject { { QStringLiteral("approval_reasons"),
                             QJsonArray {
                                 QStringLiteral("already_succeeded"), QStringLiteral("outcome_unknown") } },
               { QStringLiteral("already_succeeded"), 2 }, { QStringLiteral("outcome_unknown"), 1 } }
        << QStringList { QStringLiteral("2 deliveries already succeeded downstream"),
               QStringLiteral("1 delivery's outcome is unknown") };
    QTest::newRow("one succeeded, two unknown")
        << QJsonObject { { QStringLiteral("approval_reasons"),
                             QJsonArray {
                                 QStringLiteral("already_succeeded"), QStringLiteral("outcome_unknown") } },
               { QStringLiteral("already_succeeded"), 1 }, { QStringLiteral("outcome_unknown"), 2 } }
        << QStringList { QStringLiteral("1 delivery already succeeded downstream"),
               QStringLiteral("2 deliveries' outcome is unknown") };
    QTest::newRow("a reason this console does not know")
        << QJsonObject { { QStringLiteral("approval_reasons"), QJsonArray { QStringLiteral("legal_hold") } } }
        << QStringList { QStringLiteral("legal hold") };
}

void TstReplayFlow::approvalReasonsInWords()
{
    QFETCH(QJsonObject, json);
    QFETCH(QStringList, words);
    QCOMPARE(preview(json).approvalReasonsInWords(), words);
}

void TstReplayFlow::approvalModelColumns()
{
    ApprovalModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const qint64 now = 1'750'000'000'000;
    const QJsonObject theirs { { QStringLiteral("id"), 7 },
        { QStringLiteral("status"), QStringLiteral("pending_approval") },
        { QStringLiteral("requested_by"), QStringLiteral("sam") },
        { QStringLiteral("reason"), QStringLiteral("restored") },
        { QStringLiteral("ticket"), QStringLiteral("INC-9") }, { QStringLiteral("count"), 2 },
        { QStringLiteral("selection_hash"), QString(64, u'a') },
        { QStringLiteral("created_at"), QStringLiteral("2025-06-15T14:46:40.000Z") }, // now - 20 min
        { QStringLiteral("approval_expires_at"), QStringLiteral("2025-06-15T17:06:40.000Z") }, // now + 2 h
        { QStringLiteral("destinations"), QJsonArray { destination("fulfillment", "high", 2) } },
        { QStringLiteral("approval_reasons"), QJsonArray { QStringLiteral("high_risk_destination") } },
        { QStringLiteral("effect"),
            QStringLiteral("2 deliveries to fulfillment (high risk) will be sent again.") } };
    QJsonObject mine = theirs;
    mine.insert(QStringLiteral("id"), 8);
    mine.insert(QStringLiteral("requested_by"), QStringLiteral("ana"));
    mine.insert(QStringLiteral("destinations"), QJsonArray { destination("crm", "low", 2) });
    mine.insert(QStringLiteral("approval_expires_at"), QStringLiteral("2025-06-15T15:00:00.000Z")); // past
    model.setRequests(
        { *ReplayRecord::fromJson(theirs), *ReplayRecord::fromJson(mine) }, QStringLiteral("ana"), now);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), int(ApprovalModel::ColumnCount));
    const ReplayRecord *r = model.requestAt(model.index(0, 0));
    QVERIFY(r);
    QVERIFY(r->status == ReplayStatus::PendingApproval);
    QCOMPARE(r->selectionHash, QString(64, u'a'));
    QVERIFY(r->summary.risk() == Risk::High);
    QCOMPARE(model.index(0, ApprovalModel::RequestedByColumn).data().toString(), QStringLiteral("sam"));
    QCOMPARE(model.index(0, ApprovalModel::TicketColumn).data().toString(), QStringLiteral("INC-9"));
    QCOMPARE(model.index(0, ApprovalModel::RiskColumn).data().toString(), QStringLiteral("high"));
    QCOMPARE(model.index(1, ApprovalModel::RiskColumn).data().toString(), QStringLiteral("low"));
    QCOMPARE(model.index(0, ApprovalModel::RiskColumn).data(Qt::ForegroundRole).value<QColor>(),
        QColor(0xb7, 0x1c, 0x1c));
    QVERIFY(model.index(1, ApprovalModel::RiskColumn).data(Qt::ForegroundRole).value<QColor>()
        != model.index(0, ApprovalModel::RiskColumn).data(Qt::ForegroundRole).value<QColor>());
    QCOMPARE(model.index(0, ApprovalModel::AgeColumn).data().toString(), QStringLiteral("20 min"));
    QCOMPARE(model.index(0, ApprovalModel::ExpiresColumn).data().toString(), QStringLiteral("2 h"));
    QCOMPARE(model.index(1, ApprovalModel::ExpiresColumn).data().toString(), QStringLiteral("expired"));
    QVERIFY(!model.isOwn(model.index(0, 0)));
    QVERIFY(model.isOwn(model.index(1, 0)));
    QCOMPARE(model.headerData(ApprovalModel::ExpiresColumn, Qt::Horizontal).toString(),
        QStringLiteral("Expires in"));
    QVERIFY(!model.requestAt(model.index(5, 0)));
}

void TstReplayFlow::replayItemModelShowsTheFrozenSelection()
{
    ReplayItemsModel model(nullptr, ReplayItemsModel::View::FrozenSelection);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QJsonObject frozen { { QStringLiteral("delivery_id"), 40 }, { QStringLiteral("event_id"), 12 },
        { QStringLiteral("destination"), QStringLiteral("fulfillment") },
        { QStringLiteral("frozen_status"), QStringLiteral("dead") },
        { QStringLiteral("current_status"), QStringLiteral("dead") },
        { QStringLiteral("outcome_unknown"), false }, { QStringLiteral("frozen_outcome_unknown"), true } };
    const QJsonObject expired { { QStringLiteral("delivery_id"), 41 },
        { QStringLiteral("event_id"), QJsonValue::Null },
        { QStringLiteral("destination"), QStringLiteral("crm") },
        { QStringLiteral("frozen_status"), QStringLiteral("succeeded") },
        { QStringLiteral("current_status"), QJsonValue::Null }, { QStringLiteral("outcome_unknown"), false },
        { QStringLiteral("frozen_outcome_unknown"), QJsonValue::Null } };
    model.setItems({ *ReplayItem::fromJson(frozen), *ReplayItem::fromJson(expired) });
    QCOMPARE(model.rowCount(), 2);
    const ReplayItem *a = model.itemAt(model.index(0, 0));
    QVERIFY(a);
    QVERIFY(a->eventId == 12);
    QVERIFY(a->frozenStatus == DeliveryStatus::Dead);
    QVERIFY(a->outcomeUnknownFrozenOrNow() == true); // the frozen flag wins over the current one
    QVERIFY(a->frozenOutcomeUnknown.has_value());
    QVERIFY(model.index(0, ReplayItemsModel::OutcomeUnknownColumn)
                .data()
                .toString()
                .startsWith(QStringLiteral("yes")));
    QCOMPARE(model.index(0, ReplayItemsModel::EventColumn).data().toLongLong(), 12);
    const ReplayItem *b = model.itemAt(model.index(1, 0));
    QVERIFY(!b->eventId);
    QVERIFY(b->outcomeUnknownFrozenOrNow() == false);
    QVERIFY(!b->frozenOutcomeUnknown.has_value());
    QCOMPARE(model.index(1, ReplayItemsModel::OutcomeUnknownColumn).data().toString(), QStringLiteral("no"));
    QCOMPARE(model.index(1, ReplayItemsModel::EventColumn).data().toString(), QStringLiteral("—"));
    QCOMPARE(
        model.index(1, ReplayItemsModel::DeliveryColumn).data(ReplayItemsModel::DeliveryIdRole).toLongLong(),
        41);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TstReplayFlow::dialogAnsweredThroughTheSeamSubmits()
{
    ReplayDialog dialog(QStringLiteral("production"), QColor(0xc6, 0x28, 0x28), QStringLiteral("prod-eu"));
    QSignalSpy submitted(&dialog, &ReplayDialog::submitted);
    ReplayDialog::setNextAnswers(
        { { true, QStringLiteral("destination fixed"), QStringLiteral("INC-1"), false } });
    dialog.showLoading(QStringLiteral("3 deliveries"));
    QCOMPARE(submitted.size(), 0); // nothing is answered before there is a preview
    // High risk: the answer types the confirmation phrase the way a person would.
    dialog.showPreview(preview(QJsonObject { { QStringLiteral("requires_approval"), true },
        { QStringLiteral("approval_reasons"), QJsonArray { QStringLiteral("high_risk_destination") } },
        { QStringLiteral("destinations"), QJsonArray { destination("fulfillment", "high", 3) } } }));
    QCOMPARE(submitted.size(), 1);
    QCOMPARE(submitted.first().at(0).toString(), QStringLiteral("destination fixed"));
    QCOMPARE(submitted.first().at(1).toString(), QStringLiteral("INC-1"));
    QCOMPARE(ReplayDialog::shown().size(), 1);
    QCOMPARE(ReplayDialog::shown().first().environment, QStringLiteral("production"));
    // The answer was used up: the next preview waits for a person.
    dialog.showPreview(preview({}));
    QCOMPARE(submitted.size(), 1);
    QVERIFY(dialog.findChild<QPushButton *>(QStringLiteral("replayCancel"))->isDefault());
}

void TstReplayFlow::dialogAnswerCanCancel()
{
    ReplayDialog dialog(QStringLiteral("staging"), QColor(0x1e, 0x88, 0xe5), QStringLiteral("stage"));
    QSignalSpy submitted(&dialog, &ReplayDialog::submitted);
    ReplayDialog::setNextAnswers({ { false, QString(), QString(), false } });
    dialog.show();
    dialog.showPreview(preview({}));
    QCOMPARE(submitted.size(), 0);
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
    QVERIFY(!dialog.isVisible());
}

void TstReplayFlow::dialogIncludesSucceededOnlyWhenAsked()
{
    ReplayDialog dialog(QStringLiteral("staging"), QColor(0x1e, 0x88, 0xe5), QStringLiteral("stage"));
    QSignalSpy include(&dialog, &ReplayDialog::includeSucceededChanged);
    QSignalSpy submitted(&dialog, &ReplayDialog::submitted);
    auto *box = dialog.findChild<QCheckBox *>(QStringLiteral("replayIncludeSucceeded"));
    QVERIFY(box);
    dialog.offerSucceeded(0, false);
    QVERIFY(box->isHidden());
    dialog.offerSucceeded(2, false);
    QVERIFY(!box->isHidden());
    QCOMPARE(box->text(), QStringLiteral("Include 2 already-succeeded deliveries"));
    QVERIFY(!box->isChecked()); // succeeded deliveries are left out unless asked for
    QVERIFY(!box->accessibleName().isEmpty());
    ReplayDialog::setNextAnswers({ { true, QStringLiteral("resend both"), QString(), true } });
    dialog.showPreview(preview({}));
    // The answer first ticks the box (the controller previews again) and waits for that preview.
    QCOMPARE(include.size(), 1);
    QCOMPARE(include.first().at(0).toBool(), true);
    QCOMPARE(submitted.size(), 0);
    dialog.offerSucceeded(2, true);
    dialog.showPreview(preview(QJsonObject { { QStringLiteral("already_succeeded"), 2 },
        { QStringLiteral("requires_approval"), true },
        { QStringLiteral("approval_reasons"), QJsonArray { QStringLiteral("already_succeeded") } } }));
    QCOMPARE(submitted.size(), 1);
    QCOMPARE(include.size(), 1);
    QVERIFY(ReplayDialog::shown().last().succeededIncluded);
    QCOMPARE(ReplayDialog::shown().last().succeededOffered, 2);
}

void TstReplayFlow::dialogShowsReasonsAndEnvironment()
{
    ReplayDialog dialog(QStringLiteral("production"), QColor(0xc6, 0x28, 0x28), QStringLiteral("prod-eu"));
    dialog.showPreview(preview(QJsonObject { { QStringLiteral("requires_approval"), true },
        { QStringLiteral("already_succeeded"), 2 }, { QStringLiteral("outcome_unknown"), 1 },
        { QStringLiteral("approval_reasons"),
            QJsonArray { QStringLiteral("high_risk_destination"), QStringLiteral("already_succeeded"),
                QStringLiteral("outcome_unknown") } },
        { QStringLiteral("destinations"), QJsonArray { destination("fulfillment", "high", 3) } } }));
    auto *reasons = dialog.findChild<QLabel *>(QStringLiteral("replayApprovalReasons"));
    QVERIFY(reasons && !reasons->isHidden());
    QCOMPARE(reasons->textFormat(), Qt::PlainText);
    QVERIFY(reasons->text().contains(QStringLiteral("fulfillment is a high-risk destination")));
    QVERIFY(reasons->text().contains(QStringLiteral("2 deliveries already succeeded downstream")));
    QVERIFY(reasons->text().contains(QStringLiteral("1 delivery's outcome is unknown")));
    auto *banner = dialog.findChild<EnvironmentBanner *>(QStringLiteral("replayEnvironment"));
    QVERIFY(banner && !banner->isHidden());
    QVERIFY(banner->text().contains(QStringLiteral("PRODUCTION")));
    QVERIFY(banner->text().contains(QStringLiteral("prod-eu")));
    QVERIFY(banner->styleSheet().contains(QColor(0xc6, 0x28, 0x28).name()));
    auto *cancel = dialog.findChild<QPushButton *>(QStringLiteral("replayCancel"));
    auto *submit = dialog.findChild<QPushButton *>(QStringLiteral("replaySubmit"));
    QVERIFY(cancel->isDefault());
    QVERIFY(!submit->isEnabled());
    QCOMPARE(submit->text(), QStringLiteral("Request approval to replay 3 deliveries"));
}

QTEST_MAIN(TstReplayFlow)
#include "tst_replayflow.moc"
