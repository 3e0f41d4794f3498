// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "query/eventpage.h"
#include "validation/schemavalidator.h"

#include <QByteArray>

namespace redrive {

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
    QString contentType;
    // The shown copy (event_payloads: redacted where the source redacts) unless read with
    // EventDetailParts::Body::Original; empty when read without it.
    QByteArray body;
    // The source's redact pointers that matched this body, and the business keys read from a
    // redacted value: nobody but a destination and a reveal sees those values. Empty: nothing
    // is redacted.
    QStringList redactedPaths;
    QStringList redactedKeys;
    bool bodyIsRedactedCopy = false; // `body` is the redacted copy (read with Body::Shown)
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
    QList<validation::ValidationError> validationErrors; // a quarantined event's schema errors
    QList<EventAuditEntry> audit; // entries about this event, its deliveries, or replays that included them
};

// The audit targets that refer to an event and its deliveries ("event:12", "delivery:40").
QStringList auditTargetsFor(qint64 eventId, const QList<qint64> &deliveryIds);

// The business keys stored for an event, by name (the detail panel and GET events/{id}).
Result<QList<EventKey>> fetchEventKeys(Db &db, qint64 eventId);

// An event's notes, oldest first; at most `limit` of them when it is positive.
Result<QList<NoteRecord>> fetchEventNotes(Db &db, qint64 eventId, int limit);

// The replays whose items name one of these deliveries, each once, in no particular order.
Result<QList<qint64>> fetchReplaysOfDeliveries(Db &db, const QList<qint64> &deliveryIds);

// What a reader of one event needs besides the envelope, deliveries and attempts: the console
// and evidence bundles take everything; the admin API's GET events/{id} takes neither the body
// nor the audit story (it reads the event's own audit entries with their hashes) and bounds
// the notes.
struct EventDetailParts {
    // Which body: none, the shown copy (the redacted one where there is one), or the original
    // bytes (a reveal, and evidence for roles that may reveal; never on a console connection).
    enum class Body { None, Shown, Original };
    Body body = Body::Shown;
    bool auditStory = true; // entries about the event, its deliveries and replays that included them
    int notesLimit = 0; // positive: at most this many notes
};

// A nullopt value when the event does not exist.
Result<std::optional<EventDetail>> fetchEventDetail(
    Db &db, qint64 eventId, const EventDetailParts &parts = {});

} // namespace redrive
