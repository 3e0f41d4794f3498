// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
//
// redrive:// links in the console (ui/links): a running console connected to a fixture database
// (with a real redrived for the admin API) takes links over its local socket and shows exactly the
// event, incident, replay or destination they name, and never under another profile unasked; the
// real `redrive` binary hands its link to a running console and exits, or refuses a malformed one.
#include "connection/connectionprofile.h"
#include "connection/session.h"
#include "consoleguitest.h"
#include "deadletters/deadlettersview.h"
#include "destinations/destinationmodel.h"
#include "destinations/destinationscontroller.h"
#include "destinations/destinationsview.h"
#include "detail/eventdetailview.h"
#include "incidents/incidentmodel.h"
#include "incidents/incidentscontroller.h"
#include "incidents/incidentsview.h"
#include "links/linkbanner.h"
#include "links/linkopener.h"
#include "links/linkserver.h"
#include "main/mainwindow.h"
#include "replays/replayhistorycontroller.h"

#include <QLocalServer>
#include <QLocalSocket>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTableView>
#include <QTest>

#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

class TstConsoleLinks : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void init();
    void aLinkOpensThatEventInTheRunningConsole();
    void anEventNotInTheDatabaseIsSaidPlainly();
    void anIncidentLinkSelectsTheIncident();
    void aReplayLinkSelectsTheReplay();
    void aDestinationLinkSelectsTheDestination();
    void malformedAndOversizeLinksAreRefused();
    void aStaleSocketDoesNotBlockAndALiveOneIsLeftAlone();
    void theRealBinaryHandsItsLinkToTheRunningConsole();
    void theRealBinaryRefusesAMalformedLink();
    void aLinkForAnotherProfileIsNotShownUntilSwitched();
    void aLinkConnectsWithItsProfileWhenNotConnected();
    void aSecondRealConsoleHandsOverInsteadOfStarting();

private:
    bool signIn();
    // Sends `bytes` over the console's socket the way `redrive LINK` does; the console's answer.
    QString send(const QByteArray &bytes);
    [[nodiscard]] QString bannerText() const;
    [[nodiscard]] QProcessEnvironment binaryEnvironment(const QString &socket) const;
    [[nodiscard]] QString binary() const
    {
        return qEnvironmentVariable("REDRIVE_BINARY_DIR") + QStringLiteral("/app/redrive/redrive");
    }

    QString m_socket;
    qint64 m_incident = 0;
    std::unique_ptr<LinkServer> m_server;
    std::unique_ptr<LinkOpener> m_opener;
};

void TstConsoleLinks::initTestCase()
{
    QVERIFY(setUpFixture());
    QVERIFY(setUpReceiver());
    m_socket = m_dir->filePath(QStringLiteral("links.sock"));
    // An open incident for the scenario's dead billing letter, as the receiver opens one.
    QSqlQuery ins(m_writer->handle());
    ins.prepare(QStringLiteral("INSERT INTO incidents (destination, category, opened_at, count_at_open, "
                               "last_count, updated_at) VALUES ('billing', 'http_permanent', ?, 1, 1, ?)"));
    ins.addBindValue(kGuiBase + 10'000);
    ins.addBindValue(kGuiBase + 10'000);
    QVERIFY(ins.exec());
    m_incident = ins.lastInsertId().toLongLong();
    QVERIFY(m_incident > 0);
    QVERIFY(signIn());
}

void TstConsoleLinks::cleanupTestCase()
{
    m_opener.reset();
    m_server.reset();
    m_console.reset();
    m_receiver.reset();
}

void TstConsoleLinks::init()
{
    if (m_console)
        m_console->window()->linkBanner()->clear();
}

bool TstConsoleLinks::signIn()
{
    m_opener.reset();
    m_server.reset();
    m_console.reset();
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_clock);
    m_console->window()->show();
    if (!QTest::qWaitForWindowExposed(m_console->window()))
        return false;
    QString problem;
    if (!connectWith(*m_console, QStringLiteral("prod"), m_t->url().sqlitePath,
            tokenOf(QStringLiteral("ana-operator")), &problem, receiverUrl())) {
        qWarning("could not connect: %s", qPrintable(problem));
        return false;
    }
    m_server = std::make_unique<LinkServer>();
    QString error;
    if (m_server->listen(m_socket, &error) != LinkServer::Listen::Listening) {
        qWarning("the link server did not listen: %s", qPrintable(error));
        return false;
    }
    m_opener = std::make_unique<LinkOpener>(*m_console);
    connect(m_server.get(), &LinkServer::linkReceived, m_opener.get(), &LinkOpener::open);
    return true;
}

QString TstConsoleLinks::send(const QByteArray &bytes)
{
    QLocalSocket socket;
    socket.connectToServer(m_socket);
    if (!socket.waitForConnected(kGuiWait))
        return QStringLiteral("not connected: ") + socket.errorString();
    socket.write(bytes);
    if (!QTest::qWaitFor(
            [&] { return socket.canReadLine() || socket.state() == QLocalSocket::UnconnectedState; },
            kGuiWait))
        return QStringLiteral("no answer");
    return QString::fromUtf8(socket.readLine()).trimmed();
}

QString TstConsoleLinks::bannerText() const
{
    LinkBanner *banner = m_console->window()->linkBanner();
    return banner->isVisible() ? banner->text() : QString();
}

QProcessEnvironment TstConsoleLinks::binaryEnvironment(const QString &socket) const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("REDRIVE_LINK_SOCKET"), socket);
    // Its settings (no profiles) in the suite's directory, never the user's.
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir->filePath(QStringLiteral("binary-config")));
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_dir->path()); // the user's own (0700)
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    return env;
}

