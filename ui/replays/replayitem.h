// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace redrive::ui {

// One delivery of a replay request (`items` of `GET replays/{id}`), states parsed once. The
// Replays page shows its outcome; the approvals inbox shows its frozen state.
struct ReplayItem {
    qint64 deliveryId = 0;
    std::optional<qint64> eventId; // nullopt when retention removed the delivery
    QString destination;
    std::optional<DeliveryStatus> frozenStatus; // when the request froze its selection
    std::optional<ReplayItemState> state;
    std::optional<DeliveryStatus> currentStatus;
    QString frozenName, stateName, currentName; // as sent, shown when unknown
    // Outcome unknown when frozen (receivers with schema 4 or later always say), else as it
    // is now; `outcomeUnknownAtFreeze` says which.
    std::optional<bool> outcomeUnknown;
    bool outcomeUnknownAtFreeze = false;
    QString skipReason; // why the executor skipped it, e.g. "changed since the preview"

    // "succeeded", "failed", "queued for delivery", "skipped: changed since the preview", …
    [[nodiscard]] QString outcome() const;
    static ReplayItem fromJson(const QJsonObject &o);
};

} // namespace redrive::ui
