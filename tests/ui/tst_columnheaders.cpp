// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "approvals/approvalmodel.h"
#include "auditor/auditmodel.h"
#include "deadletters/deadlettermodel.h"
#include "destinations/destinationmodel.h"
#include "events/eventtablemodel.h"
#include "incidents/incidentmodel.h"
#include "reconcile/reconcilerunmodel.h"
#include "rejections/rejectionmodel.h"
#include "replays/replayitemsmodel.h"
#include "replays/replaylistmodel.h"

#include <QCoreApplication>
#include <QScopeGuard>
#include <QTest>
#include <QTranslator>

#include <functional>
#include <initializer_list>
#include <memory>

using namespace redrive::ui;

namespace {

using ModelFactory = std::function<std::unique_ptr<QAbstractItemModel>()>;

QStringList texts(std::initializer_list<const char *> list)
{
    QStringList out;
    for (const char *text : list)
        out << QString::fromUtf8(text);
    return out;
}

template<typename Model, typename... Args> ModelFactory make(Args... args)
{
    return [args...] { return std::make_unique<Model>(args...); };
}

// Says which context a text was looked up in: "<context>|<source>" for the console's classes.
class ContextTranslator final : public QTranslator {
public:
    [[nodiscard]] QString translate(
        const char *context, const char *sourceText, const char *, int) const override
    {
        const QString c = QString::fromLatin1(context);
        return c.startsWith(QLatin1String("redrive::ui::")) ? c + u'|' + QString::fromUtf8(sourceText)
                                                            : QString();
    }
    [[nodiscard]] bool isEmpty() const override { return false; }
};

} // namespace

Q_DECLARE_METATYPE(ModelFactory)

// The header of every console table: the column count, each column's title and tooltip, and
// the translation context the texts are looked up in (the model's own class, as its .ts lists
// them), all served by the shared column list of common/rowtablemodel.h.
class TstColumnHeaders : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyColumnHasItsTitleAndNoMore_data();
    void everyColumnHasItsTitleAndNoMore();
    void headerToolTipsAreWhereTheyExplainAColumn();
    void headersAreTranslatedInTheModelsContext();
};

void TstColumnHeaders::everyColumnHasItsTitleAndNoMore_data()
{
    QTest::addColumn<ModelFactory>("model");
    QTest::addColumn<QStringList>("titles");
    QTest::addColumn<bool>("rowNumbers");
    QTest::newRow("approvals") << make<ApprovalModel>()
                               << texts({ "Replay", "Requested by", "Deliveries", "Reason", "Ticket", "Risk",
                                      "Age", "Expires in" })
                               << false;
    QTest::newRow("dead letters") << make<DeadLetterModel>()
                                  << texts({ "Failure category", "Destination", "Dead letters", "Oldest",
                                         "Newest", "Most recent error" })
                                  << false;
    QTest::newRow("destinations") << make<DestinationModel>()
                                  << texts({ "Destination", "State", "Backlog", "Dead letters",
                                         "Success (last hour)", "Last failure (24 h)", "Paused / resumed" })
                                  << false;
    QTest::newRow("incidents") << make<IncidentModel>()
                               << texts({ "Destination", "Failure category", "Dead letters", "Opened",
                                      "Acknowledged", "Note" })
                               << false;
    QTest::newRow("reconcile runs") << make<ReconcileRunModel>()
                                    << texts({ "Source", "Provider", "Started", "Status", "Checked",
                                           "Missing", "Recovered", "Outcome" })
                                    << false;
    QTest::newRow("replay list") << make<ReplayListModel>()
                                 << texts({ "Replay", "Status", "Requested by", "Decided by", "Reason",
                                        "Ticket", "Deliveries", "Queued", "Sent", "Succeeded", "Failed",
                                        "Skipped", "Requested", "Decided", "Finished", "Outcome" })
                                 << false;
    QTest::newRow("replay outcome") << make<ReplayItemsModel>(
        static_cast<QObject *>(nullptr), ReplayItemsModel::View::ReplayOutcome)
                                    << texts({ "Delivery", "Event", "Destination", "Status at request",
                                           "Replay outcome", "Status now" })
                                    << false;
    QTest::newRow("frozen selection")
        << make<ReplayItemsModel>(static_cast<QObject *>(nullptr), ReplayItemsModel::View::FrozenSelection)
        << texts({ "Delivery", "Event", "Destination", "Status at freeze", "Outcome unknown", "Status now" })
        << false;
    QTest::newRow("audit log") << make<AuditModel>(static_cast<DbExecutor *>(
        nullptr)) << texts({ "Seq", "When", "Actor", "Role", "Action", "Target", "Reason", "Hash" })
                               << false;
    QTest::newRow("rejections") << make<RejectionModel>(static_cast<DbExecutor *>(nullptr))
                                << texts({ "Received", "Source", "Answer", "Reason", "Detail", "From" })
                                << false;
    QTest::newRow("events") << make<EventTableModel>(
        static_cast<DbExecutor *>(nullptr), static_cast<DbExecutor *>(nullptr))
                            << texts({ "ID", "Received", "Status", "Downstream", "Source", "Type", "Attempts",
                                   "Last failure", "Provider ID" })
                            << true;
}

