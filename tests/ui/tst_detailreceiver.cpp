// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "api/adminclient.h"
#include "consoleguitest.h"
#include "detail/detailcontroller.h"
#include "detail/eventdetailview.h"
#include "events/eventscontroller.h"
#include "events/eventtablemodel.h"
#include "realreceiver.h"

#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <optional>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

// The event detail against the real receiver: Refresh (F5) on the Events page reads the open
// event again — what others changed since it was opened shows — and leaves it selected.
class TstDetailReceiver : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void refreshReadsTheOpenEventAgain();
    void quarantinedEventShowsErrorsAndRevalidates();

private:
    [[nodiscard]] qint64 currentEventId();

    QTemporaryDir m_schemas;
    RealReceiver m_receiver;
    SystemClock m_systemClock;
    qint64 m_older = 0; // the first of the two events
};

void TstDetailReceiver::initTestCase()
{
    QString error;
    // invoice.* events must carry an integer amount; push (the other tests' events) is not checked.
    QVERIFY(m_schemas.isValid());
    QFile schema(m_schemas.filePath(QStringLiteral("invoice.json")));
    QVERIFY(schema.open(QIODevice::WriteOnly));
    schema.write(R"({"type":"object","properties":{"amount":{"type":"integer"}}})");
    schema.close();
    m_receiver.setSourceSettings("[[sources.schemas]]\nevent_types = [\"invoice.*\"]\nschema = \""
        + schema.fileName().toUtf8() + "\"\n");
    QVERIFY2(m_receiver.start(&error), qPrintable(error));
    m_older = m_receiver.ingestAndSettle("detail-refresh-1", &error);
    QVERIFY2(m_older > 0, qPrintable(error));
    QVERIFY2(m_receiver.ingestAndSettle("detail-refresh-2", &error) > 0, qPrintable(error));
    setUpSettings();
    const QString person = QStringLiteral("sam-support");
    QVERIFY(signInTo(
        person, m_receiver.databasePath(), m_receiver.token(person), m_receiver.adminUrl(), m_systemClock));
}

void TstDetailReceiver::cleanupTestCase()
{
    m_console.reset();
    m_receiver.stop();
}

qint64 TstDetailReceiver::currentEventId()
{
    auto *model = qobject_cast<EventTableModel *>(table()->model());
    const EventRow *row = model ? model->eventAt(table()->selectionModel()->currentIndex()) : nullptr;
    return row ? row->id : 0;
}

void TstDetailReceiver::refreshReadsTheOpenEventAgain()
{
    const qint64 older = m_older;
    // The older event, open: the second row, newest first.
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::EventsPage);
    QTRY_VERIFY_WITH_TIMEOUT(table()->model()->rowCount() == 2
            && table()->model()->index(1, 0).data(EventTableModel::LoadedRole).toBool(),
        kGuiWait);
    QSignalSpy listed(m_console->events()->model(), &EventTableModel::pageLoaded);
    QSignalSpy loaded(m_console->detail(), &DetailController::loaded);
    QVERIFY(selectRow(1));
    QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), kGuiWait);
    QCOMPARE(loaded.constLast().constFirst().toLongLong(), older);
    QCOMPARE(currentEventId(), older);
    auto *notes = find<QPlainTextEdit>(w, "notesText");
    const QString note = QStringLiteral("added from another console while this one looked");
    QVERIFY(!notes->toPlainText().contains(note));

    // Someone else adds a note to it.
    AdminClient other(m_receiver.adminUrl(), m_receiver.token(QStringLiteral("sam-support")), {});
    ApiReply *reply
        = other.post(QStringLiteral("events/%1/notes").arg(older), { { QStringLiteral("body"), note } });
    std::optional<ApiError> added;
    connect(
        reply, &ApiReply::finished, this, [&added](const QJsonDocument &, const ApiError &e) { added = e; });
    QVERIFY(QTest::qWaitFor([&added] { return added.has_value(); }, kGuiWait));
    QVERIFY2(added->ok(), qPrintable(added->message));

    // F5, as a person presses it: the list and the open event are read again; the event stays
    // selected and open, now with the note.
    QApplication::setActiveWindow(w);
    QVERIFY(QTest::qWaitForWindowActive(w));
    listed.clear();
    loaded.clear();
    QTest::keyClick(w, Qt::Key_F5);
    QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty() && !loaded.isEmpty(), kGuiWait);
    QCOMPARE(loaded.constFirst().constFirst().toLongLong(), older);
    QTRY_VERIFY_WITH_TIMEOUT(notes->toPlainText().contains(note), kGuiWait);
    QTRY_COMPARE_WITH_TIMEOUT(currentEventId(), older, kGuiWait);
    QCOMPARE(table()->selectionModel()->currentIndex().row(), 1);
    QCOMPARE(w->detail()->eventId(), older);
    QVERIFY2(find<QLabel>(w, "detailTitle")->text().startsWith(QStringLiteral("Event %1 ").arg(older)),
        qPrintable(find<QLabel>(w, "detailTitle")->text()));
    // Once: selecting the same row again announced nothing new.
    QCOMPARE(loaded.size(), 1);
}

