// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Privacy by role between both real programs, on both engines: a source that redacts three
// values. Destinations receive the original bytes; the admin API, response excerpts, evidence for
// a role that may not reveal, and the console's payload tree, text, clipboard and key links show
// "[redacted]"; a key search still finds a redacted value; operators and auditors reveal the
// original with a reason, audited payload_revealed, and support and admins may not.
#include "consoleguitest.h"
#include "detail/jsontreemodel.h"
#include "detail/revealdialog.h"
#include "realreceiver.h"
#include "scriptabledestination.h"
#include "testdb.h"

#include <QApplication>
#include <QClipboard>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTreeView>

using namespace redrive;
using namespace redrive::test;
using namespace redrive::ui;

namespace {
const QByteArray kEmail = "ana.lima@example.com";
const QByteArray kRepo = "acme/private-shop";
const QByteArray kPhone = "+33 6 12 34 56 78";
const QByteArray kBody = R"({"ref":"refs/heads/main","pusher":{"name":"ana","email":")" + kEmail
    + R"("},"repository":{"id":42,"full_name":")" + kRepo
    + R"("},"pull_request":{"number":7,"user":{"phone":")" + kPhone + R"(","login":"ana"}}})";

bool containsAny(const QByteArray &text)
{
    return text.contains(kEmail) || text.contains(kRepo) || text.contains(kPhone);
}
} // namespace

class TstPrivacyReceiver : public ConsoleGuiTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void destinationsReceiveTheOriginal();
    void theStoredCopyIsRedacted();
    void theApiShowsRedactedValues();
    void aKeySearchStillFindsARedactedValue();
    void evidenceForAnAdminCarriesTheCopy();
    void revealIsForOperatorsAndAuditorsWithAReason();
    void aSupportConsoleNeverShowsARedactedValue();
    void anOperatorRevealsInTheConsole();

private:
    bool signIn(const QString &person);
    void showPayloadTab();
    QByteArray treeText();
    qint64 auditCount(const QString &action);

    std::unique_ptr<TestDatabase> m_pg;
    RealReceiver m_receiver;
    SystemClock m_systemClock;
    qint64 m_event = 0;
    qint64 m_crmDelivery = 0;
};

void TstPrivacyReceiver::initTestCase()
{
    QString error;
    if (backendFromEnvironment() == Backend::Postgres) {
        m_pg = TestDatabase::create(Backend::Postgres, &error, false);
        QVERIFY2(m_pg, qPrintable(error));
        m_receiver.usePostgres(m_pg->urlString());
    }
    m_receiver.setSourceSettings(
        "redact = [\"/pusher/email\", \"/repository/full_name\", \"/pull_request/user/phone\"]\n");
    QVERIFY2(m_receiver.start(&error), qPrintable(error));
    setUpSettings();
    // crm refuses and echoes what it was sent: its excerpt must not carry the values either.
    m_receiver.crm().enqueue(ScriptableDestination::status(
        410, R"({"error":"customer )" + kEmail + R"( of )" + kRepo + R"( exists"})"));
    QCOMPARE(m_receiver.ingest("privacy-1", "push", kBody), 200);
    m_event = m_receiver.scalar(QStringLiteral("SELECT id FROM events WHERE provider_event_id = 'privacy-1'"))
                  .toLongLong();
    QVERIFY(m_event > 0);
    QVERIFY(m_receiver.waitForValue(
        QStringLiteral(
            "SELECT count(*) FROM deliveries WHERE event_id = ? AND status IN ('succeeded', 'dead')"),
        { m_event }, 2));
    m_crmDelivery
        = m_receiver
              .scalar(QStringLiteral("SELECT id FROM deliveries WHERE event_id = ? AND destination = 'crm'"),
                  { m_event })
              .toLongLong();
    QVERIFY(m_crmDelivery > 0);
}

void TstPrivacyReceiver::cleanupTestCase()
{
    m_console.reset();
    m_receiver.stop();
}

void TstPrivacyReceiver::cleanup()
{
    if (QTest::currentTestFailed())
        qWarning("redrived log:\n%s", m_receiver.log().right(4000).constData());
}

bool TstPrivacyReceiver::signIn(const QString &person)
{
    if (!m_pg)
        return signInTo(person, m_receiver.databasePath(), m_receiver.token(person), m_receiver.adminUrl(),
            m_systemClock);
    m_console.reset();
    m_console = std::make_unique<ConsoleController>(*m_settings, m_secrets, m_systemClock);
    m_console->window()->show();
    if (!QTest::qWaitForWindowExposed(m_console->window()))
        return false;
    QString problem;
    const bool ok = connectWithPostgres(
        *m_console, person, m_pg->urlString(), m_receiver.token(person), m_receiver.adminUrl(), &problem);
    if (!ok)
        qWarning("%s could not connect: %s", qPrintable(person), qPrintable(problem));
    return ok;
}

