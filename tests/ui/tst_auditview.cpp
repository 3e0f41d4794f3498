// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "audit/signedhead.h"
#include "audit/signingkey.h"
#include "auditchainfixture.h"
#include "auditor/auditcontroller.h"
#include "auditor/auditmodel.h"
#include "common/filechooser.h"
#include "common/prompter.h"
#include "connection/session.h"
#include "consoleguitest.h"
#include "realreceiver.h"

#include <QAccessible>
#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeEdit>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

// The auditor's page, driven through its widgets against a database holding a real chain and the
// real receiver on it, which signs the checkpoints: the chain status computed without a click,
// filters and live refresh, key pinning (the receiver restarted with another key), saved
// checkpoints that catch an edited row and a cut-off tail, and the exports (CSV of the filtered
// rows; an evidence bundle the real `redrive --verify-evidence` accepts). The people's entries are
// appended by core's own appender; the receiver adds its own (the tokens it was given, the
// checkpoints it refused), so the numbers asserted are read from the database.
class TstAuditView : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void auditorSeesRequestAndApprovalWithTheChainIntact();
    void filtersNarrowTheListAndRefreshAddsNewEntries();
    void csvExportWritesOnlyTheFilteredRows();
    void evidenceForATimeRangeVerifiesWithTheCli();
    void anotherReceiverKeyIsALoudWarning();
    void savedCheckpointCatchesACutOffTailAndAnEditedRow();
    void aNewSessionStartsThePageAfresh();

private:
    [[nodiscard]] QString status() const { return find<QLabel>(m_console->window(), "auditStatus")->text(); }
    [[nodiscard]] QString checkpoints() const
    {
        return find<QLabel>(m_console->window(), "auditCheckpointStatus")->text();
    }
    // F5 as a person presses it; true once it has produced a new status (well before the
    // console's own 10-second refresh could have).
    bool pressF5();
    int run(const QStringList &args, QString *out);
    bool append(const QString &actor, const QString &action, const QString &target, const QString &reason);
    // The newest entry's seq and the number of entries, as the database holds them now.
    [[nodiscard]] qint64 head()
    {
        return m_receiver.scalar(QStringLiteral("SELECT max(seq) FROM audit_log")).toLongLong();
    }
    [[nodiscard]] int entryCount()
    {
        return m_receiver.scalar(QStringLiteral("SELECT count(*) FROM audit_log")).toInt();
    }

    std::unique_ptr<TestDatabase> m_chain;
    std::unique_ptr<Db> m_chainWriter;
    RealReceiver m_receiver;
    SystemClock m_systemClock; // the receiver signs with the wall clock; the console reads with it
    std::unique_ptr<audit::SigningKey> m_keyA; // the receiver's own, created at its first start
    std::unique_ptr<audit::SigningKey> m_keyB; // the one it is restarted with
    QString m_keyBPath;
    qint64 m_kept = 0; // the entries left after the tail was cut
    // Whole minutes, an hour back: the first entries lie before the receiver's own.
    qint64 m_nextAt = (QDateTime::currentMSecsSinceEpoch() / 60'000) * 60'000 - 3'600'000;
};

bool TstAuditView::append(
    const QString &actor, const QString &action, const QString &target, const QString &reason)
{
    QString error;
    m_nextAt += 120'000; // two minutes apart: time ranges can be picked to the minute
    if (!appendAudit(*m_chainWriter, { actor, action, target, reason, m_nextAt }, &error)) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    return true;
}

