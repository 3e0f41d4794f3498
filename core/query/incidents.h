// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QList>
#include <QString>

#include <optional>

// Incidents: a dead-letter group (failure category × destination) that appeared, or grew past
// `[incidents] grow_threshold` after it was acknowledged. Read here once, for the admin API and
// the console alike; the receiver's check (core/storage/incidentcheck.h) writes them.
namespace redrive {

struct Incident {
    qint64 id = 0;
    QString destination;
    QString category; // the failure category's name, "" when the dead letters carry none
    qint64 openedAt = 0;
    qint64 countAtOpen = 0;
    qint64 count = 0; // the group's size at the last check
    qint64 updatedAt = 0;
    QString acknowledgedBy; // empty while nobody has acknowledged it
    std::optional<qint64> acknowledgedAt;
    QString note;
    std::optional<qint64> closedAt;

    [[nodiscard]] bool acknowledged() const { return acknowledgedAt.has_value(); }
    [[nodiscard]] bool open() const { return !closedAt.has_value(); }
};

// Open incidents, newest first (bounded: at most one per dead-letter group).
Result<QList<Incident>> fetchOpenIncidents(Db &db);

// One incident, open or closed; a nullopt value when there is no such id.
Result<std::optional<Incident>> fetchIncident(Db &db, qint64 id);

} // namespace redrive
