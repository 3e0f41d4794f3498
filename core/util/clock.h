// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QDateTime>

#include <atomic>

namespace redrive {

// The one source of "now" for everything that stores or schedules a time: retry schedules,
// audit entries, leases, signature tolerance. Tests inject a ManualClock.
class Clock {
public:
    virtual ~Clock() = default;
    // Milliseconds since the Unix epoch, UTC.
    [[nodiscard]] virtual qint64 nowMs() const = 0;
    [[nodiscard]] qint64 nowSeconds() const { return nowMs() / 1000; }
    [[nodiscard]] QDateTime now() const { return QDateTime::fromMSecsSinceEpoch(nowMs(), Qt::UTC); }

    static const Clock &system();
};

class SystemClock final : public Clock {
public:
    [[nodiscard]] qint64 nowMs() const override;
};

// A clock that only moves when told to. Thread-safe.
class ManualClock final : public Clock {
public:
    explicit ManualClock(qint64 startMs = 1'700'000'000'000)
        : m_now(startMs)
    { }
    [[nodiscard]] qint64 nowMs() const override { return m_now.load(); }
    void setMs(qint64 ms) { m_now.store(ms); }
    void advanceMs(qint64 ms) { m_now.fetch_add(ms); }

private:
    std::atomic<qint64> m_now;
};

// ISO-8601 UTC with milliseconds ("2026-11-30T06:54:14.123Z"), the API's time format.
QString isoUtc(qint64 ms);

} // namespace redrive
