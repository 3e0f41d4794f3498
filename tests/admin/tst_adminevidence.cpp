// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// GET /admin/v1/events/{id}/evidence on both engines: who may export, the export recorded in the
// audit log in the same transaction, the receiver's signature verifying (pinned to the key in
// admin.audit_key_file), each kind of later edit failing, and the refusals.
#include "adminfixture.h"
#include "audit/auditlog.h"
#include "audit/evidence.h"
#include "audit/evidenceverifier.h"
#include "audit/signingkey.h"
#include "evidencetamper.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QSqlQuery>
#include <QTest>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>

using namespace redrive;
using namespace redrive::test;

class TstAdminEvidence : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void roles_data();
    void roles();
    void exportIsSignedAndAudited();
    void tamperingFails_data();
    void tamperingFails();
    void refusals_data();
    void refusals();
    void failedAuditCommitReleasesNothing();
    void exportsInterleavedWithAuditedWrites();
    void exportVerifiesWithoutHoldingOffWriters();
    void concurrentCheckpointsLeaveWorkersFree();
    void withoutAnAuditKeyIs503();

private:
    QByteArray evidencePath(qint64 eventId) const
    {
        return "events/" + QByteArray::number(eventId) + "/evidence";
    }
    audit::KeyPin receiverPin() const;
    // Holds checkpoint work where AdminApi::setCheckpointHook calls it (after the chain was
    // verified, inside an export's snapshot) until release(), or 15 s at most.
    struct CheckpointHold {
        std::promise<void> entered;
        std::atomic<bool> signalled { false };
        std::promise<void> released;
        std::atomic<bool> releasedOnce { false };
        std::shared_future<void> whenReleased = released.get_future().share();
        void hook()
        {
            if (!signalled.exchange(true))
                entered.set_value();
            whenReleased.wait_for(std::chrono::seconds(15));
        }
        void release()
        {
            if (!releasedOnce.exchange(true))
                released.set_value();
        }
    };
    // Appends to `order` under a lock (replies arrive on other threads).
    struct EventLog {
        std::mutex mutex;
        QStringList order;
        void add(const QString &what)
        {
            std::lock_guard lock(mutex);
            order.append(what);
        }
        QStringList list()
        {
            std::lock_guard lock(mutex);
            return order;
        }
    };

    std::unique_ptr<AdminFixture> f;
    qint64 m_event = 0;
    qint64 m_delivery = 0;
    qint64 m_replay = 0;
};

audit::KeyPin TstAdminEvidence::receiverPin() const
{
    const auto key = audit::SigningKey::load(f->config.admin.auditKeyFile);
    if (!key)
        qWarning("audit key: %s", qPrintable(key.error()));
    audit::KeyPin pin;
    if (key)
        pin.publicKey = (*key)->publicKey();
    return pin;
}