void TstAuditView::initTestCase()
{
    setUpSettings();
    QString error;
    m_chain = TestDatabase::create(Backend::Sqlite, &error);
    QVERIFY2(m_chain, qPrintable(error));
    m_chainWriter = m_chain->open(QStringLiteral("writer"));
    // Entries #1 to #4, before the receiver starts on the database and records its tokens.
    QVERIFY(append(QStringLiteral("sam"), QStringLiteral("replay_requested"), QStringLiteral("replay:1"),
        QStringLiteral("customer asked for a refund")));
    QVERIFY(append(QStringLiteral("olivia"), QStringLiteral("replay_approved"), QStringLiteral("replay:1"),
        QStringLiteral("checked with the customer")));
    QVERIFY(append(QStringLiteral("sam"), QStringLiteral("note_added"), QStringLiteral("event:3"),
        QStringLiteral("refund done")));
    QVERIFY(append(QStringLiteral("olivia"), QStringLiteral("destination_paused"),
        QStringLiteral("destination:crm"), QStringLiteral("maintenance window")));
    m_receiver.useSqliteFile(m_chain->url().sqlitePath);
    QVERIFY2(m_receiver.start(&error), qPrintable(error));
    QVERIFY2(head() > 4, "the receiver records the tokens it was given");
    // It stamps its entries with the wall clock; the next ones of the people follow them.
    const qint64 receiverAt = m_receiver.scalar(QStringLiteral("SELECT max(at) FROM audit_log")).toLongLong();
    QVERIFY(receiverAt > m_nextAt);
    m_nextAt = receiverAt;
    auto keyA = audit::SigningKey::load(m_receiver.auditKeyPath());
    QVERIFY2(keyA, qPrintable(keyA.error()));
    m_keyA = std::move(*keyA);
    // Another key as `redrived` writes one (PKCS#8, mode 0600), for the receiver's restart.
    m_keyBPath = m_dir->filePath(QStringLiteral("rotated-ed25519.pem"));
    auto keyB = audit::SigningKey::loadOrCreate(m_keyBPath);
    QVERIFY2(keyB, qPrintable(keyB.error()));
    m_keyB = std::move(*keyB);
    QVERIFY(m_keyA->keyId() != m_keyB->keyId());
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_systemClock);
    m_console->window()->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_console->window()));
    QString problem;
    QVERIFY2(connectWith(*m_console, QStringLiteral("audit"), m_receiver.databasePath(),
                 m_receiver.token(QStringLiteral("aude-auditor")), &problem, m_receiver.adminUrl()),
        qPrintable(problem));
}

void TstAuditView::cleanupTestCase()
{
    m_console.reset();
    m_receiver.stop();
}

void TstAuditView::cleanup()
{
    if (QTest::currentTestFailed())
        qWarning("redrived log:\n%s", m_receiver.log().right(4000).constData());
}

