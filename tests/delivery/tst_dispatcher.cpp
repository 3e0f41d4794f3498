// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "delivery/dispatcher.h"
#include "deliveryfixture.h"
#include "scriptabledestination.h"
#include "util/clock.h"

#include <QTest>

#include <atomic>
#include <memory>
#include <mutex>

using namespace redrive;
using namespace redrive::delivery;
using namespace redrive::test;
using Transport = AttemptOutcome::Transport;

namespace {

constexpr qint64 kMargin = 5'000;

struct Outcomes {
    std::mutex mutex;
    QList<AttemptOutcome> seen;
    int count()
    {
        std::lock_guard lock(mutex);
        return static_cast<int>(seen.size());
    }
    int notSent()
    {
        std::lock_guard lock(mutex);
        return static_cast<int>(std::count_if(seen.cbegin(), seen.cend(), [](const AttemptOutcome &o) {
            return o.transport == Transport::Cancelled && !o.requestWritten;
        }));
    }
};

Dispatcher::Job job(const QString &destination, const QUrl &url, qint64 leaseExpiresAt,
    const std::shared_ptr<Outcomes> &outcomes)
{
    Dispatcher::Job j;
    j.destination = destination;
    j.leaseExpiresAt = leaseExpiresAt;
    j.request.url = url;
    j.request.body = "{}";
    j.request.timeoutMs = 5'000;
    j.request.allowPrivate = true;
    j.done = [outcomes](AttemptOutcome o, qint64, qint64) {
        std::lock_guard lock(outcomes->mutex);
        outcomes->seen.append(std::move(o));
    };
    return j;
}

} // namespace

// The dispatcher between the engine's claims and the HTTP client: limits, the lease guard and
// shutdown.
class TstDispatcher final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void concurrencyAndGlobalCap_data()
    {
        QTest::addColumn<int>("concurrency");
        QTest::addColumn<int>("maxInFlight");
        QTest::addColumn<int>("expected");
        QTest::newRow("destination concurrency 3") << 3 << 100 << 3;
        QTest::newRow("global cap 2") << 8 << 2 << 2;
    }

    void concurrencyAndGlobalCap()
    {
        QFETCH(int, concurrency);
        QFETCH(int, maxInFlight);
        QFETCH(int, expected);
        ScriptableDestination destination;
        QString error;
        QVERIFY2(destination.start(&error), qPrintable(error));
        ScriptableDestination::Response slow = ScriptableDestination::status(200);
        slow.delayAfterReadMs = 100;
        destination.setDefault(slow);
        HttpClient http;
        ManualClock clock;
        Dispatcher dispatcher(http, clock, maxInFlight, kMargin);
        dispatcher.setConcurrency(QStringLiteral("shop"), concurrency);
        auto outcomes = std::make_shared<Outcomes>();
        for (int i = 0; i < 10; ++i)
            dispatcher.submit(
                job(QStringLiteral("shop"), destination.url(), clock.nowMs() + 60'000, outcomes));
        const Dispatcher::Load load = dispatcher.load(QStringLiteral("shop"));
        QCOMPARE(load.running + load.queued, 10);
        QVERIFY(load.running <= expected);
        QVERIFY(waitUntil([&] { return outcomes->count() == 10; }, 20'000));
        QCOMPARE(destination.requestCount(), 10);
        QCOMPARE(destination.maxConcurrent(), expected); // reached, never exceeded
        QVERIFY(dispatcher.load(QStringLiteral("shop")).meanExchangeMs >= 100);
    }

    // A claim whose lease could run out before its exchange ends is not sent.
    void leaseGuard()
    {
        ScriptableDestination destination;
        QString error;
        QVERIFY2(destination.start(&error), qPrintable(error));
        HttpClient http;
        ManualClock clock;
        Dispatcher dispatcher(http, clock, 10, kMargin);
        dispatcher.setConcurrency(QStringLiteral("shop"), 1);
        auto outcomes = std::make_shared<Outcomes>();
        // timeout 5 s + margin 5 s: a lease ending in 9 s is too short, 11 s is enough.
        dispatcher.submit(job(QStringLiteral("shop"), destination.url(), clock.nowMs() + 9'000, outcomes));
        dispatcher.submit(job(QStringLiteral("shop"), destination.url(), clock.nowMs() + 11'000, outcomes));
        QVERIFY(waitUntil([&] { return outcomes->count() == 2; }, 10'000));
        QCOMPARE(outcomes->notSent(), 1);
        QCOMPARE(destination.requestCount(), 1);
    }

    // Shutdown: queued jobs come back unsent at once, running ones finish, nothing new starts.
    void dropQueued()
    {
        ScriptableDestination destination;
        QString error;
        QVERIFY2(destination.start(&error), qPrintable(error));
        ScriptableDestination::Response slow = ScriptableDestination::status(200);
        slow.delayAfterReadMs = 300;
        destination.setDefault(slow);
        HttpClient http;
        ManualClock clock;
        Dispatcher dispatcher(http, clock, 10, kMargin);
        dispatcher.setConcurrency(QStringLiteral("shop"), 1);
        auto outcomes = std::make_shared<Outcomes>();
        for (int i = 0; i < 4; ++i)
            dispatcher.submit(
                job(QStringLiteral("shop"), destination.url(), clock.nowMs() + 60'000, outcomes));
        QVERIFY(destination.waitForRequests(1, 10'000));
        dispatcher.dropQueued();
        QCOMPARE(outcomes->notSent(), 3);
        dispatcher.submit(job(QStringLiteral("shop"), destination.url(), clock.nowMs() + 60'000, outcomes));
        QCOMPARE(outcomes->notSent(), 4);
        QVERIFY(waitUntil([&] { return outcomes->count() == 5; }, 10'000));
        QCOMPARE(destination.requestCount(), 1);
    }
};

QTEST_GUILESS_MAIN(TstDispatcher)
#include "tst_dispatcher.moc"