void TstAdminEvidence::initTestCase()
{
    QString error;
    f = AdminFixture::create(&error);
    QVERIFY2(f, qPrintable(error));
    QVERIFY2(f->startApi(&error), qPrintable(error));

    // An event with a dead high-risk delivery, one attempt, a note, and a replay requested for it.
    m_event
        = f->insertEvent(QStringLiteral("github"), QStringLiteral("push"), QStringLiteral("gh-evidence-1"));
    m_delivery = f->insertDelivery(m_event, QStringLiteral("fulfillment"), DeliveryStatus::Dead, true);
    QSqlQuery q(f->db().handle());
    q.prepare(QStringLiteral(
        "INSERT INTO attempts (delivery_id, number, trigger_kind, started_at, duration_ms, status_code, "
        "category, explanation, outcome_unknown) VALUES (?, 1, 'automatic', ?, 10000, NULL, "
        "'timeout', 'no answer within 10 s after the request was sent', 1)"));
    q.addBindValue(m_delivery);
    q.addBindValue(f->clock.nowMs());
    QVERIFY2(q.exec(), qPrintable(sqlErrorText(q)));
    const QString support = f->token(QStringLiteral("sam"), Role::Support);
    QCOMPARE(f->call("POST", "events/" + QByteArray::number(m_event) + "/notes", support,
                  QJsonObject {
                      { QStringLiteral("body"), QStringLiteral("customer says the order never arrived") } })
                 .status,
        201);
    m_replay = f->requestReplay(support, { m_delivery }, QStringLiteral("customer called"));
    QVERIFY(m_replay > 0);
    f->clock.advanceMs(60'000);
}

void TstAdminEvidence::cleanupTestCase()
{
    f.reset();
}

void TstAdminEvidence::roles_data()
{
    QTest::addColumn<Role>("role");
    QTest::addColumn<bool>("allowed");
    // "read and verify the audit log, export evidence": operator, auditor, admin.
    QTest::newRow("support") << Role::Support << false;
    QTest::newRow("operator") << Role::Operator << true;
    QTest::newRow("auditor") << Role::Auditor << true;
    QTest::newRow("admin") << Role::Admin << true;
}

void TstAdminEvidence::roles()
{
    QFETCH(Role, role);
    QFETCH(bool, allowed);
    const QString name = QStringLiteral("evidence-") + toString(role);
    const QString token = f->token(name, role);
    const auto before = f->rowCounts();
    const auto r = f->call("GET", evidencePath(m_event), token);
    auto after = f->rowCounts();
    // Either way exactly one audit entry, and nothing else written.
    QCOMPARE(after.value(QStringLiteral("audit_log")), before.value(QStringLiteral("audit_log")) + 1);
    after.insert(QStringLiteral("audit_log"), before.value(QStringLiteral("audit_log")));
    QCOMPARE(after, before);
    QSqlQuery q(f->db().handle());
    QVERIFY(q.exec(QStringLiteral(
        "SELECT actor, role, action, target, details FROM audit_log ORDER BY seq DESC LIMIT 1")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), name);
    QCOMPARE(q.value(1).toString(), toString(role));
    QCOMPARE(q.value(3).toString(), QStringLiteral("event:%1").arg(m_event));
    if (allowed) {
        QCOMPARE(r.status, 200);
        QCOMPARE(q.value(2).toString(), QStringLiteral("evidence_exported"));
        const audit::EvidenceVerdict v = audit::verifyEvidence(r.body, receiverPin());
        QVERIFY2(v.ok, qPrintable(v.problem));
    } else {
        QCOMPARE(r.status, 403);
        QCOMPARE(r.error(), QStringLiteral("forbidden"));
        QCOMPARE(q.value(2).toString(), QStringLiteral("permission_denied"));
        QVERIFY2(q.value(4).toString().contains(QStringLiteral("\"attempted\":\"export_evidence\"")),
            qPrintable(q.value(4).toString()));
        QVERIFY(!r.body.contains("body_base64"));
    }
}

void TstAdminEvidence::exportIsSignedAndAudited()
{
    const QString token = f->token(QStringLiteral("audrey"), Role::Auditor);
    QString error;
    const auto headBefore = audit::auditHead(f->db());
    QVERIFY2(headBefore, qPrintable(headBefore.error()));
    const auto r = f->call("GET", evidencePath(m_event) + "?reason=legal%20hold%20LH-7", token);
    QCOMPARE(r.status, 200);
    const QJsonObject b = r.json;
    QCOMPARE(b.value(QLatin1String("format")).toString(), QStringLiteral("redrive-evidence-v2"));

    // What the receiver read from its own database.
    const QJsonObject event = b.value(QLatin1String("event")).toObject();
    QCOMPARE(event.value(QLatin1String("id")).toInteger(), m_event);
    QCOMPARE(event.value(QLatin1String("provider_event_id")).toString(), QStringLiteral("gh-evidence-1"));
    QCOMPARE(QByteArray::fromBase64(b.value(QLatin1String("body_base64")).toString().toLatin1()),
        QByteArray("{\"hello\":\"world\"}"));
    const QJsonObject delivery = b.value(QLatin1String("deliveries")).toArray().first().toObject();
    QCOMPARE(delivery.value(QLatin1String("id")).toInteger(), m_delivery);
    QCOMPARE(delivery.value(QLatin1String("attempts"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QLatin1String("category"))
                 .toString(),
        QStringLiteral("timeout"));
    QCOMPARE(
        b.value(QLatin1String("notes")).toArray().first().toObject().value(QLatin1String("body")).toString(),
        QStringLiteral("customer says the order never arrived"));
    QCOMPARE(
        b.value(QLatin1String("replays")).toArray().first().toObject().value(QLatin1String("id")).toInteger(),
        m_replay);
    const QJsonObject exported = b.value(QLatin1String("exported")).toObject();
    QCOMPARE(exported.value(QLatin1String("by")).toString(), QStringLiteral("audrey"));
    QCOMPARE(exported.value(QLatin1String("role")).toString(), QStringLiteral("auditor"));
    QCOMPARE(exported.value(QLatin1String("at_ms")).toInteger(), f->clock.nowMs());
    QVERIFY(exported.value(QLatin1String("generator")).toString().startsWith(QStringLiteral("redrived ")));

    // The checkpoint is the head the export saw; the export's own entry comes right after it.
    const QJsonObject checkpoint = b.value(QLatin1String("checkpoint")).toObject();
    QCOMPARE(checkpoint.value(QLatin1String("seq")).toInteger(), headBefore->seq);
    QCOMPARE(checkpoint.value(QLatin1String("hash")).toString(), headBefore->hash);
    const QJsonArray entries
        = b.value(QLatin1String("audit")).toObject().value(QLatin1String("entries")).toArray();
    QVERIFY(b.value(QLatin1String("audit")).toObject().value(QLatin1String("linked_to_checkpoint")).toBool());
    QCOMPARE(entries.last().toObject().value(QLatin1String("seq")).toInteger(), headBefore->seq);
    QStringList aboutActions;
    for (const QJsonValue &e : entries) {
        if (e.toObject().value(QLatin1String("about_event")).toBool())
            aboutActions.append(e.toObject().value(QLatin1String("action")).toString());
    }
    QVERIFY2(aboutActions.contains(QStringLiteral("note_added")), qPrintable(aboutActions.join(u',')));
    QVERIFY2(aboutActions.contains(QStringLiteral("replay_requested")), qPrintable(aboutActions.join(u',')));

    // Signed with the key in admin.audit_key_file, over the bytes bundle_sha256 covers.
    const audit::KeyPin pin = receiverPin();
    QVERIFY(!pin.publicKey.isEmpty());
    const QJsonObject signature = b.value(QLatin1String("signature")).toObject();
    QCOMPARE(QByteArray::fromBase64(signature.value(QLatin1String("public_key")).toString().toLatin1()),
        pin.publicKey);
    QCOMPARE(signature.value(QLatin1String("key_id")).toString(), audit::SigningKey::keyIdOf(pin.publicKey));
    QVERIFY(audit::SigningKey::verify(pin.publicKey, audit::canonicalBundleBytes(b),
        QByteArray::fromBase64(signature.value(QLatin1String("signature")).toString().toLatin1())));
    const audit::EvidenceVerdict v = audit::verifyEvidence(r.body, pin);
    QVERIFY2(v.ok, qPrintable(v.problem));
    QVERIFY(v.signedByReceiver && v.keyPinned);

    // The export is the newest entry, naming the exact bundle handed out.
    QSqlQuery q(f->db().handle());
    QVERIFY(q.exec(QStringLiteral(
        "SELECT seq, actor, role, action, target, reason, details FROM audit_log ORDER BY seq DESC LIMIT 1")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toLongLong(), headBefore->seq + 1);
    QCOMPARE(q.value(1).toString(), QStringLiteral("audrey"));
    QCOMPARE(q.value(3).toString(), QStringLiteral("evidence_exported"));
    QCOMPARE(q.value(4).toString(), QStringLiteral("event:%1").arg(m_event));
    QCOMPARE(q.value(5).toString(), QStringLiteral("legal hold LH-7"));
    const QJsonObject details = QJsonDocument::fromJson(q.value(6).toString().toUtf8()).object();
    QCOMPARE(details.value(QLatin1String("bundle_sha256")).toString(),
        b.value(QLatin1String("bundle_sha256")).toString());
    QCOMPARE(details.value(QLatin1String("checkpoint_seq")).toInteger(), headBefore->seq);
    QCOMPARE(details.value(QLatin1String("key_id")).toString(),
        signature.value(QLatin1String("key_id")).toString());
    q.finish();
    // And the chain, the export's entry included, is intact.
    const auto verify = f->call("GET", "audit/verify", token);
    QCOMPARE(verify.status, 200);
    QVERIFY(verify.json.value(QLatin1String("ok")).toBool());
}

void TstAdminEvidence::tamperingFails_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("problem");
    QTest::newRow("body") << "body"
                          << "the body's SHA-256 is";
    QTest::newRow("attempt") << "attempt"
                             << "the deliveries or their attempts (\"deliveries\") changed";
    QTest::newRow("note") << "note"
                          << "the notes (\"notes\") changed";
    QTest::newRow("replay") << "replay"
                            << "the replays (\"replays\") changed";
    QTest::newRow("audit entry") << "audit"
                                 << "hash does not match its contents";
    QTest::newRow("signature removed, made version 1") << "downgrade"
                                                       << "not signed by a receiver, so it cannot be checked";
}

void TstAdminEvidence::tamperingFails()
{
    QFETCH(QString, change);
    QFETCH(QString, problem);
    const auto r = f->call("GET", evidencePath(m_event), f->token(QStringLiteral("olga"), Role::Operator));
    QCOMPARE(r.status, 200);
    QJsonObject b = r.json;
    if (change == u"body")
        b = withBodyByteFlipped(b, 2);
    else if (change == u"attempt")
        b = withAttemptValue(b, QStringLiteral("outcome_unknown"), false);
    else if (change == u"note")
        b = withArrayItem(b, QStringLiteral("notes"), 0, QStringLiteral("body"),
            QStringLiteral("customer confirmed receipt"));
    else if (change == u"replay")
        b = withArrayItem(
            b, QStringLiteral("replays"), 0, QStringLiteral("reason"), QStringLiteral("routine"));
    else if (change == u"audit")
        b = withAuditEntry(b, 0, [](QJsonObject e) {
            e.insert(QStringLiteral("actor"), QStringLiteral("someone-else"));
            return e;
        });
    else if (change == u"downgrade")
        b = asUnsignedVersion1(b);
    b = rehashed(b); // whoever edits the file can always redo the plain hash
    const audit::EvidenceVerdict v = audit::verifyEvidence(QJsonDocument(b).toJson(), receiverPin());
    QVERIFY(!v.ok);
    QVERIFY2(v.problem.contains(problem), qPrintable(v.problem));
}

void TstAdminEvidence::refusals_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QByteArray>("target");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("field");
    QTest::newRow("unknown event") << QByteArray("GET") << QByteArray("events/987654321/evidence") << 404
                                   << "id";
    QTest::newRow("id not a number") << QByteArray("GET") << QByteArray("events/abc/evidence") << 400 << "id";
    QTest::newRow("id zero") << QByteArray("GET") << QByteArray("events/0/evidence") << 400 << "id";
    QTest::newRow("id negative") << QByteArray("GET") << QByteArray("events/-3/evidence") << 400 << "id";
    QTest::newRow("unknown parameter")
        << QByteArray("GET") << QByteArray("events/1/evidence?format=v1") << 400 << "format";
    QTest::newRow("reason with a control character")
        << QByteArray("GET") << QByteArray("events/1/evidence?reason=a%07b") << 400 << "reason";
    QTest::newRow("POST") << QByteArray("POST") << QByteArray("events/1/evidence") << 405 << "";
}

void TstAdminEvidence::refusals()
{
    QFETCH(QByteArray, method);
    QFETCH(QByteArray, target);
    QFETCH(int, status);
    QFETCH(QString, field);
    const auto before = f->rowCounts();
    const auto r = f->call(method, target, f->token(QStringLiteral("audrey"), Role::Auditor));
    QCOMPARE(r.status, status);
    QCOMPARE(r.field(), field);
    QVERIFY(!r.json.value(QLatin1String("message")).toString().isEmpty());
    QVERIFY(!r.body.contains("signature"));
    QCOMPARE(f->rowCounts(), before); // nothing exported, nothing recorded
}

void TstAdminEvidence::failedAuditCommitReleasesNothing()
{
    const auto before = f->rowCounts();
    f->api->setBeforeCommitHook([](const QString &action) { return action != u"evidence_exported"; });
    const auto failed
        = f->call("GET", evidencePath(m_event), f->token(QStringLiteral("audrey"), Role::Auditor));
    f->api->setBeforeCommitHook({});
    QCOMPARE(failed.status, 500);
    QVERIFY(!failed.body.contains("body_base64"));
    QCOMPARE(f->rowCounts(), before);
    // Released afterwards: the lock and the transaction were let go.
    QCOMPARE(
        f->call("GET", evidencePath(m_event), f->token(QStringLiteral("audrey"), Role::Auditor)).status, 200);
    QCOMPARE(f->count(QStringLiteral("audit_log")), before.value(QStringLiteral("audit_log")) + 1);
}

void TstAdminEvidence::exportsInterleavedWithAuditedWrites()
{
    // Exports (one at a time, as the receiver makes them) race audited note additions on four
    // workers: each export signs a head that its own snapshot holds, no append is lost or
    // forked, and the chain stays intact.
    const QString auditor = f->token(QStringLiteral("audrey"), Role::Auditor);
    const QString support = f->token(QStringLiteral("sam"), Role::Support);
    const qint64 entriesBefore = f->count(QStringLiteral("audit_log"));
    constexpr int kEach = 12;
    auto exports = std::async(std::launch::async, [&] {
        QList<AdminFixture::Reply> replies;
        for (int i = 0; i < kEach; ++i)
            replies.append(f->call("GET", evidencePath(m_event), auditor));
        return replies;
    });
    std::vector<std::future<AdminFixture::Reply>> notes;
    for (int i = 0; i < kEach; ++i) {
        notes.push_back(std::async(std::launch::async, [&, i] {
            return f->call("POST", "events/" + QByteArray::number(m_event) + "/notes", support,
                QJsonObject { { QStringLiteral("body"), QStringLiteral("race %1").arg(i) } });
        }));
    }
    const audit::KeyPin pin = receiverPin();
    for (const auto &r : exports.get()) {
        QCOMPARE(r.status, 200);
        const audit::EvidenceVerdict v = audit::verifyEvidence(r.body, pin);
        QVERIFY2(v.ok, qPrintable(v.problem));
    }
    for (auto &n : notes)
        QCOMPARE(n.get().status, 201);
    QCOMPARE(f->count(QStringLiteral("audit_log")), entriesBefore + 2 * kEach);
    const auto verify = f->call("GET", "audit/verify", auditor);
    QVERIFY(verify.json.value(QLatin1String("ok")).toBool());
}

// While an export is verifying the chain (held there), another connection writes what ingest
// writes (an event, in a write transaction) and what any audited action writes (an audit entry):
// both commit before the export answers. Verifying inside the export's write transaction held
// SQLite's write lock (ingest and every writer waited for the whole chain to verify) and, on
// PostgreSQL, the audit append lock (every audited action waited).
void TstAdminEvidence::exportVerifiesWithoutHoldingOffWriters()
{
    const QString auditor = f->token(QStringLiteral("audrey"), Role::Auditor);
    const qint64 entriesBefore = f->count(QStringLiteral("audit_log"));
    CheckpointHold hold;
    EventLog log;
    f->api->setCheckpointHook([&hold] { hold.hook(); });
    const auto unhook = qScopeGuard([&] { f->api->setCheckpointHook({}); });
    auto exported = std::async(std::launch::async, [&] {
        auto r = f->call("GET", evidencePath(m_event), auditor);
        log.add(QStringLiteral("export answered"));
        return r;
    });
    const auto releaseOnExit = qScopeGuard([&] { hold.release(); });
    QCOMPARE(hold.entered.get_future().wait_for(std::chrono::seconds(30)), std::future_status::ready);

    QString error;
    {
        Transaction tx(f->db());
        QVERIFY2(succeeded(tx.begin(), &error), qPrintable(error));
        QSqlQuery q(f->db().handle());
        q.prepare(QStringLiteral(
            "INSERT INTO events (source, provider_event_id, event_type, received_at, last_seen_at, body, "
            "body_sha256, body_size) VALUES ('github', 'during-export', 'push', ?, ?, ?, '', 0)"));
        q.addBindValue(f->clock.nowMs());
        q.addBindValue(f->clock.nowMs());
        q.addBindValue(QByteArray("{}"));
        QVERIFY2(q.exec(), qPrintable(sqlErrorText(q)));
        QVERIFY2(succeeded(tx.commit(), &error), qPrintable(error));
        log.add(QStringLiteral("event committed"));
    }
    {
        Transaction tx(f->db());
        QVERIFY2(succeeded(tx.begin(), &error), qPrintable(error));
        const audit::AuditRecord record { QStringLiteral("root"), QStringLiteral("admin"),
            QStringLiteral("destination_paused"), QStringLiteral("destination:crm"),
            QStringLiteral("during an export"), {} };
        const auto appended = audit::appendAuditEntry(f->db(), record, f->clock.nowMs());
        QVERIFY2(appended, qPrintable(appended.error()));
        QVERIFY2(succeeded(tx.commit(), &error), qPrintable(error));
        log.add(QStringLiteral("audit entry committed"));
    }
    hold.release();
    const auto r = exported.get();
    QCOMPARE(r.status, 200);
    QCOMPARE(log.list(),
        (QStringList { QStringLiteral("event committed"), QStringLiteral("audit entry committed"),
            QStringLiteral("export answered") }));

    // The bundle signs the head its snapshot held; the entry written meanwhile comes before the
    // export's own, and the chain is intact.
    const audit::EvidenceVerdict v = audit::verifyEvidence(r.body, receiverPin());
    QVERIFY2(v.ok, qPrintable(v.problem));
    QCOMPARE(r.json.value(QLatin1String("checkpoint")).toObject().value(QLatin1String("seq")).toInteger(),
        entriesBefore);
    QCOMPARE(f->count(QStringLiteral("audit_log")), entriesBefore + 2);
    QSqlQuery last(f->db().handle());
    QVERIFY(last.exec(QStringLiteral("SELECT action FROM audit_log ORDER BY seq DESC LIMIT 2")));
    QVERIFY(last.next());
    QCOMPARE(last.value(0).toString(), QStringLiteral("evidence_exported"));
    QVERIFY(last.next());
    QCOMPARE(last.value(0).toString(), QStringLiteral("destination_paused"));
    last.finish();
    QVERIFY(f->call("GET", "audit/verify", auditor).json.value(QLatin1String("ok")).toBool());
}

// One checkpoint in progress (held) and twice as many further checkpoint requests and exports
// as there are admin workers: those are answered 503 busy at once instead of each holding a
// worker while it waits its turn, so GET whoami answers while the first is still in progress.
void TstAdminEvidence::concurrentCheckpointsLeaveWorkersFree()
{
    const QString auditor = f->token(QStringLiteral("audrey"), Role::Auditor);
    CheckpointHold hold;
    EventLog log;
    f->api->setCheckpointHook([&hold] { hold.hook(); });
    const auto unhook = qScopeGuard([&] { f->api->setCheckpointHook({}); });
    auto first = std::async(std::launch::async, [&] {
        auto r = f->call("GET", "audit/checkpoint", auditor);
        log.add(QStringLiteral("first checkpoint answered"));
        return r;
    });
    const auto releaseOnExit = qScopeGuard([&] { hold.release(); });
    QCOMPARE(hold.entered.get_future().wait_for(std::chrono::seconds(30)), std::future_status::ready);

    constexpr int kMore = 8; // the fixture runs 4 workers
    std::vector<std::future<AdminFixture::Reply>> more;
    for (int i = 0; i < kMore; ++i)
        more.push_back(std::async(std::launch::async, [&, i] {
            return f->call(
                "GET", i % 2 == 0 ? QByteArray("audit/checkpoint") : evidencePath(m_event), auditor);
        }));
    const auto who = f->call("GET", "whoami", auditor);
    log.add(QStringLiteral("whoami answered"));
    QCOMPARE(who.status, 200);
    for (auto &m : more) {
        const auto r = m.get();
        QCOMPARE(r.status, 503);
        QCOMPARE(r.error(), QStringLiteral("busy"));
        QCOMPARE(r.header("Retry-After"), QByteArray("1"));
    }
    log.add(QStringLiteral("the others answered"));
    hold.release();
    QCOMPARE(first.get().status, 200);
    QCOMPARE(log.list(),
        (QStringList { QStringLiteral("whoami answered"), QStringLiteral("the others answered"),
            QStringLiteral("first checkpoint answered") }));
    // Free again once it is done.
    QCOMPARE(f->call("GET", "audit/checkpoint", auditor).status, 200);
}

void TstAdminEvidence::withoutAnAuditKeyIs503()
{
    QString error;
    auto plain = AdminFixture::create(&error, [](Config &c) { c.admin.auditKeyFile.clear(); });
    QVERIFY2(plain, qPrintable(error));
    QVERIFY2(plain->startApi(&error, false, 1), qPrintable(error));
    const qint64 event = plain->insertEvent();
    const auto before = plain->rowCounts();
    const auto r = plain->call("GET", "events/" + QByteArray::number(event) + "/evidence",
        plain->token(QStringLiteral("audrey"), Role::Auditor));
    QCOMPARE(r.status, 503);
    QCOMPARE(r.error(), QStringLiteral("not_configured"));
    QVERIFY(
        r.json.value(QLatin1String("message")).toString().contains(QStringLiteral("admin.audit_key_file")));
    auto after = plain->rowCounts();
    after.insert(QStringLiteral("api_tokens"), before.value(QStringLiteral("api_tokens")));
    QCOMPARE(after, before);
}

QTEST_GUILESS_MAIN(TstAdminEvidence)
#include "tst_adminevidence.moc"