// The detail's Payload tab, as a person would open it.
void TstPrivacyReceiver::showPayloadTab()
{
    auto *raw = find<QPlainTextEdit>(m_console->window(), "rawPayload");
    for (QWidget *w = raw; w; w = w->parentWidget()) {
        if (auto *tabs
            = qobject_cast<QTabWidget *>(w->parentWidget() ? w->parentWidget()->parentWidget() : nullptr)) {
            tabs->setCurrentWidget(w);
            return;
        }
    }
}

qint64 TstPrivacyReceiver::auditCount(const QString &action)
{
    return m_receiver.scalar(QStringLiteral("SELECT count(*) FROM audit_log WHERE action = ?"), { action })
        .toLongLong();
}

// Every key and value the payload tree shows, one per line.
QByteArray TstPrivacyReceiver::treeText()
{
    auto *tree = find<QTreeView>(m_console->window(), "jsonTree");
    if (!tree)
        return {};
    QAbstractItemModel *model = tree->model();
    QByteArray out;
    std::function<void(const QModelIndex &, int)> walk = [&](const QModelIndex &parent, int depth) {
        if (depth > 16)
            return;
        for (int r = 0; r < model->rowCount(parent); ++r) {
            for (int c = 0; c < model->columnCount(parent); ++c)
                out += model->index(r, c, parent).data().toString().toUtf8() + '\n';
            walk(model->index(r, 0, parent), depth + 1);
        }
    };
    walk(QModelIndex(), 0);
    return out;
}

void TstPrivacyReceiver::destinationsReceiveTheOriginal()
{
    for (ScriptableDestination *d : { &m_receiver.crm(), &m_receiver.fulfillment() }) {
        const auto requests = d->requests();
        QCOMPARE(requests.size(), 1);
        QCOMPARE(requests.first().body, kBody); // byte for byte
    }
}

void TstPrivacyReceiver::theStoredCopyIsRedacted()
{
    const QByteArray copy
        = m_receiver.scalar(QStringLiteral("SELECT redacted_body FROM events WHERE id = ?"), { m_event })
              .toByteArray();
    QVERIFY(!copy.isEmpty());
    QVERIFY2(!containsAny(copy), copy.constData());
    QCOMPARE(QJsonDocument::fromJson(copy).object()[u"pusher"].toObject()[u"email"].toString(),
        QStringLiteral("[redacted]"));
    QCOMPARE(
        m_receiver.scalar(QStringLiteral("SELECT body FROM events WHERE id = ?"), { m_event }).toByteArray(),
        kBody);
    QCOMPARE(m_receiver.scalar(QStringLiteral("SELECT redacted_keys FROM events WHERE id = ?"), { m_event })
                 .toString(),
        QStringLiteral("[\"repo\"]"));
}

void TstPrivacyReceiver::theApiShowsRedactedValues()
{
    for (const QString &person : { QStringLiteral("sam-support"), QStringLiteral("ana-operator") }) {
        QJsonObject ev;
        QCOMPARE(m_receiver.admin("GET", "events/" + QByteArray::number(m_event), person, {}, &ev), 200);
        QVERIFY(ev.value(QLatin1String("body_redacted")).toBool());
        QCOMPARE(ev.value(QLatin1String("redacted_paths")).toArray(),
            (QJsonArray { QStringLiteral("/pusher/email"), QStringLiteral("/repository/full_name"),
                QStringLiteral("/pull_request/user/phone") }));
        const QJsonObject keys = ev.value(QLatin1String("keys")).toObject();
        QCOMPARE(keys.value(QLatin1String("repo")).toString(), QStringLiteral("[redacted]"));
        QCOMPARE(keys.value(QLatin1String("pr")).toString(), QStringLiteral("7"));
        const QByteArray whole = QJsonDocument(ev).toJson();
        QVERIFY2(!containsAny(whole), whole.constData());

        // The destination's answer echoed the values: its excerpt does not.
        QJsonObject delivery;
        QCOMPARE(
            m_receiver.admin("GET", "deliveries/" + QByteArray::number(m_crmDelivery), person, {}, &delivery),
            200);
        const QByteArray deliveryText = QJsonDocument(delivery).toJson();
        QVERIFY2(!containsAny(deliveryText), deliveryText.constData());
        QVERIFY2(deliveryText.contains("customer [redacted] of [redacted] exists"), deliveryText.constData());
    }
}

void TstPrivacyReceiver::aKeySearchStillFindsARedactedValue()
{
    QJsonObject page;
    QCOMPARE(m_receiver.admin("GET", "events?key=repo:" + QUrl::toPercentEncoding(QString::fromUtf8(kRepo)),
                 QStringLiteral("sam-support"), {}, &page),
        200);
    const QJsonArray items = page.value(QLatin1String("items")).toArray();
    QCOMPARE(items.size(), 1);
    QCOMPARE(items.first().toObject().value(QLatin1String("id")).toInteger(), m_event);
}

