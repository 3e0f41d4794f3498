// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "audit/checkpoint.h"
#include "audit/signingkey.h"
#include "auditchainfixture.h"
#include "auditor/auditcontroller.h"
#include "auditor/auditmodel.h"
#include "common/filechooser.h"
#include "common/prompter.h"
#include "connection/session.h"
#include "consoleguitest.h"

#include <QAccessible>
#include <QApplication>
#include <QComboBox>
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

// The auditor's page, driven through its widgets against a database holding a real chain and an
// admin API that signs checkpoints: the chain status computed without a click, filters and live
// refresh, key pinning, saved checkpoints that catch an edited row and a cut-off tail, and the
// exports (CSV of the filtered rows; an evidence bundle the real `redrive --verify-evidence`
// accepts). The entries are appended by core's own appender.
class TstAuditView : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
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

    std::unique_ptr<TestDatabase> m_chain;
    std::unique_ptr<Db> m_chainWriter;
    std::unique_ptr<audit::SigningKey> m_keyA;
    std::unique_ptr<audit::SigningKey> m_keyB;
    audit::SigningKey *m_signing = nullptr; // the key the fake receiver signs with now
    qint64 m_nextAt = kGuiBase - 3'600'000;
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
    QVERIFY(setUpFixture());
    QString error;
    m_chain = TestDatabase::create(Backend::Sqlite, &error);
    QVERIFY2(m_chain, qPrintable(error));
    m_chainWriter = m_chain->open(QStringLiteral("writer"));
    QVERIFY(append(QStringLiteral("sam"), QStringLiteral("replay_requested"), QStringLiteral("replay:1"),
        QStringLiteral("customer asked for a refund")));
    QVERIFY(append(QStringLiteral("olivia"), QStringLiteral("replay_approved"), QStringLiteral("replay:1"),
        QStringLiteral("checked with the customer")));
    QVERIFY(append(QStringLiteral("sam"), QStringLiteral("note_added"), QStringLiteral("event:3"),
        QStringLiteral("refund done")));
    QVERIFY(append(QStringLiteral("olivia"), QStringLiteral("destination_paused"),
        QStringLiteral("destination:crm"), QStringLiteral("maintenance window")));
    m_keyA = audit::SigningKey::generate().toOptional().value_or(nullptr);
    m_keyB = audit::SigningKey::generate().toOptional().value_or(nullptr);
    QVERIFY(m_keyA && m_keyB);
    m_signing = m_keyA.get();
    // The receiver's answer: its current head, signed with whichever key it holds now.
    // Stand-in, still: the suite asserts exact sequence numbers of a chain core's appender
    // writes, and a real redrived on this database audits what it does (evidence exports);
    // switching keys means restarting it on the same admin port. Not yet moved to a real one.
    m_api.route("GET", "/admin/v1/audit/checkpoint", [this](const FakeAdminApi::Request &) {
        const auto cp = audit::makeCheckpoint(*m_chainWriter, *m_signing, m_clock.nowMs());
        if (!cp)
            return FakeAdminApi::Response { 500, R"({"error":"internal","message":"no checkpoint"})" };
        return FakeAdminApi::Response { 200, QJsonDocument(cp->toJson()).toJson(QJsonDocument::Compact) };
    });
    m_api.setIdentity(QStringLiteral("audrey"), QStringLiteral("auditor"));
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_clock);
    m_console->window()->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_console->window()));
    QString problem;
    QVERIFY2(connectWith(*m_console, QStringLiteral("audit"), m_chain->url().sqlitePath,
                 QStringLiteral("tok-123"), &problem),
        qPrintable(problem));
}