// A quarantined event on the detail: its errors (pointer and message), and "Revalidate" calling
// the real receiver's POST events/{id}/revalidate, which checks it again (still invalid here:
// the receiver's schema did not change) and audits it under the console user's name.
void TstDetailReceiver::quarantinedEventShowsErrorsAndRevalidates()
{
    QCOMPARE(m_receiver.ingest("detail-invalid-1", "invoice.paid", R"({"amount":"a lot"})"), 200);
    const qint64 id
        = m_receiver
              .scalar(QStringLiteral("SELECT id FROM events WHERE provider_event_id = 'detail-invalid-1'"))
              .toLongLong();
    QVERIFY(id > 0);
    QCOMPARE(m_receiver.scalar(QStringLiteral("SELECT status FROM event_status WHERE event_id = ?"), { id })
                 .toString(),
        QStringLiteral("invalid"));
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::EventsPage);
    QApplication::setActiveWindow(w);
    QVERIFY(QTest::qWaitForWindowActive(w));
    QTest::keyClick(w, Qt::Key_F5);
    QTRY_VERIFY_WITH_TIMEOUT(table()->model()->rowCount() == 3
            && table()->model()->index(0, 0).data(EventTableModel::LoadedRole).toBool(),
        kGuiWait);
    QSignalSpy loaded(m_console->detail(), &DetailController::loaded);
    QVERIFY(selectRow(0)); // newest first
    QTRY_VERIFY_WITH_TIMEOUT(
        !loaded.isEmpty() && loaded.constLast().constFirst().toLongLong() == id, kGuiWait);

    auto *panel = find<QWidget>(w, "validationPanel");
    QVERIFY(panel->isVisibleTo(w));
    auto *errors = find<QTreeWidget>(w, "validationErrors");
    QCOMPARE(errors->accessibleName(), QStringLiteral("Schema validation errors"));
    QVERIFY(errors->topLevelItemCount() >= 1);
    bool amount = false;
    for (int i = 0; i < errors->topLevelItemCount(); ++i)
        amount = amount
            || (errors->topLevelItem(i)->text(0) == u"/amount"
                && !errors->topLevelItem(i)->text(1).isEmpty());
    QVERIFY(amount);

    auto *revalidate = find<QPushButton>(w, "revalidateButton");
    QVERIFY(revalidate->isVisibleTo(w));
    QCOMPARE(revalidate->accessibleName(), QStringLiteral("Revalidate this event"));
    revalidate->click();
    auto *status = find<QLabel>(w, "revalidateStatus");
    QTRY_VERIFY_WITH_TIMEOUT(status->text().startsWith(QLatin1String("Still invalid")), kGuiWait);
    QVERIFY(m_receiver.waitForValue(
        QStringLiteral("SELECT count(*) FROM audit_log WHERE action = 'event_revalidated' AND target = ? "
                       "AND actor = 'sam-support'"),
        { QStringLiteral("event:%1").arg(id) }, 1));
    QCOMPARE(m_receiver.scalar(QStringLiteral("SELECT count(*) FROM deliveries WHERE event_id = ?"), { id })
                 .toInt(),
        0);
}

QTEST_MAIN(TstDetailReceiver)
#include "tst_detailreceiver.moc"
