// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "replay/replaywire.h"
#include "storage/database.h"

#include <QList>
#include <QString>

#include <optional>

// The items of one replay request beside the deliveries they name, as the admin API's replay
// detail lists them.
namespace redrive {

// One item as the admin API lists it: the replay wire form, read here and written by the receiver.
using ReplayItemRecord = replay::ReplayItem;

// Up to `limit` items of replay `replayId` with delivery id > afterDeliveryId, by delivery id:
// a keyset page.
Result<QList<ReplayItemRecord>> fetchReplayItems(Db &db, qint64 replayId, qint64 afterDeliveryId, int limit);

} // namespace redrive
