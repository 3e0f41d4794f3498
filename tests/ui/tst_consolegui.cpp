// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "api/adminclient.h"
#include "approvals/approvalmodel.h"
#include "audit/auditlog.h"
#include "auditor/auditcontroller.h"
#include "auditor/auditmodel.h"
#include "common/environmentbanner.h"
#include "common/prompter.h"
#include "connection/connectiondialog.h"
#include "connection/session.h"
#include "consolefixture.h"
#include "consoleguitest.h"
#include "detail/detailcontroller.h"
#include "detail/eventdetailview.h"
#include "events/eventscontroller.h"
#include "events/eventtablemodel.h"
#include "fakeadminapi.h"
#include "main/consolecontroller.h"
#include "newreplay/replaydialog.h"
#include "query/downstream.h"
#include "query/eventdetail.h"
#include "secrets/secretstore.h"
#include "testdb.h"
#include "tooltipsweep.h"
#include "util/clock.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QStatusBar>
#include <QTableView>
#include <QTcpServer>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

#include <functional>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

// The console driven through its real widgets, offscreen: connect through the dialog, filter,
// open events, read their attempts, check the downstream indicator for every state, follow a
// dead-letter group, use the keyboard, and see connection failures explained.
class TstConsoleGui : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void connectsThroughTheDialog();
    void eachDownstreamStateIsShown_data();
    void eachDownstreamStateIsShown();
    void overviewShowsTheBacklog();
    void statusFilterNarrowsTheList();
    void keyboardReachesEveryPage();
    void deadLetterGroupOpensTheFilteredList();
    void newEventsAreAnnouncedWithoutMovingTheSelection();
    void failuresAreExplained_data();
    void failuresAreExplained();
    void detailTooltipsShowHostileTextLiterally_data();
    void detailTooltipsShowHostileTextLiterally();
    void typedAdminCallsSendTheirRequests();
};

void TstConsoleGui::initTestCase()
{
    QVERIFY(setUpFixture());
    QVERIFY(setUpReceiver());
}

void TstConsoleGui::cleanupTestCase()
{
    m_console.reset();
}

void TstConsoleGui::connectsThroughTheDialog()
{
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_clock);
    m_console->window()->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_console->window()));
    QString problem;
    const QString token = tokenOf(QStringLiteral("sam-support"));
    QVERIFY2(connectWith(*m_console, QStringLiteral("prod-eu"), m_t->url().sqlitePath, token, &problem,
                 receiverUrl()),
        qPrintable(problem));
    MainWindow *w = m_console->window();
    QCOMPARE(find<QLabel>(w, "identityLabel")->text(), QStringLiteral("sam-support · support"));
    auto *banner = find<EnvironmentBanner>(w, "environmentBanner");
    QVERIFY(banner->isVisible());
    QVERIFY(banner->text().startsWith(QStringLiteral("PRODUCTION")));
    QVERIFY(w->windowTitle().contains(QStringLiteral("PRODUCTION")));
    // The token went to the keychain under the profile's key, and only the key name to settings.
    QVERIFY(m_secrets.contains(SecretStore::keyFor(QStringLiteral("prod-eu"), QStringLiteral("api-token"))));
    m_settings->sync();
    QFile ini(m_dir->filePath(QStringLiteral("redrive.ini")));
    QVERIFY(ini.open(QIODevice::ReadOnly));
    const QByteArray saved = ini.readAll();
    QVERIFY(saved.contains("prod-eu"));
    QVERIFY(!saved.contains(token.toUtf8()));
    // The list shows every event, newest first.
    QTRY_COMPARE_WITH_TIMEOUT(table()->model()->rowCount(), 5, kGuiWait);
    QTRY_COMPARE_WITH_TIMEOUT(
        table()->model()->index(0, EventTableModel::IdColumn).data(EventTableModel::EventIdRole).toLongLong(),
        m_s.noRoute, kGuiWait);
}

