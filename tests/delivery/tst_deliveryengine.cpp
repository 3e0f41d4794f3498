// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "crypto/crypto.h"
#include "delivery/deliverystore.h"
#include "delivery/timedpause.h"
#include "deliveryrules/retrypolicy.h"
#include "enginetestbase.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTest>

#include <csignal>
#include <thread>

using namespace redrive;
using namespace redrive::delivery;
using namespace redrive::test;

namespace {

const QByteArray kSecret("0123456789abcdef0123456789abcdef");

bool execSql(Db &db, const QString &sql)
{
    QString error;
    if (!succeeded(db.exec(sql), &error)) {
        qWarning("%s: %s", qPrintable(sql), qPrintable(error));
        return false;
    }
    return true;
}

QByteArray expectedSignature(const ScriptableDestination::Request &r)
{
    return "v1,"
        + crypto::hmacSha256(kSecret,
            { r.headers.value("webhook-id"), ".", r.headers.value("webhook-timestamp"), ".", r.body })
              .toBase64();
}

} // namespace

class TstDeliveryEngine final : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<EngineRig> m_rig;

    EngineRig &rig() { return *m_rig; }
    DestinationConfig &shop() { return m_rig->config.destinations.first(); }

    // Runs attempts one by one: after each recorded attempt, moves the manual clock to the
    // delivery's next_attempt_at and wakes the engine.
    bool stepThroughRetries(qint64 deliveryId, int attempts)
    {
        for (int n = 1; n <= attempts; ++n) {
            if (!rig().waitForAttempts(deliveryId, n))
                return false;
            const DeliveryRow row = readDelivery(*rig().db, deliveryId);
            if (row.status != u"retrying")
                return n == attempts;
            rig().clock.setMs(*row.nextAttemptAt);
            rig().engine->wake();
        }
        return true;
    }

    // For the npm `standardwebhooks` check (CTest node_verify_delivery_signatures): what the
    // destination received, in the format tests/node/verify-standardwebhooks.mjs reads.
    void exportForReferenceVerifier(const QList<ScriptableDestination::Request> &requests)
    {
        const QString path = qEnvironmentVariable("REDRIVE_DELIVERY_SW_EXPORT");
        if (path.isEmpty())
            return;
        QJsonArray items;
        for (const auto &r : requests)
            items.append(QJsonObject {
                { QStringLiteral("secret"), QString::fromLatin1("whsec_" + kSecret.toBase64()) },
                { QStringLiteral("body_b64"), QString::fromLatin1(r.body.toBase64()) },
                { QStringLiteral("id"), QString::fromUtf8(r.headers.value("webhook-id")) },
                { QStringLiteral("timestamp"), r.headers.value("webhook-timestamp").toLongLong() },
                { QStringLiteral("signature"), QString::fromUtf8(r.headers.value("webhook-signature")) },
            });
        QFile f(path);
        QVERIFY2(f.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
        const qint64 now
            = requests.isEmpty() ? 0 : requests.first().headers.value("webhook-timestamp").toLongLong();
        f.write(
            QJsonDocument(QJsonObject { { QStringLiteral("now"), now }, { QStringLiteral("items"), items } })
                .toJson());
    }

private Q_SLOTS:
    void init()
    {
        m_rig = std::make_unique<EngineRig>();
        QString error;
        QVERIFY2(rig().prepare(&error), qPrintable(error));
    }
    void cleanup()
    {
        if (m_rig && m_rig->engine)
            m_rig->engine->stop(2'000);
        m_rig.reset();
    }

    // 500 on every attempt: attempts follow the schedule within the jitter bound, each is recorded
    // with its category and explanation, and exhaustion leaves a dead letter with the full history.
    void retriesFollowScheduleThenDeadLetter()
    {
        shop().signingSecret = Secret { QStringLiteral("test"), kSecret };
        rig().destination.setDefault(ScriptableDestination::status(500, "upstream down"));
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        const qint64 t0 = rig().clock.nowMs();
        const qint64 id = rig().seedOne();
        rig().engine->wake();

        qint64 expectedStart = t0;
        for (int n = 1; n <= 4; ++n) {
            QVERIFY2(rig().waitForAttempts(id, n), qPrintable(QStringLiteral("attempt %1").arg(n)));
            const auto attempts = readAttempts(*rig().db, id);
            const AttemptRow &a = attempts.last();
            QCOMPARE(a.number, n);
            QCOMPARE(a.trigger, QStringLiteral("automatic"));
            QCOMPARE(a.scheduledAt, expectedStart);
            QCOMPARE(a.startedAt, expectedStart);
            QCOMPARE(a.statusCode, 500);
            QCOMPARE(a.category, QStringLiteral("http_retryable"));
            QVERIFY2(a.explanation.startsWith(QStringLiteral(
                         "HTTP 500 \u2192 retryable (rule: 408/429/500/502/503/504 are retried)")),
                qPrintable(a.explanation));
            QCOMPARE(a.responseExcerpt, QStringLiteral("upstream down"));
            QCOMPARE(a.workerId, rig().engine->workerId());
            const DeliveryRow row = readDelivery(*rig().db, id);
            if (n < 4) {
                QCOMPARE(row.status, QStringLiteral("retrying"));
                QVERIFY(row.nextAttemptAt);
                const qint64 base = shop().retryScheduleMs.at(n - 1);
                const qint64 delay = *row.nextAttemptAt - rig().clock.nowMs();
                QVERIFY2(delay >= qint64(base * 0.8) && delay <= qint64(base * 1.2),
                    qPrintable(
                        QStringLiteral("attempt %1 delay %2 outside %3 ± 20%").arg(n).arg(delay).arg(base)));
                // The console's projection starts at the stored next attempt.
                const ProjectedSchedule p
                    = projectSchedule(shop(), rig().config.delivery.jitter, n, *row.nextAttemptAt);
                QCOMPARE(p.attempts.size(), 4 - n);
                QCOMPARE(p.attempts.first().expectedMs, *row.nextAttemptAt);
                expectedStart = *row.nextAttemptAt;
                rig().clock.setMs(expectedStart);
                rig().engine->wake();
            } else {
                QCOMPARE(row.status, QStringLiteral("dead"));
                QVERIFY(!row.nextAttemptAt);
                QVERIFY(row.deadAt);
                QCOMPARE(row.lastCategory, QStringLiteral("http_retryable"));
                QCOMPARE(row.lastStatusCode, 500);
                QVERIFY2(row.lastError.contains(QStringLiteral("max_attempts (4) reached")),
                    qPrintable(row.lastError));
                QCOMPARE(row.attemptCount, 4);
                QCOMPARE(eventStatus(*rig().db, row.eventId), QStringLiteral("dead"));
            }
        }
        // The destination saw the same key and a valid signature on every attempt, and the body byte-exact.
        const auto requests = rig().destination.requests();
        QCOMPARE(requests.size(), 4);
        const DeliveryRow row = readDelivery(*rig().db, id);
        for (int i = 0; i < 4; ++i) {
            const auto &r = requests[i];
            QCOMPARE(r.method, QByteArray("POST"));
            QCOMPARE(r.target, QByteArray("/hook"));
            QCOMPARE(r.body, QByteArray("{\"id\":\"evt\",\"amount\":42}"));
            QCOMPARE(r.headers.value("Content-Type"), QByteArrayView("application/json"));
            QCOMPARE(r.headers.value("Idempotency-Key"), QByteArrayView(row.idempotencyKey.toUtf8()));
            QCOMPARE(r.headers.value("webhook-id"), QByteArrayView(row.idempotencyKey.toUtf8()));
            QCOMPARE(r.headers.value("X-Redrive-Attempt"), QByteArrayView(QByteArray::number(i + 1)));
            QCOMPARE(r.headers.value("webhook-signature"), QByteArrayView(expectedSignature(r)));
        }
        exportForReferenceVerifier(requests);
        QVERIFY(waitUntil(
            [&] { return rig().registry.renderPrometheus().contains("redrive_deliveries_dead_total"); },
            10'000));
        const QByteArray metrics = rig().registry.renderPrometheus();
        // Prometheus orders labels by name.
        QVERIFY2(metrics.contains(
                     "redrive_deliveries_dead_total{category=\"http_retryable\",destination=\"shop\"} 1"),
            metrics.constData());
        QVERIFY(metrics.contains("redrive_delivery_retries_total{destination=\"shop\"} 3"));
    }

    void successAfterFailuresStoresProof()
    {
        shop().successRef = { SuccessRef::Kind::JsonPointer, QStringLiteral("/order/id") };
        rig().destination.enqueue(503, 2);
        rig().destination.setDefault(ScriptableDestination::status(201, "{\"order\":{\"id\":\"ord_9\"}}"));
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        const qint64 id = rig().seedOne();
        rig().engine->wake();
        QVERIFY(stepThroughRetries(id, 3));
        QVERIFY(rig().waitForStatus(id, QStringLiteral("succeeded")));
        const DeliveryRow row = readDelivery(*rig().db, id);
        QCOMPARE(row.downstreamRef, QStringLiteral("ord_9"));
        QVERIFY(row.succeededAt);
        QVERIFY(!row.outcomeUnknown);
        QVERIFY(row.lastCategory.isEmpty());
        QCOMPARE(eventStatus(*rig().db, row.eventId), QStringLiteral("succeeded"));
        const auto attempts = readAttempts(*rig().db, id);
        QCOMPARE(attempts.size(), 3);
        QCOMPARE(attempts[2].category, QStringLiteral("success"));
        QCOMPARE(attempts[2].statusCode, 201);
        QVERIFY(attempts[2].responseHeaders.contains("Content-Length"));
        QVERIFY(waitUntil(
            [&] {
                return rig().registry.renderPrometheus().contains(
                    "redrive_deliveries_delivered_total{destination=\"shop\"} 1");
            },
            10'000));
    }

    void redirectIsNeverFollowed()
    {
        ScriptableDestination::Response moved = ScriptableDestination::status(301);
        moved.headers.append(
            { "Location", rig().destination.url(QStringLiteral("/moved")).toString().toUtf8() });
        rig().destination.setDefault(moved);
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        const qint64 id = rig().seedOne();
        rig().engine->wake();
        QVERIFY(rig().waitForStatus(id, QStringLiteral("dead")));
        const auto attempts = readAttempts(*rig().db, id);
        QCOMPARE(attempts.size(), 1);
        QCOMPARE(attempts[0].category, QStringLiteral("redirect"));
        QVERIFY(attempts[0].explanation.contains(QStringLiteral("/moved not followed")));
        QVERIFY(attempts[0].responseHeaders.contains("/moved"));
        // Nothing ever asked for the Location target.
        const auto requests = rig().destination.requests();
        QCOMPARE(requests.size(), 1);
        QCOMPARE(requests[0].target, QByteArray("/hook"));
    }

    void permanentStatusesDeadLetterAtOnce_data()
    {
        QTest::addColumn<int>("code");
        QTest::newRow("410") << 410;
        QTest::newRow("422") << 422;
    }
    void permanentStatusesDeadLetterAtOnce()
    {
        QFETCH(int, code);
        rig().destination.setDefault(ScriptableDestination::status(code));
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        const qint64 id = rig().seedOne();
        rig().engine->wake();
        QVERIFY(rig().waitForStatus(id, QStringLiteral("dead")));
        const DeliveryRow row = readDelivery(*rig().db, id);
        QCOMPARE(row.attemptCount, 1);
        QCOMPARE(row.lastCategory, QStringLiteral("http_permanent"));
        QCOMPARE(rig().destination.requestCount(), 1);
    }

    void retryAfterIsHonouredWithinBounds_data()
    {
        QTest::addColumn<QByteArray>("retryAfter");
        QTest::addColumn<qint64>("minDelay");
        QTest::addColumn<qint64>("maxDelay");
        QTest::newRow("seconds") << QByteArray("30") << qint64(30'000) << qint64(30'000);
        QTest::newRow("clamped to retry_after_max") << QByteArray("3600") << qint64(60'000) << qint64(60'000);
        QTest::newRow("sooner than schedule") << QByteArray("0") << qint64(800) << qint64(1'200);
        // 1'700'000'000 s = Tue, 14 Nov 2023 22:13:20 GMT; ask for 10 s later.
        QTest::newRow("http-date") << QByteArray("Tue, 14 Nov 2023 22:13:30 GMT") << qint64(10'000)
                                   << qint64(10'000);
    }
    void retryAfterIsHonouredWithinBounds()
    {
        QFETCH(QByteArray, retryAfter);
        QFETCH(qint64, minDelay);
        QFETCH(qint64, maxDelay);
        ScriptableDestination::Response busy = ScriptableDestination::status(429);
        busy.headers.append({ "Retry-After", retryAfter });
        rig().destination.setDefault(busy);
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        const qint64 id = rig().seedOne();
        rig().engine->wake();
        QVERIFY(rig().waitForAttempts(id, 1));
        const DeliveryRow row = readDelivery(*rig().db, id);
        QCOMPARE(row.status, QStringLiteral("retrying"));
        const qint64 delay = *row.nextAttemptAt - rig().clock.nowMs();
        QVERIFY2(delay >= minDelay && delay <= maxDelay, qPrintable(QString::number(delay)));
        QVERIFY2(row.lastError.contains(QStringLiteral("Retry-After")), qPrintable(row.lastError));
    }

    void timeoutAfterFullWriteIsOutcomeUnknown()
    {
        shop().timeoutMs = 300;
        ScriptableDestination::Response slow = ScriptableDestination::status(200);
        slow.delayAfterReadMs = 5'000;
        rig().destination.setDefault(slow);
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        const qint64 id = rig().seedOne();
        rig().engine->wake();
        QVERIFY(rig().waitForAttempts(id, 1));
        const auto a = readAttempts(*rig().db, id).first();
        QCOMPARE(a.category, QStringLiteral("timeout"));
        QVERIFY(a.outcomeUnknown);
        QVERIFY2(
            a.explanation.contains(QStringLiteral("after the request was sent")), qPrintable(a.explanation));
        QVERIFY(a.durationMs >= 250);
        const DeliveryRow row = readDelivery(*rig().db, id);
        QCOMPARE(row.status, QStringLiteral("retrying"));
        QVERIFY(row.outcomeUnknown);
        QCOMPARE(rig().destination.requests().first().body.size(), qsizetype(24)); // it had the whole request
    }

    void timeoutBeforeFullWriteIsPlainTimeout()
    {
        // A fresh rig whose destination has a tiny receive window and does not read the body.
        m_rig = std::make_unique<EngineRig>();
        QString error;
        QVERIFY2(rig().prepare(&error, 4096), qPrintable(error));
        shop().timeoutMs = 500;
        ScriptableDestination::Response stalled = ScriptableDestination::status(200);
        stalled.delayBeforeBodyMs = 5'000;
        rig().destination.setDefault(stalled);
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        SeedEvent big;
        big.body = QByteArray(16 * 1024 * 1024, 'x');
        big.contentType = "application/octet-stream";
        const qint64 id = rig().seedOne(big);
        rig().engine->wake();
        QVERIFY(rig().waitForAttempts(id, 1));
        const auto a = readAttempts(*rig().db, id).first();
        QCOMPARE(a.category, QStringLiteral("timeout"));
        QVERIFY(!a.outcomeUnknown);
        QVERIFY2(a.explanation.contains(QStringLiteral("could not be sent")), qPrintable(a.explanation));
        QVERIFY(!readDelivery(*rig().db, id).outcomeUnknown);
    }

    void slowTrickleTimesOut()
    {
        shop().timeoutMs = 400;
        ScriptableDestination::Response trickle = ScriptableDestination::status(200, "late");
        trickle.trickleIntervalMs = 100;
        rig().destination.setDefault(trickle);
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        const qint64 id = rig().seedOne();
        rig().engine->wake();
        QVERIFY(rig().waitForAttempts(id, 1));
        const auto a = readAttempts(*rig().db, id).first();
        QCOMPARE(a.category, QStringLiteral("timeout"));
        QVERIFY(a.outcomeUnknown);
        QVERIFY(a.durationMs >= 350 && a.durationMs < 3'000);
    }

    void resetAfterReadIsRetriedAsUnknown()
    {
        ScriptableDestination::Response reset;
        reset.reset = true;
        rig().destination.enqueue(reset);
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        const qint64 id = rig().seedOne();
        rig().engine->wake();
        QVERIFY(rig().waitForAttempts(id, 1));
        const auto a = readAttempts(*rig().db, id).first();
        QCOMPARE(a.category, QStringLiteral("connection_reset"));
        QVERIFY(a.outcomeUnknown);
        QCOMPARE(readDelivery(*rig().db, id).status, QStringLiteral("retrying"));
    }

    void refusedConnectionIsRetried()
    {
        const quint16 port = rig().destination.port();
        rig().destination.stop(); // nothing listens there any more
        shop().url = QUrl(QStringLiteral("http://127.0.0.1:%1/hook").arg(port));
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        const qint64 id = rig().seedOne();
        rig().engine->wake();
        QVERIFY(rig().waitForAttempts(id, 1));
        const auto a = readAttempts(*rig().db, id).first();
        QCOMPARE(a.category, QStringLiteral("connection_refused"));
        QVERIFY(!a.outcomeUnknown);
        QCOMPARE(readDelivery(*rig().db, id).status, QStringLiteral("retrying"));
    }

    void integrityMismatchIsNeverSent()
    {
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        SeedEvent tampered;
        tampered.bodySha256 = QString(64, u'0');
        const qint64 bad = rig().seedOne(tampered);
        const qint64 good = rig().seedOne();
        rig().engine->wake();
        QVERIFY(rig().waitForStatus(bad, QStringLiteral("dead")));
        QVERIFY(rig().waitForStatus(good, QStringLiteral("succeeded")));
        const DeliveryRow row = readDelivery(*rig().db, bad);
        QCOMPARE(row.lastCategory, QStringLiteral("integrity"));
        QCOMPARE(row.attemptCount, 1);
        QVERIFY(readAttempts(*rig().db, bad).first().explanation.contains(QStringLiteral("never sent")));
        // Only the intact event reached the destination.
        QCOMPARE(rig().destination.requestCount(), 1);
        QCOMPARE(QString::fromUtf8(rig().destination.requests().first().headers.value("Idempotency-Key")),
            readDelivery(*rig().db, good).idempotencyKey);
    }

    void pauseHoldsAndResumeReleases()
    {
        rig().config.destinations.append(
            loopbackDestination(QStringLiteral("crm"), rig().destination.url(QStringLiteral("/crm"))));
        QVERIFY(execSql(
            *rig().db, QStringLiteral("INSERT INTO destination_state (name, paused) VALUES ('shop', 1)")));
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        const qint64 held = rig().seedOne();
        SeedDelivery toCrm;
        toCrm.destination = QStringLiteral("crm");
        const qint64 other = rig().seedOne({}, toCrm);
        rig().engine->wake();
        // The engine looked at both destinations: crm's delivery went through ...
        QVERIFY(rig().waitForStatus(other, QStringLiteral("succeeded")));
        // ... and a few more polls later the paused one is still untouched.
        const quint64 claimed = rig().engine->counters().claimed;
        QVERIFY(waitUntil(
            [&] {
                return rig().registry.renderPrometheus().contains(
                    "redrive_delivery_backlog{destination=\"shop\"} 1");
            },
            10'000));
        QCOMPARE(rig().engine->counters().claimed, claimed);
        QCOMPARE(readDelivery(*rig().db, held).status, QStringLiteral("pending"));
        QCOMPARE(rig().destination.requestCount(), 1);
        QVERIFY(execSql(
            *rig().db, QStringLiteral("UPDATE destination_state SET paused = 0 WHERE name = 'shop'")));
        rig().engine->wake();
        QVERIFY(rig().waitForStatus(held, QStringLiteral("succeeded")));
        QCOMPARE(rig().destination.requestCount(), 2);
    }

    void aPauseWithAnEndResumesItself()
    {
        const qint64 until = rig().clock.nowMs() + 3'600'000;
        QVERIFY(execSql(*rig().db,
            QStringLiteral("INSERT INTO destination_state (name, paused, changed_by, paused_until) "
                           "VALUES ('shop', 1, 'sue', %1)")
                .arg(until)));
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        const qint64 held = rig().seedOne();
        rig().engine->wake();
        // Held while the pause lasts: the engine has seen the backlog and claimed nothing.
        QVERIFY(waitUntil(
            [&] {
                return rig().registry.renderPrometheus().contains(
                    "redrive_delivery_backlog{destination=\"shop\"} 1");
            },
            10'000));
        QCOMPARE(rig().engine->counters().claimed, 0u);
        QCOMPARE(scalar(*rig().db, QStringLiteral("SELECT COUNT(*) FROM audit_log")), 0);
        // A millisecond before its end the pause holds; at its end the engine lifts it.
        const auto early = delivery::resumeEndedPauses(*rig().db, until - 1);
        QVERIFY2(early, qPrintable(early.error()));
        QVERIFY(early->isEmpty());
        QCOMPARE(readDelivery(*rig().db, held).status, QStringLiteral("pending"));
        rig().clock.setMs(until);
        rig().engine->wake();
        QVERIFY(rig().waitForStatus(held, QStringLiteral("succeeded")));
        QCOMPARE(
            scalar(*rig().db,
                QStringLiteral("SELECT COUNT(*) FROM destination_state WHERE name = 'shop' AND paused = 0 "
                               "AND paused_until IS NULL AND changed_by = 'redrive' AND changed_at = %1")
                    .arg(until)),
            1);
        QCOMPARE(scalar(*rig().db,
                     QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = 'destination_resumed' AND "
                                    "actor = 'redrive' AND role = 'system' AND target = 'destination:shop'")),
            1);
        QCOMPARE(scalar(*rig().db, QStringLiteral("SELECT COUNT(*) FROM audit_log")), 1);
    }

    void orderingKeySerialisesAttempts()
    {
        shop().orderingKeyPointer = QStringLiteral("/customer");
        ScriptableDestination::Response slowOk = ScriptableDestination::status(200);
        slowOk.delayAfterReadMs = 30;
        rig().destination.setDefault(slowOk);
        QList<qint64> ids;
        for (int i = 0; i < 6; ++i) {
            SeedDelivery sd;
            sd.orderingKey = QStringLiteral("cust-1");
            ids.append(rig().seedOne({}, sd));
        }
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        rig().engine->wake();
        QVERIFY(
            waitUntil([&] { return readDelivery(*rig().db, ids.last()).status == u"succeeded"; }, 20'000));
        const auto requests = rig().destination.requests();
        QCOMPARE(requests.size(), 6);
        for (int i = 0; i < 6; ++i)
            QCOMPARE(QString::fromUtf8(requests[i].headers.value("Idempotency-Key")),
                readDelivery(*rig().db, ids[i]).idempotencyKey);
    }

    // Replay execution contract: one attempt, trigger 'replay', dead again on failure (never
    // retrying), replay item and counters updated, replay_id cleared.
    void replayIsOneAttempt()
    {
        rig().destination.enqueue(503);
        rig().destination.setDefault(ScriptableDestination::status(200));
        QVERIFY(execSql(*rig().db,
            QStringLiteral("INSERT INTO replays (id, status, selection_hash, requested_by, requester_role, "
                           "reason, item_count, requires_approval, summary, created_at, updated_at) "
                           "VALUES (5, 'executing', 'h', 'ann', 'support', 'fixed', 1, 0, '{}', 1, 1)")));
        SeedDelivery dead;
        dead.status = QStringLiteral("dead");
        const qint64 id = rig().seedOne({}, dead);
        QVERIFY(execSql(*rig().db,
            QStringLiteral(
                "UPDATE deliveries SET attempt_count = 4, last_category = 'http_retryable' WHERE id = %1")
                .arg(id)));
        auto queue = [&] {
            return execSql(*rig().db,
                       QStringLiteral(
                           "INSERT INTO replay_items (replay_id, delivery_id, frozen_status, state) "
                           "VALUES (5, %1, 'dead', 'queued') ON CONFLICT (replay_id, delivery_id) "
                           "DO UPDATE SET state = 'queued'")
                           .arg(id))
                && execSql(*rig().db,
                    QStringLiteral("UPDATE deliveries SET status = 'pending', next_attempt_at = %1, "
                                   "replay_id = 5 WHERE id = %2")
                        .arg(rig().clock.nowMs())
                        .arg(id));
        };
        QVERIFY(queue());
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        rig().engine->wake();
        QVERIFY(rig().waitForAttempts(id, 1)); // earlier history: attempt_count 4 without rows
        QVERIFY(rig().waitForStatus(id, QStringLiteral("dead")));
        DeliveryRow row = readDelivery(*rig().db, id);
        QVERIFY(!row.replayId);
        QVERIFY(!row.nextAttemptAt);
        QCOMPARE(row.lastCategory, QStringLiteral("http_retryable"));
        auto attempts = readAttempts(*rig().db, id);
        QCOMPARE(attempts.last().number, 5);
        QCOMPARE(attempts.last().trigger, QStringLiteral("replay"));
        QCOMPARE(attempts.last().replayId, std::optional<qint64>(5));
        QCOMPARE(
            scalar(*rig().db, QStringLiteral("SELECT failed_count FROM replays WHERE id = 5")), qint64(1));
        QCOMPARE(
            scalar(*rig().db, QStringLiteral("SELECT COUNT(*) FROM replay_items WHERE state = 'failed'")),
            qint64(1));

        QVERIFY(queue());
        rig().engine->wake();
        QVERIFY(rig().waitForStatus(id, QStringLiteral("succeeded")));
        row = readDelivery(*rig().db, id);
        QVERIFY(!row.replayId);
        QCOMPARE(readAttempts(*rig().db, id).size(), 2);
        QCOMPARE(readAttempts(*rig().db, id).last().number, 6);
        QCOMPARE(
            scalar(*rig().db, QStringLiteral("SELECT succeeded_count FROM replays WHERE id = 5")), qint64(1));
        // Same key on the automatic attempt history and both replays.
        for (const auto &r : rig().destination.requests())
            QCOMPARE(QString::fromUtf8(r.headers.value("Idempotency-Key")), row.idempotencyKey);
    }

    // A worker killed with SIGKILL mid-attempt: the delivery is rescued after the lease, the
    // destination sees the same key again, and the dead worker's claim can record nothing.
    void killedWorkerIsRescued()
    {
        ScriptableDestination::Response hang;
        hang.hang = true;
        rig().destination.enqueue(hang);
        rig().destination.setDefault(ScriptableDestination::status(200));
        const qint64 id = rig().seedOne();

        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("REDRIVE_DELIVERY_CHILD_STORAGE"), rig().tdb->urlString());
        env.insert(QStringLiteral("REDRIVE_DELIVERY_CHILD_URL"), rig().destination.url().toString());
        child.setProcessEnvironment(env);
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child.start(QCoreApplication::applicationFilePath(), { QStringLiteral("-child-worker") });
        QVERIFY(child.waitForStarted(10'000));
        // The child has claimed and sent: it is mid-attempt.
        QVERIFY(rig().destination.waitForRequests(1, 20'000));
        const DeliveryRow claimed = readDelivery(*rig().db, id);
        QCOMPARE(claimed.status, QStringLiteral("in_flight"));
        QVERIFY(claimed.leaseOwner.startsWith(QStringLiteral("child-")));
        const qint64 leaseExpiresAt = scalar(
            *rig().db, QStringLiteral("SELECT lease_expires_at FROM deliveries WHERE id = %1").arg(id));
        ::kill(static_cast<pid_t>(child.processId()), SIGKILL);
        QVERIFY(child.waitForFinished(10'000));

        // This process's engine: its clock is past the dead worker's lease.
        rig().clock.setMs(leaseExpiresAt + 1);
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        QElapsedTimer rescue;
        rescue.start();
        QVERIFY(rig().waitForStatus(id, QStringLiteral("succeeded"), 20'000));
        // Rescued within one sweep interval plus a poll (here 100 ms + 50 ms; the bound leaves slack for 2
        // busy cores).
        QVERIFY2(rescue.elapsed() < 10'000, qPrintable(QString::number(rescue.elapsed())));
        const auto attempts = readAttempts(*rig().db, id);
        QCOMPARE(attempts.size(), 2);
        QCOMPARE(attempts[0].category, QStringLiteral("lease_expired"));
        QVERIFY(attempts[0].outcomeUnknown);
        QCOMPARE(attempts[0].workerId, claimed.leaseOwner);
        QCOMPARE(attempts[1].category, QStringLiteral("success"));
        QCOMPARE(attempts[1].workerId, rig().engine->workerId());
        const auto requests = rig().destination.requests();
        QCOMPARE(requests.size(), 2);
        QCOMPARE(requests[0].headers.value("Idempotency-Key"), requests[1].headers.value("Idempotency-Key"));

        // The dead worker's claim (its token) cannot record a late result.
        Claim stale;
        stale.deliveryId = id;
        stale.eventId = claimed.eventId;
        stale.leaseToken = claimed.leaseToken;
        AttemptRecord late;
        late.number = 1;
        late.newStatus = DeliveryStatus::Dead;
        late.recordedAt = rig().clock.nowMs();
        DeliveryStore store(*rig().db);
        QVERIFY(store.record(stale, late).value_or(RecordResult::Error) == RecordResult::LeaseLost);
        QCOMPARE(readDelivery(*rig().db, id).status, QStringLiteral("succeeded"));
    }

    // 20 producers × 200 events committed concurrently while two engines deliver: every event is
    // delivered exactly once (happy path), none is lost, and no engine starves (PostgreSQL).
    void manyProducersAllDeliveredOnce()
    {
        const int producers = 20, perProducer = 200, total = producers * perProducer;
        shop().concurrency = 16;
        rig().config.delivery.maxInFlight = 32;
        SystemClock realClock;
        metrics::Registry registry;
        Config second = rig().config;
        DeliveryEngine a(rig().config, rig().tdb->url(), realClock, registry);
        DeliveryEngine b(second, rig().tdb->url(), realClock, registry);
        QString error;
        QVERIFY2(succeeded(a.start(), &error), qPrintable(error));
        QVERIFY2(succeeded(b.start(), &error), qPrintable(error));
        QElapsedTimer timer;
        timer.start();
        std::atomic<int> failures { 0 };
        std::vector<std::thread> threads;
        for (int p = 0; p < producers; ++p) {
            threads.emplace_back([&, p] {
                auto db = rig().tdb->open(QStringLiteral("producer-%1").arg(p));
                for (int i = 0; db && i < perProducer; ++i) {
                    SeedEvent e;
                    e.providerEventId = QStringLiteral("p%1-%2").arg(p).arg(i);
                    e.receivedAt = realClock.nowMs();
                    SeedDelivery sd;
                    sd.destination = QStringLiteral("shop");
                    // SQLite: 20 writers contend for one lock; a producer retries like a client would.
                    bool stored = false;
                    for (int attempt = 0; attempt < 5 && !stored; ++attempt)
                        stored = seedEvent(*db, e, { sd }) != 0;
                    if (!stored)
                        failures.fetch_add(1);
                    a.wake();
                    b.wake();
                }
                if (!db)
                    failures.fetch_add(perProducer);
            });
        }
        for (auto &t : threads)
            t.join();
        QCOMPARE(failures.load(), 0);
        QVERIFY(waitUntil(
            [&] {
                return scalar(*rig().db,
                           QStringLiteral("SELECT COUNT(*) FROM deliveries WHERE status = 'succeeded'"))
                    == total;
            },
            90'000));
        const double seconds = static_cast<double>(timer.elapsed()) / 1000.0;
        a.stop();
        b.stop();
        const auto requests = rig().destination.requests();
        QSet<QByteArray> keys;
        for (const auto &r : requests)
            keys.insert(r.headers.value("Idempotency-Key").toByteArray());
        QCOMPARE(int(keys.size()), total);
        QCOMPARE(int(requests.size()), total); // exactly once
        QCOMPARE(scalar(*rig().db, QStringLiteral("SELECT COUNT(*) FROM attempts")), qint64(total));
        QCOMPARE(
            scalar(*rig().db,
                QStringLiteral("SELECT COUNT(*) FROM events e LEFT JOIN event_status s ON s.event_id = e.id "
                               "WHERE s.status IS NULL OR s.status <> 'succeeded'")),
            qint64(0));
        const quint64 ca = a.counters().claimed, cb = b.counters().claimed;
        QCOMPARE(ca + cb, quint64(total));
        if (rig().tdb->backend() == Backend::Postgres) {
            QVERIFY2(ca > 0 && cb > 0, qPrintable(QStringLiteral("split %1/%2").arg(ca).arg(cb)));
        }
        qInfo("%s: %d events from %d producers delivered by 2 engines in %.2f s (%.0f/s; split %llu/%llu)",
            qPrintable(backendName(rig().tdb->backend())), total, producers, seconds, total / seconds, ca,
            cb);
    }
};

// A second process for killedWorkerIsRescued: claims through a real engine and is killed mid-attempt.
static int runChildWorker()
{
    const auto url = StorageUrl::parse(qEnvironmentVariable("REDRIVE_DELIVERY_CHILD_STORAGE"));
    if (!url) {
        qWarning("child: %s", qPrintable(url.error()));
        return 2;
    }
    Config config = engineConfig({ loopbackDestination(
        QStringLiteral("shop"), QUrl(qEnvironmentVariable("REDRIVE_DELIVERY_CHILD_URL"))) });
    config.delivery.workerId = QStringLiteral("child-%1").arg(QCoreApplication::applicationPid());
    config.delivery.leaseMs = 1'000;
    ManualClock clock(1'700'000'000'000);
    metrics::Registry registry;
    DeliveryEngine engine(config, *url, clock, registry);
    if (const auto started = engine.start(); !started) {
        qWarning("child: %s", qPrintable(started.error()));
        return 3;
    }
    engine.wake();
    // Wait to be killed (bounded, in case the parent died first).
    std::this_thread::sleep_for(std::chrono::seconds(60));
    return 4;
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (app.arguments().contains(QStringLiteral("-child-worker")))
        return runChildWorker();
    TstDeliveryEngine test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_deliveryengine.moc"
