// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "common/prompter.h"
#include "common/warningbanner.h"
#include "connection/connectiondialog.h"
#include "connection/session.h"
#include "consoleguitest.h"
#include "destinations/destinationmodel.h"
#include "destinations/destinationscontroller.h"
#include "events/eventscontroller.h"
#include "events/eventtablemodel.h"
#include "realreceiver.h"
#include "statusbar/replicacontroller.h"

#include <QAction>
#include <QComboBox>
#include <QDeadlineTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTableView>
#include <QTest>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

// The console on a real hot standby: a PostgreSQL primary with a standby made by
// `pg_basebackup -R` (the replica fixture), a real redrived on the primary, the console's
// database on the standby and its admin API on the primary. Replay on the standby is paused
// with pg_wal_replay_pause() to prove the console waits for its own change, and says so.
class TstConsoleReplica : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void lagThresholdIsValidated();
    void consoleWaitsForTheStandbyToShowItsAction();

private:
    // Asks the console for the standby's state until `done` holds (bounded).
    template<typename Pred> bool refreshUntil(Pred done, int timeoutMs = kGuiWait);
    bool standbyExec(const QString &sql, QString *error);
    int crmRow() const;

    RealReceiver m_receiver;
    SystemClock m_systemClock;
    QUrl m_standby;
    QString m_dba = QStringLiteral("standby-dba");
};

template<typename Pred> bool TstConsoleReplica::refreshUntil(Pred done, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!done()) {
        if (deadline.hasExpired())
            return false;
        if (ReplicaController *r = m_console->session()->replica())
            r->refresh();
        QTest::qWait(100); // turns the event loop while the stats thread answers
    }
    return true;
}

void TstConsoleReplica::initTestCase()
{
    const QString dir = qEnvironmentVariable("REDRIVE_TEST_REPLICA_DIR");
    QFile primaryUrl(dir + QStringLiteral("/primary-url"));
    QFile standbyUrl(dir + QStringLiteral("/standby-url"));
    QVERIFY2(primaryUrl.open(QIODevice::ReadOnly) && standbyUrl.open(QIODevice::ReadOnly),
        "the replica fixture (tests/support/pg-replica.sh) did not run");
    m_standby = QUrl(QString::fromUtf8(standbyUrl.readAll().trimmed()));
    m_receiver.usePostgres(QString::fromUtf8(primaryUrl.readAll().trimmed()));
    QString error;
    QVERIFY2(m_receiver.start(&error), qPrintable(error));
    QVERIFY2(m_receiver.ingestAndSettle("replica-1", &error) > 0, qPrintable(error));
    setUpSettings();
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), m_dba);
    db.setHostName(m_standby.host());
    db.setPort(m_standby.port());
    db.setUserName(m_standby.userName());
    db.setPassword(m_standby.password());
    db.setDatabaseName(QStringLiteral("postgres"));
    QVERIFY2(db.open(), qPrintable(db.lastError().text()));
}

void TstConsoleReplica::cleanupTestCase()
{
    QString error;
    standbyExec(QStringLiteral("SELECT pg_wal_replay_resume()"), &error);
    m_console.reset();
    QSqlDatabase::database(m_dba, false).close();
    QSqlDatabase::removeDatabase(m_dba);
    m_receiver.stop();
}

void TstConsoleReplica::cleanup()
{
    if (QTest::currentTestFailed())
        qWarning("redrived log:\n%s", m_receiver.log().right(4000).constData());
}

bool TstConsoleReplica::standbyExec(const QString &sql, QString *error)
{
    QSqlQuery q(QSqlDatabase::database(m_dba));
    if (q.exec(sql))
        return true;
    *error = q.lastError().text();
    return false;
}

int TstConsoleReplica::crmRow() const
{
    DestinationModel *model = m_console->destinations()->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, DestinationModel::NameColumn).data().toString() == u"crm")
            return row;
    }
    return -1;
}

