// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "query/deliveries.h"
#include "query/eventfilter.h"
#include "storage/database.h"

#include <QList>
#include <QString>

// Resolving dead letters without a replay. Support handled a dead delivery another way (did by
// hand what the destination would have done, or found it is not needed): the delivery becomes
// `resolved`. It is no dead letter any more (its dead-letter group shrinks, an incident whose
// group empties closes), no replay takes it (sending it now would act twice), and its event's
// status and downstream indicator say it was resolved. Who resolved it, how, why and under which
// ticket is kept beside the delivery (delivery_resolutions) and in the audit log.
namespace redrive::replay {

// One delivery a resolve request names, as it stands now.
struct ResolveCandidate {
    qint64 deliveryId = 0;
    qint64 eventId = 0;
    QString destination;
    Stored<DeliveryStatus> status;
    bool queuedByReplay = false;

    // Why it cannot be resolved ("not_dead", "queued_by_replay"), empty when it can.
    [[nodiscard]] QString refusal() const;
};

// The named deliveries, in ascending id; the ids that name no delivery go to `missing`.
Result<QList<ResolveCandidate>> resolveCandidatesById(
    Db &db, const QList<qint64> &ids, QList<qint64> *missing);

// The dead deliveries a filter names (filteredDeliveriesSql, whatever its statuses say), at most
// `limit` of them, in ascending id.
Result<QList<ResolveCandidate>> deadDeliveriesMatching(Db &db, const EventFilter &filter, int limit);

// Inside the caller's write transaction: those of `ids` that are still dead and not queued by a
// replay become resolved with `record`, and their events' statuses follow. Returns the ids that
// changed, ascending (one that stopped being dead meanwhile is left as it is).
Result<QList<qint64>> resolveDeliveries(Db &db, const QList<qint64> &ids, const DeliveryResolution &record);

} // namespace redrive::replay
