// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "overviewrange.h"

#include <array>

namespace redrive::ui {
namespace {

constexpr qint64 kMinute = 60'000;
constexpr qint64 kHour = 60 * kMinute;
constexpr qint64 kDay = 24 * kHour;

struct Step {
    qint64 ms;
    const char *label;
};

// Round steps a reader takes in at a glance; each at most twice the one before, so the
// data always covers at least half of the chart.
constexpr std::array kSteps = { Step { kMinute, "minute" }, Step { 2 * kMinute, "2 minutes" },
    Step { 3 * kMinute, "3 minutes" }, Step { 5 * kMinute, "5 minutes" }, Step { 10 * kMinute, "10 minutes" },
    Step { 15 * kMinute, "15 minutes" }, Step { 30 * kMinute, "30 minutes" }, Step { kHour, "hour" },
    Step { 2 * kHour, "2 hours" }, Step { 3 * kHour, "3 hours" }, Step { 6 * kHour, "6 hours" },
    Step { 12 * kHour, "12 hours" }, Step { kDay, "24 hours" }, Step { 2 * kDay, "2 days" },
    Step { 3 * kDay, "3 days" }, Step { 5 * kDay, "5 days" }, Step { 7 * kDay, "7 days" },
    Step { 14 * kDay, "14 days" }, Step { 21 * kDay, "21 days" }, Step { 30 * kDay, "30 days" } };

} // namespace

OverviewSpan fitOverviewSpan(std::optional<qint64> firstEventMs, qint64 nowMs)
{
    const qint64 age = firstEventMs ? std::max<qint64>(0, nowMs - *firstEventMs) : 0;
    for (const Step &step : kSteps) {
        // Strictly longer than the data, so the oldest event is not drawn on the axis itself.
        if (step.ms > age)
            return { step.ms, QString::fromLatin1(step.label) };
    }
    return { kSteps.back().ms, QString::fromLatin1(kSteps.back().label) };
}

} // namespace redrive::ui
