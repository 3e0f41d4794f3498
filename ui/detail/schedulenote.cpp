// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "schedulenote.h"

#include "common/timeformat.h"
#include "deliveryrules/retrypolicy.h"

#include <QCoreApplication>
#include <QStringList>

namespace redrive::ui {

QString scheduleNote(const DeliverySummary &s, const std::optional<RetrySchedules> &schedules)
{
    QString note = QCoreApplication::translate("redrive::ui::ScheduleNote", "%1: attempt %2 is due %3.")
                       .arg(s.destination)
                       .arg(s.attemptCount + 1)
                       .arg(TimeFormat::display(*s.nextAttemptAt));
    const DestinationConfig *dest = schedules ? schedules->destination(s.destination) : nullptr;
    if (!dest)
        return note
            + (schedules ? QCoreApplication::translate("redrive::ui::ScheduleNote",
                   " The receiver configuration has no destination of that name, so "
                   "the attempts after it cannot be projected.")
                         : QCoreApplication::translate("redrive::ui::ScheduleNote",
                             " Only the next attempt is known: add the receiver's configuration "
                             "file to the profile to see the projected remaining schedule."));
    const delivery::ProjectedSchedule p
        = delivery::projectSchedule(*dest, schedules->jitter, s.attemptCount, *s.nextAttemptAt);
    QStringList later;
    for (const delivery::ProjectedAttempt &a : p.attempts) {
        if (a.number <= s.attemptCount + 1)
            continue;
        later.append(QCoreApplication::translate("redrive::ui::ScheduleNote", "#%1 ≈ %2")
                         .arg(a.number)
                         .arg(TimeFormat::display(a.expectedMs)));
    }
    if (!later.isEmpty())
        note += QCoreApplication::translate("redrive::ui::ScheduleNote", " Then, if it keeps failing: ")
            + later.join(QLatin1String(", ")) + u'.';
    if (p.deadLetter) {
        const int last = p.attempts.isEmpty() ? dest->maxAttempts : p.attempts.last().number;
        note += QCoreApplication::translate(
            "redrive::ui::ScheduleNote", " Dead letter after attempt %1, around %2")
                    .arg(last)
                    .arg(TimeFormat::display(p.deadLetter->expectedMs));
        if (p.deadLetter->latestMs > p.deadLetter->earliestMs)
            note += QCoreApplication::translate(
                "redrive::ui::ScheduleNote", " (between %1 and %2 with jitter)")
                        .arg(TimeFormat::display(p.deadLetter->earliestMs),
                            TimeFormat::display(p.deadLetter->latestMs));
        note += u'.';
    }
    return note;
}

} // namespace redrive::ui
