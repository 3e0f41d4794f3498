// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "consoleguitest.h"
#include "detail/keylinks.h"
#include "events/eventtablemodel.h"
#include "newreplay/newreplaycontroller.h"
#include "newreplay/replaydialog.h"
#include "realreceiver.h"
#include "scriptabledestination.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QPushButton>
#include <QSet>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

// Business keys between both real programs: redrived extracts them at ingest from its config
// (github: pr = /pull_request/number), the console finds events by them in its search box, shows
// them on the detail as buttons that search, and "Replay all matching…" selects by them.
class TstKeysReceiver : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void searchBoxFindsEventsByKey();
    void detailKeysSearchForTheirValue();
    void replayAllMatchingSelectsByKey();

private:
    // Ingests a pull_request event numbered `number` and waits until both deliveries settled.
    qint64 ingestPullRequest(const QByteArray &deliveryId, int number);
    QSet<qint64> shownIds();

    RealReceiver m_receiver;
    SystemClock m_systemClock;
    qint64 m_first = 0; // pr 1347
    qint64 m_second = 0; // pr 1347
    qint64 m_other = 0; // pr 1348
};

qint64 TstKeysReceiver::ingestPullRequest(const QByteArray &deliveryId, int number)
{
    const QByteArray body = QJsonDocument(
        QJsonObject { { QStringLiteral("action"), QStringLiteral("opened") },
            { QStringLiteral("number"), number },
            // github dedupes on the body: the delivery id in it keeps these distinct events.
            { QStringLiteral("delivery"), QString::fromLatin1(deliveryId) },
            { QStringLiteral("pull_request"),
                QJsonObject { { QStringLiteral("number"), number },
                    { QStringLiteral("title"), QStringLiteral("Order confirmation emails sent twice") } } },
            { QStringLiteral("repository"),
                QJsonObject { { QStringLiteral("full_name"), QStringLiteral("acme/shop") } } } })
                                .toJson(QJsonDocument::Compact);
    if (m_receiver.ingest(deliveryId, "pull_request", body) != 200)
        return 0;
    const qint64 id
        = m_receiver
              .scalar(
                  QStringLiteral("SELECT id FROM events WHERE source = 'github' AND provider_event_id = ?"),
                  { QString::fromLatin1(deliveryId) })
              .toLongLong();
    const bool settled = id > 0
        && m_receiver.waitForValue(
            QStringLiteral("SELECT count(*) FROM deliveries WHERE event_id = ? AND status "
                           "IN ('succeeded', 'dead')"),
            { id }, 2);
    return settled ? id : 0;
}

QSet<qint64> TstKeysReceiver::shownIds()
{
    QSet<qint64> ids;
    auto *model = qobject_cast<EventTableModel *>(table()->model());
    if (!model)
        return { -1 };
    for (int r = 0; r < model->rowCount(); ++r) {
        if (const EventRow *row = model->eventAtRow(r))
            ids.insert(row->id);
    }
    return ids;
}

void TstKeysReceiver::initTestCase()
{
    QString error;
    QVERIFY2(m_receiver.start(&error), qPrintable(error));
    setUpSettings();
    m_other = ingestPullRequest("keys-pr-1348", 1348);
    QVERIFY(m_other);
    m_receiver.crm().enqueue(410, 2); // both deliveries of pr 1347 to crm die: something to replay
    m_first = ingestPullRequest("keys-pr-1347-a", 1347);
    QVERIFY(m_first);
    m_second = ingestPullRequest("keys-pr-1347-b", 1347);
    QVERIFY(m_second);
    QCOMPARE(
        m_receiver
            .scalar(QStringLiteral(
                "SELECT (SELECT count(*) FROM event_keys WHERE name = 'pr' AND value = '1347') + (SELECT count(*) "
                "FROM event_keys_pending p, json_each(p.keys) j WHERE j.key = 'pr' AND j.value = '1347')"))
            .toInt(),
        2);

    const QString person = QStringLiteral("sam-support");
    QVERIFY(signInTo(
        person, m_receiver.databasePath(), m_receiver.token(person), m_receiver.adminUrl(), m_systemClock));
}

void TstKeysReceiver::cleanupTestCase()
{
    m_console.reset();
    m_receiver.stop();
}

