// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "detail/detailcontroller.h"
#include "events/eventscontroller.h"
#include "events/eventtablemodel.h"
#include "hangfixture.h"
#include "main/mainwindow.h"
#include "replays/replayhistorycontroller.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include <optional>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

namespace {

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
class TstConsoleHang : public HangFixture {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase() { stopAll(); }
    void cleanup() { thawAndReport(); }
    void adminClientTellsAReadFromAnAction();
    void pagesSayTheActionMayStillBeRecorded();

private:
    [[nodiscard]] int notesWithBody(const QString &body);

    QString m_token;
    qint64 m_eventId = 0;
};

void TstConsoleHang::initTestCase()
{
    QString error;
    QVERIFY2(startHangingReceiver(&error), qPrintable(error));
    m_eventId = m_receiver.ingestAndSettle("hang-1", &error);
    QVERIFY2(m_eventId > 0, qPrintable(error));
    m_token = m_receiver.token(QStringLiteral("sam-support")); // support may add notes
    QVERIFY(!m_token.isEmpty());
}

int TstConsoleHang::notesWithBody(const QString &body)
{
    const QVariant n = m_receiver.scalar(
        QStringLiteral("SELECT COUNT(*) FROM notes WHERE event_id = ? AND body = ?"), { m_eventId, body });
    return n.isValid() ? n.toInt() : -1;
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
    QVERIFY(openConsole(QStringLiteral("hang"), QStringLiteral("sam-support")));
    MainWindow *w = m_console->window();

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
    verifyNoTokenShown(m_token);
    thaw();

    // Running again: the receiver finishes the held note (once). Checking the page, as the
    // status asked, shows it once; the repeated read succeeds.
    QVERIFY(
        m_receiver.waitForValue(QStringLiteral("SELECT COUNT(*) FROM notes WHERE event_id = ? AND body = ?"),
            { m_eventId, note }, 1, 20'000));
    QSignalSpy refreshed(m_console->replayHistory(), &ReplayHistoryController::refreshed);
    QTest::mouseClick(find<QPushButton>(w, "replayRefreshButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!refreshed.isEmpty(), kGuiWait);
    QCOMPARE(replaySummary->text(), QStringLiteral("No replay requests yet."));
    // Checking the page, as a person would: Refresh reloads the list, then the event is opened
    // again.
    w->showPage(MainWindow::EventsPage);
    QSignalSpy listed(m_console->events()->model(), &EventTableModel::pageLoaded);
    refreshByHand();
    QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), kGuiWait);
    loaded.clear();
    // Opened afresh, whether or not the reload kept the selection.
    table()->selectionModel()->setCurrentIndex(QModelIndex(), QItemSelectionModel::Clear);
    QVERIFY(selectRow(0));
    QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), kGuiWait);
    QTRY_COMPARE_WITH_TIMEOUT(occurrences(notes->toPlainText(), note), 1, kGuiWait);
    QCOMPARE(notesWithBody(note), 1);
    verifyNoTokenShown(m_token);
}

QTEST_MAIN(TstConsoleHang)
#include "tst_consolehang.moc"
