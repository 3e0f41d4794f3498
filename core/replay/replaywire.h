// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "replay/replaypolicy.h"
#include "util/result.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <optional>

// The one wire form of a replay request and its items, as `GET replays` and `GET replays/{id}`
// carry them: the receiver writes it with toJson() and the console reads it with fromJson(), so
// both programs agree on every key, every status name and every time. Statuses are kept as
// Stored<>: a word this build does not know is kept as sent (shown, never guessed).
namespace redrive::replay {

// A time as the wire carries it: ISO-8601 text, parsed once into milliseconds since the epoch.
// The text is kept as sent so that a round trip writes it back unchanged; a null time is JSON null.
struct WireTime {
    std::optional<qint64> ms; // nullopt when absent, null or unreadable
    QString text; // as sent; empty when absent or null

    static WireTime fromMs(std::optional<qint64> ms);
    static WireTime fromJson(const QJsonValue &value);
    [[nodiscard]] QJsonValue toJson() const;
    [[nodiscard]] bool isNull() const { return !ms && text.isEmpty(); }
    bool operator==(const WireTime &) const = default;
};

// One replay request: {"id", "status", "requested_by", "requester_role", "requester_owner",
// "decider_owner", "approved_by", "decided_by", "decided_at", "decision_reason", "reason",
// "ticket", "count", "selection_hash", the summary's "requires_approval", "approval_reasons",
// "destinations", "already_succeeded", "outcome_unknown" and "effect", "approval_expires_at",
// "created_at", "updated_at", "started_at", "finished_at", "queued", "succeeded", "failed",
// "skipped", "sent", "halt_reason"}. Optional text is JSON null when empty.
struct ReplayRecord {
    qint64 id = 0;
    Stored<ReplayStatus> status;
    QString requestedBy;
    QString requesterRole;
    QString requesterOwner;
    QString decidedBy; // who approved or rejected it ("approved_by" is null for a rejection)
    QString deciderOwner;
    QString decisionReason; // the approver's, rejecter's or canceller's reason
    QString reason;
    QString ticket;
    int count = 0;
    QString selectionHash; // sent back with a decision: it binds to what was frozen
    // What the requester saw: destinations with their risk, approval reasons, counts, effect.
    // Its count is the request's count.
    SelectionSummary summary;
    WireTime createdAt;
    WireTime updatedAt;
    WireTime decidedAt;
    WireTime approvalExpiresAt;
    WireTime startedAt;
    WireTime finishedAt;
    int queued = 0; // the receiver's cumulative hand-overs to the delivery engine
    int succeeded = 0;
    int failed = 0;
    int skipped = 0;
    int sent = 0; // the replay attempt finished (succeeded + failed)
    QString haltReason;

    // Deliveries still to go: waiting their turn or queued for the delivery engine.
    [[nodiscard]] int unsent() const { return qMax(0, count - sent - skipped); }
    // Whether the request ever got to queue deliveries (approved, executing or finished).
    [[nodiscard]] bool canQueue() const;
    // Approved or executing: its counts are still moving.
    [[nodiscard]] bool isLive() const;

    [[nodiscard]] QJsonObject toJson() const;
    // Refused when "id", "status" or "count" is missing or the summary is unreadable (a risk word
    // this build does not know): the console shows that rather than guessing a risk. "sent" is
    // succeeded + failed when absent (older receivers); "decided_by" falls back to "approved_by".
    static Result<ReplayRecord> fromJson(const QJsonObject &object);
};

// One delivery of a replay request (`items` of `GET replays/{id}`): {"delivery_id", "event_id",
// "destination", "frozen_status", "state", "current_status", "frozen_outcome_unknown",
// "outcome_unknown", "skip_reason"}. The delivery as it is now (event, destination, current
// status, outcome_unknown) is null when retention removed it.
struct ReplayItem {
    qint64 deliveryId = 0;
    Stored<DeliveryStatus> frozenStatus; // the delivery's status when the replay was requested
    std::optional<bool> frozenOutcomeUnknown; // receivers before schema 4 do not say
    Stored<ReplayItemState> state;
    QString skipReason; // why the executor skipped it; a null string when it was not skipped
    Stored<DeliveryStatus> currentStatus; // null when the delivery no longer exists
    std::optional<qint64> eventId;
    QString destination; // a null string when the delivery no longer exists
    std::optional<bool> outcomeUnknown; // as it is now

    // Outcome unknown when frozen, else as it is now (older receivers keep no frozen flag).
    [[nodiscard]] std::optional<bool> outcomeUnknownFrozenOrNow() const
    {
        return frozenOutcomeUnknown ? frozenOutcomeUnknown : outcomeUnknown;
    }

    [[nodiscard]] QJsonObject toJson() const;
    // Refused when "delivery_id" or "frozen_status" is missing.
    static Result<ReplayItem> fromJson(const QJsonObject &object);
};

} // namespace redrive::replay
