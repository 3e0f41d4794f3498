// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "delivery/deliverystore.h"
#include "delivery/retention.h"
#include "deliveryfixture.h"
#include "storage/eventstatus.h"
#include "testdb.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QTest>

#include <atomic>
#include <map>
#include <mutex>
#include <thread>

using namespace redrive;
using namespace redrive::delivery;
using namespace redrive::test;

namespace {

constexpr qint64 kNow = 1'700'000'000'000;
constexpr qint64 kLease = 30'000;

AttemptRecord successFor(const Claim &c, const QString &worker, qint64 now)
{
    AttemptRecord a;
    a.number = c.attemptCount + 1;
    a.trigger = c.replayId ? AttemptTrigger::Replay : AttemptTrigger::Automatic;
    a.replayId = c.replayId;
    a.scheduledAt = c.scheduledAt;
    a.startedAt = now;
    a.statusCode = 200;
    a.classification.category = FailureCategory::None;
    a.classification.success = true;
    a.classification.explanation = QStringLiteral("HTTP 200 \u2192 delivered (rule: 2xx is success)");
    a.workerId = worker;
    a.newStatus = DeliveryStatus::Succeeded;
    a.recordedAt = now;
    return a;
}

AttemptRecord failureFor(const Claim &c, const QString &worker, qint64 now, DeliveryStatus status)
{
    AttemptRecord a = successFor(c, worker, now);
    a.statusCode = 503;
    a.classification.category = FailureCategory::HttpRetryable;
    a.classification.success = false;
    a.classification.retryable = true;
    a.classification.explanation = QStringLiteral("HTTP 503 \u2192 retryable");
    a.newStatus = status;
    if (status == DeliveryStatus::Retrying)
        a.nextAttemptAt = now + 1'000;
    return a;
}

SweepDecision retryNow(const QString &, int attempt, bool replay, qint64 now)
{
    if (replay || attempt >= 3)
        return { DeliveryStatus::Dead, std::nullopt };
    return { DeliveryStatus::Retrying, now };
}

bool exec(Db &db, const QString &sql)
{
    QString error;
    if (!succeeded(db.exec(sql), &error)) {
        qWarning("%s: %s", qPrintable(sql), qPrintable(error));
        return false;
    }
    return true;
}

} // namespace

class TstDeliveryStore final : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TestDatabase> m_tdb;
    std::unique_ptr<Db> m_db;

    qint64 seed(const QString &destination, qint64 due = kNow, std::optional<QString> orderingKey = {})
    {
        SeedDelivery sd;
        sd.destination = destination;
        sd.nextAttemptAt = due;
        sd.orderingKey = orderingKey;
        QList<qint64> ids;
        SeedEvent e;
        e.receivedAt = kNow - 1'000;
        if (!seedEvent(*m_db, e, { sd }, &ids))
            return 0;
        return ids.value(0);
    }

