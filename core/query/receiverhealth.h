// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// The receivers that write into this database, from the row each keeps fresh in
// receiver_instances (a heartbeat every few seconds, and how durable its acknowledgements are).
namespace redrive {

struct ReceiverInstance {
    QString instanceId;
    QString host;
    qint64 pid = 0;
    QString version;
    qint64 startedAt = 0;
    qint64 heartbeatAt = 0;
    QString durability; // "sqlite journal_mode=wal synchronous=FULL", "postgresql synchronous_commit=on"
    bool powerLossDurable = false;
    // The receiver's last database outage (ingest's view), written with its heartbeat once the
    // database is back; outageBeganAt unset: none since the receiver started.
    std::optional<qint64> outageBeganAt;
    std::optional<qint64> outageEndedAt; // unset while the outage lasts
    qint64 outageRefused = 0; // ingest requests answered 503 during it
};

struct ReceiverInstances {
    QList<ReceiverInstance> recent; // heartbeat at or after the `since` asked for, newest first
    std::optional<qint64> newestHeartbeat; // over every row, recent or not; nullopt when the table is empty
    QStringList openCircuits; // destinations whose circuit breaker holds their deliveries, by name
};

// One primary-key-sized table: the receiver prunes rows older than a week when it starts.
Result<ReceiverInstances> fetchReceiverInstances(Db &db, qint64 sinceMs);

// A receiver counts as running while its heartbeat is younger than this (it beats every 10 s
// by default; a busy writer can be late by a few beats).
inline constexpr qint64 kReceiverStaleAfterMs = 2LL * 60'000;
// Receivers silent for longer than this are no longer listed.
inline constexpr qint64 kReceiverRecentMs = 24 * 3'600'000LL;
// A receiver's database outage stays in the console's banner this long after it ended (then only
// in the receivers tooltip): long enough for whoever looks after a page to see what happened.
inline constexpr qint64 kOutageRecentMs = 15 * 60'000LL;

struct ReceiverHealth {
    QList<ReceiverInstance> live; // heartbeat within the stale limit
    QList<ReceiverInstance> silent; // listed (recent) but no heartbeat within the stale limit
    QList<ReceiverInstance> notDurable; // live receivers that acknowledge before a power-loss-safe flush
    // Set when no receiver is live but one beat once: how long since the newest heartbeat.
    std::optional<qint64> silentForMs;
    bool neverSeen = false; // no receiver has ever recorded itself in this database
    // Listed receivers whose last database outage lasts or ended within kOutageRecentMs.
    QList<ReceiverInstance> recentOutage;
    QStringList openCircuits; // as fetched: the receivers hold these destinations' deliveries

    [[nodiscard]] bool healthy() const { return !live.isEmpty() && notDurable.isEmpty(); }
};

// Pure: sorts what fetchReceiverInstances found into what the console warns about. A heartbeat
// stamped slightly in the future (clocks of two hosts) counts as fresh.
ReceiverHealth assessReceivers(const ReceiverInstances &instances, qint64 nowMs,
    qint64 staleAfterMs = kReceiverStaleAfterMs, qint64 outageRecentMs = kOutageRecentMs);

} // namespace redrive