bool TstAuditView::pressF5()
{
    MainWindow *w = m_console->window();
    QApplication::setActiveWindow(w);
    if (!QTest::qWaitForWindowActive(w))
        return false;
    QSignalSpy updated(m_console->audit(), &AuditController::statusUpdated);
    QTest::keyClick(w, Qt::Key_F5);
    return updated.wait(5'000);
}

int TstAuditView::run(const QStringList &args, QString *out)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(qEnvironmentVariable("REDRIVE_BINARY_DIR") + QStringLiteral("/app/redrive/redrive"), args);
    if (!p.waitForFinished(60'000)) {
        p.kill();
        p.waitForFinished(5'000);
        return -1;
    }
    *out = QString::fromUtf8(p.readAll());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

void TstAuditView::auditorSeesRequestAndApprovalWithTheChainIntact()
{
    MainWindow *w = m_console->window();
    QVERIFY(w->isPageAvailable(MainWindow::AuditPage));
    w->showPage(MainWindow::AuditPage);
    auto *entries = find<QTableView>(w, "auditTable");
    QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), entryCount(), kGuiWait);
    QCOMPARE(entries->model()->index(0, AuditModel::ActionColumn).data().toString(),
        QStringLiteral("replay_requested"));
    QCOMPARE(entries->model()->index(1, AuditModel::ActionColumn).data().toString(),
        QStringLiteral("replay_approved"));
    QCOMPARE(entries->model()->index(1, AuditModel::ActorColumn).data().toString(), QStringLiteral("olivia"));
    // Computed on open, without a click, with the key pinned on first use and shown.
    QTRY_COMPARE_WITH_TIMEOUT(status(),
        QStringLiteral("Chain intact to #%1 · checkpoint #%1 verified (key %2)")
            .arg(head())
            .arg(m_keyA->keyId()),
        kGuiWait);
    QCOMPARE(m_settings->value(QStringLiteral("auditTrust/audit/pinnedKeyId")).toString(), m_keyA->keyId());
    QVERIFY(!find<QLabel>(w, "auditKeyWarning")->isVisible());
    QVERIFY(checkpoints().startsWith(QStringLiteral("No saved checkpoints")));
    for (const char *name : { "auditActorFilter", "auditActionFilter", "auditTargetFilter", "auditTextFilter",
             "auditTimeRange", "auditClearFilter", "saveCheckpointButton", "auditCsvButton",
             "auditEvidenceButton", "auditTrustKeyButton", "auditTable" }) {
        auto *widget = find<QWidget>(w, name);
        QVERIFY2(widget && !widget->accessibleName().isEmpty(), name);
    }
    // The chain's verdict is heard as it reads, and what it is after it.
    auto *chain = find<QLabel>(w, "auditStatus");
    QCOMPARE(QAccessible::queryAccessibleInterface(chain)->text(QAccessible::Name), chain->text());
    QCOMPARE(chain->accessibleDescription(), QStringLiteral("Audit chain status"));
}

void TstAuditView::filtersNarrowTheListAndRefreshAddsNewEntries()
{
    MainWindow *w = m_console->window();
    auto *entries = find<QTableView>(w, "auditTable");
    auto *actor = find<QLineEdit>(w, "auditActorFilter");
    QTest::keyClicks(actor, QStringLiteral("olivia"));
    QTest::keyClick(actor, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), 2, kGuiWait);
    auto *text = find<QLineEdit>(w, "auditTextFilter");
    QTest::keyClicks(text, QStringLiteral("MAINTENANCE"));
    QTest::keyClick(text, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), 1, kGuiWait);
    QCOMPARE(entries->model()->index(0, AuditModel::SeqColumn).data().toLongLong(), qint64(4));
    text->clear();
    QTest::keyClick(text, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), 2, kGuiWait);

    // F5: the new matching entry appears, the other one does not; the status follows the head.
    QVERIFY(append(QStringLiteral("olivia"), QStringLiteral("replay_approved"), QStringLiteral("replay:2"),
        QStringLiteral("second approval")));
    QVERIFY(append(QStringLiteral("sam"), QStringLiteral("replay_requested"), QStringLiteral("replay:3"),
        QStringLiteral("another refund")));
    const qint64 appended = head();
    QVERIFY(pressF5());
    QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), 3, kGuiWait);
    QTRY_VERIFY2_WITH_TIMEOUT(
        status().startsWith(QStringLiteral("Chain intact to #%1 · checkpoint #%1 verified").arg(appended)),
        qPrintable(status()), kGuiWait);
    QTest::mouseClick(find<QPushButton>(w, "auditClearFilter"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), entryCount(), kGuiWait);
}

void TstAuditView::csvExportWritesOnlyTheFilteredRows()
{
    MainWindow *w = m_console->window();
    auto *actor = find<QLineEdit>(w, "auditActorFilter");
    actor->clear();
    QTest::keyClicks(actor, QStringLiteral("sam"));
    QTest::keyClick(actor, Qt::Key_Return);
    auto *entries = find<QTableView>(w, "auditTable");
    QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), 3, kGuiWait);
    const QString path = m_dir->filePath(QStringLiteral("sam.csv"));
    QSignalSpy exported(m_console->audit(), &AuditController::exported);
    FileChooser::setNextAnswers({ path });
    QTest::mouseClick(find<QPushButton>(w, "auditCsvButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 1, kGuiWait);
    QVERIFY2(exported.first().at(0).toBool(), qPrintable(exported.first().at(1).toString()));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 1 + 3);
    for (int i = 1; i < lines.size(); ++i)
        QVERIFY2(lines[i].contains(",sam,"), lines[i].constData());
    QTest::mouseClick(find<QPushButton>(w, "auditClearFilter"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), entryCount(), kGuiWait);
}