void TstConsoleGui::eachDownstreamStateIsShown_data()
{
    QTest::addColumn<QString>("providerId");
    QTest::addColumn<QString>("state");
    QTest::addColumn<QString>("label");
    QTest::addColumn<int>("attempts");
    QTest::addColumn<QString>("firstCategory");
    QTest::newRow("succeeded with reference") << "gh-delivery-1"
                                              << "succeeded_ref"
                                              << "Succeeded" << 2 << "HTTP retryable";
    QTest::newRow("failed") << "evt_failed_1"
                            << "failed"
                            << "Failed" << 1 << "HTTP permanent";
    QTest::newRow("outcome unknown") << "shop-unknown-1"
                                     << "outcome_unknown"
                                     << "Outcome unknown" << 1 << "Timeout · outcome unknown";
    QTest::newRow("pending") << "gh-pending-1"
                             << "pending"
                             << "Pending" << 0 << "";
}

void TstConsoleGui::eachDownstreamStateIsShown()
{
    QFETCH(QString, providerId);
    QFETCH(QString, state);
    QFETCH(QString, label);
    QFETCH(int, attempts);
    QFETCH(QString, firstCategory);
    QVERIFY(m_console && m_console->session());
    search(providerId);
    QTRY_VERIFY_WITH_TIMEOUT(table()->model()->rowCount() == 1
            && table()->model()->index(0, 0).data(EventTableModel::LoadedRole).toBool(),
        kGuiWait);
    // The list's own indicator column.
    QVERIFY(table()->model()->index(0, EventTableModel::DownstreamColumn).data().toString().contains(label));
    QVERIFY(selectRow(0));
    QWidget *w = m_console->window();
    const qint64 id = table()->model()->index(0, 0).data(EventTableModel::EventIdRole).toLongLong();
    auto *title = find<QLabel>(w, "detailTitle");
    QTRY_VERIFY_WITH_TIMEOUT(title->text().startsWith(QStringLiteral("Event %1 ").arg(id)), kGuiWait);
    auto *deliveries = find<QTreeWidget>(w, "deliveryTree");
    QTRY_COMPARE_WITH_TIMEOUT(deliveries->topLevelItemCount(), 1, kGuiWait);
    QTreeWidgetItem *delivery = deliveries->topLevelItem(0);
    QCOMPARE(delivery->data(2, Qt::UserRole).toString(), state);
    QVERIFY2(delivery->text(2).contains(label), qPrintable(delivery->text(2)));
    if (state == u"succeeded_ref")
        QCOMPARE(delivery->text(5), QStringLiteral("ORD-1001"));
    // A failed delivery says why on the Summary, as the Attempts tab does.
    if (state == u"failed") {
        QVERIFY2(
            delivery->text(6).startsWith(QStringLiteral("HTTP permanent — ")), qPrintable(delivery->text(6)));
        QVERIFY(table()
                    ->model()
                    ->index(0, EventTableModel::LastFailureColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("HTTP permanent — ")));
    }
    if (state == u"pending")
        QCOMPARE(delivery->text(6), QStringLiteral("—"));
    auto *timeline = find<QTreeWidget>(w, "attemptTree");
    QCOMPARE(timeline->topLevelItemCount(), attempts);
    if (attempts > 0) {
        QCOMPARE(timeline->topLevelItem(0)->text(6), firstCategory);
        QVERIFY(!timeline->topLevelItem(0)->text(7).isEmpty()); // the classification is explained
        timeline->setCurrentItem(timeline->topLevelItem(0));
        QVERIFY(!find<QPlainTextEdit>(w, "responseExcerpt")->toPlainText().isEmpty());
    }
    if (state == u"succeeded_ref")
        QCOMPARE(timeline->topLevelItem(0)->text(4), QStringLiteral("503"));
    if (state == u"outcome_unknown")
        QVERIFY(find<QLabel>(w, "scheduleNote")->text().contains(QStringLiteral("attempt 2 is due")));
}

