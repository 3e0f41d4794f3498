// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QtGlobal>

namespace redrive::ui {

// Chart axes a person can read: ranges that start and end on round numbers, with ticks a round
// step apart. Pure, so the choice is unit-tested without a chart.

// A value axis: [min, max] with `intervals` steps of `step` between its ticks (so intervals + 1
// ticks), `decimals` the digits a tick label needs.
struct NiceValueAxis {
    double min = 0;
    double max = 1;
    double step = 1;
    int intervals = 1;
    int decimals = 0;
};

// The smallest range of 1, 2 or 5 x 10^n steps that holds [low, high] in at most `maxIntervals`
// steps. With `integers` (counts) the step is a whole number, so no tick falls between two
// counts; a count range with nothing in it (high <= low) is drawn as 0..1. Non-finite or
// reversed input is treated as an empty range at `low`.
NiceValueAxis niceValueAxis(double low, double high, int maxIntervals = 5, bool integers = true);

// What the tick labels of a time axis need to show.
enum class TimeTickUnit { Seconds, Minutes, Hours, Days };

// A time axis: [fromMs, toMs] on whole multiples of `stepMs` in local time, with `intervals`
// ticks between them.
struct NiceTimeAxis {
    qint64 fromMs = 0;
    qint64 toMs = 0;
    qint64 stepMs = 0;
    int intervals = 1;
    TimeTickUnit unit = TimeTickUnit::Minutes;
    bool spansDays = false; // the range crosses a local midnight: labels name the day
};

// The shortest step from a ladder of round times (1 s … 30 s, 1 min … 30 min, 1 h … 12 h,
// 1 d, 2 d, 7 d) whose whole multiples cover [fromMs, toMs] in at most `maxIntervals` steps.
// `utcOffsetMs` is the local zone's offset, so hours and days fall on local hours and
// midnights. An empty range is widened to one minute.
NiceTimeAxis niceTimeAxis(qint64 fromMs, qint64 toMs, qint64 utcOffsetMs, int maxIntervals = 9);

} // namespace redrive::ui
