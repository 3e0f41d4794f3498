// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"
#include "storage/database.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QUrl>

#include <functional>
#include <optional>

// Seeds events and deliveries the way ingest creates them (same transaction, status 'pending',
// next_attempt_at = received time, fixed idempotency key) and reads back what the engine wrote.
namespace redrive::test {

struct SeedEvent {
    QString source = QStringLiteral("shop");
    QString providerEventId; // empty → "evt_<n>"
    QByteArray body = QByteArrayLiteral("{\"id\":\"evt\",\"amount\":42}");
    QByteArray contentType = QByteArrayLiteral("application/json");
    qint64 receivedAt = 0;
    bool legalHold = false;
    std::optional<QString> bodySha256; // override to simulate a corrupted row
};

struct SeedDelivery {
    QString destination;
    QString status = QStringLiteral("pending");
    std::optional<qint64> nextAttemptAt; // default: the event's received time
    QString idempotencyKey; // default: "idem_<event>_<destination>"
    std::optional<QString> orderingKey;
};

// Inserts the event and its deliveries in one transaction. Returns the event id (and the
// delivery ids in `deliveryIds`), or 0 on failure (with a warning).
qint64 seedEvent(Db &db, const SeedEvent &event, const QList<SeedDelivery> &deliveries,
    QList<qint64> *deliveryIds = nullptr);

struct DeliveryRow {
    QString status;
    int attemptCount = 0;
    std::optional<qint64> nextAttemptAt;
    qint64 leaseToken = 0;
    QString leaseOwner;
    QString lastCategory;
    QString lastError;
    int lastStatusCode = 0;
    bool outcomeUnknown = false;
    QString downstreamRef;
    std::optional<qint64> succeededAt;
    std::optional<qint64> deadAt;
    std::optional<qint64> replayId;
    qint64 eventId = 0;
    QString idempotencyKey;
};
DeliveryRow readDelivery(Db &db, qint64 deliveryId);

struct AttemptRow {
    int number = 0;
    QString trigger;
    std::optional<qint64> replayId;
    qint64 scheduledAt = 0;
    qint64 startedAt = 0;
    int durationMs = 0;
    int statusCode = 0;
    QString category;
    QString explanation;
    bool outcomeUnknown = false;
    QByteArray responseHeaders;
    QString responseExcerpt;
    QString workerId;
};
QList<AttemptRow> readAttempts(Db &db, qint64 deliveryId);
QString eventStatus(Db &db, qint64 eventId);
qint64 scalar(Db &db, const QString &sql);

// A destination reachable on loopback: allow_private = true, short timeout and schedule.
DestinationConfig loopbackDestination(const QString &name, const QUrl &url);
Config engineConfig(const QList<DestinationConfig> &destinations);

// Polls `condition` every few milliseconds until it holds or `timeoutMs` passes.
bool waitUntil(const std::function<bool()> &condition, int timeoutMs);

} // namespace redrive::test
