// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "audit/auditlog.h"
#include "audit/checkpoint.h"
#include "audit/evidenceverifier.h"
#include "audit/signingkey.h"
#include "common/filechooser.h"
#include "common/prompter.h"
#include "common/warningbanner.h"
#include "consoleguitest.h"
#include "destinations/destinationmodel.h"
#include "destinations/destinationscontroller.h"
#include "detail/detailcontroller.h"
#include "events/eventtablemodel.h"
#include "receivers/receiverhealthcontroller.h"

#include <QApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

// Operating the receivers from the console, through the real widgets: receiver health and
// durability warnings, the destinations page with pause / resume for administrators only, and
// evidence export checked by `redrive --verify-evidence`.
class TstConsoleOperations : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void receiverDurabilityAndSilenceAreWarned();
    void supportSeesDestinationsButIsNotOfferedPauseOrEvidence();
    void adminPausesADestinationWithAReason();
    void evidenceExportVerifiesAndCatchesAFlippedByte();

private:
    bool sql(const QString &statement);
    bool refreshReceivers();
    [[nodiscard]] QString receiverStatus() const;
    bool connectAs(const QString &user, const QString &role);
    int verifyWithCli(const QString &file, QString *output);

    std::unique_ptr<audit::SigningKey> m_key;
};

void TstConsoleOperations::initTestCase()
{
    QVERIFY(setUpFixture());
    QString error;
    m_key = audit::SigningKey::generate(&error);
    QVERIFY2(m_key, qPrintable(error));
}

void TstConsoleOperations::cleanupTestCase()
{
    m_console.reset();
}

bool TstConsoleOperations::sql(const QString &statement)
{
    QString error;
    if (m_writer->exec(statement, &error))
        return true;
    qWarning("%s", qPrintable(error));
    return false;
}

bool TstConsoleOperations::connectAs(const QString &user, const QString &role)
{
    m_console.reset();
    m_api.setIdentity(user, role);
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_clock);
    m_console->window()->show();
    if (!QTest::qWaitForWindowExposed(m_console->window()))
        return false;
    QString problem;
    const bool ok = connectWith(*m_console, role, m_t->url().sqlitePath, QStringLiteral("tok-123"), &problem);
    if (!ok)
        qWarning("connect: %s", qPrintable(problem));
    return ok;
}

QString TstConsoleOperations::receiverStatus() const
{
    return m_console->window()->findChild<QLabel *>(QStringLiteral("receiverStatus"))->text();
}

bool TstConsoleOperations::refreshReceivers()
{
    // F5, as a person would; the receivers are refreshed on every page.
    MainWindow *w = m_console->window();
    QApplication::setActiveWindow(w);
    if (!QTest::qWaitForWindowActive(w))
        return false;
    QSignalSpy refreshed(m_console->receivers(), &ReceiverHealthController::refreshed);
    QTest::keyClick(w, Qt::Key_F5);
    return refreshed.wait(kGuiWait) || !refreshed.isEmpty();
}