void TstConsoleReplica::lagThresholdIsValidated()
{
    ConnectionProfile p;
    p.name = QStringLiteral("standby");
    p.databaseKind = ConnectionProfile::DatabaseKind::Postgres;
    p.pgHost = QStringLiteral("127.0.0.1");
    p.pgSslMode = QStringLiteral("disable");
    QVERIFY(!p.validate());
    QCOMPARE(p.replicaLagWarnSeconds, 30); // the default
    for (int bad : { 0, -1, 24 * 3600 + 1 }) {
        p.replicaLagWarnSeconds = bad;
        const auto problem = p.validate();
        QVERIFY(problem);
        QCOMPARE(problem->field, QStringLiteral("replicaLagWarn"));
        QVERIFY(problem->message.contains(QStringLiteral("whole number of seconds from 1 to 86400")));
    }
    // A value that is not a number survives a round trip through settings as invalid, not as 0.
    m_settings->setValue(QStringLiteral("profiles/odd/database/kind"), QStringLiteral("postgresql"));
    m_settings->setValue(
        QStringLiteral("profiles/odd/database/replicaLagWarnSeconds"), QStringLiteral("soon"));
    const auto odd = ProfileStore(*m_settings).load(QStringLiteral("odd"));
    QVERIFY(odd);
    QCOMPARE(odd->replicaLagWarnSeconds, -1);
    ProfileStore(*m_settings).remove(QStringLiteral("odd"));
}

