// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "niceaxis.h"

#include <QLocale>
#include <QString>

namespace redrive::ui {

// Numbers, sizes, durations and dates as the user's locale writes them (QLocale(), which is the
// system locale unless QLocale::setDefault chose another): "1,204" in English, "1.204" in
// German. Every view that shows a number formats it here, so a later change of convention is
// one edit. Timestamps in tables keep TimeFormat's fixed, sortable form.
class LocaleFormat final {
public:
    // 1204 -> "1,204" / "1.204".
    static QString count(qint64 n);
    // A number with `decimals` fixed digits: 99.5 -> "99.5" / "99,5".
    static QString number(double value, int decimals);
    // A percentage, 0..100, with the locale's percent sign: "99.5%" / "99,5%".
    static QString percent(double value, int decimals);
    // Bytes in binary units: 1536 -> "1.5 KiB" / "1,5 KiB"; below 1 KiB, "512 bytes".
    static QString bytes(qint64 n);
    // Milliseconds, for latencies: 1234 -> "1,234 ms".
    static QString milliseconds(qint64 ms);
    // TimeFormat::duration with the numbers in the locale: "3 min", "1,204 d".
    static QString duration(qint64 ms);
    // A point in time in local time, in the locale's short date and time: "12/2/26 6:51 PM",
    // "02.12.26 18:51".
    static QString dateTime(qint64 ms, QLocale::FormatType format = QLocale::ShortFormat);
    // The format of the console's timestamps (lists, detail, audit): the locale's short date with
    // a four-digit year and its short time with seconds — "M/d/yyyy h:mm:ss AP",
    // "dd.MM.yyyy HH:mm:ss" — and ISO's "yyyy-MM-dd HH:mm:ss" in the C locale (no language set).
    static QString timestampFormat();
    // The QDateTimeAxis format for ticks of `unit`: the locale's short time ("HH:mm",
    // "h:mm AP"), with seconds when they matter and the short date when the range spans days.
    static QString axisTimeFormat(TimeTickUnit unit, bool spansDays);
};

} // namespace redrive::ui
