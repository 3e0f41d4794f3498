// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QString>

#include <optional>

namespace redrive::ui {

// The Overview's "Fit to the data" range: the shortest span from a fixed ladder (1 minute …
// 30 days) that reaches back to the oldest stored event, so a receiver that started a minute ago
// is drawn across the chart instead of in the last pixel of a 24-hour axis. Pure, so the choice
// is unit-tested without a database.
struct OverviewSpan {
    qint64 ms = 0;
    QString label; // "10 minutes", "24 hours", "7 days"
};

// `firstEventMs` is when the oldest stored event was received (nullopt: none stored). Events
// received "in the future" (a skewed clock) count as now. Data older than the longest span gets
// the longest span.
OverviewSpan fitOverviewSpan(std::optional<qint64> firstEventMs, qint64 nowMs);

} // namespace redrive::ui
