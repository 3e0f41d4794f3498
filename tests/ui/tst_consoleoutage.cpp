// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "common/prompter.h"
#include "common/timeformat.h"
#include "common/warningbanner.h"
#include "connection/databasewatch.h"
#include "connection/session.h"
#include "consoleguitest.h"
#include "destinations/destinationmodel.h"
#include "destinations/destinationscontroller.h"
#include "events/eventscontroller.h"
#include "events/eventtablemodel.h"
#include "pgreceivers.h"
#include "realreceiver.h"
#include "storage/database.h"

#include <QAccessible>
#include <QAction>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QStatusBar>
#include <QTableView>
#include <QTest>
#include <QTimer>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

// The console through a PostgreSQL outage: a private cluster (tests/support/pg-harness.sh, so
// stopping it touches no other test), a real redrived on it, and the console's real controllers
// and widgets. PostgreSQL is stopped: the banner says since when, the pages keep what they
// showed, an action is answered in words (the admin API's 503 database_unavailable). PostgreSQL
// starts again: the console reconnects and refreshes by itself, and the banner clears; the
// receivers banner then says when the receiver could not reach the database and what it refused.
class TstConsoleOutage : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void bannerSaysSinceWhenAndWhy();
    void qtSqlDoesNotReconnectByItself();
    void consoleRidesOutAnOutage();

private:
    int crmRow() const;
    void refreshByHand();

    PrivatePgCluster m_cluster;
    RealReceiver m_receiver;
    SystemClock m_systemClock;
};

void TstConsoleOutage::initTestCase()
{
    QString error;
    QVERIFY2(m_cluster.start(&error), qPrintable(error));
    m_receiver.usePostgres(m_cluster.url());
    QVERIFY2(m_receiver.start(&error), qPrintable(error));
    QVERIFY2(m_receiver.ingestAndSettle("outage-1", &error) > 0, qPrintable(error));
    setUpSettings();
}

void TstConsoleOutage::cleanupTestCase()
{
    m_console.reset();
    m_receiver.stop();
}

void TstConsoleOutage::cleanup()
{
    if (QTest::currentTestFailed())
        qWarning("redrived log:\n%s", m_receiver.log().right(4000).constData());
}

int TstConsoleOutage::crmRow() const
{
    DestinationModel *model = m_console->destinations()->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, DestinationModel::NameColumn).data().toString() == u"crm")
            return row;
    }
    return -1;
}

void TstConsoleOutage::refreshByHand()
{
    for (QAction *a : m_console->window()->findChildren<QAction *>()) {
        if (a->text() == u"&Refresh")
            a->trigger();
    }
}

