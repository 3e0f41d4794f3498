// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace redrive {

struct OpenedIncident {
    qint64 id = 0;
    QString destination;
    QString category;
    qint64 count = 0;
    bool grew = false; // reopened: the acknowledged incident's group grew by the threshold
};

struct IncidentCheckResult {
    QList<OpenedIncident> opened; // by this check
    int closed = 0; // groups that emptied (replayed, delivered, or removed by retention)
    qint64 open = 0; // open incidents after the check
};

// Compares the dead-letter groups with the open incidents, in one write transaction:
//  - a group with no open incident opens one (it appeared);
//  - an open, acknowledged incident whose group has grown by `growThreshold` dead letters since
//    it was acknowledged is closed and a new one opened at the group's size (someone said they
//    were on it, and it got worse: people hear about it again);
//  - an open incident whose group has emptied is closed;
//  - otherwise the incident only follows the group's size (no new incident, so no new notice).
// Safe when several receivers run it against one PostgreSQL database: the partial unique index
// makes a concurrent second opening a no-op, and a close only counts when it changed the row.
// `onOpened` runs for each incident this check opens, inside its transaction (the delivery engine
// stores the incident's notification there, so an opening is never committed without it); its
// failure rolls the check back.
using OnIncidentOpened = std::function<Result<>(const OpenedIncident &)>;
Result<IncidentCheckResult> checkIncidents(
    Db &db, qint64 nowMs, qint64 growThreshold, const OnIncidentOpened &onOpened = {});

// Inside the caller's write transaction: closes the open incidents whose dead-letter group has
// no dead letter left (resolving the last ones closes their incident at once, not at the next
// check) and returns how many. Never opens one: that stays the check's.
Result<int> closeEmptiedIncidents(Db &db, qint64 nowMs);

// Retention for incidents: deletes at most `batch` incidents closed before `cutoffMs` (the events'
// retention cutoff), oldest first, and returns how many. Open incidents stay whatever their age;
// audit entries about an incident stay too (the chain is never purged). Ids are never reused
// (schema {{PK}}), so a purged incident's id cannot come back as a new incident's: the console's
// "announced up to" mark stays right.
Result<int> purgeClosedIncidents(Db &db, qint64 cutoffMs, int batch);

} // namespace redrive
