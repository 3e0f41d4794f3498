// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "replay/replaywire.h"

#include <QString>

namespace redrive::ui {

// A replay request and one of its deliveries, as `GET replays` and `GET replays/{id}` carry them:
// the wire form core reads once (statuses typed, times parsed, unknown words kept as sent). The
// Replays page shows the outcomes; the approvals inbox shows the frozen state.
using ReplayRecord = replay::ReplayRecord;
using ReplayItem = replay::ReplayItem;

// "succeeded", "failed", "queued for delivery", "skipped: changed since the preview", …; the
// receiver's word when this console does not know the state.
[[nodiscard]] QString itemOutcome(const ReplayItem &item);

} // namespace redrive::ui
