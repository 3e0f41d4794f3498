// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QString>

#include <optional>

namespace redrive::ui {

// How the console shows times: local time with UTC in the tooltip, or the reverse. One setting
// for every view, read by models when they format a cell.
class TimeFormat final {
public:
    enum class Primary { Local, Utc };

    static Primary primary();
    static void setPrimary(Primary primary);

    // "2026-11-30 07:54:14" in the primary zone (with " UTC" when UTC is primary).
    static QString display(qint64 ms);
    // The other zone, fully qualified, for tooltips.
    static QString tooltip(qint64 ms);
    static QString display(const std::optional<qint64> &ms) { return ms ? display(*ms) : QString(); }
    // "3 min", "2 h 5 min", "4 d 1 h" — for ages and delays, numbers in the user's locale.
    static QString duration(qint64 ms);
};

} // namespace redrive::ui