void TstConsoleGui::overviewShowsTheBacklog()
{
    QVERIFY(m_console && m_console->session());
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::OverviewPage);
    auto *backlog = find<QLabel>(w, "backlogLabel");
    // Two deliveries wait (retrying and pending); the oldest since kGuiBase + 2 s, "now" is kGuiBase + 60 s.
    QTRY_COMPARE_WITH_TIMEOUT(
        backlog->text(), QStringLiteral("2 deliveries waiting; the oldest has waited 58 s."), kGuiWait);
    // The data is a minute old, so the range fits it rather than a day.
    QCOMPARE(find<QComboBox>(w, "overviewWindow")->currentText(),
        QStringLiteral("Fit to the data (last 2 minutes)"));
    w->showPage(MainWindow::EventsPage);
}

void TstConsoleGui::statusFilterNarrowsTheList()
{
    QVERIFY(m_console && m_console->session());
    search(QString());
    QTRY_COMPARE_WITH_TIMEOUT(table()->model()->rowCount(), 5, kGuiWait);
    QAction *dead = m_console->window()->findChild<QAction *>(QStringLiteral("status_dead"));
    QAction *retrying = m_console->window()->findChild<QAction *>(QStringLiteral("status_retrying"));
    QVERIFY(dead && retrying);
    dead->setChecked(true);
    QTRY_COMPARE_WITH_TIMEOUT(table()->model()->rowCount(), 1, kGuiWait);
    retrying->setChecked(true);
    QTRY_COMPARE_WITH_TIMEOUT(table()->model()->rowCount(), 2, kGuiWait);
    QTest::mouseClick(find<QPushButton>(m_console->window(), "clearFilterButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(table()->model()->rowCount(), 5, kGuiWait);
    QVERIFY(!dead->isChecked());
    // Quarantined events have a filter of their own; none of the fixture's is.
    QAction *invalid = m_console->window()->findChild<QAction *>(QStringLiteral("status_invalid"));
    QVERIFY(invalid);
    QCOMPARE(invalid->text(), QStringLiteral("invalid"));
    invalid->setChecked(true);
    QTRY_COMPARE_WITH_TIMEOUT(table()->model()->rowCount(), 0, kGuiWait);
    QTest::mouseClick(find<QPushButton>(m_console->window(), "clearFilterButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(table()->model()->rowCount(), 5, kGuiWait);
}

void TstConsoleGui::keyboardReachesEveryPage()
{
    QVERIFY(m_console && m_console->session());
    MainWindow *w = m_console->window();
    QApplication::setActiveWindow(w);
    QVERIFY(QTest::qWaitForWindowActive(w));
    // Support staff see every page but the approvals inbox and the audit log (their shortcuts do
    // nothing); every other page is one shortcut away.
    QVERIFY(!w->isPageAvailable(MainWindow::ApprovalsPage));
    QVERIFY(!w->isPageAvailable(MainWindow::AuditPage));
    for (int page = MainWindow::PageCount - 1; page >= 0; --page) {
        const int before = int(w->currentPage());
        QTest::keyClick(w, Qt::Key(Qt::Key_1 + page), Qt::ControlModifier);
        QCOMPARE(int(w->currentPage()), w->isPageAvailable(MainWindow::Page(page)) ? page : before);
    }
    QTest::keyClick(w, Qt::Key_3, Qt::ControlModifier);
    QTest::keyClick(w, Qt::Key_F, Qt::ControlModifier);
    QCOMPARE(w->currentPage(), MainWindow::EventsPage);
    QTRY_COMPARE(QApplication::focusWidget(), find<QLineEdit>(w, "searchEdit"));
    // Ctrl+C on the list copies the selected event's id.
    QTRY_VERIFY_WITH_TIMEOUT(
        table()->model()->index(2, 0).data(EventTableModel::LoadedRole).toBool(), kGuiWait);
    QVERIFY(selectRow(2));
    table()->setFocus();
    QApplication::clipboard()->clear();
    QTest::keyClick(table(), Qt::Key_C, Qt::ControlModifier);
    QCOMPARE(QApplication::clipboard()->text(),
        QString::number(table()->model()->index(2, 0).data(EventTableModel::EventIdRole).toLongLong()));
}

void TstConsoleGui::deadLetterGroupOpensTheFilteredList()
{
    QVERIFY(m_console && m_console->session());
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::DeadLettersPage);
    auto *groups = find<QTableView>(w, "deadLetterTable");
    QTRY_COMPARE_WITH_TIMEOUT(groups->model()->rowCount(), 1, kGuiWait);
    QCOMPARE(groups->model()->index(0, 2).data().toLongLong(), qint64(1));
    groups->setFocus();
    groups->setCurrentIndex(groups->model()->index(0, 0));
    QTest::keyClick(groups, Qt::Key_Return);
    QTRY_COMPARE(w->currentPage(), MainWindow::EventsPage);
    QTRY_COMPARE_WITH_TIMEOUT(table()->model()->rowCount(), 1, kGuiWait);
    QTRY_COMPARE_WITH_TIMEOUT(
        table()->model()->index(0, 0).data(EventTableModel::EventIdRole).toLongLong(), m_s.failed, kGuiWait);
    // The filter reads as a person would write it, and the keyboard is in the list.
    QCOMPARE(find<QToolButton>(w, "statusFilter")->text(), QStringLiteral("dead · HTTP permanent"));
    QCOMPARE(QApplication::focusWidget(), table());
    QTest::mouseClick(find<QPushButton>(w, "clearFilterButton"), Qt::LeftButton);
    QCOMPARE(find<QToolButton>(w, "statusFilter")->text(), QStringLiteral("Any status"));
    QTRY_COMPARE_WITH_TIMEOUT(table()->model()->rowCount(), 5, kGuiWait);
}

void TstConsoleGui::newEventsAreAnnouncedWithoutMovingTheSelection()
{
    QVERIFY(m_console && m_console->session());
    QTRY_VERIFY_WITH_TIMEOUT(
        table()->model()->index(3, 0).data(EventTableModel::LoadedRole).toBool(), kGuiWait);
    QVERIFY(selectRow(3));
    const qint64 selected = table()->model()->index(3, 0).data(EventTableModel::EventIdRole).toLongLong();
    ConsoleFixture fx(*m_writer);
    ConsoleFixture::EventSpec e;
    e.receivedAt = kGuiBase + 50'000;
    fx.addEvent(e);
    fx.addEvent(e);
    m_console->events()->pollNow();
    auto *button = find<QPushButton>(m_console->window(), "newEventsButton");
    QTRY_VERIFY_WITH_TIMEOUT(button->isVisible(), kGuiWait);
    QCOMPARE(button->text(), QStringLiteral("2 new events — click to show"));
    QCOMPARE(table()->model()->rowCount(), 5);
    QCOMPARE(table()->selectionModel()->currentIndex().row(), 3);
    QTest::mouseClick(button, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(table()->model()->rowCount(), 7, kGuiWait);
    QVERIFY(!button->isVisible());
    const QModelIndex current = table()->selectionModel()->currentIndex();
    QCOMPARE(current.row(), 5);
    QCOMPARE(current.data(EventTableModel::EventIdRole).toLongLong(), selected);
}

void TstConsoleGui::failuresAreExplained_data()
{
    QTest::addColumn<QString>("setup");
    // "support": the real receiver's support token; anything else is sent as it is.
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("expected");
    QTest::newRow("wrong token") << "ok"
                                 << "nope"
                                 << "rejected the token";
    QTest::newRow("missing file") << "missing"
                                  << "support"
                                  << "There is no database file";
    QTest::newRow("not a database") << "garbage"
                                    << "support"
                                    << "is not a SQLite database";
    QTest::newRow("never migrated") << "empty"
                                    << "support"
                                    << "is not a Redrive database, or it was never migrated";
    QTest::newRow("schema too new") << "newer"
                                    << "support"
                                    << "newer than this console understands";
    QTest::newRow("admin api down") << "down"
                                    << "support"
                                    << "Nothing is listening";
}

void TstConsoleGui::failuresAreExplained()
{
    QFETCH(QString, setup);
    QFETCH(QString, token);
    QFETCH(QString, expected);
    if (token == u"support")
        token = tokenOf(QStringLiteral("sam-support"));
    QString path = m_t->url().sqlitePath;
    const QString scratch = m_dir->filePath(setup + QLatin1String(".db"));
    if (setup == u"missing") {
        path = scratch;
    } else if (setup == u"garbage") {
        QFile f(scratch);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(4096, 'x'));
        path = scratch;
    } else if (setup == u"empty" || setup == u"newer") {
        StorageUrl url;
        url.sqlitePath = scratch;
        QString error;
        auto db = takeValue(Db::open(url, QStringLiteral("scratch"), {}), &error);
        QVERIFY2(db, qPrintable(error));
        QVERIFY(
            succeeded(db->exec(QStringLiteral("CREATE TABLE IF NOT EXISTS unrelated (x INTEGER)")), &error));
        if (setup != u"empty") {
            QVERIFY(
                succeeded(db->exec(QStringLiteral(
                              "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, description TEXT, "
                              "applied_at BIGINT)")),
                    &error));
            QVERIFY(succeeded(
                db->exec(QStringLiteral("INSERT INTO schema_version VALUES (99, 'x', 0)")), &error));
        }
        path = scratch;
    }
    ConsoleController console(*m_settings, m_secrets, m_clock);
    console.window()->show();
    QUrl apiUrl = receiverUrl();
    if (setup == u"down") {
        // A port that was free a moment ago: nothing listens there now.
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        apiUrl = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(probe.serverPort()));
    }
    console.showConnectionDialog();
    ConnectionDialog *dialog = console.connectionDialog();
    QVERIFY(dialog);
    QTest::mouseClick(find<QPushButton>(dialog, "newProfileButton"), Qt::LeftButton);
    QTest::keyClicks(find<QLineEdit>(dialog, "nameEdit"), QStringLiteral("broken-") + setup);
    QTest::keyClicks(find<QLineEdit>(dialog, "sqlitePathEdit"), path);
    QTest::keyClicks(find<QLineEdit>(dialog, "adminUrlEdit"), apiUrl.toString());
    QTest::keyClicks(find<QLineEdit>(dialog, "tokenEdit"), token);
    QTest::mouseClick(find<QPushButton>(dialog, "connectButton"), Qt::LeftButton);
    auto *problem = find<QLabel>(dialog, "problemLabel");
    QTRY_VERIFY_WITH_TIMEOUT(problem->isVisible(), kGuiWait);
    QVERIFY2(problem->text().contains(expected), qPrintable(problem->text()));
    QVERIFY(!console.session());
    QVERIFY(!problem->text().contains(token));
    if (setup == u"empty")
        QVERIFY(problem->text().contains(QStringLiteral("redrived --config FILE migrate")));
    // A wrong token is never remembered.
    if (setup == u"ok")
        QVERIFY(!m_secrets.contains(
            SecretStore::keyFor(QStringLiteral("broken-ok"), QStringLiteral("api-token"))));
}

void TstConsoleGui::detailTooltipsShowHostileTextLiterally_data()
{
    QTest::addColumn<QString>("hostile");
    // Without '/' or '~', which the payload tree's tooltips (JSON pointers) spell escaped.
    QTest::newRow("image") << QStringLiteral("<img src=x width=3000>");
    QTest::newRow("entity") << QStringLiteral("&lt;");
}

// The event detail panel read from a database where every text a sender or an operator chose
// is markup: every tooltip on it (fields, key links, deliveries, attempts, audit entries,
// payload tree) shows that text as the characters it is. The environment banner too, whose
// profile name comes from a profile file.
void TstConsoleGui::detailTooltipsShowHostileTextLiterally()
{
    QFETCH(QString, hostile);
    const QString &h = hostile;
    QString error;
    auto t = TestDatabase::create(&error);
    QVERIFY2(t, qPrintable(error));
    auto writer = t->open(QStringLiteral("hostilewriter"));
    ConsoleFixture fx(*writer);
    ConsoleFixture::EventSpec e;
    e.source = h;
    e.type = h;
    e.providerId = h;
    e.status = QStringLiteral("dead");
    e.verifiedBy = h;
    e.seenCount = 2;
    e.body = QJsonDocument(QJsonObject { { h, QJsonObject { { h, h } } } }).toJson(QJsonDocument::Compact);
    e.headers = QJsonDocument(QJsonArray { QJsonArray { h, h } }).toJson(QJsonDocument::Compact);
    const qint64 eventId = fx.addEvent(e);
    ConsoleFixture::DeliverySpec d;
    d.destination = h;
    d.status = QStringLiteral("dead");
    d.attemptCount = 1;
    d.lastCategory = QStringLiteral("http_permanent");
    d.lastError = h;
    d.downstreamRef = h;
    d.deadAt = kGuiBase;
    const qint64 deliveryId = fx.addDelivery(eventId, d);
    ConsoleFixture::AttemptSpec a;
    a.statusCode = 410;
    a.category = QStringLiteral("http_permanent");
    a.explanation = h;
    a.responseExcerpt = h;
    fx.addAttempt(deliveryId, a);
    fx.addNote(eventId, h, h, kGuiBase);
    QVERIFY2(fx.lastError().isEmpty(), qPrintable(fx.lastError()));
    QSqlQuery key(writer->handle());
    key.prepare(QStringLiteral("INSERT INTO event_keys (event_id, name, value) VALUES (?, ?, ?)"));
    key.addBindValue(eventId);
    key.addBindValue(h);
    key.addBindValue(h);
    QVERIFY2(key.exec(), qPrintable(sqlErrorText(key)));
    const audit::AuditRecord record { h, h, h, QStringLiteral("event:%1").arg(eventId), h,
        QJsonObject { { h, h } } };
    QVERIFY(withTransaction(*writer, [&] { return audit::appendAuditEntry(*writer, record, kGuiBase); }));

    auto read = fetchEventDetail(*writer, eventId);
    QVERIFY2(read, qPrintable(read.error()));
    QVERIFY(read->has_value());
    const EventDetail &detail = **read;
    QCOMPARE(detail.keys.size(), 1);
    QCOMPARE(detail.audit.size(), 1);

    QWidget root;
    auto *view = new EventDetailView(&root);
    auto *banner = new EnvironmentBanner(&root);
    view->showDetail(detail, kGuiBase + 60'000);
    banner->showEnvironment(h, Qt::red, h);

    ToolTipSweep sweep(h);
    const QList<QWidget *> widgets = root.findChildren<QWidget *>();
    for (QWidget *w : widgets) {
        sweep.check(w->toolTip(), QString::fromLatin1(w->metaObject()->className()) + u' ' + w->objectName());
        // A header view reads its view's model: that model is swept once, with the view.
        if (auto *items = qobject_cast<QAbstractItemView *>(w);
            items && items->model() && !qobject_cast<QHeaderView *>(w))
            sweep.checkModel(*items->model(), QString::fromLatin1(items->metaObject()->className()));
    }
    QVERIFY2(sweep.clean(), "a tooltip shows the text as markup (see the warnings)");
    // The key link, the banner, the delivery's destination and downstream, the attempt's
    // explanation, the audit entry's details and the payload's pointers.
    QVERIFY2(sweep.carrying >= 7, qPrintable(QString::number(sweep.carrying)));
}

// The pages' typed admin API calls put on the wire the method, path, query and JSON body the
// receiver expects (the same bytes the pages built by hand before): names are one percent-encoded
// path segment, bodies compact JSON, an empty ticket or selection hash left out.
void TstConsoleGui::typedAdminCallsSendTheirRequests()
{
    struct Call {
        const char *what;
        std::function<ApiReply *(AdminClient &)> call;
        QByteArray method;
        QByteArray path;
        QByteArray body;
    };
    const QList<Call> calls = {
        { "whoami", [](AdminClient &c) { return c.whoami(); }, "GET", "/admin/v1/whoami", "" },
        { "note", [](AdminClient &c) { return c.addEventNote(42, QStringLiteral("called \"crm\"")); }, "POST",
            "/admin/v1/events/42/notes", R"({"body":"called \"crm\""})" },
        { "revalidate", [](AdminClient &c) { return c.revalidateEvent(9'000'000'001); }, "POST",
            "/admin/v1/events/9000000001/revalidate", "{}" },
        { "acknowledge", [](AdminClient &c) { return c.acknowledgeIncident(7, QStringLiteral("on it")); },
            "POST", "/admin/v1/incidents/7/acknowledge", R"({"note":"on it"})" },
        { "pause",
            [](AdminClient &c) {
                return c.pauseDestination(QStringLiteral("crm/eu?x"), QStringLiteral("deploy"));
            },
            "POST", "/admin/v1/destinations/crm%2Feu%3Fx/pause", R"({"reason":"deploy"})" },
        { "resume",
            [](AdminClient &c) { return c.resumeDestination(QStringLiteral("crm"), QStringLiteral("done")); },
            "POST", "/admin/v1/destinations/crm/resume", R"({"reason":"done"})" },
        { "preview",
            [](AdminClient &c) {
                return c.previewReplay(
                    QJsonObject { { QStringLiteral("delivery_ids"), QJsonArray { 3, 4 } } });
            },
            "POST", "/admin/v1/replays/preview", R"({"delivery_ids":[3,4]})" },
        { "create without ticket",
            [](AdminClient &c) { return c.createReplay(QStringLiteral("h1"), QStringLiteral("fixed"), {}); },
            "POST", "/admin/v1/replays", R"({"reason":"fixed","selection_hash":"h1"})" },
        { "create with ticket",
            [](AdminClient &c) {
                return c.createReplay(QStringLiteral("h1"), QStringLiteral("fixed"), QStringLiteral("T-1"));
            },
            "POST", "/admin/v1/replays", R"({"reason":"fixed","selection_hash":"h1","ticket":"T-1"})" },
        { "reconcile", [](AdminClient &c) { return c.reconcileSource(QStringLiteral("shop eu")); }, "POST",
            "/admin/v1/sources/shop%20eu/reconcile", "{}" },
        { "checkpoint", [](AdminClient &c) { return c.auditCheckpoint(); }, "GET",
            "/admin/v1/audit/checkpoint", "" },
        { "pending replays", [](AdminClient &c) { return c.listReplays(ReplayStatus::PendingApproval); },
            "GET", "/admin/v1/replays?status=pending_approval", "" },
        { "replay history page", [](AdminClient &c) { return c.listReplays({}, 50, QStringLiteral("c2")); },
            "GET", "/admin/v1/replays?limit=50&cursor=c2", "" },
        { "replay", [](AdminClient &c) { return c.replay(12); }, "GET", "/admin/v1/replays/12", "" },
        { "replay items page", [](AdminClient &c) { return c.replay(12, 200, 0); }, "GET",
            "/admin/v1/replays/12?items_after=0&items_limit=200", "" },
        { "approve",
            [](AdminClient &c) {
                return c.approveReplay(12, QStringLiteral("checked"), QStringLiteral("h2"));
            },
            "POST", "/admin/v1/replays/12/approve", R"({"reason":"checked","selection_hash":"h2"})" },
        { "reject without hash", [](AdminClient &c) { return c.rejectReplay(12, QStringLiteral("no"), {}); },
            "POST", "/admin/v1/replays/12/reject", R"({"reason":"no"})" },
    };
    // Stand-in: it records each request exactly as it arrived (method, path, query, body,
    // Authorization), which a real receiver does not expose; what the calls do is asserted
    // against the real redrived by the *receiver suites.
    AdminClient client(m_api.url(), QStringLiteral("tok-123"), {});
    for (const Call &c : calls) {
        const qsizetype before = m_api.requests().size();
        QSignalSpy done(c.call(client), &ApiReply::finished);
        QVERIFY2(done.wait(kGuiWait), c.what);
        QCOMPARE(m_api.requests().size(), before + 1);
        const FakeAdminApi::Request &r = m_api.requests().last();
        QVERIFY2(r.method == c.method, c.what);
        QCOMPARE(r.query.isEmpty() ? r.path : r.path + '?' + r.query, c.path);
        QCOMPARE(r.body, c.body);
        QCOMPARE(r.authorization, QByteArray("Bearer tok-123"));
    }
}

QTEST_MAIN(TstConsoleGui)
#include "tst_consolegui.moc"
