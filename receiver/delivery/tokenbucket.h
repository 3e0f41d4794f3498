// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>

namespace redrive::delivery {

// A per-destination token bucket (rate_per_second, burst of one second's worth, at least 1).
// It limits one process: with N redrived processes sharing a database a destination can see up
// to N × rate. Uses the monotonic clock, not the injected wall clock: it paces real requests.
class TokenBucket final {
public:
    using Clock = std::chrono::steady_clock;

    explicit TokenBucket(double ratePerSecond = 0)
        : m_rate(ratePerSecond)
        , m_capacity(std::max(1.0, ratePerSecond))
        , m_tokens(m_capacity)
        , m_last(Clock::now())
    { }

    [[nodiscard]] bool unlimited() const { return m_rate <= 0; }

    // Whole tokens available now (capped by `wanted`).
    int available(Clock::time_point now, int wanted)
    {
        if (unlimited())
            return wanted;
        refill(now);
        return std::min(wanted, static_cast<int>(m_tokens));
    }

    void take(int n) { m_tokens -= unlimited() ? 0 : n; }

    // How long until one token is available (zero when one is).
    [[nodiscard]] std::chrono::milliseconds untilNext(Clock::time_point now)
    {
        if (unlimited())
            return std::chrono::milliseconds(0);
        refill(now);
        if (m_tokens >= 1)
            return std::chrono::milliseconds(0);
        return std::chrono::milliseconds(
            static_cast<long long>(std::ceil((1.0 - m_tokens) * 1000.0 / m_rate)));
    }

private:
    void refill(Clock::time_point now)
    {
        const double elapsed = std::chrono::duration<double>(now - m_last).count();
        m_last = now;
        m_tokens = std::min(m_capacity, m_tokens + elapsed * m_rate);
    }

    double m_rate;
    double m_capacity;
    double m_tokens;
    Clock::time_point m_last;
};

} // namespace redrive::delivery