void TstPrivacyReceiver::evidenceForAnAdminCarriesTheCopy()
{
    QJsonObject bundle;
    QCOMPARE(
        m_receiver.admin("GET", "events/" + QByteArray::number(m_event) + "/evidence?reason=audit%20request",
            QStringLiteral("root-admin"), {}, &bundle),
        200);
    const QByteArray body
        = QByteArray::fromBase64(bundle.value(QLatin1String("body_base64")).toString().toLatin1());
    QVERIFY(!body.isEmpty());
    QVERIFY2(!containsAny(body), body.constData());
    QVERIFY(bundle.value(QLatin1String("event")).toObject().value(QLatin1String("body_redacted")).toBool());
    QVERIFY(!containsAny(QJsonDocument(bundle).toJson()));

    // An auditor may reveal, and the export is audited with its reason: the original.
    QCOMPARE(
        m_receiver.admin("GET", "events/" + QByteArray::number(m_event) + "/evidence?reason=court%20order",
            QStringLiteral("aude-auditor"), {}, &bundle),
        200);
    QCOMPARE(QByteArray::fromBase64(bundle.value(QLatin1String("body_base64")).toString().toLatin1()), kBody);
    QVERIFY(!bundle.value(QLatin1String("event")).toObject().contains(QLatin1String("body_redacted")));
}

void TstPrivacyReceiver::revealIsForOperatorsAndAuditorsWithAReason()
{
    const QByteArray path = "events/" + QByteArray::number(m_event) + "/reveal";
    const QJsonObject why { { QStringLiteral("reason"),
        QStringLiteral("customer disputes the charge, ticket SUP-81") } };
    const qint64 before = auditCount(QStringLiteral("payload_revealed"));
    QJsonObject reply;
    QCOMPARE(m_receiver.admin("POST", path, QStringLiteral("sam-support"), why, &reply), 403);
    QCOMPARE(m_receiver.admin("POST", path, QStringLiteral("root-admin"), why, &reply), 403);
    QVERIFY(!containsAny(QJsonDocument(reply).toJson()));
    QCOMPARE(m_receiver.admin("POST", path, QStringLiteral("ana-operator"), {}, &reply), 400);
    QCOMPARE(m_receiver.admin("POST", path, QStringLiteral("ana-operator"),
                 QJsonObject { { QStringLiteral("reason"), QStringLiteral("   ") } }, &reply),
        400);
    QCOMPARE(
        m_receiver.admin("POST", "events/999999/reveal", QStringLiteral("ana-operator"), why, &reply), 404);
    QCOMPARE(m_receiver.admin("GET", path, QStringLiteral("ana-operator"), {}, &reply), 405);
    QCOMPARE(auditCount(QStringLiteral("payload_revealed")), before); // refused: nothing audited

    QCOMPARE(m_receiver.admin("POST", path, QStringLiteral("ana-operator"), why, &reply), 200);
    QCOMPARE(reply.value(QLatin1String("body")).toString().toUtf8(), kBody);
    QCOMPARE(QByteArray::fromBase64(reply.value(QLatin1String("body_base64")).toString().toLatin1()), kBody);
    QCOMPARE(m_receiver.admin("POST", path, QStringLiteral("aude-auditor"), why, &reply), 200);
    QCOMPARE(auditCount(QStringLiteral("payload_revealed")), before + 2);
    QCOMPARE(
        m_receiver
            .scalar(QStringLiteral("SELECT count(*) FROM audit_log WHERE action = 'payload_revealed' AND "
                                   "target = ? AND reason = ? AND actor = 'ana-operator'"),
                { QStringLiteral("event:%1").arg(m_event), why.value(QLatin1String("reason")).toString() })
            .toInt(),
        1);
    // The audit log records who looked and why, never what they saw.
    QCOMPARE(
        m_receiver
            .scalar(QStringLiteral("SELECT count(*) FROM audit_log WHERE details LIKE ? OR details LIKE ?"),
                { QVariant(QString(u'%' + QString::fromUtf8(kEmail) + u'%')),
                    QVariant(QString(u'%' + QString::fromUtf8(kRepo) + u'%')) })
            .toInt(),
        0);
    // The event's own audit trail shows the reveal.
    QJsonObject ev;
    QCOMPARE(m_receiver.admin(
                 "GET", "events/" + QByteArray::number(m_event), QStringLiteral("sam-support"), {}, &ev),
        200);
    bool shown = false;
    for (const QJsonValue &entry : ev.value(QLatin1String("audit")).toArray())
        shown = shown || entry.toObject().value(QLatin1String("action")).toString() == u"payload_revealed";
    QVERIFY(shown);
    QJsonObject verdict;
    QCOMPARE(m_receiver.admin("GET", "audit/verify", QStringLiteral("aude-auditor"), {}, &verdict), 200);
    QVERIFY2(verdict.value(QLatin1String("ok")).toBool(), QJsonDocument(verdict).toJson().constData());
}