// The link names the scenario's dead-lettered event: the console shows the Events page with that
// event's detail, and the window is brought up.
void TstConsoleLinks::aLinkOpensThatEventInTheRunningConsole()
{
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::DestinationsPage);
    QSignalSpy opened(m_opener.get(), &LinkOpener::opened);
    const QString link = QStringLiteral("redrive://event/%1?profile=prod").arg(m_s.failed);
    QCOMPARE(send(link.toUtf8() + '\n'), QStringLiteral("ok"));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kGuiWait);
    QCOMPARE(opened.at(0).at(1).toBool(), true);
    QCOMPARE(w->currentPage(), MainWindow::EventsPage);
    QCOMPARE(w->detail()->eventId(), m_s.failed);
    QVERIFY(!table()->selectionModel()->currentIndex().isValid()); // no other event highlighted
    QVERIFY(w->isVisible());
    QVERIFY(bannerText().isEmpty());
    // Another event, without a profile: the connected one.
    QCOMPARE(send(QStringLiteral("redrive://event/%1\n").arg(m_s.succeeded).toUtf8()), QStringLiteral("ok"));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 2, kGuiWait);
    QCOMPARE(w->detail()->eventId(), m_s.succeeded);
}

void TstConsoleLinks::anEventNotInTheDatabaseIsSaidPlainly()
{
    QSignalSpy opened(m_opener.get(), &LinkOpener::opened);
    QCOMPARE(send("redrive://event/987654321?profile=prod\n"), QStringLiteral("ok"));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kGuiWait);
    QCOMPARE(opened.at(0).at(1).toBool(), false);
    QCOMPARE(
        bannerText(), QStringLiteral("Event 987654321 is not in this receiver's database (profile prod)."));
}

void TstConsoleLinks::anIncidentLinkSelectsTheIncident()
{
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::OverviewPage);
    QSignalSpy opened(m_opener.get(), &LinkOpener::opened);
    QCOMPARE(send(QStringLiteral("redrive://incident/%1?profile=prod\n").arg(m_incident).toUtf8()),
        QStringLiteral("ok"));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kGuiWait);
    QCOMPARE(opened.at(0).at(1).toBool(), true);
    QCOMPARE(w->currentPage(), MainWindow::DeadLettersPage);
    QTableView *table = w->deadLettersPage()->incidents()->table();
    const Incident *selected = m_console->incidents()->model()->incidentAt(table->currentIndex());
    QVERIFY(selected);
    QCOMPARE(selected->id, m_incident);
    QVERIFY(table->selectionModel()->isRowSelected(table->currentIndex().row(), {}));

    QCOMPARE(send(QStringLiteral("redrive://incident/%1\n").arg(m_incident + 1000).toUtf8()),
        QStringLiteral("ok"));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 2, kGuiWait);
    QCOMPARE(opened.at(1).at(1).toBool(), false);
    QVERIFY2(
        bannerText().startsWith(
            QStringLiteral("Incident #%1 is not open in this receiver's database").arg(m_incident + 1000)),
        qPrintable(bannerText()));
}