void TstAuditView::evidenceForATimeRangeVerifiesWithTheCli()
{
    MainWindow *w = m_console->window();
    // Entries 3 and 4 only: from entry 3's minute to just before entry 5's (the receiver's first).
    auto *range = find<QComboBox>(w, "auditTimeRange");
    range->setCurrentIndex(4);
    Q_EMIT range->activated(4);
    const auto read = audit::readAuditEntries(*m_chainWriter, audit::AuditQuery {});
    QVERIFY(read);
    const QList<audit::AuditEntry> &all = *read;
    find<QDateTimeEdit>(w, "auditSinceEdit")->setDateTime(QDateTime::fromMSecsSinceEpoch(all[2].atMs));
    find<QDateTimeEdit>(w, "auditUntilEdit")
        ->setDateTime(QDateTime::fromMSecsSinceEpoch(all[4].atMs - 60'000));
    auto *entries = find<QTableView>(w, "auditTable");
    QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), 2, kGuiWait);

    const QString path = m_dir->filePath(QStringLiteral("evidence.json"));
    QSignalSpy done(m_console->audit(), &AuditController::evidenceExported);
    FileChooser::setNextAnswers({ path });
    QTest::mouseClick(find<QPushButton>(w, "auditEvidenceButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, kGuiWait);
    QVERIFY2(done.first().at(0).toBool(), qPrintable(done.first().at(1).toString()));

    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    const QJsonObject bundle = QJsonDocument::fromJson(bytes).object();
    QCOMPARE(
        bundle.value(QLatin1String("range")).toObject().value(QLatin1String("entries_in_range")).toInt(), 2);
    const QJsonArray list
        = bundle.value(QLatin1String("audit")).toObject().value(QLatin1String("entries")).toArray();
    QCOMPARE(list.first().toObject().value(QLatin1String("seq")).toInt(), 2); // the anchor before the range
    QCOMPARE(list.last().toObject().value(QLatin1String("seq")).toInteger(), head()); // up to the signed head
    QFile readme(AuditController::readmePathFor(path));
    QVERIFY(readme.open(QIODevice::ReadOnly));
    QVERIFY(readme.readAll().contains(
        QByteArray("redrive --verify-evidence evidence.json --key-id " + m_keyA->keyId().toLatin1())));

    QString out;
    QCOMPARE(
        run({ QStringLiteral("--verify-evidence"), path, QStringLiteral("--key-id"), m_keyA->keyId() }, &out),
        0);
    QVERIFY2(out.contains(QStringLiteral("signature valid")), qPrintable(out));
    // Pinned to another key: refused.
    QCOMPARE(
        run({ QStringLiteral("--verify-evidence"), path, QStringLiteral("--key-id"), m_keyB->keyId() }, &out),
        1);
    // One entry's reason changed in the file: named.
    QByteArray tampered = bytes;
    tampered.replace("maintenance window", "nothing happened");
    QVERIFY(tampered != bytes);
    QFile t(m_dir->filePath(QStringLiteral("tampered.json")));
    QVERIFY(t.open(QIODevice::WriteOnly) && t.write(tampered) == tampered.size());
    t.close();
    QCOMPARE(run({ QStringLiteral("--verify-evidence"), t.fileName() }, &out), 1);
    QVERIFY2(
        out.contains(QStringLiteral("audit entry 4's hash does not match its contents")), qPrintable(out));

    range->setCurrentIndex(0);
    Q_EMIT range->activated(0);
    QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), entryCount(), kGuiWait);
}

