// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/retryschedules.h"
#include "query/eventpage.h"

#include <QString>

#include <optional>

namespace redrive::ui {

// The next attempt of a waiting delivery in words, and with the destination's schedule the
// ones after it and when it would become a dead letter if they all fail.
QString scheduleNote(const DeliverySummary &s, const std::optional<RetrySchedules> &schedules);

} // namespace redrive::ui