void TstConsoleLinks::aReplayLinkSelectsTheReplay()
{
    const qint64 delivery = m_receiver->deliveryId(m_s.failed, QStringLiteral("billing"));
    QVERIFY(delivery > 0);
    const qint64 replay = m_receiver->requestReplay(
        QStringLiteral("ana-operator"), { delivery }, QStringLiteral("link test"));
    QVERIFY(replay > 0);
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::EventsPage);
    QSignalSpy opened(m_opener.get(), &LinkOpener::opened);
    QCOMPARE(send(QStringLiteral("redrive://replay/%1?profile=prod\n").arg(replay).toUtf8()),
        QStringLiteral("ok"));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kGuiWait);
    QCOMPARE(opened.at(0).at(1).toBool(), true);
    QCOMPARE(w->currentPage(), MainWindow::ReplaysPage);
    QCOMPARE(m_console->replayHistory()->currentReplayId(), replay);

    QCOMPARE(send(QStringLiteral("redrive://replay/%1\n").arg(replay + 500).toUtf8()), QStringLiteral("ok"));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 2, kGuiWait);
    QCOMPARE(opened.at(1).at(1).toBool(), false);
    QCOMPARE(bannerText(),
        QStringLiteral("Replay #%1 is not in this receiver's database (profile prod).").arg(replay + 500));
    QCOMPARE(m_console->replayHistory()->currentReplayId(), replay); // what was shown stays
}

void TstConsoleLinks::aDestinationLinkSelectsTheDestination()
{
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::EventsPage);
    QSignalSpy opened(m_opener.get(), &LinkOpener::opened);
    QCOMPARE(send("redrive://destination/billing?profile=prod\n"), QStringLiteral("ok"));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kGuiWait);
    QCOMPARE(opened.at(0).at(1).toBool(), true);
    QCOMPARE(w->currentPage(), MainWindow::DestinationsPage);
    QTableView *table = w->destinationsPage()->table();
    const DestinationStatus *selected
        = m_console->destinations()->model()->destinationAt(table->currentIndex());
    QVERIFY(selected);
    QCOMPARE(selected->name, QStringLiteral("billing"));

    QCOMPARE(send("redrive://destination/nowhere\n"), QStringLiteral("ok"));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 2, kGuiWait);
    QCOMPARE(opened.at(1).at(1).toBool(), false);
    QCOMPARE(
        bannerText(), QStringLiteral("Destination nowhere is not known to this receiver (profile prod)."));
}

// Connected with prod, a link for staging opens nothing (the same id there is another event) and
// says so, offering the switch; a link for a profile the console does not have only says so.
// Switching connects with staging and then shows the event.
void TstConsoleLinks::aLinkForAnotherProfileIsNotShownUntilSwitched()
{
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::OverviewPage);
    QSignalSpy opened(m_opener.get(), &LinkOpener::opened);
    QCOMPARE(send(QStringLiteral("redrive://event/%1?profile=unknown-one\n").arg(m_s.pending).toUtf8()),
        QStringLiteral("ok"));
    QTRY_VERIFY_WITH_TIMEOUT(!bannerText().isEmpty(), kGuiWait);
    QCOMPARE(bannerText(),
        QStringLiteral(
            "The link to event %1 is for profile \"unknown-one\", which this console does not have "
            "(it is connected with prod); it was not opened here.")
            .arg(m_s.pending));
    QVERIFY(w->linkBanner()->switchButton()->isHidden());

    // A second profile on this computer: the same database, read-only.
    ConnectionProfile staging;
    staging.name = QStringLiteral("staging");
    staging.sqlitePath = m_t->url().sqlitePath;
    m_console->profiles().save(staging);
    QCOMPARE(send(QStringLiteral("redrive://event/%1?profile=staging\n").arg(m_s.pending).toUtf8()),
        QStringLiteral("ok"));
    QTRY_VERIFY_WITH_TIMEOUT(bannerText().contains(QStringLiteral("for profile staging")), kGuiWait);
    QCOMPARE(bannerText(),
        QStringLiteral("The link to event %1 is for profile staging, but the console is connected with prod; "
                       "it was not opened here.")
            .arg(m_s.pending));
    QPushButton *switchButton = w->linkBanner()->switchButton();
    QVERIFY(switchButton->isVisible());
    QCOMPARE(switchButton->text(), QStringLiteral("Switch to staging"));
    QCOMPARE(w->currentPage(), MainWindow::OverviewPage);
    QVERIFY(w->detail()->eventId() != m_s.pending);
    QCOMPARE(opened.count(), 0);
    QCOMPARE(m_console->session()->profile().name, QStringLiteral("prod"));

    QTest::mouseClick(switchButton, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(
        m_console->session() && m_console->session()->profile().name == u"staging", kGuiWait);
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kGuiWait);
    QCOMPARE(opened.at(0).at(1).toBool(), true);
    QCOMPARE(w->currentPage(), MainWindow::EventsPage);
    QCOMPARE(w->detail()->eventId(), m_s.pending);
    QVERIFY(bannerText().isEmpty());
}

