// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "query/deliveries.h"
#include "query/eventfilter.h"
#include "storage/database.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

// The console's events list, read straight from the receiver's database. Every query here uses
// the shared EventFilter and keyset bounds on the primary key (newest first), never OFFSET and
// never a count over the whole table on the path to the first page.
namespace redrive {

struct EventRow {
    qint64 id = 0;
    qint64 receivedAt = 0;
    QString source;
    QString type;
    QString providerEventId;
    bool weakId = false; // derived from the body digest: the provider sent no id
    Stored<EventStatus> status;
    std::optional<qint64> occurredAt;
    qint64 lastSeenAt = 0;
    int seenCount = 1;
    QString origin = QStringLiteral("webhook"); // or "reconciled": recorded by a reconciliation run
    // Summaries over the deliveries below.
    int attempts = 0;
    Stored<FailureCategory> lastFailure; // the most recent failure of an unsucceeded delivery
    QString lastFailureText; // its one-line explanation ("HTTP 410: the endpoint is gone")
    DownstreamState downstream = DownstreamState::None;
    QString downstreamRef; // the first recorded downstream reference, if any
    QList<DeliverySummary> deliveries;
};

// {"id", "source", "provider_event_id", "weak_id", "type", "status", "occurred_at",
//  "received_at", "last_seen_at", "seen_count", "origin"}: one event as the admin API and evidence bundles
// show it (each adds its own fields).
QJsonObject eventRowJson(const EventRow &row);

// The console lists events by id, which follows arrival: newest first by default.
enum class EventOrder { NewestFirst, OldestFirst };

struct IdRange {
    qint64 minId = 0;
    qint64 maxId = 0;
    [[nodiscard]] bool isEmpty() const { return maxId == 0; }
    [[nodiscard]] qint64 span() const { return isEmpty() ? 0 : maxId - minId + 1; }
};

// The smallest and largest event id: two primary-key lookups, constant time at any size.
Result<IdRange> eventIdRange(Db &db);

// Up to `limit` events matching `filter` with floorId < id <= fromId, newest first, with their
// deliveries attached.
Result<QList<EventRow>> fetchEventPage(
    Db &db, const EventFilter &filter, qint64 fromId, int limit, qint64 floorId = 0);

// Whether a page comes with its deliveries' summaries attached (the console's list), or without
// them for a caller that reads whole delivery records itself (the admin API).
enum class DeliveryRows { Summaries, None };

// The general form: up to `limit` matching events with floorId <= id <= ceilingId, starting at
// `fromId` (inclusive) and walking in `order` (NewestFirst: id <= fromId, descending;
// OldestFirst: id >= fromId, ascending).
Result<QList<EventRow>> fetchEventRange(Db &db, const EventFilter &filter, EventOrder order, qint64 fromId,
    qint64 floorId, qint64 ceilingId, int limit, DeliveryRows deliveries = DeliveryRows::Summaries);

// The same rows for a known set of ids (to refresh what is on screen), in the order given;
// ids that no longer exist are left out.
Result<QList<EventRow>> fetchEventsByIds(Db &db, const QList<qint64> &ids);

// Exact positions for a filtered list: `count` rows with id <= topId, and for page k
// (rows k*pageSize .. k*pageSize+pageSize-1) the id of its first row. One pass over the ids
// through an index (the filter's columns or the primary key); the console runs it in the
// background to replace the first-paint estimate.
struct PageIndex {
    qint64 count = 0;
    int pageSize = 0;
    QList<qint64> boundaries;
};
Result<PageIndex> fetchPageIndex(Db &db, const EventFilter &filter, qint64 topId, int pageSize,
    EventOrder order = EventOrder::NewestFirst);

// How many events matching `filter` arrived after `topId` (id > topId), counting at most `cap`.
Result<qint64> countEventsAbove(Db &db, const EventFilter &filter, qint64 topId, qint64 cap);

// "N new events" for a list that shows everything up to `topId`. An id above the top is not the
// only way to be new: ids are allocated before commit, and with several writer connections (or
// receivers) on PostgreSQL they commit out of order, so an event with an id below the top may
// become visible after the list was read. Counting id > topId would never count it, and the
// list would never show it until a full reload.
//
// So the count starts at a low-water mark instead: the newest id whose event was received more
// than kLateCommitWindowMs before the top event. Every event at or below it was committed when
// the list was read, provided no event takes longer than the window from receipt to commit (the
// receiver answers the sender long before: its reply timeout is seconds). `known` is how many
// matching events above the mark were visible then; they are the ones the list shows, and new
// events are the matching events above the mark beyond those. Counted before the list reads its
// rows, so a late event that commits in between may be counted although the list shows it: an
// overcount that a reload corrects, never an event that is not counted.
inline constexpr qint64 kLateCommitWindowMs = 60'000;
struct NewEventsBaseline {
    qint64 lowWaterId = 0; // every event at or below it is committed and in the list's range
    qint64 known = 0; // matching events with lowWaterId < id <= topId, visible when taken
};
Result<NewEventsBaseline> newEventsBaseline(
    Db &db, const EventFilter &filter, qint64 topId, qint64 windowMs = kLateCommitWindowMs);
struct NewEventsCount {
    qint64 total = 0; // matching events above the mark beyond the baseline's (capped near `cap`)
    qint64 late = 0; // of those, the ones with an id at or below `headTopId`
};
// `headTopId`: the newest id the list shows; `shownAbove`: rows the list added above the
// baseline's top since (showNewEvents), which the count must not count again.
Result<NewEventsCount> countNewEvents(Db &db, const EventFilter &filter, const NewEventsBaseline &baseline,
    qint64 shownAbove, qint64 headTopId, qint64 cap);

} // namespace redrive
