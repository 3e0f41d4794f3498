// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "api/adminclient.h"
#include "consoleguitest.h"
#include "detail/detailcontroller.h"
#include "events/eventscontroller.h"
#include "events/eventtablemodel.h"
#include "main/mainwindow.h"
#include "pgreceivers.h"
#include "realreceiver.h"
#include "replays/replayscontroller.h"

#include <QAction>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimer>

#include <optional>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

namespace {

constexpr int kReplyTimeoutMs = 300;
// An answer's bound: the reply timeout plus scheduling slack on a loaded 2-core machine. Without
// the receiver's reply timeout an answer would take the whole hang, or the console's own 15 s.
constexpr qint64 kAnswerBoundMs = kReplyTimeoutMs + 2'700;
const QString kReadWording = QStringLiteral("The receiver did not finish in time; its database may be hung.");
const QString kActionSentence
    = QStringLiteral(" This action may still be recorded: check the page before repeating it.");

struct Answer {
    QJsonDocument body;
    ApiError error;
    qint64 ms = 0;
};

// Waits (bounded) for one reply's answer, keeping the event loop turning.
std::optional<Answer> await(ApiReply *reply, int timeoutMs = 20'000)
{
    std::optional<Answer> out;
    QElapsedTimer clock;
    clock.start();
    QEventLoop loop;
    QObject::connect(reply, &ApiReply::finished, &loop,
        [&out, &loop, &clock](const QJsonDocument &body, const ApiError &error) {
            out = Answer { body, error, clock.elapsed() };
            loop.quit();
        });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return out;
}

int occurrences(const QString &haystack, const QString &needle)
{
    return static_cast<int>(haystack.count(needle));
}

} // namespace

// The console against a real redrived whose PostgreSQL hangs (its processes stopped with
// SIGSTOP, connections open; tests/support/pg-harness.sh on a private cluster). With
// `[admin] reply_timeout = "300ms"` the receiver answers every admin request 503 reply_timeout
// with Retry-After and "outcome": "unknown" instead of holding it. The console tells a read
// ("repeat it") from an action ("it may still be recorded: check before repeating"), both
// through its AdminClient and on the pages that show the error; after the database runs again
// the action is there at most once, a repeated read succeeds, and no text shows the token.
class TstConsoleHang : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void adminClientTellsAReadFromAnAction();
    void pagesSayTheActionMayStillBeRecorded();

private:
    [[nodiscard]] bool freeze();
    void thaw();
    [[nodiscard]] double finishedAdminRequests() const;
    [[nodiscard]] int notesWithBody(const QString &body);
    void verifyNoTokenShown();

    PrivatePgCluster m_cluster;
    RealReceiver m_receiver;
    SystemClock m_systemClock;
    QString m_token;
    qint64 m_eventId = 0;
    bool m_frozen = false;
};

void TstConsoleHang::initTestCase()
{
    QString error;
    QVERIFY2(m_cluster.start(&error), qPrintable(error));
    m_receiver.usePostgres(m_cluster.url());
    m_receiver.setAdminSettings("reply_timeout = \"" + QByteArray::number(kReplyTimeoutMs) + "ms\"\n");
    QVERIFY2(m_receiver.start(&error), qPrintable(error));
    m_eventId = m_receiver.ingestAndSettle("hang-1", &error);
    QVERIFY2(m_eventId > 0, qPrintable(error));
    m_token = m_receiver.token(QStringLiteral("sam-support")); // support may add notes
    QVERIFY(!m_token.isEmpty());
    setUpSettings();
}

void TstConsoleHang::cleanupTestCase()
{
    thaw();
    m_console.reset();
    m_receiver.stop();
}

void TstConsoleHang::cleanup()
{
    thaw(); // a failed check must not leave the server stopped for the next function
    if (QTest::currentTestFailed())
        qWarning("redrived log:\n%s", m_receiver.log().right(4000).constData());
}

bool TstConsoleHang::freeze()
{
    QString error;
    m_frozen = m_cluster.freeze(&error);
    if (!m_frozen)
        qWarning("%s", qPrintable(error));
    return m_frozen;
}

void TstConsoleHang::thaw()
{
    if (!m_frozen)
        return;
    QString error;
    if (!m_cluster.thaw(&error))
        qWarning("%s", qPrintable(error));
    m_frozen = false;
}

// Admin requests the receiver's workers have finished (the late ones included); /metrics is
// answered on the I/O thread, without the database.
double TstConsoleHang::finishedAdminRequests() const
{
    const auto metrics = adminGet(static_cast<quint16>(m_receiver.adminUrl().port()), "/metrics");
    return metrics && metrics->status == 200
        ? metricValue(metrics->body, "redrive_admin_request_duration_seconds_count")
        : -1;
}

