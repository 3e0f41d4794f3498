// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Four-eyes approval: self-approval refused, approval bound to the frozen selection, approvals
// expire, and an approved replay executes exactly once under 50 concurrent approve / execute
// calls (threads calling AdminApi::handle and several executors at once).
#include "admin/replayexecutor.h"
#include "adminfixture.h"

#include <QJsonArray>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

#include <atomic>
#include <thread>

using namespace redrive;
using namespace redrive::test;

class TstFourEyes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void selfApprovalIsRefusedAndAudited();
    void selfRejectionIsRefused();
    void sameOwnerWithAnotherTokenCannotApprove();
    void ownersAreComparedCaseFolded();
    void approvalCarriesTheHashItSaw();
    void decisionsTakeAReasonAndAnOptionalHash();
    void approvalOfAChangedSelectionIsRefused();
    void approvalAfterTheOutcomeBecameUnknownIsRefused();
    void expiredApprovalIsRefused();
    void decidedRequestsCannotBeDecidedAgain();
    void approvedReplayExecutesExactlyOnce();

private:
    qint64 pendingReplay(int deliveries, QString *hash = nullptr, QList<qint64> *ids = nullptr);
    QJsonObject approveBody(const QString &hash) const
    {
        return QJsonObject { { QStringLiteral("selection_hash"), hash },
            { QStringLiteral("reason"), QStringLiteral("checked with the customer") } };
    }
    std::unique_ptr<AdminFixture> f;
    QString requester, approver;
};

void TstFourEyes::init()
{
    QString error;
    f = AdminFixture::create(&error);
    QVERIFY2(f, qPrintable(error));
    QVERIFY2(f->startApi(&error), qPrintable(error));
    requester = f->token(QStringLiteral("rita"), Role::Operator);
    approver = f->token(QStringLiteral("otto"), Role::Operator);
}

void TstFourEyes::cleanup()
{
    f.reset();
}

qint64 TstFourEyes::pendingReplay(int deliveries, QString *hash, QList<qint64> *ids)
{
    QList<qint64> list;
    for (int i = 0; i < deliveries; ++i)
        list.append(f->seedDelivery(QStringLiteral("fulfillment"), DeliveryStatus::Dead));
    AdminFixture::Reply r;
    const qint64 id = f->requestReplay(requester, list, QStringLiteral("orders stuck since the outage"), &r);
    if (hash)
        *hash = r.json.value(QLatin1String("selection_hash")).toString();
    if (ids)
        *ids = list;
    return id;
}

void TstFourEyes::selfApprovalIsRefusedAndAudited()
{
    QString hash;
    const qint64 id = pendingReplay(2, &hash);
    QVERIFY(id > 0);
    const auto r
        = f->call("POST", "replays/" + QByteArray::number(id) + "/approve", requester, approveBody(hash));
    QCOMPARE(r.status, 403);
    QVERIFY(r.json.value(QLatin1String("message")).toString().contains(QLatin1String("another operator")));
    QCOMPARE(f->replayStatus(id), QStringLiteral("pending_approval"));
    QCOMPARE(f->count(QStringLiteral("audit_log"),
                 QStringLiteral("action = 'permission_denied' AND actor = 'rita' AND target = 'replay:%1'")
                     .arg(id)),
        1);
    QCOMPARE(f->count(QStringLiteral("audit_log"), QStringLiteral("action = 'replay_approved'")), 0);
    // A second token for the same name is the same person.
    QCOMPARE(
        f->call("POST", "replays/" + QByteArray::number(id) + "/approve", approver, approveBody(hash)).status,
        200);
}

void TstFourEyes::selfRejectionIsRefused()
{
    const qint64 id = pendingReplay(1);
    const auto r = f->call("POST", "replays/" + QByteArray::number(id) + "/reject", requester,
        QJsonObject { { QStringLiteral("reason"), QStringLiteral("changed my mind") } });
    QCOMPARE(r.status, 403);
    QCOMPARE(f->replayStatus(id), QStringLiteral("pending_approval"));
    const auto ok = f->call("POST", "replays/" + QByteArray::number(id) + "/reject", approver,
        QJsonObject { { QStringLiteral("reason"), QStringLiteral("wrong destination") } });
    QCOMPARE(ok.status, 200);
    QCOMPARE(ok.json.value(QLatin1String("status")).toString(), QStringLiteral("rejected"));
    QVERIFY(ok.json.value(QLatin1String("approved_by")).isNull());
    QCOMPARE(ok.json.value(QLatin1String("decided_by")).toString(), QStringLiteral("otto"));
}

