// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "query/eventpage.h"

#include <QByteArray>

namespace redrive {

struct AttemptRecord {
    qint64 id = 0;
    int number = 0;
    QString trigger;
    std::optional<qint64> replayId;
    std::optional<qint64> scheduledAt;
    qint64 startedAt = 0;
    int durationMs = 0;
    std::optional<int> statusCode;
    QString category;
    QString explanation;
    bool outcomeUnknown = false;
    QString responseExcerpt;
};

struct DeliveryRecord {
    DeliverySummary summary;
    QString idempotencyKey;
    std::optional<int> lastStatusCode;
    QString lastError;
    std::optional<qint64> succeededAt;
    std::optional<qint64> deadAt;
    qint64 createdAt = 0;
    QList<AttemptRecord> attempts; // by number
};

struct NoteRecord {
    qint64 id = 0;
    QString author;
    QString body;
    qint64 createdAt = 0;
};

struct EventAuditEntry {
    qint64 seq = 0;
    qint64 at = 0;
    QString actor;
    QString role;
    QString action;
    QString target;
    QString reason;
    QString details;
};

// Everything the console's detail panel shows about one event.
struct EventDetail {
    EventRow row;
    bool weakId = false;
    std::optional<qint64> occurredAt;
    qint64 lastSeenAt = 0;
    QString contentType;
    QByteArray body;
    QString bodySha256;
    qint64 bodySize = 0;
    QByteArray headersJson; // stored redacted by the receiver
    QString verifiedBy; // label of the secret that verified it ("env:GITHUB_SECRET")
    std::optional<qint64> clockSkewMs;
    QString remoteAddr;
    bool legalHold = false;
    QList<DeliveryRecord> deliveries;
    QList<NoteRecord> notes;
    QList<EventKey> keys; // business keys, by name
    QList<EventAuditEntry> audit; // entries about this event, its deliveries, or replays that included them
};

// The audit targets that refer to an event and its deliveries ("event:12", "delivery:40").
QStringList auditTargetsFor(qint64 eventId, const QList<qint64> &deliveryIds);

// The business keys stored for an event, by name (the detail panel and GET events/{id}).
std::optional<QList<EventKey>> fetchEventKeys(Db &db, qint64 eventId, QString *error);

// nullopt with an empty error when the event does not exist.
std::optional<EventDetail> fetchEventDetail(Db &db, qint64 eventId, QString *error);

} // namespace redrive
