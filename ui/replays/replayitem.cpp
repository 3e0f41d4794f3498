// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replayitem.h"

namespace redrive::ui {

QString itemOutcome(const ReplayItem &item)
{
    const auto state = item.state.value();
    if (!state)
        return item.state.name();
    switch (*state) {
    case ReplayItemState::Waiting:
        return QStringLiteral("not sent yet");
    case ReplayItemState::Queued:
        return QStringLiteral("queued for delivery");
    case ReplayItemState::Succeeded:
        return QStringLiteral("succeeded");
    case ReplayItemState::Failed:
        return QStringLiteral("failed");
    case ReplayItemState::Skipped:
        return item.skipReason.isEmpty() ? QStringLiteral("skipped")
                                         : QStringLiteral("skipped: ") + item.skipReason;
    }
    return item.state.name();
}

} // namespace redrive::ui
