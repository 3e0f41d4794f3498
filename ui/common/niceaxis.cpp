// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "niceaxis.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace redrive::ui {
namespace {

// Floor and ceiling of x / step, forgiving the rounding error of a quotient that is meant to be
// whole (0.3 / 0.1 is 2.9999999999999996).
double floorSteps(double x, double step)
{
    const double q = x / step;
    const double r = std::round(q);
    return std::abs(q - r) < 1e-9 ? r : std::floor(q);
}

double ceilSteps(double x, double step)
{
    const double q = x / step;
    const double r = std::round(q);
    return std::abs(q - r) < 1e-9 ? r : std::ceil(q);
}

qint64 floorDiv(qint64 a, qint64 b)
{
    const qint64 q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

qint64 ceilDiv(qint64 a, qint64 b)
{
    return -floorDiv(-a, b);
}

constexpr qint64 kSecond = 1000;
constexpr qint64 kMinute = 60 * kSecond;
constexpr qint64 kHour = 60 * kMinute;
constexpr qint64 kDay = 24 * kHour;

struct TimeStep {
    qint64 ms;
    TimeTickUnit unit;
};

constexpr std::array kTimeSteps { TimeStep { kSecond, TimeTickUnit::Seconds },
    TimeStep { 2 * kSecond, TimeTickUnit::Seconds }, TimeStep { 5 * kSecond, TimeTickUnit::Seconds },
    TimeStep { 10 * kSecond, TimeTickUnit::Seconds }, TimeStep { 15 * kSecond, TimeTickUnit::Seconds },
    TimeStep { 30 * kSecond, TimeTickUnit::Seconds }, TimeStep { kMinute, TimeTickUnit::Minutes },
    TimeStep { 2 * kMinute, TimeTickUnit::Minutes }, TimeStep { 5 * kMinute, TimeTickUnit::Minutes },
    TimeStep { 10 * kMinute, TimeTickUnit::Minutes }, TimeStep { 15 * kMinute, TimeTickUnit::Minutes },
    TimeStep { 30 * kMinute, TimeTickUnit::Minutes }, TimeStep { kHour, TimeTickUnit::Hours },
    TimeStep { 2 * kHour, TimeTickUnit::Hours }, TimeStep { 3 * kHour, TimeTickUnit::Hours },
    TimeStep { 6 * kHour, TimeTickUnit::Hours }, TimeStep { 12 * kHour, TimeTickUnit::Hours },
    TimeStep { kDay, TimeTickUnit::Days }, TimeStep { 2 * kDay, TimeTickUnit::Days },
    TimeStep { 7 * kDay, TimeTickUnit::Days } };

} // namespace

NiceValueAxis niceValueAxis(double low, double high, int maxIntervals, bool integers)
{
    maxIntervals = std::max(1, maxIntervals);
    if (!std::isfinite(low))
        low = 0;
    if (!std::isfinite(high) || high < low)
        high = low;
    if (high == low)
        high = low + 1; // an empty range still needs an axis; counts read 0..1

    const double magnitude = std::pow(10.0, std::floor(std::log10((high - low) / maxIntervals)));
    NiceValueAxis axis;
    for (double scale = magnitude;; scale *= 10) {
        for (const double m : { 1.0, 2.0, 5.0 }) {
            double step = m * scale;
            if (integers)
                step = std::max(1.0, std::round(step));
            const double first = floorSteps(low, step);
            const double last = ceilSteps(high, step);
            const int intervals = int(std::max(1.0, last - first));
            if (intervals <= maxIntervals) {
                axis.step = step;
                axis.min = first * step;
                axis.max = axis.min + intervals * step;
                axis.intervals = intervals;
                axis.decimals = integers ? 0 : std::max(0, int(-std::floor(std::log10(step) + 1e-9)));
                return axis;
            }
        }
    }
}

NiceTimeAxis niceTimeAxis(qint64 fromMs, qint64 toMs, qint64 utcOffsetMs, int maxIntervals)
{
    maxIntervals = std::max(1, maxIntervals);
    if (toMs <= fromMs)
        toMs = fromMs + kMinute;
    // Work in local wall-clock milliseconds so an hour or a day starts where the reader's does.
    const qint64 localFrom = fromMs + utcOffsetMs;
    const qint64 localTo = toMs + utcOffsetMs;
    NiceTimeAxis axis;
    for (const TimeStep &s : kTimeSteps) {
        const qint64 first = floorDiv(localFrom, s.ms);
        const qint64 last = ceilDiv(localTo, s.ms);
        axis = NiceTimeAxis { first * s.ms - utcOffsetMs, last * s.ms - utcOffsetMs, s.ms,
            int(std::max<qint64>(1, last - first)), s.unit, false };
        if (axis.intervals <= maxIntervals)
            break;
    }
    // Past the ladder's last step (months of data) the range stays on whole weeks, with more
    // intervals than asked for.
    axis.spansDays = floorDiv(axis.fromMs + utcOffsetMs, kDay) != floorDiv(axis.toMs + utcOffsetMs - 1, kDay);
    return axis;
}

} // namespace redrive::ui
