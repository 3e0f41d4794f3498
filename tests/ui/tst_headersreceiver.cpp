// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "consoleguitest.h"
#include "events/eventtablemodel.h"
#include "realreceiver.h"

#include <QLabel>
#include <QTableWidget>
#include <QTest>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

// The console's header view against the real receiver (issue 13, item 1): a signature header
// that would let anyone re-send the event under a new id is neither stored by redrived nor
// shown by the console — not even from a row that still holds one (stored before migration 5).
class TstHeadersReceiver : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void signatureIsNeitherStoredNorShown();

private:
    QStringList shownHeaderNames();

    RealReceiver m_receiver;
    SystemClock m_systemClock;
};

void TstHeadersReceiver::initTestCase()
{
    QString error;
    QVERIFY2(m_receiver.start(&error), qPrintable(error));
    setUpSettings();
    const QString person = QStringLiteral("sam-support");
    QVERIFY(signInTo(
        person, m_receiver.databasePath(), m_receiver.token(person), m_receiver.adminUrl(), m_systemClock));
}

void TstHeadersReceiver::cleanupTestCase()
{
    m_console.reset();
    m_receiver.stop();
}

QStringList TstHeadersReceiver::shownHeaderNames()
{
    auto *headers = find<QTableWidget>(m_console->window(), "headersTable");
    QStringList names;
    for (int r = 0; r < headers->rowCount(); ++r)
        names.append(headers->item(r, 0)->text().toLower());
    return names;
}

void TstHeadersReceiver::signatureIsNeitherStoredNorShown()
{
    QString error;
    const qint64 id = m_receiver.ingestAndSettle("hdr-delivery-1", &error);
    QVERIFY2(id > 0, qPrintable(error));
    const QString stored
        = m_receiver.scalar(QStringLiteral("SELECT headers FROM events WHERE id = ?"), { id }).toString();
    QVERIFY2(stored.contains(QLatin1String("X-GitHub-Delivery")), qPrintable(stored));
    QVERIFY2(!stored.contains(QLatin1String("signature"), Qt::CaseInsensitive), qPrintable(stored));

    // The row as one stored before the upgrade would still hold it: the console leaves it out.
    QVERIFY2(m_receiver.tamper({ QStringLiteral("UPDATE events SET headers = "
                                                "'[[\"X-GitHub-Delivery\",\"hdr-delivery-1\"],"
                                                "[\"X-Hub-Signature-256\",\"sha256=5eed\"],"
                                                "[\"X-Trace\",\"before-upgrade\"]]' WHERE id = %1")
                                       .arg(id) },
                 &error),
        qPrintable(error));

    MainWindow *w = m_console->window();
    w->showPage(MainWindow::EventsPage);
    search(QStringLiteral("hdr-delivery-1"));
    QTRY_VERIFY_WITH_TIMEOUT(table()->model()->rowCount() == 1
            && table()->model()->index(0, 0).data(EventTableModel::LoadedRole).toBool(),
        kGuiWait);
    QVERIFY(selectRow(0));
    QTRY_VERIFY_WITH_TIMEOUT(
        find<QLabel>(w, "detailTitle")->text().startsWith(QStringLiteral("Event %1").arg(id)), kGuiWait);
    QTRY_VERIFY_WITH_TIMEOUT(shownHeaderNames().contains(QStringLiteral("x-trace")), kGuiWait);
    QVERIFY(shownHeaderNames().contains(QStringLiteral("x-github-delivery")));
    QVERIFY(!shownHeaderNames().contains(QStringLiteral("x-hub-signature-256")));
}

QTEST_MAIN(TstHeadersReceiver)
#include "tst_headersreceiver.moc"