// The banner's sentence names the time, the reason and the next attempt.
void TstConsoleOutage::bannerSaysSinceWhenAndWhy()
{
    const QString line
        = DatabaseWatch::warningFor(kGuiBase, QStringLiteral("server closed the connection"), 4'000);
    QVERIFY2(line.contains(QStringLiteral("cannot be reached since")), qPrintable(line));
    QVERIFY(line.contains(QStringLiteral("server closed the connection")));
    QVERIFY(line.contains(QStringLiteral("stale")));
    QVERIFY(line.contains(QStringLiteral("next attempt in 4")));
}

// Why the console must reopen: a QPSQL connection whose server restarted stays broken, and says
// so only through libpq's status (Db::connectionLost), not by repairing itself.
void TstConsoleOutage::qtSqlDoesNotReconnectByItself()
{
    QString error;
    const auto url = StorageUrl::parse(m_cluster.url());
    QVERIFY2(url, qPrintable(url.error()));
    OpenOptions options;
    options.mode = OpenMode::ReadOnly;
    auto db = takeValue(Db::open(*url, QStringLiteral("outage-probe"), options), &error);
    QVERIFY2(db, qPrintable(error));
    QVERIFY(succeeded(db->exec(QStringLiteral("SELECT 1")), &error));
    QVERIFY(db->connectionLost().isEmpty());
    QVERIFY2(m_cluster.restartFast(&error), qPrintable(error));
    QVERIFY(!succeeded(
        db->exec(QStringLiteral("SELECT 1")), &error)); // the server is back, the connection is not
    QVERIFY(!db->connectionLost().isEmpty());
    QVERIFY(!succeeded(db->exec(QStringLiteral("SELECT 1")), &error)); // nor on the next statement
    auto fresh = takeValue(Db::open(*url, QStringLiteral("outage-probe"), options), &error);
    QVERIFY2(fresh, qPrintable(error));
    QVERIFY2(succeeded(fresh->exec(QStringLiteral("SELECT 1")), &error), qPrintable(error));
    QVERIFY(fresh->connectionLost().isEmpty());
    // The receiver rode the restart out too (its own reconnects, shipped with issue 15).
    QVERIFY(m_receiver.waitForValue(QStringLiteral("SELECT 1"), {}, 1));
}

void TstConsoleOutage::consoleRidesOutAnOutage()
{
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_systemClock);
    MainWindow *w = m_console->window();
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w));
    QString problem;
    QVERIFY2(connectWithPostgres(*m_console, QStringLiteral("outage"), m_cluster.url(),
                 m_receiver.token(QStringLiteral("root-admin")), m_receiver.adminUrl(), &problem),
        qPrintable(problem));

    QTRY_VERIFY_WITH_TIMEOUT(m_console->events()->model()->rowCount() >= 1, kGuiWait);
    w->showPage(MainWindow::DestinationsPage);
    auto *table = find<QTableView>(w, "destinationTable");
    QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 2, kGuiWait);
    auto *banner = find<WarningBanner>(w, "databaseWarning");
    QVERIFY(banner && banner->accessibleDescription() == u"Database warning");
    QVERIFY(banner->isHidden());
    auto *receiverBanner = find<WarningBanner>(w, "receiverWarning");
    QVERIFY(receiverBanner && receiverBanner->accessibleDescription() == u"Receiver warning");
    QVERIFY(!receiverBanner->text().contains(QStringLiteral("database unreachable")));

    // PostgreSQL stops. The next read finds the connection gone: the banner says so and since
    // when, and the page keeps what it showed.
    QString error;
    const qint64 haltingAt = m_systemClock.nowMs();
    QVERIFY2(m_cluster.halt(&error), qPrintable(error));
    const qint64 haltedAt = m_systemClock.nowMs();
    refreshByHand();
    QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), kGuiWait);
    QVERIFY2(banner->text().contains(QStringLiteral("The database cannot be reached since")),
        qPrintable(banner->text()));
    QVERIFY(banner->text().contains(QStringLiteral("stale")));
    DatabaseWatch *watch = m_console->database();
    QVERIFY(watch && watch->down());
    const qint64 since = watch->downSinceMs().value_or(0);
    QVERIFY(since >= haltedAt && since <= m_systemClock.nowMs());
    QVERIFY2(banner->text().contains(TimeFormat::display(since)), qPrintable(banner->text()));
    QCOMPARE(table->model()->rowCount(), 2);
    const int crm = crmRow();
    QVERIFY(crm >= 0);

    // An action goes to the admin API, which cannot reach the database either: answered in words.
    table->selectRow(crm);
    Prompter::setNextAnswers({ { true, QStringLiteral("crm maintenance") } });
    QTest::mouseClick(find<QPushButton>(w, "pauseButton"), Qt::LeftButton);
    auto *summary = find<QLabel>(w, "destinationSummary");
    QTRY_VERIFY_WITH_TIMEOUT(summary->text().contains(QStringLiteral("was not paused")), kGuiWait);
    QVERIFY2(
        summary->text().contains(QStringLiteral("The receiver cannot reach its database; try again in 2 s.")),
        qPrintable(summary->text()));
    QVERIFY(!summary->text().contains(QStringLiteral("HTTP 503")));

    // Stays down a while: the console keeps retrying (bounded backoff) and the banner stays.
    QTRY_VERIFY_WITH_TIMEOUT(watch->reconnectAttempts() >= 2, kGuiWait);
    QVERIFY(watch->down());
    QVERIFY(banner->isVisible());
    QVERIFY2(banner->text().contains(QStringLiteral("next attempt in")), qPrintable(banner->text()));
    QCOMPARE(table->model()->rowCount(), 2);
    const int attemptsWhileDown = watch->reconnectAttempts();

    // A provider's webhooks meanwhile: once the receiver has noticed the outage (its heartbeat
    // or a request found the database gone), each is answered 503 and counted.
    const QByteArray body = R"({"ref":"refs/heads/main","repository":{"full_name":"acme/shop"}})";
    QTRY_VERIFY_WITH_TIMEOUT(m_receiver.log().contains("database unreachable, refusing work"), 30'000);
    QCOMPARE(m_receiver.ingest("outage-refused-1", "push", body), 503);
    QCOMPARE(m_receiver.ingest("outage-refused-2", "push", body), 503);

    // PostgreSQL starts again: no user action, the console reconnects, refreshes, and clears
    // the banner.
    QSignalSpy refreshed(m_console->destinations(), &DestinationsController::refreshed);
    const qint64 resumingAt = m_systemClock.nowMs();
    QVERIFY2(m_cluster.resume(&error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(banner->isHidden(), 30'000);
    QTRY_VERIFY_WITH_TIMEOUT(refreshed.count() > 0, kGuiWait);
    QVERIFY2(w->statusBar()->currentMessage().contains(QStringLiteral("can be reached again")),
        qPrintable(w->statusBar()->currentMessage()));
    QVERIFY(!watch->down());
    QVERIFY(watch->reconnectAttempts() > attemptsWhileDown);

    // The receiver records its outage with its next heartbeat; the receivers banner says when it
    // began and ended and how many requests it refused, and the status tooltip keeps it.
    const QRegularExpression said(QStringLiteral(
        R"(Receiver \S+: database unreachable (.+)–(.+) \((.+), (\d+) requests? refused\)\.)"));
    QTimer refresher; // the console's own refresh interval is longer than this test wants to wait
    connect(&refresher, &QTimer::timeout, this, [this] { refreshByHand(); });
    refresher.start(500);
    QTRY_VERIFY_WITH_TIMEOUT(said.match(receiverBanner->text()).hasMatch(), 30'000);
    refresher.stop();
    QVERIFY(receiverBanner->isVisible());
    const QRegularExpressionMatch m = said.match(receiverBanner->text());
    QVERIFY2(m.captured(4).toInt() >= 2, qPrintable(receiverBanner->text()));
    // Read on a fresh connection: the receiver helper's own one did not survive the outage.
    const auto url = StorageUrl::parse(m_cluster.url());
    QVERIFY2(url, qPrintable(url.error()));
    OpenOptions options;
    options.mode = OpenMode::ReadOnly;
    auto db = takeValue(Db::open(*url, QStringLiteral("outage-row"), options), &error);
    QVERIFY2(db, qPrintable(error));
    QSqlQuery row(db->handle());
    QVERIFY(
        row.exec(QStringLiteral("SELECT db_outage_began_at, db_outage_ended_at FROM receiver_instances")));
    QVERIFY(row.next());
    const QVariant began = row.value(0);
    const QVariant ended = row.value(1);
    row.finish();
    QVERIFY(began.isValid() && ended.isValid());
    QVERIFY2(
        began.toLongLong() >= haltingAt && began.toLongLong() <= resumingAt, qPrintable(began.toString()));
    QVERIFY2(ended.toLongLong() >= resumingAt && ended.toLongLong() <= m_systemClock.nowMs(),
        qPrintable(ended.toString()));
    QCOMPARE(m.captured(1), TimeFormat::display(began.toLongLong()));
    QVERIFY2(TimeFormat::display(ended.toLongLong()).endsWith(m.captured(2)), qPrintable(m.captured(2)));
    QCOMPARE(m.captured(3), TimeFormat::duration(ended.toLongLong() - began.toLongLong()));
    QVERIFY2(
        find<QLabel>(w, "receiverStatus")->toolTip().contains(QStringLiteral("last database unreachable ")),
        qPrintable(find<QLabel>(w, "receiverStatus")->toolTip()));

    // And it works again at the first try: the receiver's admin API replaced the connections
    // the server closed while they were idle before running the request (not answering this
    // write 503 because a dead handle failed its token lookup), and the page shows the pause.
    QSignalSpy paused(m_console->destinations(), &DestinationsController::pausedChanged);
    table->selectRow(crmRow());
    QTRY_VERIFY_WITH_TIMEOUT(find<QPushButton>(w, "pauseButton")->isEnabled(), kGuiWait);
    summary->clear();
    Prompter::setNextAnswers({ { true, QStringLiteral("crm maintenance") } });
    QTest::mouseClick(find<QPushButton>(w, "pauseButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(
        !paused.isEmpty() || summary->text().contains(QStringLiteral("was not paused")), kGuiWait);
    QVERIFY2(!paused.isEmpty(), qPrintable(summary->text()));
    QTRY_VERIFY_WITH_TIMEOUT(
        table->model()->index(crmRow(), 0).data(DestinationModel::PausedRole).toBool(), 30'000);
}

QTEST_MAIN(TstConsoleOutage)
#include "tst_consoleoutage.moc"
