// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "overviewrange.h"

#include <QCoreApplication>

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
constexpr std::array kSteps = { Step { kMinute, QT_TRANSLATE_NOOP("redrive::ui::OverviewSpan", "minute") },
    Step { 2 * kMinute, QT_TRANSLATE_NOOP("redrive::ui::OverviewSpan", "2 minutes") },
    Step { 3 * kMinute, QT_TRANSLATE_NOOP("redrive::ui::OverviewSpan", "3 minutes") },
    Step { 5 * kMinute, QT_TRANSLATE_NOOP("redrive::ui::OverviewSpan", "5 minutes") },
    Step { 10 * kMinute, QT_TRANSLATE_NOOP("redrive::ui::OverviewSpan", "10 minutes") },
    Step { 15 * kMinute, QT_TRANSLATE_NOOP("redrive::ui::OverviewSpan", "15 minutes") },
    Step { 30 * kMinute, QT_TRANSLATE_NOOP("redrive::ui::OverviewSpan", "30 minutes") },
    Step { kHour, QT_TRANSLATE_NOOP("redrive::ui::OverviewSpan", "hour") },
    Step { 2 * kHour, QT_TRANSLATE_NOOP("redrive::ui::OverviewSpan", "2 hours") },
    Step { 3 * kHour, QT_TRANSLATE_NOOP("redrive::ui::OverviewSpan", "3 hours") },
    Step { 6 * kHour, QT_TRANSLATE_NOOP("redrive::ui::OverviewSpan", "6 hours") },
    Step { 12 * kHour, QT_TRANSLATE_NOOP("redrive::ui::OverviewSpan", "12 hours") },
    Step { kDay, QT_TRANSLATE_NOOP("redrive::ui::OverviewSpan", "24 hours") },
    Step { 2 * kDay, QT_TRANSLATE_NOOP("redrive::ui::OverviewSpan", "2 days") },
    Step { 3 * kDay, QT_TRANSLATE_NOOP("redrive::ui::OverviewSpan", "3 days") },
    Step { 5 * kDay, QT_TRANSLATE_NOOP("redrive::ui::OverviewSpan", "5 days") },
    Step { 7 * kDay, QT_TRANSLATE_NOOP("redrive::ui::OverviewSpan", "7 days") },
    Step { 14 * kDay, QT_TRANSLATE_NOOP("redrive::ui::OverviewSpan", "14 days") },
    Step { 21 * kDay, QT_TRANSLATE_NOOP("redrive::ui::OverviewSpan", "21 days") },
    Step { 30 * kDay, QT_TRANSLATE_NOOP("redrive::ui::OverviewSpan", "30 days") } };

} // namespace

OverviewSpan fitOverviewSpan(std::optional<qint64> firstEventMs, qint64 nowMs)
{
    const qint64 age = firstEventMs ? std::max<qint64>(0, nowMs - *firstEventMs) : 0;
    for (const Step &step : kSteps) {
        // Strictly longer than the data, so the oldest event is not drawn on the axis itself.
        if (step.ms > age)
            return { step.ms, QCoreApplication::translate("redrive::ui::OverviewSpan", step.label) };
    }
    return { kSteps.back().ms,
        QCoreApplication::translate("redrive::ui::OverviewSpan", kSteps.back().label) };
}

} // namespace redrive::ui
