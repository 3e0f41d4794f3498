// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "audit/chaincheck.h"

#include <optional>

namespace redrive::ui {

// The audit page's two status lines in words, from one chain check.
struct ChainStatusText {
    QString chain; // "Chain intact to #N · checkpoint #M verified (key …)" or "Chain broken at #N: …"
    bool chainGood = false;
    QString checkpoints; // what the saved checkpoints prove
    bool checkpointsGood = true;
};

// `report.anchors` holds the receiver's checkpoint first (when `signedCheckpoint` is set), then
// the `saved` ones in order. `noCheckpointReason` says why no signed checkpoint was checked.
ChainStatusText describeChainStatus(const audit::ChainReport &report,
    const std::optional<audit::ChainAnchor> &signedCheckpoint, const QList<audit::ChainAnchor> &saved,
    const QString &noCheckpointReason);

} // namespace redrive::ui