void TstConsoleReplica::consoleWaitsForTheStandbyToShowItsAction()
{
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_systemClock);
    MainWindow *w = m_console->window();
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w));
    m_console->showConnectionDialog();
    ConnectionDialog *dialog = m_console->connectionDialog();
    QVERIFY(dialog);
    auto set = [dialog](const char *field, const QString &text) {
        auto *edit = find<QLineEdit>(dialog, field);
        edit->clear();
        QTest::keyClicks(edit, text);
    };
    QTest::mouseClick(find<QPushButton>(dialog, "newProfileButton"), Qt::LeftButton);
    set("nameEdit", QStringLiteral("standby"));
    set("environmentEdit", QStringLiteral("production"));
    find<QComboBox>(dialog, "databaseKind")->setCurrentIndex(1);
    set("pgHostEdit", m_standby.host());
    find<QSpinBox>(dialog, "pgPortSpin")->setValue(m_standby.port());
    set("pgDatabaseEdit", QStringLiteral("redrive"));
    set("pgUserEdit", m_standby.userName());
    set("pgPasswordEdit", m_standby.password());
    find<QComboBox>(dialog, "pgSslMode")->setCurrentText(QStringLiteral("disable"));
    set("adminUrlEdit", m_receiver.adminUrl().toString());
    set("tokenEdit", m_receiver.token(QStringLiteral("root-admin")));

    // A threshold that is not a number is refused before anything connects, with the field named.
    auto *lag = find<QLineEdit>(dialog, "replicaLagWarnEdit");
    QVERIFY(!lag->accessibleName().isEmpty());
    set("replicaLagWarnEdit", QStringLiteral("soon"));
    QTest::mouseClick(find<QPushButton>(dialog, "connectButton"), Qt::LeftButton);
    auto *problem = find<QLabel>(dialog, "problemLabel");
    QVERIFY(problem->isVisible());
    QVERIFY2(problem->text().contains(QStringLiteral("replica lag warning")), qPrintable(problem->text()));
    QVERIFY(lag->styleSheet().contains(QStringLiteral("border"))); // the field at fault is marked
    QVERIFY(!m_console->session());

    set("replicaLagWarnEdit", QStringLiteral("2"));
    QTest::mouseClick(find<QPushButton>(dialog, "connectButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(m_console->session(), kGuiWait);
    ReplicaController *replica = m_console->session()->replica();
    QVERIFY(replica);
    QCOMPARE(m_console->session()->profile().replicaLagWarnSeconds, 2);

    // It reads events from the standby, knows it is one, and says it is caught up.
    QTRY_VERIFY_WITH_TIMEOUT(m_console->events()->model()->rowCount() >= 1, kGuiWait);
    auto *status = find<QLabel>(w, "replicaStatus");
    auto *banner = find<WarningBanner>(w, "replicaWarning");
    // Heard by what they show (their accessible name is their text), not by a fixed name.
    QVERIFY(status->accessibleName().isEmpty());
    QCOMPARE(banner->accessibleDescription(), QStringLiteral("Replica warning"));
    QVERIFY2(
        refreshUntil([&] { return status->text() == u"Replica: caught up"; }), qPrintable(status->text()));
    QVERIFY(replica->state() && replica->state()->standby);
    QVERIFY(status->isVisible());
    QVERIFY(banner->isHidden());

    w->showPage(MainWindow::DestinationsPage);
    auto *table = find<QTableView>(w, "destinationTable");
    QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 2, kGuiWait);
    const int crm = crmRow();
    QVERIFY(crm >= 0);
    QVERIFY(!table->model()->index(crm, 0).data(DestinationModel::PausedRole).toBool());

    // Replay stops on the standby; the action goes to the primary, which commits it at once.
    QString error;
    QVERIFY2(standbyExec(QStringLiteral("SELECT pg_wal_replay_pause()"), &error), qPrintable(error));
    table->selectRow(crm);
    QSignalSpy pageRefreshed(m_console->destinations(), &DestinationsController::refreshed);
    Prompter::setNextAnswers({ { true, QStringLiteral("crm maintenance") } });
    QTest::mouseClick(find<QPushButton>(w, "pauseButton"), Qt::LeftButton);
    QVERIFY(m_receiver.waitForValue(
        QStringLiteral("SELECT count(*) FROM destination_state WHERE name = 'crm' AND paused <> 0"), {}, 1));
    QTRY_VERIFY_WITH_TIMEOUT(replica->waiting(), kGuiWait);
    QCOMPARE(status->text(), QStringLiteral("Replica: waiting for the replica to show your change…"));
    QVERIFY(status->isVisible());

    // While replay is paused the standby falls behind: past the 2 s threshold the amber banner
    // says so, and all that time the page did not present the old state as the new one.
    QVERIFY2(refreshUntil([&] {
        return banner->isVisible() && banner->text().contains(QStringLiteral("behind the primary"));
    }),
        qPrintable(banner->text()));
    QVERIFY(banner->text().contains(QStringLiteral("Replay is paused on the standby")));
    QVERIFY(replica->waiting());
    QCOMPARE(status->text(), QStringLiteral("Replica: waiting for the replica to show your change…"));
    QVERIFY(!table->model()->index(crm, 0).data(DestinationModel::PausedRole).toBool());
    QCOMPARE(pageRefreshed.count(), 0); // nothing re-read from the standby yet
    // Refreshing by hand (View › Refresh, F5) does not present the old state as new either.
    for (QAction *a : w->findChildren<QAction *>()) {
        if (a->text() == u"&Refresh")
            a->trigger();
    }
    QTest::qWait(300); // an answer, had one been asked for, would be back by now
    QCOMPARE(pageRefreshed.count(), 0);
    QVERIFY(replica->state() && replica->state()->replayPaused && !replica->state()->caughtUp);

    // Replay resumes: the wait ends by itself, the page shows the pause, the standby catches up.
    QVERIFY2(standbyExec(QStringLiteral("SELECT pg_wal_replay_resume()"), &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(!replica->waiting(), kGuiWait);
    QTRY_VERIFY_WITH_TIMEOUT(pageRefreshed.count() > 0, kGuiWait);
    QTRY_VERIFY_WITH_TIMEOUT(
        table->model()->index(crmRow(), 0).data(DestinationModel::PausedRole).toBool(), kGuiWait);
    QVERIFY2(refreshUntil([&] { return status->text() == u"Replica: caught up" && banner->isHidden(); }),
        qPrintable(status->text() + u" / " + banner->text()));
}

QTEST_MAIN(TstConsoleReplica)
#include "tst_consolereplica.moc"
