// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "api/adminclient.h"
#include "common/prompter.h"
#include "connection/session.h"
#include "consoleguitest.h"
#include "incidents/incidentmodel.h"
#include "incidents/incidentscontroller.h"
#include "incidents/incidentsview.h"
#include "incidents/notifier.h"
#include "main/mainwindow.h"
#include "realreceiver.h"
#include "scriptabledestination.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QJsonObject>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

namespace {
// What would have reached the desktop.
class RecordingNotifier final : public Notifier {
public:
    void notify(const QString &title, const QString &body) override { shown.append({ title, body }); }
    QList<std::pair<QString, QString>> shown;
};
} // namespace

// Incidents between both real programs: redrived dead-letters a delivery and opens an incident;
// the console shows it on Dead letters with a count on the tab and one desktop notification;
// the group grows and nobody is notified twice; support acknowledges it with a note through the
// Prompter and the admin API, the next person sees who and the audit chain records it; a second
// acknowledgement is refused with 409. A console started again on the same settings does not
// announce an incident an earlier run announced, and does announce one opened since.
class TstIncidentsReceiver : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void aNewDeadLetterGroupIsOneIncidentAndOneNotification();
    void growthDoesNotNotifyAgain();
    void acknowledgeWithANoteIsVisibleAndAudited();
    void aRestartedConsoleAnnouncesOnlyNewIncidents();

private:
    [[nodiscard]] QStringList announcedOnStart(const QString &settingsFile, int openIncidents);
    [[nodiscard]] bool deadLetterAtFulfillment(int status, const QByteArray &deliveryId, int openIncidents);
    [[nodiscard]] QString deadLettersTabText() const;
    [[nodiscard]] qint64 openIncidentCount(const QString &destination);
    IncidentModel *model() const { return m_console->incidents()->model(); }

    RealReceiver m_receiver;
    SystemClock m_systemClock;
    RecordingNotifier m_notifier;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

QString TstIncidentsReceiver::deadLettersTabText() const
{
    auto *tabs = m_console->window()->findChild<QTabWidget *>();
    return tabs ? tabs->tabText(MainWindow::DeadLettersPage) : QString();
}

qint64 TstIncidentsReceiver::openIncidentCount(const QString &destination)
{
    return m_receiver
        .scalar(
            QStringLiteral("SELECT last_count FROM incidents WHERE closed_at IS NULL AND destination = ?"),
            { destination })
        .toLongLong();
}

void TstIncidentsReceiver::initTestCase()
{
    QString error;
    QVERIFY2(m_receiver.start(&error), qPrintable(error));
    setUpSettings();
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_systemClock);
    m_console->setNotifier(&m_notifier);
    m_console->window()->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_console->window()));
    QString problem;
    QVERIFY2(connectWith(*m_console, QStringLiteral("sam-support"), m_receiver.databasePath(),
                 m_receiver.token(QStringLiteral("sam-support")), &problem, m_receiver.adminUrl()),
        qPrintable(problem));
    QVERIFY(m_console->incidents());
    m_tester = std::make_unique<QAbstractItemModelTester>(
        model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
}

void TstIncidentsReceiver::cleanupTestCase()
{
    m_tester.reset();
    m_console.reset();
    m_receiver.stop();
}

void TstIncidentsReceiver::cleanup()
{
    if (QTest::currentTestFailed())
        qWarning("redrived log:\n%s", m_receiver.log().right(4000).constData());
}

void TstIncidentsReceiver::aNewDeadLetterGroupIsOneIncidentAndOneNotification()
{
    // Nothing failed yet: no incident, no notification, no count on the tab.
    m_console->incidents()->refresh();
    QTRY_VERIFY_WITH_TIMEOUT(m_console->incidents()->attentionCount() == 0, kGuiWait);
    QCOMPARE(m_notifier.shown.size(), 0);
    QCOMPARE(deadLettersTabText(), QStringLiteral("&Dead letters"));

    m_receiver.crm().enqueue(410, 1); // crm gives up at the first failure: a dead letter at once
    QString error;
    QVERIFY2(m_receiver.ingestAndSettle("incident-1", &error), qPrintable(error));
    // The receiver's check runs within a second of a dead letter.
    QVERIFY(m_receiver.waitForValue(
        QStringLiteral("SELECT count(*) FROM incidents WHERE closed_at IS NULL AND destination = 'crm'"), {},
        1));

    m_console->incidents()->refresh();
    QTRY_COMPARE_WITH_TIMEOUT(model()->rowCount(), 1, kGuiWait);
    const Incident *i = model()->incidentAt(model()->index(0, 0));
    QVERIFY(i);
    QCOMPARE(i->destination, QStringLiteral("crm"));
    QCOMPARE(i->count, 1);
    QVERIFY(!i->acknowledged());
    QTRY_COMPARE_WITH_TIMEOUT(m_notifier.shown.size(), 1, kGuiWait);
    const auto &[title, body] = m_notifier.shown.first();
    const QString category = IncidentModel::categoryText(i->category);
    QVERIFY2(title.contains(QLatin1String("crm")) && title.contains(category), qPrintable(title));
    QVERIFY2(body.contains(QLatin1String("1 dead letter")) && body.contains(QLatin1String("crm")),
        qPrintable(body));
    QCOMPARE(deadLettersTabText(), QStringLiteral("&Dead letters (1)"));

    // Polling again is not news.
    QSignalSpy polled(model(), &QAbstractItemModel::dataChanged);
    m_console->incidents()->refresh();
    QVERIFY(polled.wait(kGuiWait));
    QCOMPARE(model()->rowCount(), 1);
    QCOMPARE(m_notifier.shown.size(), 1);
}

