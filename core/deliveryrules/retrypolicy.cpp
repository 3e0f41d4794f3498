// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "retrypolicy.h"

#include <QByteArray>
#include <QDate>
#include <QDateTime>
#include <QList>
#include <QTime>

#include <algorithm>
#include <cmath>

namespace redrive::delivery {
namespace {

int monthFromName(QByteArrayView name)
{
    static const char *const months[]
        = { "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec" };
    const QByteArray lower = name.toByteArray().toLower();
    for (int i = 0; i < 12; ++i) {
        if (lower == months[i])
            return i + 1;
    }
    return 0;
}

std::optional<int> number(QByteArrayView text, int minDigits, int maxDigits)
{
    if (text.size() < minDigits || text.size() > maxDigits)
        return std::nullopt;
    int v = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
        v = v * 10 + (c - '0');
    }
    return v;
}

std::optional<QTime> clockTime(QByteArrayView text)
{
    const QList<QByteArray> parts = text.toByteArray().split(':');
    if (parts.size() != 3)
        return std::nullopt;
    const auto h = number(parts[0], 2, 2), m = number(parts[1], 2, 2), s = number(parts[2], 2, 2);
    if (!h || !m || !s)
        return std::nullopt;
    const QTime t(*h, *m, std::min(*s, 59)); // a leap second counts as :59
    return t.isValid() ? std::optional(t) : std::nullopt;
}

std::optional<qint64> toMs(int year, int month, int day, const QTime &time)
{
    const QDate date(year, month, day);
    if (!date.isValid())
        return std::nullopt;
    return QDateTime(date, time, Qt::UTC).toMSecsSinceEpoch();
}

// RFC 9110 §5.6.7: IMF-fixdate "Sun, 06 Nov 1994 08:49:37 GMT", obsolete RFC 850
// "Sunday, 06-Nov-94 08:49:37 GMT" and asctime "Sun Nov  6 08:49:37 1994".
std::optional<qint64> parseHttpDate(QByteArrayView value)
{
    QList<QByteArray> words;
    for (const QByteArray &w : value.toByteArray().simplified().split(' ')) {
        if (!w.isEmpty())
            words.append(w);
    }
    if (words.size() == 6 && words[0].endsWith(',') && words[5] == "GMT") { // IMF-fixdate
        const auto day = number(words[1], 2, 2);
        const int month = monthFromName(words[2]);
        const auto year = number(words[3], 4, 4);
        const auto time = clockTime(words[4]);
        if (day && month && year && time)
            return toMs(*year, month, *day, *time);
        return std::nullopt;
    }
    if (words.size() == 4 && words[0].endsWith(',') && words[3] == "GMT") { // RFC 850
        const QList<QByteArray> dmy = words[1].split('-');
        if (dmy.size() != 3)
            return std::nullopt;
        const auto day = number(dmy[0], 2, 2);
        const int month = monthFromName(dmy[1]);
        const auto yy = number(dmy[2], 2, 2);
        const auto time = clockTime(words[2]);
        if (!day || !month || !yy || !time)
            return std::nullopt;
        // RFC 9110: a two-digit year more than 50 years in the future is in the past century.
        const int year = *yy + (*yy >= 70 ? 1900 : 2000);
        return toMs(year, month, *day, *time);
    }
    if (words.size() == 5) { // asctime
        const int month = monthFromName(words[1]);
        const auto day = number(words[2], 1, 2);
        const auto time = clockTime(words[3]);
        const auto year = number(words[4], 4, 4);
        if (month && day && time && year)
            return toMs(*year, month, *day, *time);
    }
    return std::nullopt;
}

} // namespace

qint64 baseDelayMs(const DestinationConfig &destination, int attemptNumber)
{
    const int n = std::max(1, attemptNumber);
    if (!destination.retryScheduleMs.isEmpty()) {
        const qsizetype index = std::min<qsizetype>(n - 1, destination.retryScheduleMs.size() - 1);
        return std::max<qint64>(0, destination.retryScheduleMs.at(index));
    }
    qint64 delay = kExponentialBaseMs;
    for (int i = 1; i < n && delay < kExponentialCapMs; ++i)
        delay *= 2;
    return std::min(delay, kExponentialCapMs);
}

qint64 applyJitter(qint64 baseMs, double jitter, double draw)
{
    const double j = std::clamp(jitter, 0.0, 0.5);
    const double d = std::clamp(draw, -1.0, 1.0);
    const double base = static_cast<double>(baseMs);
    const double low = std::ceil(base * (1.0 - j));
    const double high = std::floor(base * (1.0 + j));
    return static_cast<qint64>(std::clamp(std::round(base + d * j * base), low, high));
}

std::optional<qint64> parseRetryAfterMs(QByteArrayView value, qint64 nowMs)
{
    const QByteArray trimmed = value.toByteArray().trimmed();
    if (trimmed.isEmpty())
        return std::nullopt;
    bool digits = true;
    for (char c : trimmed)
        digits = digits && c >= '0' && c <= '9';
    if (digits) {
        if (trimmed.size() > 9) // over 31 years; the clamp caps it anyway
            return std::optional<qint64>(999'999'999LL * 1000);
        return trimmed.toLongLong() * 1000;
    }
    const auto at = parseHttpDate(trimmed);
    if (!at)
        return std::nullopt;
    return std::max<qint64>(0, *at - nowMs);
}

qint64 clampRetryAfter(qint64 retryAfterMs, qint64 scheduledMs, qint64 retryAfterMaxMs)
{
    const qint64 upper = std::max(scheduledMs, retryAfterMaxMs);
    return std::clamp(retryAfterMs, scheduledMs, upper);
}

ProjectedSchedule projectSchedule(
    const DestinationConfig &destination, double jitter, int attemptsMade, qint64 nextAttemptAtMs)
{
    ProjectedSchedule out;
    const int maxAttempts = std::max(1, destination.maxAttempts);
    if (attemptsMade >= maxAttempts)
        return out;
    const double j = std::clamp(jitter, 0.0, 0.5);
    ProjectedAttempt next { attemptsMade + 1, nextAttemptAtMs, nextAttemptAtMs, nextAttemptAtMs };
    out.attempts.append(next);
    for (int number = attemptsMade + 2; number <= maxAttempts; ++number) {
        const qint64 base = baseDelayMs(destination, number - 1);
        const ProjectedAttempt &prev = out.attempts.constLast();
        out.attempts.append({ number, prev.earliestMs + applyJitter(base, j, -1.0), prev.expectedMs + base,
            prev.latestMs + applyJitter(base, j, 1.0) });
    }
    ProjectedAttempt dead = out.attempts.constLast();
    dead.number = 0;
    out.deadLetter = dead;
    return out;
}

} // namespace redrive::delivery