void TstKeysReceiver::cleanup()
{
    if (QTest::currentTestFailed())
        qWarning("redrived log:\n%s", m_receiver.log().right(4000).constData());
}

void TstKeysReceiver::searchBoxFindsEventsByKey()
{
    const QSet<qint64> both { m_first, m_second };
    search(QStringLiteral("pr:1347"));
    QTRY_COMPARE_WITH_TIMEOUT(shownIds(), both, kGuiWait);
    search(QStringLiteral("1348")); // a plain value: any key holding it
    QTRY_COMPARE_WITH_TIMEOUT(shownIds(), QSet<qint64> { m_other }, kGuiWait);
    search(QStringLiteral("repo:1347")); // the value under another key finds nothing
    QTRY_VERIFY_WITH_TIMEOUT(shownIds().isEmpty(), kGuiWait);
    // Newest first, as every list.
    search(QStringLiteral("1347"));
    QTRY_COMPARE_WITH_TIMEOUT(shownIds(), both, kGuiWait);
    auto *model = qobject_cast<EventTableModel *>(table()->model());
    QCOMPARE(model->eventAtRow(0)->id, m_second);
}

void TstKeysReceiver::detailKeysSearchForTheirValue()
{
    search(QStringLiteral("1348"));
    QTRY_COMPARE_WITH_TIMEOUT(shownIds(), QSet<qint64> { m_other }, kGuiWait);
    QVERIFY(selectRow(0));
    auto *links = find<KeyLinks>(m_console->window(), "eventKeys");
    QVERIFY(links);
    QTRY_COMPARE_WITH_TIMEOUT(links->keys(),
        (QList<EventKey> { { QStringLiteral("pr"), QStringLiteral("1348") },
            { QStringLiteral("repo"), QStringLiteral("acme/shop") } }),
        kGuiWait);
    auto *repo = find<QPushButton>(links, "keyLink_repo");
    QVERIFY(repo);
    QVERIFY(repo->isVisible());
    QCOMPARE(repo->text(), QStringLiteral("repo: acme/shop"));
    QVERIFY(!repo->accessibleName().isEmpty());
    QTest::mouseClick(repo, Qt::LeftButton);
    auto *edit = find<QLineEdit>(m_console->window(), "searchEdit");
    QCOMPARE(edit->text(), QStringLiteral("repo:acme/shop"));
    // Every event of the repository carries the key, whatever its number.
    QTRY_COMPARE_WITH_TIMEOUT(shownIds(), (QSet<qint64> { m_first, m_second, m_other }), kGuiWait);
}

void TstKeysReceiver::replayAllMatchingSelectsByKey()
{
    search(QStringLiteral("pr:1347"));
    QTRY_COMPARE_WITH_TIMEOUT(shownIds(), (QSet<qint64> { m_first, m_second }), kGuiWait);
    const qint64 before = m_receiver.scalar(QStringLiteral("SELECT count(*) FROM selections")).toLongLong();
    auto *button = find<QPushButton>(m_console->window(), "replayFilterButton");
    QVERIFY(button && button->isVisible());
    QTest::mouseClick(button, Qt::LeftButton);
    ReplayDialog *dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((dialog = m_console->newReplay()->dialog()) != nullptr, kGuiWait);
    auto *destinations = find<QTableWidget>(dialog, "replayDestinations");
    QTRY_VERIFY_WITH_TIMEOUT(destinations->rowCount() > 0, kGuiWait); // the receiver's preview
    QVERIFY(m_receiver.waitForValue(QStringLiteral("SELECT count(*) FROM selections"), {}, before + 1));
    // What the receiver froze is exactly the deliveries of the two events with pr 1347.
    const QString items
        = m_receiver.scalar(QStringLiteral("SELECT items FROM selections ORDER BY created_at DESC LIMIT 1"))
              .toString();
    QSet<qint64> events;
    for (const QJsonValue &item : QJsonDocument::fromJson(items.toUtf8()).array())
        events.insert(item.toArray().at(1).toInteger());
    QCOMPARE(events, (QSet<qint64> { m_first, m_second }));
    dialog->reject();
}

QTEST_MAIN(TstKeysReceiver)
#include "tst_keysreceiver.moc"
