// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "storage/database.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// The console's destinations page: every destination deliveries were made for (plus those a
// copy of the receiver's configuration names, and any with a recorded pause state), with its
// pause state, backlog, dead letters and recent delivery health. Each part is bounded by an
// index or a time window.
namespace redrive {

struct DestinationStatus {
    QString name;
    bool configured = false; // named in the receiver configuration the profile points at
    bool hasDeliveries = false;
    bool paused = false;
    QString changedBy; // who last paused or resumed it, when
    std::optional<qint64> changedAt;
    QString reason;
    std::optional<qint64> pausedUntil; // when a pause with an end resumes by itself
    bool circuitOpen = false; // its circuit breaker holds its deliveries, probing
    std::optional<qint64> circuitSince; // when the circuit last opened or closed
    QString circuitReason;
    std::optional<qint64> nextProbeAt; // while open
    qint64 pending = 0; // deliveries by status; backlog() is the three unfinished ones
    qint64 inFlight = 0;
    qint64 retrying = 0;
    qint64 dead = 0;
    qint64 recentAttempts = 0; // attempts started in the success-rate window
    qint64 recentSucceeded = 0;
    std::optional<qint64> lastFailureAt; // newest failed attempt within the failure window
    Stored<FailureCategory> lastFailureCategory;
    QString lastFailureExplanation;

    [[nodiscard]] qint64 backlog() const { return pending + inFlight + retrying; }
    [[nodiscard]] std::optional<double> successRate() const
    {
        return recentAttempts ? std::optional<double>(double(recentSucceeded) / double(recentAttempts))
                              : std::nullopt;
    }
};

// A destination's recorded pause state (destination_state): who paused or resumed it, when, why.
struct DestinationPause {
    bool paused = false;
    QString changedBy; // a null string when never recorded
    std::optional<qint64> changedAt;
    QString reason;
    std::optional<qint64> pausedUntil; // a pause with an end: the engine resumes it then
};

// Every recorded pause state, by destination name (the console's page and GET destinations).
Result<QHash<QString, DestinationPause>> fetchDestinationPauses(Db &db);

struct DestinationWindows {
    qint64 successRateMs = 3'600'000; // "success rate over the last hour"
    qint64 lastFailureMs = 86'400'000; // how far back the last failure is looked for
};

// Sorted by name. `configured` lists the names from the receiver configuration copy (may be
// empty).
Result<QList<DestinationStatus>> fetchDestinationStatuses(
    Db &db, const QStringList &configured, qint64 nowMs, const DestinationWindows &windows = {});

} // namespace redrive
