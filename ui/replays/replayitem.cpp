// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "replayitem.h"

#include <QCoreApplication>

namespace redrive::ui {

QString itemOutcome(const ReplayItem &item)
{
    const auto state = item.state.value();
    if (!state)
        return item.state.name();
    switch (*state) {
    case ReplayItemState::Waiting:
        return QCoreApplication::translate("redrive::ui::ReplayItem", "not sent yet");
    case ReplayItemState::Queued:
        return QCoreApplication::translate("redrive::ui::ReplayItem", "queued for delivery");
    case ReplayItemState::Succeeded:
        return QCoreApplication::translate("redrive::ui::ReplayItem", "succeeded");
    case ReplayItemState::Failed:
        return QCoreApplication::translate("redrive::ui::ReplayItem", "failed");
    case ReplayItemState::Skipped:
        return item.skipReason.isEmpty()
            ? QCoreApplication::translate("redrive::ui::ReplayItem", "skipped")
            : QCoreApplication::translate("redrive::ui::ReplayItem", "skipped: %1").arg(item.skipReason);
    }
    return item.state.name();
}

} // namespace redrive::ui
