// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QJsonObject>
#include <QStringList>
#include <QUrlQuery>
#include <QVariantList>

#include <optional>

namespace redrive {

// The one definition of "which events": used by the admin API's GET events and replay filters,
// and by the console's events view. Pure logic, unit-tested; the SQL it produces uses only
// indexed predicates and keyset paging (id DESC), never OFFSET.
struct EventFilter {
    QStringList statuses; // event statuses, any of
    QString source;
    QString type; // exact, or a prefix when it ends with '*' ("pull_request.*")
    QString destination; // has a delivery to this destination
    QString category; // has a delivery whose last failure category is this
    QString deliveryStatus; // has a delivery in this status (with destination/category: the same delivery)
    std::optional<qint64> sinceMs; // received_at >= since
    std::optional<qint64> untilMs; // received_at <  until
    QString search; // event id, provider event id, idempotency key, downstream reference or a
                    // business key's value ("1042", or "order:1042" for one key)
    QString keyName; // with keyValue: carries this business key (`key=order:1042`)
    QString keyValue;
    QString origin; // "webhook" | "reconciled" (events.origin); empty = either

    [[nodiscard]] bool isEmpty() const;
    bool operator==(const EventFilter &) const = default;

    // Query-string form shared by the admin API and saved views:
    // status=a,b&source=&type=&destination=&category=&delivery_status=&since=ISO|ms&until=&q=&key=name:value
    // &origin=webhook|reconciled
    [[nodiscard]] QUrlQuery toQuery() const;
    // The same keys and values as one JSON object: the "filter" of a bulk admin request.
    [[nodiscard]] QJsonObject toJsonObject() const;
    // Validates every value; on failure names the offending field and says why.
    static std::optional<EventFilter> fromQuery(const QUrlQuery &query, QString *field, QString *message);
};

struct SqlFragment {
    QString sql; // a boolean expression over kEventTables ("1=1" when empty)
    QVariantList binds; // positional values for its '?' placeholders, in order
    // The id to order by: e.id, or s.event_id when the status index drives the scan. Both are
    // the same value, but SQLite only sees that an index delivers rows in order when the
    // ORDER BY names that index's column; with the other one it sorts every match.
    QString idColumn = QStringLiteral("e.id");
};

// On SQLite the key lookups also read the keys still on their way to the index
// (event_keys_pending); PostgreSQL stores keys in the index directly.
SqlFragment eventFilterSql(const EventFilter &filter, Dialect dialect);

// SQLite: one row per pending business key, as j.key and j.value (with p.event_id).
inline constexpr char kPendingKeysSource[] = "event_keys_pending p, json_each(p.keys) j";

// What an event filter reads: events as "e" joined to each event's summary status as "s".
inline constexpr char kEventTables[] = "events e JOIN event_status s ON s.event_id = e.id";

// "e.id OP ? AND s.event_id OP ?" with `id` appended to `binds` twice. A range on both sides of
// the join lets either side's index drive the scan: neither engine carries a range across the
// join's equality, and the status index (status, event_id) must see it to page by status.
QString eventIdBound(QLatin1StringView op, qint64 id, QVariantList *binds);

// Opaque keyset cursor for "events with id < N". Encodes/decodes; a malformed cursor is nullopt.
QString encodeCursor(qint64 lastId);
std::optional<qint64> decodeCursor(const QString &cursor);

// Parses "2026-11-30T06:54:14Z", "2026-11-30T06:54:14.123+01:00" or milliseconds since the epoch.
std::optional<qint64> parseTimestamp(const QString &text);

} // namespace redrive
