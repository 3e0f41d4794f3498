// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "delivery/engine.h"
#include "deliveryfixture.h"
#include "scriptabledestination.h"
#include "testdb.h"
#include "util/clock.h"
#include "util/metrics.h"

#include <memory>

namespace redrive::test {

// One engine against one scriptable destination, on a fresh database, with a manual clock.
struct EngineRig {
    std::unique_ptr<TestDatabase> tdb;
    std::unique_ptr<Db> db; // the test thread's own connection
    ScriptableDestination destination;
    ManualClock clock { 1'700'000'000'000 };
    metrics::Registry registry;
    Config config;
    std::unique_ptr<delivery::DeliveryEngine> engine;

    // Creates the database and starts the destination; `config` then holds one loopback
    // destination named "shop" that tests may adjust before startEngine().
    bool prepare(QString *error, int receiveBuffer = 0)
    {
        tdb = TestDatabase::create(error);
        if (!tdb)
            return false;
        db = tdb->open();
        if (!db || !destination.start(error, false, receiveBuffer))
            return false;
        config = engineConfig({ loopbackDestination(QStringLiteral("shop"), destination.url()) });
        return true;
    }

    bool startEngine(QString *error)
    {
        engine = std::make_unique<delivery::DeliveryEngine>(config, tdb->url(), clock, registry);
        return succeeded(engine->start(), error);
    }

    // An event with one delivery to "shop", due now.
    qint64 seedOne(SeedEvent event = {}, SeedDelivery delivery = {})
    {
        if (event.receivedAt == 0)
            event.receivedAt = clock.nowMs();
        if (delivery.destination.isEmpty())
            delivery.destination = QStringLiteral("shop");
        QList<qint64> ids;
        seedEvent(*db, event, { delivery }, &ids);
        return ids.value(0);
    }

    int attemptCount(qint64 deliveryId) { return static_cast<int>(readAttempts(*db, deliveryId).size()); }
    bool waitForAttempts(qint64 deliveryId, int n, int timeoutMs = 10'000)
    {
        return waitUntil([&] { return attemptCount(deliveryId) >= n; }, timeoutMs);
    }
    bool waitForStatus(qint64 deliveryId, const QString &status, int timeoutMs = 10'000)
    {
        return waitUntil([&] { return readDelivery(*db, deliveryId).status == status; }, timeoutMs);
    }
};

} // namespace redrive::test