void TstIncidentsReceiver::growthDoesNotNotifyAgain()
{
    QCOMPARE(m_notifier.shown.size(), 1);
    m_receiver.crm().enqueue(410, 2);
    QString error;
    QVERIFY2(m_receiver.ingestAndSettle("incident-2", &error), qPrintable(error));
    QVERIFY2(m_receiver.ingestAndSettle("incident-3", &error), qPrintable(error));
    QVERIFY(m_receiver.waitForValue(
        QStringLiteral("SELECT last_count FROM incidents WHERE closed_at IS NULL AND destination = 'crm'"),
        {}, 3));
    QCOMPARE(m_receiver.scalar(QStringLiteral("SELECT count(*) FROM incidents")).toInt(), 1);

    m_console->incidents()->refresh();
    QTRY_COMPARE_WITH_TIMEOUT(
        model()->data(model()->index(0, IncidentModel::CountColumn)).toLongLong(), 3, kGuiWait);
    QCOMPARE(model()->rowCount(), 1);
    QCOMPARE(m_notifier.shown.size(), 1); // the same incident: people already heard about it
    QCOMPARE(deadLettersTabText(), QStringLiteral("&Dead letters (1)"));
}

void TstIncidentsReceiver::acknowledgeWithANoteIsVisibleAndAudited()
{
    m_console->window()->showPage(MainWindow::DeadLettersPage);
    auto *table = find<QTableView>(m_console->window(), "incidentTable");
    QVERIFY(table);
    QVERIFY(!table->accessibleName().isEmpty());
    auto *button = find<QPushButton>(m_console->window(), "acknowledgeIncidentButton");
    QVERIFY(button && button->isVisible());
    QVERIFY(!button->accessibleName().isEmpty());
    QVERIFY(!button->isEnabled()); // nothing selected yet
    QApplication::setActiveWindow(m_console->window());
    QVERIFY(QTest::qWaitForWindowActive(m_console->window()));
    table->setFocus();
    QTRY_VERIFY(table->hasFocus());
    table->setCurrentIndex(model()->index(0, 0));
    QVERIFY(button->isEnabled());
    const qint64 id = model()->incidentAt(model()->index(0, 0))->id;

    // The keyboard path: Ctrl+K on the table asks for the note through the Prompter.
    const QString note = QStringLiteral("crm answers 410 since the deploy; rolling back");
    Prompter::clearAskedQuestions();
    Prompter::setNextAnswers({ { true, note } });
    QTest::keyClick(table, Qt::Key_K, Qt::ControlModifier);
    QCOMPARE(Prompter::askedQuestions().size(), 1);
    QCOMPARE(
        Prompter::askedQuestions().first().confirmLabel, QStringLiteral("Acknowledge incident #%1").arg(id));

    QTRY_VERIFY_WITH_TIMEOUT(
        model()->rowCount() == 1 && model()->incidents().first().acknowledged(), kGuiWait);
    const Incident &acked = model()->incidents().first();
    QCOMPARE(acked.acknowledgedBy, QStringLiteral("sam-support"));
    QCOMPARE(acked.note, note);
    QVERIFY(model()
                ->data(model()->index(0, IncidentModel::AcknowledgedColumn))
                .toString()
                .contains(QLatin1String("sam-support")));
    QTRY_COMPARE_WITH_TIMEOUT(deadLettersTabText(), QStringLiteral("&Dead letters"), kGuiWait);
    QVERIFY(!button->isEnabled()); // acknowledged once is enough

    // Audited: one chain entry naming who and the note, and the chain is intact.
    QCOMPARE(
        m_receiver
            .scalar(QStringLiteral("SELECT count(*) FROM audit_log WHERE action = 'incident_acknowledged' "
                                   "AND actor = 'sam-support' AND target = ? AND reason = ?"),
                { QStringLiteral("incident:%1").arg(id), note })
            .toInt(),
        1);
    AdminClient *admin = m_console->session()->admin();
    QVERIFY(admin);
    {
        // The receiver verifies its own chain (an operator may read the audit log).
        AdminClient operatorClient(
            m_receiver.adminUrl(), m_receiver.token(QStringLiteral("ana-operator")), {});
        ApiReply *verify = operatorClient.get(QStringLiteral("audit/verify"));
        QSignalSpy spy(verify, &ApiReply::finished);
        QVERIFY(spy.wait(kGuiWait));
        QVERIFY(spy.first().at(1).value<ApiError>().ok());
        QVERIFY(spy.first().at(0).value<QJsonDocument>().object().value(QLatin1String("ok")).toBool());
    }

    // A second acknowledgement (someone else's stale screen) is a conflict.
    ApiReply *again = admin->post(QStringLiteral("incidents/%1/acknowledge").arg(id),
        QJsonObject { { QStringLiteral("note"), QStringLiteral("me too") } });
    QSignalSpy spy(again, &ApiReply::finished);
    QVERIFY(spy.wait(kGuiWait));
    const auto error = spy.first().at(1).value<ApiError>();
    QCOMPARE(error.httpStatus, 409);
    QCOMPARE(error.kind, ApiError::Kind::Conflict);
    QCOMPARE(
        m_receiver
            .scalar(QStringLiteral("SELECT count(*) FROM audit_log WHERE action = 'incident_acknowledged'"))
            .toInt(),
        1);
    QCOMPARE(m_notifier.shown.size(), 1);
}

