// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"

#include <deque>

// One destination's circuit breaker as this engine sees it. The failures are counted per
// receiver (each counts what it sends); the state — open or closed, the next probe — is one row
// in destination_state shared by every receiver on the database (storage/circuitstore.h), which
// the engine reads back every second, so a circuit another receiver opened holds here too.
namespace redrive::delivery {

class CircuitBreaker final {
public:
    explicit CircuitBreaker(const CircuitConfig &config)
        : m_config(config)
    { }

    // A retryable failure at `atMs`. True when it is the `failures`-th in a row within `within`:
    // the circuit should open.
    bool failed(qint64 atMs)
    {
        m_failures.push_back(atMs);
        while (m_failures.size() > static_cast<std::size_t>(m_config.failures))
            m_failures.pop_front();
        return m_failures.size() == static_cast<std::size_t>(m_config.failures)
            && atMs - m_failures.front() <= m_config.withinMs;
    }
    // A success ends the row.
    void succeeded() { m_failures.clear(); }

    void setOpen(bool open, qint64 nextProbeAtMs = 0)
    {
        m_open = open;
        m_nextProbeAt = open ? nextProbeAtMs : 0;
        m_failures.clear();
    }
    [[nodiscard]] bool isOpen() const { return m_open; }
    [[nodiscard]] qint64 nextProbeAt() const { return m_nextProbeAt; }
    void setNextProbeAt(qint64 atMs) { m_nextProbeAt = atMs; }
    [[nodiscard]] const CircuitConfig &config() const { return m_config; }

private:
    CircuitConfig m_config;
    std::deque<qint64> m_failures; // the newest `failures` retryable failures in a row
    bool m_open = false;
    qint64 m_nextProbeAt = 0;
};

} // namespace redrive::delivery
