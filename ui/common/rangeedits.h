// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QString>

class QDateTimeEdit;

namespace redrive::ui {

// The "From" / "Until" editors of a page's custom time range (the events filter, the audit
// log): one look and one default, so the two pages cannot drift apart.
//
// Sets both up hidden, with a calendar popup, the user's locale's short date and time (with a
// four-digit year, so a typed date is never read in the wrong century), the current time, and the
// accessible names "From (local time)" / "Until (local time)".
void prepareRangeEdits(QDateTimeEdit *since, QDateTimeEdit *until);

// Shows both editors when the custom range was chosen, starting at the last 24 hours (until a
// minute from now, so what arrives meanwhile is included); hides them otherwise.
void showCustomRange(QDateTimeEdit *since, QDateTimeEdit *until, bool custom);

// The display format prepareRangeEdits() gives: the locale's short date-time, years in four digits.
[[nodiscard]] QString rangeEditFormat();

} // namespace redrive::ui
