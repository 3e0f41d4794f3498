// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "enginemetrics.h"

namespace redrive::delivery {

EngineMetrics::EngineMetrics(metrics::Registry &registry, const QStringList &destinations)
    : m_registry(registry)
{
    for (const QString &name : destinations) {
        const metrics::Labels labels { { QStringLiteral("destination"), name } };
        Destination d;
        d.delivered = &registry.counter(QStringLiteral("redrive_deliveries_delivered_total"),
            QStringLiteral("Deliveries that succeeded (2xx)"), labels);
        d.retried = &registry.counter(QStringLiteral("redrive_delivery_retries_total"),
            QStringLiteral("Failed attempts that scheduled a retry"), labels);
        d.inFlight = &registry.gauge(QStringLiteral("redrive_delivery_in_flight"),
            QStringLiteral("Attempts running in this process"), labels);
        d.duration = &registry.histogram(QStringLiteral("redrive_delivery_attempt_duration_seconds"),
            QStringLiteral("Duration of delivery attempts"), labels);
        d.circuitOpen = &registry.gauge(QStringLiteral("redrive_destination_circuit_open"),
            QStringLiteral(
                "1 while the destination's circuit breaker is open (deliveries held, probes only)"),
            labels);
        m_destinations.insert(name, d);
        auto backlog = std::make_shared<Backlog>();
        m_backlog.insert(name, backlog);
        registry.callbackGauge(QStringLiteral("redrive_delivery_backlog"),
            QStringLiteral("Deliveries pending or retrying"), labels,
            [backlog] { return backlog->count.load(std::memory_order_relaxed); });
        registry.callbackGauge(QStringLiteral("redrive_delivery_oldest_pending_age_seconds"),
            QStringLiteral("How long the longest-waiting due delivery has waited past its "
                           "scheduled time"),
            labels, [backlog] { return backlog->oldestAge.load(std::memory_order_relaxed); });
    }
    m_refused = &registry.counter(QStringLiteral("redrive_delivery_lease_refused_total"),
        QStringLiteral("Results refused because the claim's lease had been lost"));
    m_rescued = &registry.counter(QStringLiteral("redrive_delivery_leases_rescued_total"),
        QStringLiteral("Expired leases rescued by the sweeper"));
    m_purged = &registry.counter(QStringLiteral("redrive_retention_purged_events_total"),
        QStringLiteral("Events removed by retention"));
    m_incidentsOpen = &registry.gauge(QStringLiteral("redrive_incidents_open"),
        QStringLiteral("Open incidents: dead-letter groups that appeared or grew, acknowledged or not"));
}

EngineMetrics::Destination *EngineMetrics::find(const QString &destination)
{
    auto it = m_destinations.find(destination);
    return it == m_destinations.end() ? nullptr : &it.value();
}

void EngineMetrics::delivered(const QString &destination)
{
    if (auto *d = find(destination))
        d->delivered->inc();
}

void EngineMetrics::circuitOpen(const QString &destination, bool open)
{
    if (auto *d = find(destination))
        d->circuitOpen->set(open ? 1 : 0);
}

void EngineMetrics::retried(const QString &destination)
{
    if (auto *d = find(destination))
        d->retried->inc();
}

void EngineMetrics::deadLettered(const QString &destination, FailureCategory category)
{
    auto *d = find(destination);
    if (!d)
        return;
    const int key = static_cast<int>(category);
    auto it = d->dead.find(key);
    if (it == d->dead.end())
        it = d->dead.insert(key,
            &m_registry.counter(QStringLiteral("redrive_deliveries_dead_total"),
                QStringLiteral("Deliveries that became dead letters, by the "
                               "category of their last attempt"),
                { { QStringLiteral("destination"), destination },
                    { QStringLiteral("category"), toString(category) } }));
    it.value()->inc();
}

void EngineMetrics::attemptFinished(const QString &destination, double seconds)
{
    if (auto *d = find(destination))
        d->duration->observe(seconds);
}

void EngineMetrics::inFlight(const QString &destination, int delta)
{
    if (auto *d = find(destination))
        d->inFlight->inc(delta);
}

void EngineMetrics::leaseRefused()
{
    m_refused->inc();
}

void EngineMetrics::leasesRescued(int count)
{
    m_rescued->inc(count);
}

void EngineMetrics::purged(int count)
{
    m_purged->inc(count);
}

void EngineMetrics::incidentsOpen(qint64 count)
{
    m_incidentsOpen->set(static_cast<double>(count));
}

void EngineMetrics::backlog(const QString &destination, qint64 count, double oldestDueAgeSeconds)
{
    const auto it = m_backlog.constFind(destination);
    if (it == m_backlog.constEnd())
        return;
    (*it)->count.store(static_cast<double>(count), std::memory_order_relaxed);
    (*it)->oldestAge.store(oldestDueAgeSeconds, std::memory_order_relaxed);
}

} // namespace redrive::delivery