// What the incidents panel of a console started afresh (its own settings object on
// `settingsFile`, the same profile and receiver) announces once it has read `openIncidents`.
QStringList TstIncidentsReceiver::announcedOnStart(const QString &settingsFile, int openIncidents)
{
    QSettings settings(settingsFile, QSettings::IniFormat);
    RecordingNotifier notifier;
    IncidentsView view;
    IncidentsController controller(m_console->session(), &view, notifier, settings);
    controller.refresh();
    if (!QTest::qWaitFor([&] { return controller.model()->rowCount() == openIncidents; }, kGuiWait)) {
        qWarning("the panel shows %d open incidents, not %d", controller.model()->rowCount(), openIncidents);
        return { QStringLiteral("(not read)") };
    }
    QStringList titles;
    for (const auto &[title, body] : notifier.shown)
        titles.append(title);
    return titles;
}

// fulfillment answers `status` once (it gives up at the first failure): one more dead letter,
// and the receiver's check has `openIncidents` open.
bool TstIncidentsReceiver::deadLetterAtFulfillment(
    int status, const QByteArray &deliveryId, int openIncidents)
{
    m_receiver.fulfillment().enqueue(status, 1);
    QString error;
    if (!m_receiver.ingestAndSettle(deliveryId, &error)) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    return m_receiver.waitForValue(
        QStringLiteral("SELECT count(*) FROM incidents WHERE closed_at IS NULL"), {}, openIncidents);
}

void TstIncidentsReceiver::aRestartedConsoleAnnouncesOnlyNewIncidents()
{
    // crm's incident is acknowledged by now; fulfillment's new one is news.
    QVERIFY(deadLetterAtFulfillment(410, "incident-4", 2));
    const qint64 first = m_receiver
                             .scalar(QStringLiteral("SELECT id FROM incidents WHERE closed_at IS NULL "
                                                    "AND destination = 'fulfillment'"))
                             .toLongLong();
    QTemporaryDir dir;
    const QString store = dir.filePath(QStringLiteral("console.ini"));

    const QStringList firstRun = announcedOnStart(store, 2);
    QCOMPARE(firstRun.size(), 1);
    QVERIFY2(firstRun.first().contains(QLatin1String("fulfillment")), qPrintable(firstRun.first()));
    // The mark is in the settings file, under the profile: an incident id, nothing secret.
    QCOMPARE(QSettings(store, QSettings::IniFormat)
                 .value(QStringLiteral("incidents/sam-support/announcedUpTo"))
                 .toLongLong(),
        first);

    // Started again: the same incident was announced already.
    QCOMPARE(announcedOnStart(store, 2), QStringList());

    // While no console runs, fulfillment fails another way: a new group, a new incident.
    QVERIFY(deadLetterAtFulfillment(503, "incident-5", 3));
    const QStringList thirdRun = announcedOnStart(store, 3);
    QCOMPARE(thirdRun.size(), 1);
    QVERIFY2(thirdRun.first().contains(QLatin1String("fulfillment")) && thirdRun.first() != firstRun.first(),
        qPrintable(thirdRun.first()));
    QCOMPARE(announcedOnStart(store, 3), QStringList());

    // Settings without a mark (a first start): both open, unacknowledged incidents are news.
    QTemporaryDir otherDir;
    QCOMPARE(announcedOnStart(otherDir.filePath(QStringLiteral("console.ini")), 3).size(), 2);
}

QTEST_MAIN(TstIncidentsReceiver)
#include "tst_incidentsreceiver.moc"