void TstColumnHeaders::everyColumnHasItsTitleAndNoMore()
{
    QFETCH(ModelFactory, model);
    QFETCH(QStringList, titles);
    QFETCH(bool, rowNumbers);
    const std::unique_ptr<QAbstractItemModel> m = model();
    QCOMPARE(m->columnCount(), titles.size());
    for (int c = 0; c < titles.size(); ++c)
        QCOMPARE(m->headerData(c, Qt::Horizontal).toString(), titles[c]);
    QVERIFY(!m->headerData(-1, Qt::Horizontal).isValid());
    QVERIFY(!m->headerData(int(titles.size()), Qt::Horizontal).isValid());
    QVERIFY(!m->headerData(0, Qt::Horizontal, Qt::DecorationRole).isValid());
    // Only the events list numbers its rows (Qt's default header, hidden by its view).
    QCOMPARE(m->headerData(4, Qt::Vertical), rowNumbers ? QVariant(5) : QVariant());
}

void TstColumnHeaders::headerToolTipsAreWhereTheyExplainAColumn()
{
    const auto toolTips = [](const QAbstractItemModel &m) {
        QStringList tips;
        for (int c = 0; c < m.columnCount(); ++c)
            tips << m.headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString();
        return tips;
    };
    QStringList destination(DestinationModel::ColumnCount);
    destination[DestinationModel::BacklogColumn]
        = QStringLiteral("Deliveries not yet succeeded or dead: pending, in flight and retrying");
    QCOMPARE(toolTips(DestinationModel()), destination);
    QVERIFY(!DestinationModel()
                 .headerData(DestinationModel::BacklogColumn, Qt::Vertical, Qt::ToolTipRole)
                 .isValid());

    QStringList replays(ReplayListModel::ColumnCount);
    replays[ReplayListModel::QueuedColumn]
        = QStringLiteral("Not sent yet: waiting their turn or queued for delivery");
    replays[ReplayListModel::SentColumn]
        = QStringLiteral("The replay attempt finished (succeeded or failed)");
    replays[ReplayListModel::SkippedColumn]
        = QStringLiteral("Not replayed: the delivery vanished, was in flight or was queued by "
                         "another replay when its turn came");
    QCOMPARE(toolTips(ReplayListModel()), replays);

    QCOMPARE(toolTips(ApprovalModel()), QStringList(ApprovalModel::ColumnCount));
    QCOMPARE(toolTips(AuditModel(nullptr)), QStringList(AuditModel::ColumnCount));
}

void TstColumnHeaders::headersAreTranslatedInTheModelsContext()
{
    ContextTranslator translator;
    QVERIFY(QCoreApplication::installTranslator(&translator));
    const auto removeTranslator = qScopeGuard([&] { QCoreApplication::removeTranslator(&translator); });

    QCOMPARE(ApprovalModel().headerData(ApprovalModel::ExpiresColumn, Qt::Horizontal).toString(),
        QStringLiteral("redrive::ui::ApprovalModel|Expires in"));
    QCOMPARE(DestinationModel()
                 .headerData(DestinationModel::BacklogColumn, Qt::Horizontal, Qt::ToolTipRole)
                 .toString(),
        QStringLiteral(
            "redrive::ui::DestinationModel|Deliveries not yet succeeded or dead: pending, in flight and "
            "retrying"));
    QCOMPARE(ReplayItemsModel(nullptr, ReplayItemsModel::View::FrozenSelection)
                 .headerData(ReplayItemsModel::OutcomeUnknownColumn, Qt::Horizontal)
                 .toString(),
        QStringLiteral("redrive::ui::ReplayItemsModel|Outcome unknown"));
    // A keyset list: the leaf's context, not the keyset base's.
    QCOMPARE(RejectionModel(nullptr).headerData(RejectionModel::StatusColumn, Qt::Horizontal).toString(),
        QStringLiteral("redrive::ui::RejectionModel|Answer"));
    QCOMPARE(EventTableModel(nullptr, nullptr)
                 .headerData(EventTableModel::ProviderIdColumn, Qt::Horizontal)
                 .toString(),
        QStringLiteral("redrive::ui::EventTableModel|Provider ID"));
}

QTEST_GUILESS_MAIN(TstColumnHeaders)
#include "tst_columnheaders.moc"