int TstConsoleOperations::verifyWithCli(const QString &file, QString *output)
{
    QProcess p;
    p.start(qEnvironmentVariable("REDRIVE_BINARY_DIR") + QStringLiteral("/app/redrive/redrive"),
            {QStringLiteral("--verify-evidence"), file});
    if (!p.waitForFinished(60'000))
        return -1;
    *output = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

void TstConsoleOperations::receiverDurabilityAndSilenceAreWarned()
{
    QVERIFY(connectAs(QStringLiteral("alice"), QStringLiteral("support")));
    MainWindow *w = m_console->window();
    auto *banner = find<WarningBanner>(w, "receiverWarning");
    // The scenario's receiver is FULL and beat 10 s ago ("now" is base + 60 s): no warning.
    QTRY_COMPARE_WITH_TIMEOUT(receiverStatus(), QStringLiteral("Receiver web-1:4242 · heartbeat 10 s ago"), kGuiWait);
    QVERIFY(banner->isHidden());
    QVERIFY(find<QLabel>(w, "receiverStatus")->toolTip().contains(QStringLiteral("survives power loss")));

    // The same receiver restarted with synchronous=NORMAL.
    QVERIFY(sql(QStringLiteral("UPDATE receiver_instances SET durability = 'sqlite journal_mode=wal synchronous=NORMAL', "
                               "power_loss_durable = 0")));
    QVERIFY(refreshReceivers());
    QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), kGuiWait);
    QCOMPARE(banner->warnings(),
             QStringList{QStringLiteral("Receiver web-1:4242 runs SQLite journal_mode=wal synchronous=NORMAL: acknowledged "
                                        "events may be lost on power failure.")});
    QVERIFY(banner->text().startsWith(QStringLiteral("⚠ Receiver web-1:4242")));
    QVERIFY(receiverStatus().startsWith(QStringLiteral("⚠ ")));
    QVERIFY(find<QLabel>(w, "receiverStatus")->toolTip().contains(QStringLiteral("NOT power-loss durable")));
    // It stays in sight on every page.
    w->showPage(MainWindow::DeadLettersPage);
    QVERIFY(banner->isVisible());
    w->showPage(MainWindow::EventsPage);

    // Then it stopped beating ten minutes ago.
    QVERIFY(sql(QStringLiteral("UPDATE receiver_instances SET heartbeat_at = %1").arg(kGuiBase + 60'000 - 600'000)));
    QVERIFY(refreshReceivers());
    QTRY_COMPARE_WITH_TIMEOUT(banner->warnings(),
                              QStringList{QStringLiteral("No receiver heartbeat for 10 min (last: web-1:4242): webhooks "
                                                         "may not be recorded or delivered.")},
                              kGuiWait);
    QCOMPARE(receiverStatus(), QStringLiteral("⚠ No receiver heartbeat for 10 min"));

    // Back to FULL and beating: the warning goes away by itself.
    QVERIFY(sql(QStringLiteral("UPDATE receiver_instances SET durability = 'sqlite journal_mode=wal synchronous=FULL', "
                               "power_loss_durable = 1, heartbeat_at = %1")
                    .arg(kGuiBase + 50'000)));
    QVERIFY(refreshReceivers());
    QTRY_VERIFY_WITH_TIMEOUT(banner->isHidden(), kGuiWait);
    QCOMPARE(receiverStatus(), QStringLiteral("Receiver web-1:4242 · heartbeat 10 s ago"));
}

void TstConsoleOperations::supportSeesDestinationsButIsNotOfferedPauseOrEvidence()
{
    QVERIFY(m_console && m_console->session()); // alice, support
    MainWindow *w = m_console->window();
    QVERIFY(w->isPageAvailable(MainWindow::DestinationsPage));
    QApplication::setActiveWindow(w);
    QVERIFY(QTest::qWaitForWindowActive(w));
    QTest::keyClick(w, Qt::Key_7, Qt::ControlModifier);
    QCOMPARE(w->currentPage(), MainWindow::DestinationsPage);
    auto *table = find<QTableView>(w, "destinationTable");
    QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 2, kGuiWait);
    auto cell = [table](int row, int column) { return table->model()->index(row, column).data().toString(); };
    QCOMPARE(cell(0, DestinationModel::NameColumn), QStringLiteral("billing"));
    QCOMPARE(cell(0, DestinationModel::DeadColumn), QStringLiteral("1"));
    QCOMPARE(cell(0, DestinationModel::SuccessRateColumn), QStringLiteral("0.0 % of 1"));
    QVERIFY(cell(0, DestinationModel::LastFailureColumn).startsWith(QStringLiteral("HTTP permanent, ")));
    QCOMPARE(cell(1, DestinationModel::NameColumn), QStringLiteral("fulfillment"));
    QCOMPARE(cell(1, DestinationModel::StateColumn), QStringLiteral("Active"));
    QCOMPARE(cell(1, DestinationModel::BacklogColumn), QStringLiteral("2"));
    QCOMPARE(cell(1, DestinationModel::SuccessRateColumn), QStringLiteral("33.3 % of 3"));
    // Reading is for everyone; pausing is not offered to support, and neither is evidence.
    table->selectRow(1);
    QVERIFY(find<QPushButton>(w, "pauseButton")->isHidden());
    QVERIFY(find<QPushButton>(w, "resumeButton")->isHidden());
    QVERIFY(find<QPushButton>(w, "exportEvidenceButton")->isHidden());
}

void TstConsoleOperations::adminPausesADestinationWithAReason()
{
    QByteArray sent;
    m_api.route("POST", "/admin/v1/destinations/fulfillment/pause", [this, &sent](const FakeAdminApi::Request &r) {
        sent = r.body;
        // What the receiver does before it answers: commit the new state.
        const QString reason = QJsonDocument::fromJson(r.body).object().value(QLatin1String("reason")).toString();
        QSqlQuery q(m_writer->handle());
        q.prepare(QStringLiteral("INSERT INTO destination_state (name, paused, changed_by, changed_at, reason) "
                                 "VALUES ('fulfillment', 1, 'root', ?, ?) ON CONFLICT (name) DO UPDATE SET paused = 1, "
                                 "changed_by = 'root', changed_at = excluded.changed_at, reason = excluded.reason"));
        q.addBindValue(m_clock.nowMs() - 5'000);
        q.addBindValue(reason);
        if (!q.exec())
            return FakeAdminApi::Response{500, "{\"error\":\"internal\"}"};
        return FakeAdminApi::Response{200, "{\"name\":\"fulfillment\",\"paused\":true}"};
    });
    QVERIFY(connectAs(QStringLiteral("root"), QStringLiteral("admin")));
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::DestinationsPage);
    auto *table = find<QTableView>(w, "destinationTable");
    QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 2, kGuiWait);
    auto *pause = find<QPushButton>(w, "pauseButton");
    auto *resume = find<QPushButton>(w, "resumeButton");
    QVERIFY(pause->isVisible());
    QVERIFY(!pause->isEnabled()); // nothing selected yet
    table->selectRow(1);
    QCOMPARE(pause->text(), QStringLiteral("Pause fulfillment…"));
    QVERIFY(pause->isEnabled());
    QVERIFY(!resume->isEnabled()); // it is not paused

    // Cancelling the prompt sends nothing.
    Prompter::clearAskedQuestions();
    Prompter::setNextAnswers({{false, QString()}});
    QTest::mouseClick(pause, Qt::LeftButton);
    QCOMPARE(Prompter::askedQuestions().size(), 1);
    const Prompter::Question asked = Prompter::askedQuestions().first();
    QCOMPARE(asked.confirmLabel, QStringLiteral("Pause fulfillment"));
    QVERIFY(asked.askReason);
    QVERIFY(asked.text.contains(QStringLiteral("2 are waiting now")));
    QTest::qWait(50);
    QVERIFY(sent.isEmpty());

    QSignalSpy refreshed(m_console->destinations(), &DestinationsController::refreshed);
    Prompter::setNextAnswers({{true, QStringLiteral("fulfillment API maintenance window")}});
    QTest::mouseClick(pause, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!sent.isEmpty(), kGuiWait);
    QCOMPARE(QJsonDocument::fromJson(sent).object(),
             (QJsonObject{{QStringLiteral("reason"), QStringLiteral("fulfillment API maintenance window")}}));
    // The page reads the new state back at once (well before the console's 10 s periodic
    // refresh could) and names who paused it, when and why.
    QTRY_COMPARE_WITH_TIMEOUT(table->model()->index(1, DestinationModel::StateColumn).data().toString(),
                              QStringLiteral("Paused"), 8'000);
    QCOMPARE(table->model()->index(1, DestinationModel::ChangedColumn).data().toString(),
             QStringLiteral("Paused by root, 5 s ago: fulfillment API maintenance window"));
    QVERIFY(table->model()->index(1, 0).data(DestinationModel::PausedRole).toBool());
    QCOMPARE(table->selectionModel()->currentIndex().row(), 1); // the selection stayed on it
    QVERIFY(!pause->isEnabled());
    QVERIFY(resume->isEnabled());
    QCOMPARE(resume->text(), QStringLiteral("Resume fulfillment…"));
    QVERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("fulfillment paused")));
    QVERIFY(find<QLabel>(w, "destinationSummary")->text().contains(QStringLiteral("1 paused")));
}

void TstConsoleOperations::evidenceExportVerifiesAndCatchesAFlippedByte()
{
    QVERIFY(m_console && m_console->session()); // root, admin
    // Real audit entries about the succeeded event, and a checkpoint signed the way the receiver
    // signs it, over the database's head at the time of the request.
    for (const char *reason : {"customer called about ORD-1001", "evidence requested by legal"}) {
        QString error;
        Transaction tx(*m_writer);
        QVERIFY(tx.begin(&error));
        QVERIFY2(audit::appendAuditEntry(*m_writer,
                                         audit::AuditRecord{QStringLiteral("olga"), QStringLiteral("operator"),
                                                            QStringLiteral("note_added"),
                                                            QStringLiteral("event:%1").arg(m_s.succeeded),
                                                            QLatin1String(reason), {}},
                                         m_clock.nowMs(), &error),
                 qPrintable(error));
        QVERIFY(tx.commit(&error));
    }
    int checkpointRequests = 0;
    m_api.route("GET", "/admin/v1/audit/checkpoint", [this, &checkpointRequests](const FakeAdminApi::Request &) {
        ++checkpointRequests;
        QString error;
        const auto cp = audit::makeCheckpoint(*m_writer, *m_key, m_clock.nowMs(), &error);
        if (!cp)
            return FakeAdminApi::Response{500, "{\"error\":\"internal\"}"};
        return FakeAdminApi::Response{200, QJsonDocument(cp->toJson()).toJson(QJsonDocument::Compact)};
    });
    MainWindow *w = m_console->window();
    w->showPage(MainWindow::EventsPage);
    search(QStringLiteral("gh-delivery-1"));
    QTRY_VERIFY_WITH_TIMEOUT(table()->model()->rowCount() == 1
                                 && table()->model()->index(0, 0).data(EventTableModel::LoadedRole).toBool(),
                             kGuiWait);
    QVERIFY(selectRow(0));
    QTRY_VERIFY_WITH_TIMEOUT(find<QLabel>(w, "detailTitle")->text().startsWith(QStringLiteral("Event %1 ").arg(m_s.succeeded)),
                             kGuiWait);
    auto *tabs = find<QTabWidget>(w, "detailTabs");
    tabs->setCurrentIndex(tabs->count() - 1); // Notes & audit
    auto *exportButton = find<QPushButton>(w, "exportEvidenceButton");
    QTRY_VERIFY(exportButton->isVisible());

    // A cancelled file dialog asks the receiver for nothing.
    FileChooser::setNextAnswers({QString()});
    QTest::mouseClick(exportButton, Qt::LeftButton);
    QTest::qWait(50);
    QCOMPARE(checkpointRequests, 0);

    const QString file = m_dir->filePath(QStringLiteral("evidence.json"));
    QSignalSpy exported(m_console->detail(), &DetailController::evidenceExported);
    FileChooser::setNextAnswers({file});
    QTest::mouseClick(exportButton, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 1, kGuiWait);
    QVERIFY2(exported.first().at(0).toBool(), qPrintable(exported.first().at(1).toString()));
    QCOMPARE(checkpointRequests, 1);
    QVERIFY(find<QLabel>(w, "evidenceStatus")->text().contains(QStringLiteral("written to ") + file));

    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray original = f.readAll();
    f.close();
    const audit::EvidenceVerdict verdict = audit::verifyEvidence(original);
    QVERIFY2(verdict.ok, qPrintable(verdict.problem));
    const QJsonObject bundle = QJsonDocument::fromJson(original).object();
    QCOMPARE(bundle.value(QLatin1String("exported")).toObject().value(QLatin1String("by")).toString(), QStringLiteral("root"));
    QVERIFY(bundle.value(QLatin1String("audit")).toObject().value(QLatin1String("linked_to_checkpoint")).toBool());
    QString output;
    QCOMPARE(verifyWithCli(file, &output), 0);
    QVERIFY2(output.contains(QStringLiteral("evidence intact")), qPrintable(output));

    // One byte of the body flipped.
    QJsonObject tampered = bundle;
    QByteArray body = QByteArray::fromBase64(bundle.value(QLatin1String("body_base64")).toString().toLatin1());
    body[5] = char(body[5] ^ 0x20);
    tampered.insert(QStringLiteral("body_base64"), QString::fromLatin1(body.toBase64()));
    const QString bodyFile = m_dir->filePath(QStringLiteral("evidence-body.json"));
    QFile bf(bodyFile);
    QVERIFY(bf.open(QIODevice::WriteOnly));
    bf.write(QJsonDocument(tampered).toJson());
    bf.close();
    QCOMPARE(verifyWithCli(bodyFile, &output), 1);
    QVERIFY2(output.contains(QStringLiteral("the body's SHA-256 is")), qPrintable(output));

    // One byte of an audit entry flipped, in the file as written.
    QByteArray raw = original;
    const qsizetype at = raw.indexOf("customer called about ORD-1001");
    QVERIFY(at > 0);
    QCOMPARE(raw.indexOf("customer called about ORD-1001", at + 1), qsizetype(-1)); // only in the entry
    raw[at] = 'C';
    const QString auditFile = m_dir->filePath(QStringLiteral("evidence-audit.json"));
    QFile af(auditFile);
    QVERIFY(af.open(QIODevice::WriteOnly));
    af.write(raw);
    af.close();
    const audit::EvidenceVerdict broken = audit::verifyEvidence(raw);
    QVERIFY(!broken.ok);
    QVERIFY2(broken.problem.contains(QStringLiteral("hash does not match its contents")), qPrintable(broken.problem));
    QCOMPARE(verifyWithCli(auditFile, &output), 1);
    QVERIFY2(output.contains(QStringLiteral("evidence FAILED verification: audit entry")), qPrintable(output));
}

QTEST_MAIN(TstConsoleOperations)
#include "tst_consoleoperations.moc"
