// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "databaseavailability.h"

#include <QDateTime>
#include <QLoggingCategory>

#include <cmath>

namespace redrive {
namespace {
Q_LOGGING_CATEGORY(lcAvailability, "redrive.storage.availability")
} // namespace

DatabaseAvailability::DatabaseAvailability(metrics::Registry &registry, const QString &component)
    : m_component(component)
    , m_upGauge(registry.gauge(QStringLiteral("redrive_database_up"),
          QStringLiteral("1 while the component reaches its database, 0 during an outage"),
          { { QStringLiteral("component"), component } }))
    , m_unavailable(registry.counter(QStringLiteral("redrive_database_unavailable_total"),
          QStringLiteral("Requests answered 503 (ingest, admin) or delivery turns paused because the "
                         "database could not be reached"),
          { { QStringLiteral("component"), component } }))
{
    m_upGauge.set(1);
}

void DatabaseAvailability::reportUp(Clock::time_point attemptStarted)
{
    if (m_up.load(std::memory_order_acquire))
        return;
    std::lock_guard lock(m_mutex);
    if (attemptStarted < m_downSince)
        return;
    if (m_up.exchange(true, std::memory_order_acq_rel))
        return;
    m_upGauge.set(1);
    m_upSince = Clock::now();
    const double seconds = std::chrono::duration<double>(m_upSince - m_downSince).count();
    const double refused = m_unavailable.value() - m_unavailableAtStart;
    if (m_lastOutage) {
        m_lastOutage->endedAtMs = QDateTime::currentMSecsSinceEpoch();
        m_lastOutage->refused = std::llround(refused);
    }
    qCInfo(lcAvailability, "%s: database reachable again after %.1f s (%.0f refused or paused meanwhile)",
        qUtf8Printable(m_component), seconds, refused);
}

void DatabaseAvailability::reportDown(const QString &error, Clock::time_point attemptStarted)
{
    if (!m_up.load(std::memory_order_acquire))
        return;
    std::lock_guard lock(m_mutex);
    if (attemptStarted < m_upSince)
        return;
    if (!m_up.exchange(false, std::memory_order_acq_rel))
        return;
    m_upGauge.set(0);
    m_downSince = Clock::now();
    m_unavailableAtStart = m_unavailable.value();
    m_lastOutage = DatabaseOutage { QDateTime::currentMSecsSinceEpoch(), std::nullopt, 0 };
    qCWarning(lcAvailability, "%s: database unreachable, refusing work until it is back: %s",
        qUtf8Printable(m_component), qUtf8Printable(error.simplified()));
}

std::optional<DatabaseOutage> DatabaseAvailability::lastOutage() const
{
    std::lock_guard lock(m_mutex);
    std::optional<DatabaseOutage> out = m_lastOutage;
    if (out && !out->endedAtMs)
        out->refused = std::llround(m_unavailable.value() - m_unavailableAtStart);
    return out;
}

void DatabaseAvailability::countUnavailable(double units)
{
    m_unavailable.inc(units);
}

} // namespace redrive