void TstAuditView::cleanupTestCase()
{
    m_console.reset();
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
    QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), 4, kGuiWait);
    QCOMPARE(entries->model()->index(0, AuditModel::ActionColumn).data().toString(),
        QStringLiteral("replay_requested"));
    QCOMPARE(entries->model()->index(1, AuditModel::ActionColumn).data().toString(),
        QStringLiteral("replay_approved"));
    QCOMPARE(entries->model()->index(1, AuditModel::ActorColumn).data().toString(), QStringLiteral("olivia"));
    // Computed on open, without a click, with the key pinned on first use and shown.
    const QString expected
        = QStringLiteral("Chain intact to #4 · checkpoint #4 verified (key %1)").arg(m_keyA->keyId());
    QTRY_COMPARE_WITH_TIMEOUT(status(), expected, kGuiWait);
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
    QVERIFY(pressF5());
    QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), 3, kGuiWait);
    QTRY_VERIFY_WITH_TIMEOUT(
        status().startsWith(QStringLiteral("Chain intact to #6 · checkpoint #6 verified")), kGuiWait);
    QTest::mouseClick(find<QPushButton>(w, "auditClearFilter"), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), 6, kGuiWait);
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
    QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), 6, kGuiWait);
}

void TstAuditView::evidenceForATimeRangeVerifiesWithTheCli()
{
    MainWindow *w = m_console->window();
    // Entries 3 and 4 only: from entry 3's minute to just before entry 5's.
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
    QCOMPARE(list.last().toObject().value(QLatin1String("seq")).toInt(), 6); // up to the signed head
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
    QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), 6, kGuiWait);
}

void TstAuditView::anotherReceiverKeyIsALoudWarning()
{
    MainWindow *w = m_console->window();
    m_signing = m_keyB.get();
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
    QTest::mouseClick(find<QPushButton>(w, "saveCheckpointButton"), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(
        checkpoints().startsWith(QStringLiteral("Nothing changed up to the saved checkpoint #6")), kGuiWait);
    QCOMPARE(m_settings->value(QStringLiteral("auditTrust/audit/checkpoints/size")).toInt(), 1);
    QCOMPARE(m_settings->value(QStringLiteral("auditTrust/audit/checkpoints/1/keyId")).toString(),
        m_keyB->keyId());

    // Someone with the database file removes the triggers and the last two entries.
    QString error;
    QVERIFY2(dropAuditTriggers(*m_chainWriter, &error), qPrintable(error));
    QVERIFY2(succeeded(m_chainWriter->exec(QStringLiteral("DELETE FROM audit_log WHERE seq > 4")), &error),
        qPrintable(error));
    QVERIFY(pressF5());
    QTRY_VERIFY_WITH_TIMEOUT(
        checkpoints().contains(QStringLiteral("the tail was cut off, first missing entry #5")), kGuiWait);
    QVERIFY2(status().startsWith(QStringLiteral("Chain intact to #4")), qPrintable(status()));

    // ... and edits an entry.
    QVERIFY2(succeeded(m_chainWriter->exec(QStringLiteral(
                           "UPDATE audit_log SET reason = 'no refund was asked for' WHERE seq = 2")),
                 &error),
        qPrintable(error));
    QVERIFY(pressF5());
    QTRY_VERIFY_WITH_TIMEOUT(status().startsWith(QStringLiteral("Chain broken at #2: ")), kGuiWait);
    QVERIFY2(status().contains(QStringLiteral("edited")), qPrintable(status()));
    QVERIFY2(checkpoints().contains(QStringLiteral("first changed entry #2")), qPrintable(checkpoints()));
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
    QVERIFY2(connectWith(*m_console, QStringLiteral("audit again"), m_chain->url().sqlitePath,
                 QStringLiteral("tok-123"), &problem),
        qPrintable(problem));
    m_console->window()->showPage(MainWindow::AuditPage);
    QCOMPARE(find<QLineEdit>(w, "auditActorFilter"), actor); // the same view, not a new one
    QVERIFY(actor->text().isEmpty());
    QCOMPARE(range->currentIndex(), 0);
    QVERIFY(!message->isVisible());
    QCOMPARE(entries->model(), m_console->audit()->model());
    // The new session checks the chain itself: still broken at #2, on the same label.
    QTRY_VERIFY_WITH_TIMEOUT(status().startsWith(QStringLiteral("Chain broken at #2: ")), kGuiWait);
    QTRY_COMPARE_WITH_TIMEOUT(entries->model()->rowCount(), 4, kGuiWait);
}

QTEST_MAIN(TstAuditView)
#include "tst_auditview.moc"
