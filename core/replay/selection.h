// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"
#include "domain/types.h"
#include "query/eventfilter.h"
#include "storage/database.h"

#include <QList>
#include <QString>

#include <optional>

// Freezing a replay selection: the exact deliveries a replay will re-send, each with the
// status it had when the selection was made, and a hash that names all of it. The preview
// shows the hash, the request names it, and the approval must carry it again ("what you see is
// what you sign"): a different set, a changed status or a changed risk is a different hash.
namespace redrive::replay {

struct SelectionItem {
    qint64 deliveryId = 0;
    qint64 eventId = 0;
    QString destination;
    DeliveryStatus status = DeliveryStatus::Dead;
    bool outcomeUnknown = false;
    Risk risk = Risk::Low;
    bool operator==(const SelectionItem &) const = default;
};

// A matched delivery that cannot be replayed now, and why.
struct ExcludedItem {
    qint64 deliveryId = 0;
    qint64 eventId = 0;
    QString destination;
    Stored<DeliveryStatus> status;
    // already_pending | in_flight | queued_by_replay | destination_not_configured | resolved
    QString reason;
};

struct Selection {
    QList<SelectionItem> items; // ascending delivery id
    QList<ExcludedItem> excluded; // the first kMaxExcludedListed
    qint64 excludedCount = 0; // counted up to kMaxExcludedCounted
    bool excludedCountCapped = false;
    QString hash;
};

inline constexpr int kMaxExcludedListed = 100;
inline constexpr int kMaxExcludedCounted = 10'000;

// Replays re-send deliveries that finished (dead, succeeded) or wait for a retry (retrying).
// Pending and in-flight deliveries are on their way already.
[[nodiscard]] bool isReplayable(DeliveryStatus status);

// SHA-256 (hex) over "redrive-selection-v1\n" and one line per item in ascending delivery id:
// "<delivery id> <event id> <status> <outcome unknown 0|1> <risk> <destination>\n".
[[nodiscard]] QString selectionHash(const QList<SelectionItem> &items);

enum class FreezeFailure { Database, TooLarge, UnknownDelivery };
struct FreezeError {
    FreezeFailure kind = FreezeFailure::Database;
    QString message;
    qint64 deliveryId = 0; // UnknownDelivery: the first id that does not exist
};

// The deliveries a filter names, over deliveries "d" joined to events "e" and event_status "s":
// the events matching `filter`, and of their deliveries those the filter's destination, category,
// status and delivery_status also match. Replays and resolutions select through this one rule.
[[nodiscard]] SqlFragment filteredDeliveriesSql(const EventFilter &filter, Dialect dialect);

// Explicit deliveries (no duplicates, at most maxSelection). Unknown ids are an error.
std::optional<Selection> freezeDeliveries(
    Db &db, const Config &config, const QList<qint64> &ids, int maxSelection, FreezeError *error);
// Every delivery of the events matching `filter`; the filter's destination, category, status
// and delivery_status also restrict which deliveries of a matching event are taken. More than
// maxSelection replayable deliveries → TooLarge.
std::optional<Selection> freezeFilter(
    Db &db, const Config &config, const EventFilter &filter, int maxSelection, FreezeError *error);

// The stored form (selections.items): a compact JSON array of
// [delivery id, event id, status, outcome unknown, risk, destination] arrays.
[[nodiscard]] QString itemsToJson(const QList<SelectionItem> &items);
[[nodiscard]] std::optional<QList<SelectionItem>> itemsFromJson(const QString &json);

} // namespace redrive::replay