// Four eyes means two people: rita's second token is still rita.
void TstFourEyes::sameOwnerWithAnotherTokenCannotApprove()
{
    const QString laptop = f->token(QStringLiteral("rita-laptop"), Role::Operator, QStringLiteral("rita2"));
    const QString phone = f->token(QStringLiteral("rita-phone"), Role::Operator, QStringLiteral("rita2"));
    const qint64 id
        = f->requestReplay(laptop, { f->seedDelivery(QStringLiteral("fulfillment"), DeliveryStatus::Dead) },
            QStringLiteral("orders stuck"));
    QVERIFY(id > 0);
    for (const char *verb : { "approve", "reject" }) {
        const auto r = f->call("POST", "replays/" + QByteArray::number(id) + '/' + verb, phone,
            QJsonObject { { QStringLiteral("reason"), QStringLiteral("looks fine to me") } });
        QCOMPARE(r.status, 403);
        QVERIFY2(r.json.value(QLatin1String("message")).toString().contains(QLatin1String("rita-laptop")),
            qPrintable(r.json.value(QLatin1String("message")).toString()));
    }
    QCOMPARE(f->replayStatus(id), QStringLiteral("pending_approval"));
    // Audited naming the token and the person behind it (the second refusal, in the same minute,
    // is counted into that token's tally rather than copied: see tst_deniedcoalescing).
    QCOMPARE(
        f->count(QStringLiteral("audit_log"),
            QStringLiteral("action = 'permission_denied' AND actor = 'rita-phone' AND target = 'replay:%1' "
                           "AND details LIKE '%\"actor_owner\":\"rita2\"%'")
                .arg(id)),
        1);
    // Another person approves.
    const auto ok = f->call("POST", "replays/" + QByteArray::number(id) + "/approve", approver,
        QJsonObject { { QStringLiteral("reason"), QStringLiteral("checked") } });
    QCOMPARE(ok.status, 200);
    QCOMPARE(ok.json.value(QLatin1String("requester_owner")).toString(), QStringLiteral("rita2"));
    QCOMPARE(ok.json.value(QLatin1String("decider_owner")).toString(), QStringLiteral("otto"));
    QCOMPARE(f->count(QStringLiteral("audit_log"),
                 QStringLiteral(
                     "action = 'replay_approved' AND actor = 'otto' AND details LIKE "
                     "'%\"actor_owner\":\"otto\"%' AND details LIKE '%\"requester_owner\":\"rita2\"%'")),
        1);
}

// Tokens made before owners existed got owner = name, so "Rita" and "rita" may both be active
// from an old database; they are one person.
void TstFourEyes::ownersAreComparedCaseFolded()
{
    const QString lower = f->token(QStringLiteral("rita-new"), Role::Operator, QStringLiteral("rita"));
    const QString upper = f->token(QStringLiteral("rita-old"), Role::Operator, QStringLiteral("rita-old"));
    QSqlQuery q(f->db().handle());
    QVERIFY2(q.exec(QStringLiteral("UPDATE api_tokens SET owner = 'RITA' WHERE name = 'rita-old'")),
        qPrintable(q.lastError().text()));
    q.finish();
    const qint64 id
        = f->requestReplay(upper, { f->seedDelivery(QStringLiteral("fulfillment"), DeliveryStatus::Dead) },
            QStringLiteral("orders stuck"));
    QVERIFY(id > 0);
    const auto r = f->call("POST", "replays/" + QByteArray::number(id) + "/approve", lower,
        QJsonObject { { QStringLiteral("reason"), QStringLiteral("fine") } });
    QCOMPARE(r.status, 403);
    QCOMPARE(f->replayStatus(id), QStringLiteral("pending_approval"));
}

void TstFourEyes::approvalCarriesTheHashItSaw()
{
    const qint64 id = pendingReplay(2);
    const auto r = f->call(
        "POST", "replays/" + QByteArray::number(id) + "/approve", approver, approveBody(QString(64, u'f')));
    QCOMPARE(r.status, 409);
    QCOMPARE(r.error(), QStringLiteral("selection_mismatch"));
    QCOMPARE(r.field(), QStringLiteral("selection_hash"));
    QCOMPARE(f->replayStatus(id), QStringLiteral("pending_approval"));
}