private Q_SLOTS:
    void init()
    {
        QString error;
        m_tdb = TestDatabase::create(&error);
        QVERIFY2(m_tdb, qPrintable(error));
        m_db = m_tdb->open();
        QVERIFY(m_db);
    }
    void cleanup()
    {
        m_db.reset();
        m_tdb.reset();
    }

    void claimSetsLeaseTokenAndLoadsBody()
    {
        const qint64 a = seed(QStringLiteral("shop")), b = seed(QStringLiteral("shop")),
                     c = seed(QStringLiteral("shop"));
        const qint64 later = seed(QStringLiteral("shop"), kNow + 60'000);
        const qint64 other = seed(QStringLiteral("crm"));
        QVERIFY(a && b && c && later && other);
        DeliveryStore store(*m_db);
        QString error;
        const QList<Claim> claims
            = takeValue(store.claim(QStringLiteral("shop"), QStringLiteral("w1"), kNow, kLease, 2), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(claims.size(), 2);
        QCOMPARE(claims[0].deliveryId, a);
        QCOMPARE(claims[1].deliveryId, b);
        for (const Claim &cl : claims) {
            QCOMPARE(cl.leaseToken, qint64(1));
            QCOMPARE(cl.attemptCount, 0);
            QCOMPARE(cl.scheduledAt, kNow);
            QCOMPARE(cl.body, QByteArray("{\"id\":\"evt\",\"amount\":42}"));
            QCOMPARE(cl.contentType, QByteArray("application/json"));
            QCOMPARE(cl.bodySha256.size(), 64);
            QCOMPARE(cl.idempotencyKey, QStringLiteral("idem_%1_shop").arg(cl.eventId).toUtf8());
            const DeliveryRow row = readDelivery(*m_db, cl.deliveryId);
            QCOMPARE(row.status, QStringLiteral("in_flight"));
            QCOMPARE(row.leaseOwner, QStringLiteral("w1"));
            QCOMPARE(row.leaseToken, qint64(1));
        }
        // The rest: one due shop delivery, one not yet due, one for another destination.
        const QList<Claim> rest
            = takeValue(store.claim(QStringLiteral("shop"), QStringLiteral("w2"), kNow, kLease, 10), &error);
        QCOMPARE(rest.size(), 1);
        QCOMPARE(rest[0].deliveryId, c);
        QCOMPARE(readDelivery(*m_db, later).status, QStringLiteral("pending"));
        QCOMPARE(readDelivery(*m_db, other).status, QStringLiteral("pending"));
        QCOMPARE(
            eventStatus(*m_db, rest[0].eventId), QStringLiteral("pending")); // claims alone don't refresh
    }

    void recordIsFencedByToken()
    {
        const qint64 id = seed(QStringLiteral("shop"));
        DeliveryStore store(*m_db);
        QString error;
        const QList<Claim> first
            = takeValue(store.claim(QStringLiteral("shop"), QStringLiteral("w1"), kNow, kLease, 1), &error);
        QCOMPARE(first.size(), 1);
        // w1 goes quiet; its lease expires and the sweeper rescues the delivery.
        const int rescued = store.sweepExpired(kNow + kLease + 1, 100, retryNow).value_or(-1);
        QCOMPARE(rescued, 1);
        DeliveryRow row = readDelivery(*m_db, id);
        QCOMPARE(row.status, QStringLiteral("retrying"));
        QCOMPARE(row.attemptCount, 1);
        QVERIFY(row.outcomeUnknown);
        QCOMPARE(row.lastCategory, QStringLiteral("lease_expired"));
        QCOMPARE(eventStatus(*m_db, row.eventId), QStringLiteral("retrying"));
        const auto attempts = readAttempts(*m_db, id);
        QCOMPARE(attempts.size(), 1);
        QCOMPARE(attempts[0].category, QStringLiteral("lease_expired"));
        QVERIFY(attempts[0].outcomeUnknown);
        QCOMPARE(attempts[0].workerId, QStringLiteral("w1"));

        // Claimable again, with a new token.
        const QList<Claim> second = takeValue(
            store.claim(QStringLiteral("shop"), QStringLiteral("w2"), kNow + kLease + 2, kLease, 1), &error);
        QCOMPARE(second.size(), 1);
        QCOMPARE(second[0].leaseToken, qint64(2));
        QCOMPARE(second[0].attemptCount, 1);

        // The late result of the first claim is refused and changes nothing.
        QVERIFY(store.record(first[0], successFor(first[0], QStringLiteral("w1"), kNow + kLease + 3))
                    .value_or(RecordResult::Error)
            == RecordResult::LeaseLost);
        row = readDelivery(*m_db, id);
        QCOMPARE(row.status, QStringLiteral("in_flight"));
        QCOMPARE(row.leaseOwner, QStringLiteral("w2"));
        QCOMPARE(readAttempts(*m_db, id).size(), 1);

        // The current holder records.
        QVERIFY(store.record(second[0], successFor(second[0], QStringLiteral("w2"), kNow + kLease + 4))
                    .value_or(RecordResult::Error)
            == RecordResult::Recorded);
        row = readDelivery(*m_db, id);
        QCOMPARE(row.status, QStringLiteral("succeeded"));
        QVERIFY(!row.outcomeUnknown); // known now
        QCOMPARE(row.succeededAt, std::optional<qint64>(kNow + kLease + 4));
        QVERIFY(!row.nextAttemptAt);
        QCOMPARE(eventStatus(*m_db, row.eventId), QStringLiteral("succeeded"));
        const auto all = readAttempts(*m_db, id);
        QCOMPARE(all.size(), 2);
        QCOMPARE(all[1].number, 2);
        QCOMPARE(all[1].workerId, QStringLiteral("w2"));
        // A second record with the same (finished) claim is refused too.
        QVERIFY(store.record(second[0], successFor(second[0], QStringLiteral("w2"), kNow))
                    .value_or(RecordResult::Error)
            == RecordResult::LeaseLost);
    }

    // One batch, one transaction: each result is fenced on its own — a stale token among current
    // ones is refused alone, and leaves no attempt behind.
    void batchFencesEachResult()
    {
        const QList<qint64> ids
            = { seed(QStringLiteral("shop")), seed(QStringLiteral("shop")), seed(QStringLiteral("shop")) };
        DeliveryStore store(*m_db);
        QString error;
        const QList<Claim> claims
            = takeValue(store.claim(QStringLiteral("shop"), QStringLiteral("w"), kNow, kLease, 3), &error);
        QCOMPARE(claims.size(), 3);
        // Someone else took the middle one over (its token moved on).
        QVERIFY(exec(*m_db,
            QStringLiteral("UPDATE deliveries SET lease_token = lease_token + 1 WHERE id = %1")
                .arg(claims[1].deliveryId)));
        QList<std::pair<Claim, AttemptRecord>> items = {
            { claims[0], successFor(claims[0], QStringLiteral("w"), kNow) },
            { claims[1], successFor(claims[1], QStringLiteral("w"), kNow) },
            { claims[2], failureFor(claims[2], QStringLiteral("w"), kNow, DeliveryStatus::Retrying) },
        };
        const RecordOutcome recorded = store.recordMany(items);
        const QList<RecordResult> &results = recorded.results;
        error = recorded.error;
        QCOMPARE(results.size(), 3);
        QVERIFY(results[0] == RecordResult::Recorded);
        QVERIFY(results[1] == RecordResult::LeaseLost);
        QVERIFY(results[2] == RecordResult::Recorded);
        QCOMPARE(readDelivery(*m_db, claims[0].deliveryId).status, QStringLiteral("succeeded"));
        QCOMPARE(readDelivery(*m_db, claims[1].deliveryId).status, QStringLiteral("in_flight"));
        const DeliveryRow retrying = readDelivery(*m_db, claims[2].deliveryId);
        QCOMPARE(retrying.status, QStringLiteral("retrying"));
        QCOMPARE(retrying.nextAttemptAt, std::optional<qint64>(kNow + 1'000));
        QCOMPARE(retrying.lastStatusCode, 503);
        QCOMPARE(readAttempts(*m_db, claims[0].deliveryId).size(), 1);
        QCOMPARE(readAttempts(*m_db, claims[1].deliveryId).size(), 0);
        QCOMPARE(readAttempts(*m_db, claims[2].deliveryId).size(), 1);
        QCOMPARE(eventStatus(*m_db, readDelivery(*m_db, claims[0].deliveryId).eventId),
            QStringLiteral("succeeded"));
        QCOMPARE(eventStatus(*m_db, readDelivery(*m_db, claims[2].deliveryId).eventId),
            QStringLiteral("retrying"));
        QCOMPARE(ids.size(), 3);
    }

    // Text written by a batch comes back exactly: quotes, backslashes, braces, commas, the word
    // NULL, empty strings, line breaks and non-ASCII (PostgreSQL receives each column as one array).
    void batchKeepsTextExactly_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("quotes and backslashes") << QStringLiteral("say \"hi\" \\ \\\" '' end\\");
        QTest::newRow("array syntax") << QStringLiteral("{a,b},{\"c\"} , ( ) NULL");
        QTest::newRow("the word NULL") << QStringLiteral("NULL");
        QTest::newRow("empty") << QStringLiteral("");
        QTest::newRow("line breaks and tabs") << QStringLiteral("one\ntwo\r\n\tthree ");
        QTest::newRow("non-ASCII") << QStringLiteral("r\u00e9sum\u00e9 \u2192 \U0001F600 \u65e5\u672c");
    }

    void batchKeepsTextExactly()
    {
        QFETCH(QString, text);
        seed(QStringLiteral("shop"));
        seed(QStringLiteral("shop"));
        DeliveryStore store(*m_db);
        QString error;
        const QList<Claim> claims
            = takeValue(store.claim(QStringLiteral("shop"), text, kNow, kLease, 2), &error);
        QCOMPARE(claims.size(), 2);
        AttemptRecord ok = successFor(claims[0], text, kNow);
        ok.downstreamRef = text;
        ok.responseExcerpt = text;
        ok.responseHeadersJson = QJsonDocument(
            QJsonArray { QJsonArray { QStringLiteral("X-Ref"),
                text } }).toJson(QJsonDocument::Compact);
        AttemptRecord dead = failureFor(claims[1], text, kNow, DeliveryStatus::Dead);
        dead.classification.explanation = text;
        dead.responseExcerpt = text;
        const RecordOutcome recorded = store.recordMany({ { claims[0], ok }, { claims[1], dead } });
        const QList<RecordResult> &results = recorded.results;
        error = recorded.error;
        QVERIFY2(results.size() == 2 && results[0] == RecordResult::Recorded
                && results[1] == RecordResult::Recorded,
            qPrintable(error));
        const DeliveryRow succeeded = readDelivery(*m_db, claims[0].deliveryId);
        QCOMPARE(succeeded.downstreamRef, text);
        const auto okAttempts = readAttempts(*m_db, claims[0].deliveryId);
        QCOMPARE(okAttempts.size(), 1);
        QCOMPARE(okAttempts[0].responseExcerpt, text);
        QCOMPARE(okAttempts[0].workerId, text);
        QCOMPARE(okAttempts[0].responseHeaders, ok.responseHeadersJson);
        const DeliveryRow failed = readDelivery(*m_db, claims[1].deliveryId);
        QCOMPARE(failed.status, QStringLiteral("dead"));
        QCOMPARE(failed.lastError, text);
        QVERIFY(failed.deadAt.has_value());
        const auto deadAttempts = readAttempts(*m_db, claims[1].deliveryId);
        QCOMPARE(deadAttempts.size(), 1);
        QCOMPARE(deadAttempts[0].explanation, text);
        QCOMPARE(deadAttempts[0].responseExcerpt, text);
    }

    // The engine's turn: results recorded and the next claims taken in one transaction. A
    // delivery that waited behind one of the recorded (same ordering key) is claimable in the
    // same turn; nothing is recorded or claimed when the turn fails.
    void recordAndClaimInOneTransaction()
    {
        seed(QStringLiteral("shop"), kNow, QStringLiteral("customer-1"));
        const qint64 next = seed(QStringLiteral("shop"), kNow, QStringLiteral("customer-1"));
        const qint64 other = seed(QStringLiteral("crm"));
        DeliveryStore store(*m_db);
        QString error;
        const QList<Claim> first
            = takeValue(store.claim(QStringLiteral("shop"), QStringLiteral("w"), kNow, kLease, 10), &error);
        QCOMPARE(first.size(), 1); // the second waits behind the first
        const auto turn
            = store.recordAndClaim({ { first[0], successFor(first[0], QStringLiteral("w"), kNow) } },
                { { QStringLiteral("shop"), 10, kLease }, { QStringLiteral("crm"), 10, kLease } },
                QStringLiteral("w"), kNow);
        QVERIFY2(turn, qPrintable(turn.error()));
        const QList<RecordResult> &results = turn->results;
        const QList<QList<Claim>> &claims = turn->claims;
        QCOMPARE(results.size(), 1);
        QVERIFY(results[0] == RecordResult::Recorded);
        QCOMPARE(claims.size(), 2);
        QCOMPARE(claims[0].size(), 1);
        QCOMPARE(claims[0][0].deliveryId, next);
        QVERIFY(!claims[0][0].body.isEmpty());
        QCOMPARE(claims[1].size(), 1);
        QCOMPARE(claims[1][0].deliveryId, other);
        QCOMPARE(readDelivery(*m_db, first[0].deliveryId).status, QStringLiteral("succeeded"));

        // A delivery twice in one batch is refused as a whole: nothing changes.
        const AttemptRecord done = successFor(claims[1][0], QStringLiteral("w"), kNow);
        const auto twice = store.recordAndClaim(
            { { claims[1][0], done }, { claims[1][0], done } }, {}, QStringLiteral("w"), kNow);
        QVERIFY(!twice);
        QCOMPARE(twice.error(), QStringLiteral("a delivery appears twice in one batch"));
        QCOMPARE(readDelivery(*m_db, other).status, QStringLiteral("in_flight"));
        QCOMPARE(readAttempts(*m_db, other).size(), 0);
    }

    // The events' statuses after a batch agree with summariseEventStatus() over all their
    // deliveries, whatever the other delivery's state (PostgreSQL computes them in SQL): every
    // combination in one batch.
    void batchSummarisesEventStatus()
    {
        struct Case {
            DeliveryStatus recorded;
            DeliveryStatus other;
            qint64 eventId = 0;
        };
        QList<Case> cases;
        for (DeliveryStatus r :
            { DeliveryStatus::Succeeded, DeliveryStatus::Retrying, DeliveryStatus::Dead }) {
            for (DeliveryStatus o : { DeliveryStatus::Pending, DeliveryStatus::InFlight,
                     DeliveryStatus::Retrying, DeliveryStatus::Succeeded, DeliveryStatus::Dead })
                cases.append({ r, o });
        }
        for (Case &c : cases) {
            SeedDelivery shop;
            shop.destination = QStringLiteral("shop");
            SeedDelivery crm;
            crm.destination = QStringLiteral("crm");
            crm.status = toString(c.other);
            SeedEvent e;
            e.receivedAt = kNow - 1'000;
            c.eventId = seedEvent(*m_db, e, { shop, crm });
            QVERIFY(c.eventId > 0);
        }
        DeliveryStore store(*m_db);
        QString error;
        const QList<Claim> claims = takeValue(
            store.claim(QStringLiteral("shop"), QStringLiteral("w"), kNow, kLease, int(cases.size())),
            &error);
        QCOMPARE(claims.size(), cases.size());
        QList<std::pair<Claim, AttemptRecord>> items;
        for (const Claim &claim : claims) {
            const auto it = std::find_if(
                cases.cbegin(), cases.cend(), [&](const Case &c) { return c.eventId == claim.eventId; });
            QVERIFY(it != cases.cend());
            items.append({ claim,
                it->recorded == DeliveryStatus::Succeeded
                    ? successFor(claim, QStringLiteral("w"), kNow)
                    : failureFor(claim, QStringLiteral("w"), kNow, it->recorded) });
        }
        const RecordOutcome recorded = store.recordMany(items);
        const QList<RecordResult> &results = recorded.results;
        error = recorded.error;
        QCOMPARE(results.size(), items.size());
        for (RecordResult r : results)
            QVERIFY2(r == RecordResult::Recorded, qPrintable(error));
        for (const Case &c : cases) {
            QCOMPARE(eventStatus(*m_db, c.eventId), toString(summariseEventStatus({ c.recorded, c.other })));
        }
    }

    void releaseManyGivesClaimsBack()
    {
        const qint64 a = seed(QStringLiteral("shop"));
        const qint64 b = seed(QStringLiteral("shop"));
        DeliveryStore store(*m_db);
        QString error;
        const QList<Claim> claims
            = takeValue(store.claim(QStringLiteral("shop"), QStringLiteral("w"), kNow, kLease, 2), &error);
        QCOMPARE(claims.size(), 2);
        QVERIFY(exec(*m_db,
            QStringLiteral("UPDATE deliveries SET lease_token = lease_token + 1 WHERE id = %1").arg(b)));
        QCOMPARE(store.releaseMany(claims, kNow).released, 1); // b's claim was no longer held
        const DeliveryRow row = readDelivery(*m_db, a);
        QCOMPARE(row.status, QStringLiteral("pending"));
        QVERIFY(row.leaseOwner.isEmpty());
        QCOMPARE(row.nextAttemptAt, std::optional<qint64>(kNow));
        QCOMPARE(readDelivery(*m_db, b).status, QStringLiteral("in_flight"));
        QCOMPARE(readAttempts(*m_db, a).size(), 0);
    }

    void sweepDeadLettersWhenBudgetIsSpent()
    {
        const qint64 id = seed(QStringLiteral("shop"));
        DeliveryStore store(*m_db);
        QString error;
        qint64 now = kNow;
        for (int i = 0; i < 3; ++i) {
            const auto claims
                = takeValue(store.claim(QStringLiteral("shop"), QStringLiteral("w"), now, kLease, 1), &error);
            QCOMPARE(claims.size(), 1);
            now += kLease + 1;
            QCOMPARE(store.sweepExpired(now, 10, retryNow).value_or(-1), 1);
        }
        const DeliveryRow row = readDelivery(*m_db, id);
        QCOMPARE(row.status, QStringLiteral("dead"));
        QCOMPARE(row.lastCategory, QStringLiteral("lease_expired"));
        QVERIFY(row.deadAt);
        QVERIFY(!row.nextAttemptAt);
        QCOMPARE(eventStatus(*m_db, row.eventId), QStringLiteral("dead"));
        // Nothing in flight is left to sweep; a live lease is never swept.
        const qint64 live = seed(QStringLiteral("shop"), now);
        QCOMPARE(takeValue(store.claim(QStringLiteral("shop"), QStringLiteral("w"), now, kLease, 1), &error)
                     .size(),
            1);
        QCOMPARE(store.sweepExpired(now + kLease - 1, 10, retryNow).value_or(-1), 0);
        QCOMPARE(readDelivery(*m_db, live).status, QStringLiteral("in_flight"));
    }

    void releaseGivesClaimBack()
    {
        const qint64 id = seed(QStringLiteral("shop"));
        DeliveryStore store(*m_db);
        QString error;
        const auto claims
            = takeValue(store.claim(QStringLiteral("shop"), QStringLiteral("w"), kNow, kLease, 1), &error);
        QCOMPARE(claims.size(), 1);
        QVERIFY(store.release(claims[0], kNow + 1).value_or(false));
        const DeliveryRow row = readDelivery(*m_db, id);
        QCOMPARE(row.status, QStringLiteral("pending"));
        QCOMPARE(row.attemptCount, 0);
        QCOMPARE(row.nextAttemptAt, std::optional<qint64>(kNow));
        QVERIFY(readAttempts(*m_db, id).isEmpty());
        const auto again = store.release(claims[0], kNow + 2);
        QVERIFY2(again, qPrintable(again.error()));
        QVERIFY(!*again); // not held any more
    }

    void pausedDestinationIsNotClaimed()
    {
        const qint64 id = seed(QStringLiteral("shop"));
        QVERIFY(
            exec(*m_db, QStringLiteral("INSERT INTO destination_state (name, paused) VALUES ('shop', 1)")));
        DeliveryStore store(*m_db);
        QString error;
        QVERIFY(takeValue(store.claim(QStringLiteral("shop"), QStringLiteral("w"), kNow, kLease, 5), &error)
                    .isEmpty());
        QCOMPARE(readDelivery(*m_db, id).status, QStringLiteral("pending"));
        QVERIFY(exec(*m_db, QStringLiteral("UPDATE destination_state SET paused = 0 WHERE name = 'shop'")));
        QCOMPARE(takeValue(store.claim(QStringLiteral("shop"), QStringLiteral("w"), kNow, kLease, 5), &error)
                     .size(),
            1);
    }

    void orderingKeySerialises()
    {
        const qint64 a1 = seed(QStringLiteral("shop"), kNow, QStringLiteral("cust-a"));
        const qint64 a2 = seed(QStringLiteral("shop"), kNow, QStringLiteral("cust-a"));
        const qint64 a3 = seed(QStringLiteral("shop"), kNow, QStringLiteral("cust-a"));
        const qint64 b1 = seed(QStringLiteral("shop"), kNow, QStringLiteral("cust-b"));
        const qint64 free = seed(QStringLiteral("shop"));
        DeliveryStore store(*m_db);
        QString error;
        auto ids = [](const QList<Claim> &claims) {
            QList<qint64> out;
            for (const Claim &c : claims)
                out.append(c.deliveryId);
            std::sort(out.begin(), out.end());
            return out;
        };
        const auto round1
            = takeValue(store.claim(QStringLiteral("shop"), QStringLiteral("w"), kNow, kLease, 10), &error);
        QCOMPARE(ids(round1), (QList<qint64> { a1, b1, free }));
        // a2 waits while a1 is in flight ...
        QVERIFY(takeValue(store.claim(QStringLiteral("shop"), QStringLiteral("w"), kNow, kLease, 10), &error)
                    .isEmpty());
        // ... and while a1 is retrying (even when a2 itself is due).
        const Claim c1
            = *std::find_if(round1.begin(), round1.end(), [&](const Claim &c) { return c.deliveryId == a1; });
        QVERIFY(store.record(c1, failureFor(c1, QStringLiteral("w"), kNow, DeliveryStatus::Retrying))
                    .value_or(RecordResult::Error)
            == RecordResult::Recorded);
        QVERIFY(takeValue(
            store.claim(QStringLiteral("shop"), QStringLiteral("w"), kNow + 500, kLease, 10), &error)
                    .isEmpty());
        // a1 is retried first; once it succeeds, a2 becomes claimable, then a3.
        const auto retry = takeValue(
            store.claim(QStringLiteral("shop"), QStringLiteral("w"), kNow + 1'000, kLease, 10), &error);
        QCOMPARE(ids(retry), QList<qint64> { a1 });
        QVERIFY(store.record(retry[0], successFor(retry[0], QStringLiteral("w"), kNow + 1'000))
                    .value_or(RecordResult::Error)
            == RecordResult::Recorded);
        const auto next = takeValue(
            store.claim(QStringLiteral("shop"), QStringLiteral("w"), kNow + 1'000, kLease, 10), &error);
        QCOMPARE(ids(next), QList<qint64> { a2 });
        // A dead letter does not block its key forever.
        QVERIFY(
            store
                .record(next[0], failureFor(next[0], QStringLiteral("w"), kNow + 1'000, DeliveryStatus::Dead))
                .value_or(RecordResult::Error)
            == RecordResult::Recorded);
        const auto last = takeValue(
            store.claim(QStringLiteral("shop"), QStringLiteral("w"), kNow + 1'000, kLease, 10), &error);
        QCOMPARE(ids(last), QList<qint64> { a3 });
    }

    void replayAttemptUpdatesReplayBookkeeping()
    {
        const qint64 ok = seed(QStringLiteral("shop")), bad = seed(QStringLiteral("shop"));
        QVERIFY(exec(*m_db,
            QStringLiteral("INSERT INTO replays (id, status, selection_hash, requested_by, requester_role, "
                           "reason, item_count, requires_approval, summary, created_at, updated_at) "
                           "VALUES (77, 'executing', 'h', 'ann', 'support', 'r', 2, 0, '{}', 1, 1)")));
        for (qint64 id : { ok, bad }) {
            QVERIFY(exec(*m_db,
                QStringLiteral("INSERT INTO replay_items (replay_id, delivery_id, frozen_status, state) "
                               "VALUES (77, %1, 'dead', 'queued')")
                    .arg(id)));
            QVERIFY(exec(*m_db,
                QStringLiteral("UPDATE deliveries SET replay_id = 77, attempt_count = 4 WHERE id = %1")
                    .arg(id)));
        }
        DeliveryStore store(*m_db);
        QString error;
        const auto claims
            = takeValue(store.claim(QStringLiteral("shop"), QStringLiteral("w"), kNow, kLease, 10), &error);
        QCOMPARE(claims.size(), 2);
        for (const Claim &c : claims) {
            QCOMPARE(c.replayId, std::optional<qint64>(77));
            const AttemptRecord a = c.deliveryId == ok
                ? successFor(c, QStringLiteral("w"), kNow)
                : failureFor(c, QStringLiteral("w"), kNow, DeliveryStatus::Dead);
            QCOMPARE(a.number, 5);
            QVERIFY(store.record(c, a).value_or(RecordResult::Error) == RecordResult::Recorded);
        }
        QCOMPARE(readDelivery(*m_db, ok).status, QStringLiteral("succeeded"));
        QCOMPARE(readDelivery(*m_db, bad).status, QStringLiteral("dead"));
        QVERIFY(!readDelivery(*m_db, ok).replayId);
        QVERIFY(!readDelivery(*m_db, bad).replayId);
        const auto attempts = readAttempts(*m_db, ok);
        QCOMPARE(attempts.size(), 1);
        QCOMPARE(attempts[0].trigger, QStringLiteral("replay"));
        QCOMPARE(attempts[0].replayId, std::optional<qint64>(77));
        QCOMPARE(
            scalar(*m_db, QStringLiteral("SELECT succeeded_count FROM replays WHERE id = 77")), qint64(1));
        QCOMPARE(scalar(*m_db, QStringLiteral("SELECT failed_count FROM replays WHERE id = 77")), qint64(1));
        QCOMPARE(scalar(*m_db,
                     QStringLiteral(
                         "SELECT COUNT(*) FROM replay_items WHERE state = 'succeeded' AND delivery_id = %1")
                         .arg(ok)),
            qint64(1));
        QCOMPARE(scalar(*m_db,
                     QStringLiteral(
                         "SELECT COUNT(*) FROM replay_items WHERE state = 'failed' AND delivery_id = %1")
                         .arg(bad)),
            qint64(1));
    }

    void retentionPurgesOnlyWhatItShould()
    {
        const qint64 day = 86'400'000;
        const qint64 old = kNow - 40 * day, recent = kNow - 2 * day;
        struct Case {
            const char *name;
            qint64 receivedAt;
            const char *deliveryStatus; // nullptr = no route
            bool hold;
            bool purged;
        };
        const Case cases[] = {
            { "old succeeded", old, "succeeded", false, true },
            { "old dead", old, "dead", false, true },
            { "old no route", old, nullptr, false, true },
            { "old pending", old, "pending", false, false },
            { "old retrying", old, "retrying", false, false },
            { "old in flight", old, "in_flight", false, false },
            { "old on legal hold", old, "succeeded", true, false },
            { "recent succeeded", recent, "succeeded", false, false },
        };
        QList<qint64> events;
        for (const Case &c : cases) {
            SeedEvent e;
            e.receivedAt = c.receivedAt;
            e.legalHold = c.hold;
            QList<SeedDelivery> ds;
            if (c.deliveryStatus) {
                SeedDelivery sd;
                sd.destination = QStringLiteral("shop");
                sd.status = QString::fromLatin1(c.deliveryStatus);
                ds.append(sd);
            }
            QList<qint64> ids;
            const qint64 eventId = seedEvent(*m_db, e, ds, &ids);
            QVERIFY(eventId);
            events.append(eventId);
            for (qint64 d : ids)
                QVERIFY(exec(*m_db,
                    QStringLiteral("INSERT INTO attempts (delivery_id, number, trigger_kind, started_at, "
                                   "category, explanation) VALUES (%1, 1, 'automatic', 1, 'success', 'x')")
                        .arg(d)));
            QVERIFY(exec(*m_db,
                QStringLiteral(
                    "INSERT INTO notes (event_id, author, body, created_at) VALUES (%1, 'a', 'n', 1)")
                    .arg(eventId)));
        }
        const qint64 cutoff = kNow - 30 * day;
        QCOMPARE(purgeExpiredEvents(*m_db, cutoff, 1).value_or(-1), 1); // bounded batch
        QCOMPARE(purgeExpiredEvents(*m_db, cutoff, 100).value_or(-1), 2);
        QCOMPARE(purgeExpiredEvents(*m_db, cutoff, 100).value_or(-1), 0);
        for (int i = 0; i < int(std::size(cases)); ++i) {
            const bool present
                = scalar(*m_db, QStringLiteral("SELECT COUNT(*) FROM events WHERE id = %1").arg(events[i]))
                == 1;
            QVERIFY2(present != cases[i].purged, cases[i].name);
            const qint64 notes = scalar(
                *m_db, QStringLiteral("SELECT COUNT(*) FROM notes WHERE event_id = %1").arg(events[i]));
            QCOMPARE(notes, present ? qint64(1) : qint64(0));
        }
        // Cascades removed the purged events' deliveries and attempts.
        QCOMPARE(scalar(*m_db, QStringLiteral("SELECT COUNT(*) FROM deliveries")), qint64(5));
        QCOMPARE(scalar(*m_db, QStringLiteral("SELECT COUNT(*) FROM attempts")), qint64(5));
    }

    // 8 workers, each with its own connection, drain 10,000 deliveries concurrently. Every claim
    // is recorded; no delivery may be claimed twice, none may be left, no worker starves (PostgreSQL).
    // SQLite: a writer that commits back to back (the ingest group-commit writer) does not starve
    // the delivery engine's transactions: in-process writers take turns on the write gate.
    void claimsTakeTurnsWithABusyWriter()
    {
        if (m_tdb->backend() != Backend::Sqlite)
            QSKIP("the write gate is for SQLite; PostgreSQL locks rows");
        for (int i = 0; i < 200; ++i)
            seed(QStringLiteral("shop"));
        std::atomic<bool> stop { false };
        std::atomic<int> writerCommits { 0 };
        std::thread writer([&] {
            auto db = m_tdb->open(QStringLiteral("busy-writer"));
            while (db && !stop.load()) {
                Transaction tx(*db);
                if (!tx.begin())
                    continue;
                QSqlQuery q(db->handle());
                for (int i = 0; i < 20; ++i) // a real batch: WAL frames and a sync on every commit
                    q.exec(QStringLiteral("INSERT INTO rejections (source, reason, status_code, received_at) "
                                          "VALUES ('busy', 'bad_signature', 401, 0)"));
                q.finish();
                if (tx.commit())
                    ++writerCommits;
            }
        });
        QVERIFY(waitUntil([&] { return writerCommits.load() > 10; }, 10'000));
        DeliveryStore store(*m_db);
        int claimed = 0;
        QElapsedTimer timer;
        timer.start();
        while (claimed < 200 && timer.elapsed() < 5'000) {
            QString error;
            claimed += static_cast<int>(
                takeValue(store.claim(QStringLiteral("shop"), QStringLiteral("w"), kNow, kLease, 1), &error)
                    .size());
            if (!error.isEmpty())
                break;
        }
        const qint64 elapsed = timer.elapsed();
        stop = true;
        writer.join();
        // 200 single-row claim transactions against a writer that never pauses: with turns this
        // takes about 400 commits; polling SQLite's lock it took seconds for a handful.
        QVERIFY2(claimed == 200, qPrintable(QStringLiteral("%1 claims in %2 ms").arg(claimed).arg(elapsed)));
    }

    void concurrentClaimsNeverOverlap()
    {
        const int total = 10'000, workers = 8;
        {
            Transaction tx(*m_db);
            QVERIFY(tx.begin());
            QSqlQuery e(m_db->handle()), d(m_db->handle());
            e.prepare(QStringLiteral(
                "INSERT INTO events (id, source, provider_event_id, received_at, last_seen_at, "
                "body, body_sha256, body_size) VALUES (?, 'shop', ?, ?, ?, ?, 'x', 2)"));
            d.prepare(QStringLiteral(
                "INSERT INTO deliveries (event_id, destination, status, next_attempt_at, "
                "idempotency_key, created_at, updated_at) VALUES (?, 'shop', 'pending', ?, ?, ?, ?)"));
            for (int i = 1; i <= total; ++i) {
                e.addBindValue(i);
                e.addBindValue(QStringLiteral("e%1").arg(i));
                e.addBindValue(kNow);
                e.addBindValue(kNow);
                e.addBindValue(QByteArray("{}"));
                QVERIFY2(e.exec(), qPrintable(sqlErrorText(e)));
                d.addBindValue(i);
                d.addBindValue(kNow);
                d.addBindValue(QStringLiteral("k%1").arg(i));
                d.addBindValue(kNow);
                d.addBindValue(kNow);
                QVERIFY2(d.exec(), qPrintable(sqlErrorText(d)));
            }
            QVERIFY(m_db->exec(QStringLiteral(
                "INSERT INTO event_status (event_id, status) SELECT id, 'pending' FROM events")));
            QVERIFY(tx.commit());
        }
        std::mutex mutex;
        std::map<qint64, QList<QString>> claimedBy;
        QList<int> perWorker(workers, 0);
        QStringList errors;
        QElapsedTimer timer;
        timer.start();
        std::vector<std::thread> threads;
        for (int w = 0; w < workers; ++w) {
            threads.emplace_back([&, w] {
                auto db = m_tdb->open(QStringLiteral("worker-%1").arg(w));
                if (!db) {
                    std::lock_guard lock(mutex);
                    errors.append(QStringLiteral("worker %1 cannot open the database").arg(w));
                    return;
                }
                DeliveryStore store(*db);
                const QString name = QStringLiteral("w%1").arg(w);
                int emptyRounds = 0;
                while (emptyRounds < 3) {
                    QString error;
                    const QList<Claim> claims
                        = takeValue(store.claim(QStringLiteral("shop"), name, kNow, kLease, 32), &error);
                    if (!error.isEmpty()) {
                        std::lock_guard lock(mutex);
                        errors.append(error);
                        return;
                    }
                    if (claims.isEmpty()) {
                        ++emptyRounds;
                        continue;
                    }
                    emptyRounds = 0;
                    {
                        std::lock_guard lock(mutex);
                        for (const Claim &c : claims)
                            claimedBy[c.deliveryId].append(name);
                        perWorker[w] += static_cast<int>(claims.size());
                    }
                    QList<std::pair<Claim, AttemptRecord>> items;
                    for (const Claim &c : claims)
                        items.append({ c, successFor(c, name, kNow) });
                    const RecordOutcome recorded = store.recordMany(items);
                    const QList<RecordResult> &results = recorded.results;
                    error = recorded.error;
                    for (RecordResult r : results) {
                        if (r != RecordResult::Recorded) {
                            std::lock_guard lock(mutex);
                            errors.append(QStringLiteral("a result was not recorded: %1").arg(error));
                        }
                    }
                }
            });
        }
        for (auto &t : threads)
            t.join();
        const double seconds = static_cast<double>(timer.elapsed()) / 1000.0;
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1String("; "))));
        QCOMPARE(int(claimedBy.size()), total);
        for (const auto &[id, names] : claimedBy)
            QVERIFY2(names.size() == 1,
                qPrintable(QStringLiteral("delivery %1 claimed by %2").arg(id).arg(names.join(u','))));
        // SQLite has one writer at a time and its busy handler is not fair, so a worker can lose
        // every race; on PostgreSQL (SKIP LOCKED) every worker must get a share.
        if (m_tdb->backend() == Backend::Postgres) {
            for (int w = 0; w < workers; ++w)
                QVERIFY2(perWorker[w] > 0, qPrintable(QStringLiteral("worker %1 starved").arg(w)));
        }
        QCOMPARE(scalar(*m_db, QStringLiteral("SELECT COUNT(*) FROM deliveries WHERE status = 'succeeded'")),
            qint64(total));
        QCOMPARE(scalar(*m_db, QStringLiteral("SELECT COUNT(*) FROM attempts")), qint64(total));
        QCOMPARE(scalar(*m_db, QStringLiteral("SELECT MAX(number) FROM attempts")), qint64(1));
        QStringList split;
        for (int n : perWorker)
            split.append(QString::number(n));
        qInfo("%s: %d workers drained %d deliveries in %.2f s: %.0f claims+records/s (per worker: %s)",
            qPrintable(backendName(m_tdb->backend())), workers, total, seconds, total / seconds,
            qPrintable(split.join(u' ')));
    }
};

QTEST_GUILESS_MAIN(TstDeliveryStore)
#include "tst_deliverystore.moc"
