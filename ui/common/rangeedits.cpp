// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "rangeedits.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDateTimeEdit>
#include <QLocale>
#include <QRegularExpression>

namespace redrive::ui {

QString rangeEditFormat()
{
    QString format = QLocale().dateTimeFormat(QLocale::ShortFormat);
    // "M/d/yy h:mm AP" → "M/d/yyyy h:mm AP"; a format that already has four digits stays.
    static const QRegularExpression twoDigitYear(QStringLiteral("(?<!y)yy(?!y)"));
    format.replace(twoDigitYear, QStringLiteral("yyyy"));
    return format;
}

void prepareRangeEdits(QDateTimeEdit *since, QDateTimeEdit *until)
{
    const QString format = rangeEditFormat();
    for (QDateTimeEdit *e : { since, until }) {
        e->setCalendarPopup(true);
        e->setDisplayFormat(format);
        e->setDateTime(QDateTime::currentDateTime());
        e->hide();
    }
    since->setAccessibleName(QCoreApplication::translate("redrive::ui::RangeEdits", "From (local time)"));
    until->setAccessibleName(QCoreApplication::translate("redrive::ui::RangeEdits", "Until (local time)"));
}

void showCustomRange(QDateTimeEdit *since, QDateTimeEdit *until, bool custom)
{
    since->setVisible(custom);
    until->setVisible(custom);
    if (custom) {
        since->setDateTime(QDateTime::currentDateTime().addDays(-1));
        until->setDateTime(QDateTime::currentDateTime().addSecs(60));
    }
}

} // namespace redrive::ui