// The admin API contract (docs/admin-api.md): approve, reject and cancel take {"reason",
// "selection_hash"?}. Without the hash the decision is about the request as frozen; with it, a different hash
// is a 409 naming it.
void TstFourEyes::decisionsTakeAReasonAndAnOptionalHash()
{
    const QJsonObject reasonOnly { { QStringLiteral("reason"),
        QStringLiteral("checked with the customer") } };
    const QJsonObject wrongHash { { QStringLiteral("reason"), QStringLiteral("checked") },
        { QStringLiteral("selection_hash"), QString(64, u'e') } };

    const qint64 approved = pendingReplay(1);
    const auto a
        = f->call("POST", "replays/" + QByteArray::number(approved) + "/approve", approver, reasonOnly);
    QCOMPARE(a.status, 200);
    QCOMPARE(a.json.value(QLatin1String("status")).toString(), QStringLiteral("approved"));
    QCOMPARE(a.json.value(QLatin1String("approved_by")).toString(), QStringLiteral("otto"));

    for (const char *verb : { "reject", "cancel" }) {
        QString hash;
        const qint64 id = pendingReplay(1, &hash);
        const QString &who = QByteArray(verb) == "cancel" ? requester : approver;
        const auto refused
            = f->call("POST", "replays/" + QByteArray::number(id) + '/' + verb, who, wrongHash);
        QCOMPARE(refused.status, 409);
        QCOMPARE(refused.error(), QStringLiteral("selection_mismatch"));
        QCOMPARE(refused.field(), QStringLiteral("selection_hash"));
        QCOMPARE(f->replayStatus(id), QStringLiteral("pending_approval"));
        const auto ok = f->call("POST", "replays/" + QByteArray::number(id) + '/' + verb, who,
            QJsonObject { { QStringLiteral("reason"), QStringLiteral("not needed") },
                { QStringLiteral("selection_hash"), hash } });
        QCOMPARE(ok.status, 200);
        QCOMPARE(f->replayStatus(id),
            QByteArray(verb) == "cancel" ? QStringLiteral("cancelled") : QStringLiteral("rejected"));
    }
}

void TstFourEyes::approvalOfAChangedSelectionIsRefused()
{
    QString hash;
    QList<qint64> ids;
    const qint64 id = pendingReplay(3, &hash, &ids);
    // The delivery engine (or an automatic retry) moved one delivery since the freeze.
    f->setDeliveryStatus(ids[1], DeliveryStatus::Succeeded);
    const qint64 audits = f->count(QStringLiteral("audit_log"));
    const auto r
        = f->call("POST", "replays/" + QByteArray::number(id) + "/approve", approver, approveBody(hash));
    QCOMPARE(r.status, 409);
    QCOMPARE(r.error(), QStringLiteral("selection_changed"));
    QVERIFY2(r.json.value(QLatin1String("message")).toString().contains(QString::number(ids[1])),
        r.body.constData());
    QCOMPARE(f->replayStatus(id), QStringLiteral("pending_approval"));
    QCOMPARE(f->count(QStringLiteral("audit_log")), audits);
}

// The outcome-unknown flag is frozen with the status: a delivery whose last attempt timed out
// after it was sent is a different thing to approve, though its status did not move.
void TstFourEyes::approvalAfterTheOutcomeBecameUnknownIsRefused()
{
    QString hash;
    QList<qint64> ids;
    const qint64 id = pendingReplay(2, &hash, &ids);
    QVERIFY(
        f->db().exec(QStringLiteral("UPDATE deliveries SET outcome_unknown = 1 WHERE id = %1").arg(ids[0])));
    const auto r
        = f->call("POST", "replays/" + QByteArray::number(id) + "/approve", approver, approveBody(hash));
    QCOMPARE(r.status, 409);
    QCOMPARE(r.error(), QStringLiteral("selection_changed"));
    QVERIFY2(r.json.value(QLatin1String("message"))
                 .toString()
                 .contains(QStringLiteral("delivery %1's outcome became unknown").arg(ids[0])),
        r.body.constData());
    QCOMPARE(f->replayStatus(id), QStringLiteral("pending_approval"));
}

void TstFourEyes::expiredApprovalIsRefused()
{
    QString hash;
    const qint64 id = pendingReplay(1, &hash);
    f->clock.advanceMs(f->config.admin.approvalTtlMs);
    const auto r
        = f->call("POST", "replays/" + QByteArray::number(id) + "/approve", approver, approveBody(hash));
    QCOMPARE(r.status, 409);
    QCOMPARE(r.error(), QStringLiteral("expired"));
    QCOMPARE(f->replayStatus(id), QStringLiteral("expired"));
    QCOMPARE(
        f->count(QStringLiteral("audit_log"),
            QStringLiteral("action = 'replay_expired' AND target = 'replay:%1' AND role = 'system'").arg(id)),
        1);
    QCOMPARE(
        f->call("POST", "replays/" + QByteArray::number(id) + "/approve", approver, approveBody(hash)).status,
        409);
    QCOMPARE(f->count(QStringLiteral("audit_log"), QStringLiteral("action = 'replay_expired'")), 1);
}