int TstConsoleHang::notesWithBody(const QString &body)
{
    const QVariant n = m_receiver.scalar(
        QStringLiteral("SELECT COUNT(*) FROM notes WHERE event_id = ? AND body = ?"), { m_eventId, body });
    return n.isValid() ? n.toInt() : -1;
}

void TstConsoleHang::verifyNoTokenShown()
{
    MainWindow *w = m_console->window();
    // The window's own widgets (not the connection dialog's token field, deleted once connected).
    QStringList texts { w->windowTitle(), w->statusBar()->currentMessage() };
    for (const QLabel *l : w->findChildren<QLabel *>()) {
        if (l->window() == w)
            texts << l->text() << l->toolTip();
    }
    for (const QLineEdit *e : w->findChildren<QLineEdit *>()) {
        if (e->window() == w)
            texts << e->text();
    }
    for (const QPlainTextEdit *e : w->findChildren<QPlainTextEdit *>()) {
        if (e->window() == w)
            texts << e->toPlainText();
    }
    QVERIFY(texts.size() > 10);
    for (const QString &t : std::as_const(texts))
        QVERIFY2(!t.contains(m_token), "a text on the window shows the API token");
}

// The console's own client: a read and an action while the database hangs, then both checked
// after it runs again.
void TstConsoleHang::adminClientTellsAReadFromAnAction()
{
    AdminClient admin(m_receiver.adminUrl(), m_token, {});
    const QUrlQuery oneEvent { { QStringLiteral("limit"), QStringLiteral("1") } };
    const auto before = await(admin.get(QStringLiteral("events"), oneEvent));
    QVERIFY(before);
    QVERIFY2(before->error.ok(), qPrintable(before->error.message));
    const double finishedBefore = finishedAdminRequests();
    QVERIFY(finishedBefore > 0);

    const QString note = QStringLiteral("written through AdminClient while the database hung");
    QVERIFY(freeze());
    const auto read = await(admin.get(QStringLiteral("events"), oneEvent));
    const auto action = await(
        admin.post(QStringLiteral("events/%1/notes").arg(m_eventId), { { QStringLiteral("body"), note } }));
    thaw();

    QVERIFY2(read, "the read was not answered while the database hung");
    QVERIFY2(action, "the action was not answered while the database hung");
    for (const Answer *a : { &*read, &*action }) {
        // The receiver's answer, not the console's own transfer timeout.
        QCOMPARE(a->error.kind, ApiError::Kind::Timeout);
        QCOMPARE(a->error.httpStatus, 503);
        QCOMPARE(a->error.code, QStringLiteral("reply_timeout"));
        QCOMPARE(a->error.retryAfterSeconds, 2);
        QVERIFY2(a->ms <= kAnswerBoundMs, qPrintable(QStringLiteral("an answer took %1 ms").arg(a->ms)));
        QVERIFY(!a->error.message.contains(m_token));
    }
    QCOMPARE(read->error.message, kReadWording);
    QVERIFY(!read->error.outcomeUnknown);
    QCOMPARE(action->error.message, kReadWording + kActionSentence);
    QVERIFY(action->error.outcomeUnknown);

    // Running again: the receiver finishes the held requests (their late answers dropped). Then
    // a repeated read succeeds and the note is there at most once: the console did not send it
    // again by itself.
    QDeadlineTimer deadline(20'000);
    while (finishedAdminRequests() < finishedBefore + 2 && !deadline.hasExpired())
        QTest::qWait(25);
    QCOMPARE(finishedAdminRequests(), finishedBefore + 2);
    const auto again = await(admin.get(QStringLiteral("events/%1").arg(m_eventId)));
    QVERIFY(again);
    QVERIFY2(again->error.ok(), qPrintable(again->error.message));
    int shown = 0;
    const QJsonArray notes = again->body.object().value(QLatin1String("notes")).toArray();
    for (const auto &n : notes)
        shown += n.toObject().value(QLatin1String("body")).toString() == note ? 1 : 0;
    const int stored = notesWithBody(note);
    QVERIFY2(stored <= 1, qPrintable(QString::number(stored)));
    QCOMPARE(shown, stored);
    qInfo("read answered in %lld ms, action in %lld ms; the note was recorded %d time(s)", read->ms,
        action->ms, stored);
}

// The same through the pages: the note's status line and the replay list's summary.
void TstConsoleHang::pagesSayTheActionMayStillBeRecorded()
{
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_systemClock);
    MainWindow *w = m_console->window();
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w));
    QString problem;
    QVERIFY2(connectWithPostgres(*m_console, QStringLiteral("hang"), m_cluster.url(), m_token,
                 m_receiver.adminUrl(), &problem),
        qPrintable(problem));

    // The replay list, read once while all is well.
    w->showPage(MainWindow::ReplaysPage);
    auto *replaySummary = find<QLabel>(w, "replaySummary");
    QTRY_COMPARE_WITH_TIMEOUT(replaySummary->text(), QStringLiteral("No replay requests yet."), kGuiWait);

    // The event, open on its notes.
    w->showPage(MainWindow::EventsPage);
    QTRY_VERIFY_WITH_TIMEOUT(table()->model()->rowCount() >= 1, kGuiWait);
    QSignalSpy loaded(m_console->detail(), &DetailController::loaded);
    QVERIFY(selectRow(0));
    QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), kGuiWait);
    QCOMPARE(loaded.constFirst().constFirst().toLongLong(), m_eventId);
    auto *notes = find<QPlainTextEdit>(w, "notesText");
    QTabWidget *tabs = nullptr;
    for (QWidget *p = notes->parentWidget(); p && !tabs; p = p->parentWidget())
        tabs = qobject_cast<QTabWidget *>(p);
    QVERIFY(tabs);
    for (int i = 0; i < tabs->count(); ++i) {
        if (tabs->tabText(i).startsWith(QLatin1String("Notes")))
            tabs->setCurrentIndex(i);
    }
    auto *noteEdit = find<QLineEdit>(w, "noteEdit");
    auto *addNote = find<QPushButton>(w, "addNoteButton");
    auto *noteStatus = find<QLabel>(w, "noteStatus");
    QTRY_VERIFY_WITH_TIMEOUT(noteEdit->isVisible() && addNote->isEnabled(), kGuiWait);
    const QString note = QStringLiteral("typed in the console while the database hung");
    QCOMPARE(occurrences(notes->toPlainText(), note), 0);

    QVERIFY(freeze());
    // An action: the page says it may still be recorded, not that it failed.
    QTest::keyClicks(noteEdit, note);
    QElapsedTimer clock;
    clock.start();
    QTest::mouseClick(addNote, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!noteStatus->text().isEmpty() && addNote->isEnabled(), kGuiWait);
    const qint64 noteMs = clock.elapsed();
    QCOMPARE(
        noteStatus->text(), QStringLiteral("The note was not confirmed: ") + kReadWording + kActionSentence);
    QVERIFY2(
        noteMs <= kAnswerBoundMs, qPrintable(QStringLiteral("the note's answer took %1 ms").arg(noteMs)));
    QCOMPARE(noteEdit->text(), note); // kept: if it was not recorded, the user may send it again
    // A read: it says what happened, and nothing about an action.
    w->showPage(MainWindow::ReplaysPage); // the page's own refresh is a read too
    clock.restart();
    QTest::mouseClick(find<QPushButton>(w, "replayRefreshButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(replaySummary->text().contains(QLatin1String("could not be read")), kGuiWait);
    const qint64 readMs = clock.elapsed();
    QCOMPARE(replaySummary->text(), QStringLiteral("Replay requests could not be read: ") + kReadWording);
    QVERIFY2(
        readMs <= kAnswerBoundMs, qPrintable(QStringLiteral("the read's answer took %1 ms").arg(readMs)));
    verifyNoTokenShown();
    thaw();

    // Running again: the receiver finishes the held note (once). Checking the page, as the
    // status asked, shows it once; the repeated read succeeds.
    QVERIFY(
        m_receiver.waitForValue(QStringLiteral("SELECT COUNT(*) FROM notes WHERE event_id = ? AND body = ?"),
            { m_eventId, note }, 1, 20'000));
    QSignalSpy refreshed(m_console->replays(), &ReplaysController::refreshed);
    QTest::mouseClick(find<QPushButton>(w, "replayRefreshButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!refreshed.isEmpty(), kGuiWait);
    QCOMPARE(replaySummary->text(), QStringLiteral("No replay requests yet."));
    // Checking the page, as a person would: Refresh reloads the list, then the event is opened
    // again.
    w->showPage(MainWindow::EventsPage);
    QAction *refresh = nullptr;
    for (QAction *a : w->findChildren<QAction *>()) {
        if (a->text() == u"&Refresh")
            refresh = a;
    }
    QVERIFY(refresh);
    QSignalSpy listed(m_console->events()->model(), &EventTableModel::pageLoaded);
    refresh->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), kGuiWait);
    loaded.clear();
    // Opened afresh, whether or not the reload kept the selection.
    table()->selectionModel()->setCurrentIndex(QModelIndex(), QItemSelectionModel::Clear);
    QVERIFY(selectRow(0));
    QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), kGuiWait);
    QTRY_COMPARE_WITH_TIMEOUT(occurrences(notes->toPlainText(), note), 1, kGuiWait);
    QCOMPARE(notesWithBody(note), 1);
    verifyNoTokenShown();
}

QTEST_MAIN(TstConsoleHang)
#include "tst_consolehang.moc"