void TstConsoleLinks::malformedAndOversizeLinksAreRefused()
{
    QSignalSpy received(m_server.get(), &LinkServer::linkReceived);
    const QString notAKind = send("redrive://evnt/1\n");
    QVERIFY2(notAKind.startsWith(QStringLiteral("error: ")), qPrintable(notAKind));
    QVERIFY2(notAKind.contains(QStringLiteral("evnt")), qPrintable(notAKind));
    QVERIFY(send("https://example.com/\n").startsWith(QStringLiteral("error: ")));
    QCOMPARE(send(QByteArray(5000, 'a')), QStringLiteral("error: a link is at most 4096 bytes"));
    QCOMPARE(send("redrive://event/1?profile=" + QByteArray(4200, 'p') + '\n'),
        QStringLiteral("error: a link is at most 4096 bytes"));
    QCOMPARE(received.count(), 0);
    // A connection that says nothing is dropped, and the console keeps taking links.
    QLocalSocket silent;
    silent.connectToServer(m_socket);
    QVERIFY(silent.waitForConnected(kGuiWait));
    QTRY_COMPARE_WITH_TIMEOUT(
        silent.state(), QLocalSocket::UnconnectedState, LinkServer::kTimeoutMs + kGuiWait);
    QCOMPARE(send(QStringLiteral("redrive://event/%1\n").arg(m_s.failed).toUtf8()), QStringLiteral("ok"));
    QCOMPARE(received.count(), 1);
}

// A console that crashed leaves its socket file behind: the next one removes it and listens. One
// that a live console listens on is left alone.
void TstConsoleLinks::aStaleSocketDoesNotBlockAndALiveOneIsLeftAlone()
{
    const QString path = m_dir->filePath(QStringLiteral("stale.sock"));
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    QVERIFY(fd >= 0);
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    const QByteArray native = QFile::encodeName(path);
    QVERIFY(native.size() < int(sizeof(address.sun_path)));
    std::memcpy(address.sun_path, native.constData(), native.size());
    QCOMPARE(::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)), 0);
    ::close(fd); // the file stays, nobody listens: what a crash leaves
    QVERIFY(QFile::exists(path));

    LinkServer revived;
    QString error;
    QCOMPARE(revived.listen(path, &error), LinkServer::Listen::Listening);
    QVERIFY(revived.isListening());
    LinkServer second;
    QCOMPARE(second.listen(path, &error), LinkServer::Listen::OtherConsole);
    QVERIFY(!second.isListening());
    QVERIFY(revived.isListening());
}

// `redrive LINK` while a console runs: the running console takes the link and shows it, and the
// second `redrive` exits 0 without opening a window of its own.
void TstConsoleLinks::theRealBinaryHandsItsLinkToTheRunningConsole()
{
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::OverviewPage);
    QSignalSpy opened(m_opener.get(), &LinkOpener::opened);
    QProcess p;
    p.setProcessEnvironment(binaryEnvironment(m_socket));
    p.start(binary(), { QStringLiteral("redrive://event/%1?profile=prod").arg(m_s.unknown) });
    QVERIFY2(p.waitForStarted(kGuiWait), qPrintable(p.errorString()));
    // This process serves the socket while the other waits for the answer.
    QTRY_COMPARE_WITH_TIMEOUT(p.state(), QProcess::NotRunning, kGuiWait);
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kGuiWait);
    QCOMPARE(w->currentPage(), MainWindow::EventsPage);
    QCOMPARE(w->detail()->eventId(), m_s.unknown);
}