void TstAuditView::anotherReceiverKeyIsALoudWarning()
{
    MainWindow *w = m_console->window();
    // The administrator rotates the key: the old one and the head it signed are kept aside (a
    // new key starts a new signed head), the new one is put in place, and redrived restarts on
    // the same ports and database.
    QString error;
    const QString key = m_receiver.auditKeyPath();
    const QString signedHead = audit::signedHeadPath(key);
    QVERIFY2(m_receiver.restart(&error,
                 [&](QString *why) {
                     const QString aside = QStringLiteral(".retired");
                     const bool ok = QFile::exists(signedHead) && QFile::rename(key, key + aside)
                         && QFile::rename(signedHead, signedHead + aside) && QFile::copy(m_keyBPath, key)
                         && QFile::setPermissions(key, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
                     if (!ok)
                         *why = QStringLiteral("could not put the new key in place at %1").arg(key);
                     return ok;
                 }),
        qPrintable(error));
    QVERIFY(pressF5());
    auto *banner = find<QLabel>(w, "auditKeyWarning");
    QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), kGuiWait);
    QVERIFY(banner->text().contains(m_keyA->keyId()) && banner->text().contains(m_keyB->keyId()));
    QTRY_VERIFY_WITH_TIMEOUT(status().contains(QStringLiteral("NOT trusted")), kGuiWait);
    QVERIFY2(!status().contains(QStringLiteral("verified")), qPrintable(status()));
    QCOMPARE(m_settings->value(QStringLiteral("auditTrust/audit/pinnedKeyId")).toString(), m_keyA->keyId());
    // No evidence on an untrusted checkpoint.
    QSignalSpy done(m_console->audit(), &AuditController::evidenceExported);
    FileChooser::setNextAnswers({ m_dir->filePath(QStringLiteral("refused.json")) });
    QTest::mouseClick(find<QPushButton>(w, "auditEvidenceButton"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, kGuiWait);
    QVERIFY(!done.first().at(0).toBool());
    QVERIFY(!QFile::exists(m_dir->filePath(QStringLiteral("refused.json"))));

    // Declining keeps the old pin; confirming pins the new key.
    auto *trust = find<QPushButton>(w, "auditTrustKeyButton");
    QVERIFY(trust->isVisible());
    Prompter::setNextAnswers({ { false, QString() } });
    QTest::mouseClick(trust, Qt::LeftButton);
    QCOMPARE(m_settings->value(QStringLiteral("auditTrust/audit/pinnedKeyId")).toString(), m_keyA->keyId());
    Prompter::setNextAnswers({ { true, QString() } });
    QTest::mouseClick(trust, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(
        status().contains(QStringLiteral("verified (key %1)").arg(m_keyB->keyId())), kGuiWait);
    QVERIFY(!banner->isVisible());
    QCOMPARE(m_settings->value(QStringLiteral("auditTrust/audit/pinnedKeyId")).toString(), m_keyB->keyId());
}

void TstAuditView::savedCheckpointCatchesACutOffTailAndAnEditedRow()
{
    MainWindow *w = m_console->window();
    QSignalSpy updated(m_console->audit(), &AuditController::statusUpdated);
    const qint64 saved = head();
    QTest::mouseClick(find<QPushButton>(w, "saveCheckpointButton"), Qt::LeftButton);
    QTRY_VERIFY2_WITH_TIMEOUT(
        checkpoints().startsWith(QStringLiteral("Nothing changed up to the saved checkpoint #%1").arg(saved)),
        qPrintable(checkpoints()), kGuiWait);
    QCOMPARE(m_settings->value(QStringLiteral("auditTrust/audit/checkpoints/size")).toInt(), 1);
    QCOMPARE(m_settings->value(QStringLiteral("auditTrust/audit/checkpoints/1/keyId")).toString(),
        m_keyB->keyId());

    // Someone with root on the receiver's host removes the triggers and the last two entries,
    // and moves the receiver's signed head aside as after restoring a backup: the receiver then
    // signs the shorter log, and only the checkpoint the auditor saved still knows better.
    // Stopped meanwhile, so that no refresh finds the log cut but the head still in place.
    const qint64 kept = saved - 2;
    m_kept = kept;
    QString error;
    QVERIFY2(m_receiver.restart(&error,
                 [&](QString *why) {
                     if (!dropAuditTriggers(*m_chainWriter, why)
                         || !succeeded(m_chainWriter->exec(
                                           QStringLiteral("DELETE FROM audit_log WHERE seq > %1").arg(kept)),
                             why))
                         return false;
                     const QString signedHead = audit::signedHeadPath(m_receiver.auditKeyPath());
                     if (!QFile::rename(signedHead, signedHead + QStringLiteral(".restored"))) {
                         *why = QStringLiteral("could not move %1 aside").arg(signedHead);
                         return false;
                     }
                     return true;
                 }),
        qPrintable(error));
    QCOMPARE(head(), kept);
    QVERIFY(pressF5());
    QTRY_VERIFY2_WITH_TIMEOUT(
        checkpoints().contains(QStringLiteral("the tail was cut off, first missing entry #%1").arg(kept + 1)),
        qPrintable(checkpoints()), kGuiWait);
    QVERIFY2(status().startsWith(QStringLiteral("Chain intact to #%1").arg(kept)), qPrintable(status()));

    // ... and edits an entry. The receiver refuses to sign and records the refusal (#kept+1).
    QVERIFY2(succeeded(m_chainWriter->exec(QStringLiteral(
                           "UPDATE audit_log SET reason = 'no refund was asked for' WHERE seq = 2")),
                 &error),
        qPrintable(error));
    QVERIFY(pressF5());
    QTRY_VERIFY_WITH_TIMEOUT(status().startsWith(QStringLiteral("Chain broken at #2: ")), kGuiWait);
    QVERIFY2(status().contains(QStringLiteral("edited")), qPrintable(status()));
    QVERIFY2(checkpoints().contains(QStringLiteral("first changed entry #2")), qPrintable(checkpoints()));
    QCOMPARE(m_receiver.scalar(QStringLiteral("SELECT action FROM audit_log WHERE seq = ?"), { kept + 1 })
                 .toString(),
        QStringLiteral("checkpoint_refused"));
    AuditModel *model = m_console->audit()->model();
    QCOMPARE(model->firstBadSeq(), qint64(2));

    QVERIFY(model->index(1, 0).data(Qt::BackgroundRole).isValid());
    QVERIFY(!model->index(0, 0).data(Qt::BackgroundRole).isValid());
    // A broken chain is not saved as a checkpoint.
    QTest::mouseClick(find<QPushButton>(w, "saveCheckpointButton"), Qt::LeftButton);
    QCOMPARE(m_settings->value(QStringLiteral("auditTrust/audit/checkpoints/size")).toInt(), 1);
    QVERIFY(find<QLabel>(w, "auditMessage")->text().startsWith(QStringLiteral("No checkpoint saved")));
    QVERIFY(updated.size() >= 3);
}

// The page's view lives as long as the window; the next session's controller starts it over
// (no filters of the last one, no message of its last action) and drives it from then on.
void TstAuditView::aNewSessionStartsThePageAfresh()
{
    MainWindow *w = m_console->window();
    auto *actor = find<QLineEdit>(w, "auditActorFilter");
    auto *range = find<QComboBox>(w, "auditTimeRange");
    auto *message = find<QLabel>(w, "auditMessage");
    auto *entries = find<QTableView>(w, "auditTable");
    QTest::keyClicks(actor, QStringLiteral("sam"));
    range->setCurrentIndex(2);
    Q_EMIT range->activated(2);
    QVERIFY(message->isVisible()); // the last test's "No checkpoint saved"

    m_console->disconnectSession();
    QString problem;
    QVERIFY2(connectWith(*m_console, QStringLiteral("audit again"), m_receiver.databasePath(),
                 m_receiver.token(QStringLiteral("aude-auditor")), &problem, m_receiver.adminUrl()),
        qPrintable(problem));
    m_console->window()->showPage(MainWindow::AuditPage);
    QCOMPARE(find<QLineEdit>(w, "auditActorFilter"), actor); // the same view, not a new one
    QVERIFY(actor->text().isEmpty());
    QCOMPARE(range->currentIndex(), 0);
    QVERIFY(!message->isVisible());
    QCOMPARE(entries->model(), m_console->audit()->model());
    // The new session checks the chain itself: still broken at #2, on the same label; the cut
    // tail stays cut, and the receiver recorded its refusal once, not again for this session.
    QTRY_VERIFY_WITH_TIMEOUT(status().startsWith(QStringLiteral("Chain broken at #2: ")), kGuiWait);
    QVERIFY(m_kept > 0);
    QCOMPARE(entryCount(), int(m_kept + 1));
    QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), int(m_kept + 1), kGuiWait);
    QCOMPARE(m_receiver.scalar(QStringLiteral("SELECT action FROM audit_log ORDER BY seq DESC LIMIT 1"))
                 .toString(),
        QStringLiteral("checkpoint_refused"));
}

QTEST_MAIN(TstAuditView)
#include "tst_auditview.moc"