void TstFourEyes::decidedRequestsCannotBeDecidedAgain()
{
    QString hash;
    const qint64 id = pendingReplay(1, &hash);
    QCOMPARE(
        f->call("POST", "replays/" + QByteArray::number(id) + "/approve", approver, approveBody(hash)).status,
        200);
    const QString third = f->token(QStringLiteral("tess"), Role::Operator);
    const auto again
        = f->call("POST", "replays/" + QByteArray::number(id) + "/approve", third, approveBody(hash));
    QCOMPARE(again.status, 409);
    const auto reject = f->call("POST", "replays/" + QByteArray::number(id) + "/reject", third,
        QJsonObject { { QStringLiteral("reason"), QStringLiteral("too late") } });
    QCOMPARE(reject.status, 409);
    QCOMPARE(f->replayStatus(id), QStringLiteral("approved"));
    QCOMPARE(f->count(QStringLiteral("audit_log"), QStringLiteral("action = 'replay_approved'")), 1);
}

void TstFourEyes::approvedReplayExecutesExactlyOnce()
{
    QString hash;
    QList<qint64> ids;
    const qint64 id = pendingReplay(20, &hash, &ids);
    QVERIFY(id > 0);
    QStringList approvers;
    for (int i = 0; i < 5; ++i)
        approvers.append(f->token(QStringLiteral("approver-%1").arg(i), Role::Operator));
    const QByteArray target = "replays/" + QByteArray::number(id) + "/approve";

    // 50 concurrent callers: 40 approve through the API, 10 run an executor pass (each with its
    // own connection, as several receivers sharing one database would).
    constexpr int kApprovers = 40;
    constexpr int kExecutors = 10;
    std::atomic<bool> go { false };
    std::atomic<int> approved { 0 }, conflicts { 0 }, other { 0 }, executorErrors { 0 }, started { 0 };
    std::vector<std::thread> threads;
    for (int i = 0; i < kApprovers; ++i) {
        threads.emplace_back([&, i] {
            while (!go.load())
                std::this_thread::yield();
            const auto r = f->call("POST", target, approvers[i % approvers.size()], approveBody(hash));
            if (r.status == 200)
                ++approved;
            else if (r.status == 409)
                ++conflicts;
            else
                ++other;
        });
    }
    for (int i = 0; i < kExecutors; ++i) {
        threads.emplace_back([&] {
            admin::ReplayExecutor executor(f->config, f->database().url(), f->clock);
            while (!go.load())
                std::this_thread::yield();
            for (int pass = 0; pass < 20; ++pass) {
                const auto p = executor.runOnce();
                if (!p) {
                    qWarning("executor pass failed: %s", qPrintable(p.error()));
                    ++executorErrors;
                    return;
                }
                started += p->started;
            }
        });
    }
    go.store(true);
    for (auto &t : threads)
        t.join();
    QCOMPARE(other.load(), 0);
    QCOMPARE(approved.load(), 1);
    QCOMPARE(conflicts.load(), kApprovers - 1);
    QCOMPARE(executorErrors.load(), 0);

    // Finish the queueing with one more executor, then count what happened.
    admin::ReplayExecutor last(f->config, f->database().url(), f->clock);
    const auto lastPass = last.runOnce();
    QVERIFY(lastPass);
    QCOMPARE(started.load() + lastPass->started, 1); // exactly one executor started it
    QCOMPARE(f->count(QStringLiteral("audit_log"),
                 QStringLiteral("action = 'replay_approved' AND target = 'replay:%1'").arg(id)),
        1);
    QCOMPARE(f->count(QStringLiteral("audit_log"),
                 QStringLiteral("action = 'replay_executed' AND target = 'replay:%1'").arg(id)),
        1);
    QCOMPARE(f->replayStatus(id), QStringLiteral("executing"));
    QCOMPARE(f->count(QStringLiteral("replay_items"),
                 QStringLiteral("replay_id = %1 AND state = 'queued'").arg(id)),
        20);
    QCOMPARE(f->count(QStringLiteral("deliveries"),
                 QStringLiteral("replay_id = %1 AND status = 'pending'").arg(id)),
        20);
    QSqlQuery q(f->db().handle());
    QVERIFY(q.exec(QStringLiteral("SELECT queued_count, skipped_count FROM replays WHERE id = %1").arg(id))
        && q.next());
    QCOMPARE(q.value(0).toInt(), 20); // each item queued exactly once
    QCOMPARE(q.value(1).toInt(), 0);
}

QTEST_GUILESS_MAIN(TstFourEyes)
#include "tst_foureyes.moc"