void TstPrivacyReceiver::aSupportConsoleNeverShowsARedactedValue()
{
    QVERIFY(signIn(QStringLiteral("sam-support")));
    QTRY_VERIFY_WITH_TIMEOUT(table() && table()->model() && table()->model()->rowCount() > 0, kGuiWait);
    QVERIFY(selectRow(0));
    auto *raw = find<QPlainTextEdit>(m_console->window(), "rawPayload");
    QVERIFY(raw);
    QTRY_VERIFY_WITH_TIMEOUT(raw->toPlainText().contains(QLatin1String("[redacted]")), kGuiWait);
    QVERIFY2(!containsAny(raw->toPlainText().toUtf8()), qPrintable(raw->toPlainText()));
    const QByteArray tree = treeText();
    QVERIFY2(tree.contains("[redacted]") && tree.contains("refs/heads/main"), tree.constData());
    QVERIFY2(!containsAny(tree), tree.constData());

    QApplication::clipboard()->clear();
    auto *copy = find<QPushButton>(m_console->window(), "copyPayloadButton");
    QVERIFY(copy);
    QTest::mouseClick(copy, Qt::LeftButton);
    const QByteArray copied = QApplication::clipboard()->text().toUtf8();
    QVERIFY(copied.contains("[redacted]"));
    QVERIFY2(!containsAny(copied), copied.constData());

    auto *bar = find<QWidget>(m_console->window(), "redactionBar");
    QVERIFY(bar && !bar->isHidden());
    auto *note = find<QLabel>(m_console->window(), "redactionNote");
    QVERIFY(note->text().contains(QLatin1String("/pusher/email")));
    QVERIFY(!note->accessibleName().isEmpty());
    auto *reveal = find<QPushButton>(m_console->window(), "revealButton");
    QVERIFY(reveal && reveal->isHidden()); // support may not reveal

    auto *repo = find<QPushButton>(m_console->window(), "keyLink_repo");
    QVERIFY(repo);
    QCOMPARE(repo->text(), QStringLiteral("repo: [redacted]"));
    QVERIFY(!repo->isEnabled());
    QVERIFY(!repo->accessibleName().isEmpty());
    auto *pr = find<QPushButton>(m_console->window(), "keyLink_pr");
    QVERIFY(pr && pr->isEnabled());
}

void TstPrivacyReceiver::anOperatorRevealsInTheConsole()
{
    QVERIFY(signIn(QStringLiteral("ana-operator")));
    QTRY_VERIFY_WITH_TIMEOUT(table() && table()->model() && table()->model()->rowCount() > 0, kGuiWait);
    QVERIFY(selectRow(0));
    auto *reveal = find<QPushButton>(m_console->window(), "revealButton");
    QVERIFY(reveal);
    showPayloadTab();
    QTRY_VERIFY_WITH_TIMEOUT(reveal->isVisible(), kGuiWait);
    QVERIFY(!reveal->accessibleName().isEmpty());
    const qint64 before = auditCount(QStringLiteral("payload_revealed"));
    QTest::mouseClick(reveal, Qt::LeftButton);
    RevealDialog *dialog = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (dialog = m_console->window()->findChild<RevealDialog *>(QStringLiteral("revealDialog"))) != nullptr,
        kGuiWait);
    auto *confirm = find<QPushButton>(dialog, "revealConfirmButton");
    auto *reason = find<QPlainTextEdit>(dialog, "revealReason");
    auto *original = find<QPlainTextEdit>(dialog, "revealedPayload");
    QVERIFY(!confirm->isEnabled()); // no reason yet
    QVERIFY(!original->isVisible());
    reason->setFocus();
    QTest::keyClicks(reason, QStringLiteral("chargeback SUP-82 needs the billing email"));
    QVERIFY(confirm->isEnabled());
    QTest::mouseClick(confirm, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(original->isVisible(), kGuiWait);
    QCOMPARE(original->toPlainText().toUtf8(), kBody);
    QCOMPARE(auditCount(QStringLiteral("payload_revealed")), before + 1);
    // The main view still shows the copy only.
    auto *raw = find<QPlainTextEdit>(m_console->window(), "rawPayload");
    QVERIFY(!containsAny(raw->toPlainText().toUtf8()));
    dialog->reject();
    QTRY_VERIFY_WITH_TIMEOUT(
        m_console->window()->findChild<RevealDialog *>(QStringLiteral("revealDialog")) == nullptr, kGuiWait);
}

QTEST_MAIN(TstPrivacyReceiver)
#include "tst_privacyreceiver.moc"