void TstConsoleLinks::theRealBinaryRefusesAMalformedLink()
{
    QSignalSpy received(m_server.get(), &LinkServer::linkReceived);
    QProcess p;
    p.setProcessEnvironment(binaryEnvironment(m_socket));
    p.start(binary(), { QStringLiteral("redrive://evnt/12") });
    QVERIFY(p.waitForStarted(kGuiWait));
    QTRY_COMPARE_WITH_TIMEOUT(p.state(), QProcess::NotRunning, kGuiWait);
    QCOMPARE(p.exitCode(), 2);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains(QStringLiteral("redrive: not a link the console opens: unknown link kind")),
        qPrintable(err));
    QVERIFY2(err.contains(QStringLiteral("evnt")), qPrintable(err));
    // Nor is a link longer than the console takes, or two at once; --help names the argument.
    const auto exitOf = [this](const QStringList &args, QString *said) {
        QProcess q;
        q.setProcessEnvironment(binaryEnvironment(m_socket));
        q.start(binary(), args);
        if (!q.waitForStarted(kGuiWait))
            return -1;
        if (!QTest::qWaitFor([&] { return q.state() == QProcess::NotRunning; }, kGuiWait))
            return -1;
        *said = QString::fromUtf8(q.readAllStandardError() + q.readAllStandardOutput());
        return q.exitCode();
    };
    QString out;
    QCOMPARE(exitOf({ QStringLiteral("redrive://destination/") + QString(5000, u'd') }, &out), 2);
    QVERIFY2(out.contains(QStringLiteral("redrive: the link is longer than 4096 bytes")), qPrintable(out));
    QCOMPARE(exitOf({ QStringLiteral("redrive://event/1"), QStringLiteral("redrive://event/2") }, &out), 2);
    QVERIFY2(out.contains(QStringLiteral("redrive: one link at a time")), qPrintable(out));
    QCOMPARE(exitOf({ QStringLiteral("--help") }, &out), 0);
    QVERIFY2(out.contains(QStringLiteral("[LINK]")), qPrintable(out));
    QCOMPARE(received.count(), 0);
}

// Two real consoles: the first, started by a link, listens; the second, started by another link,
// hands it to the first and exits 0 while the first keeps running.
void TstConsoleLinks::aSecondRealConsoleHandsOverInsteadOfStarting()
{
    const QString socket = m_dir->filePath(QStringLiteral("real.sock"));
    QProcess first;
    first.setProcessEnvironment(binaryEnvironment(socket));
    first.start(binary(), { QStringLiteral("redrive://event/1") });
    QVERIFY(first.waitForStarted(kGuiWait));
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(socket) || first.state() == QProcess::NotRunning, kGuiWait);
    QCOMPARE(first.state(), QProcess::Running);

    QProcess second;
    second.setProcessEnvironment(binaryEnvironment(socket));
    second.start(binary(), { QStringLiteral("redrive://destination/billing") });
    QVERIFY(second.waitForStarted(kGuiWait));
    QVERIFY(second.waitForFinished(kGuiWait));
    QVERIFY2(second.exitCode() == 0, second.readAllStandardError().constData());
    QCOMPARE(first.state(), QProcess::Running);

    first.terminate();
    QVERIFY(first.waitForFinished(kGuiWait));
}

// A console that is not connected yet (`redrive LINK` starting it) connects with the link's
// profile, as --profile does, and then shows what the link names.
void TstConsoleLinks::aLinkConnectsWithItsProfileWhenNotConnected()
{
    m_opener.reset();
    m_server.reset();
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_clock);
    m_console->window()->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_console->window()));
    m_opener = std::make_unique<LinkOpener>(*m_console);
    QSignalSpy opened(m_opener.get(), &LinkOpener::opened);
    const auto link = parseConsoleLink(QStringLiteral("redrive://destination/billing?profile=prod"));
    QVERIFY(link);
    m_opener->open(*link);
    QVERIFY(m_opener->pending().has_value());
    QCOMPARE(bannerText(), QStringLiteral("Connecting with profile prod to open destination billing…"));
    QTRY_VERIFY_WITH_TIMEOUT(m_console->session(), kGuiWait);
    QCOMPARE(m_console->session()->profile().name, QStringLiteral("prod"));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kGuiWait);
    QCOMPARE(opened.at(0).at(1).toBool(), true);
    QVERIFY(!m_opener->pending().has_value());
    MainWindow *w = m_console->window();
    QCOMPARE(w->currentPage(), MainWindow::DestinationsPage);
    const DestinationStatus *selected
        = m_console->destinations()->model()->destinationAt(w->destinationsPage()->table()->currentIndex());
    QVERIFY(selected);
    QCOMPARE(selected->name, QStringLiteral("billing"));
    QVERIFY(bannerText().isEmpty());
}

QTEST_MAIN(TstConsoleLinks)
#include "tst_consolelinks.moc"
