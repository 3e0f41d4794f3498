// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "storage/database.h"

#include <QList>
#include <QString>

#include <optional>

// The items of one replay request beside the deliveries they name, as the admin API's replay
// detail lists them.
namespace redrive {

struct ReplayItemRecord {
    qint64 deliveryId = 0;
    Stored<DeliveryStatus> frozenStatus; // the delivery's status when the replay was requested
    bool frozenOutcomeUnknown = false;
    Stored<ReplayItemState> state;
    QString skipReason; // a null string when it was not skipped
    // The delivery as it is now; all unset (null) when it no longer exists.
    Stored<DeliveryStatus> currentStatus;
    std::optional<qint64> eventId;
    QString destination;
    std::optional<bool> outcomeUnknown;
};

// Up to `limit` items of replay `replayId` with delivery id > afterDeliveryId, by delivery id:
// a keyset page.
Result<QList<ReplayItemRecord>> fetchReplayItems(Db &db, qint64 replayId, qint64 afterDeliveryId, int limit);

} // namespace redrive
