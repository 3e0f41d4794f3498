// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "util/metrics.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>

namespace redrive::delivery {

// The engine's Prometheus series, per destination. Instruments are created up front (dead
// letters per category lazily, on the engine thread) so the hot path only touches atomics.
class EngineMetrics final {
public:
    EngineMetrics(metrics::Registry &registry, const QStringList &destinations);

    void delivered(const QString &destination);
    void retried(const QString &destination);
    void deadLettered(const QString &destination, FailureCategory category);
    void attemptFinished(const QString &destination, double seconds);
    void inFlight(const QString &destination, int delta);
    void leaseRefused();
    void leasesRescued(int count);
    void purged(int count);
    // After each incident check: open incidents in the database (all receivers' view alike).
    void incidentsOpen(qint64 count);
    // From the periodic backlog query (engine thread); read when /metrics is scraped.
    void backlog(const QString &destination, qint64 count, double oldestDueAgeSeconds);
    // 1 while the destination's circuit is open (redrive_destination_circuit_open).
    void circuitOpen(const QString &destination, bool open);

private:
    struct Destination {
        metrics::Counter *delivered = nullptr;
        metrics::Counter *retried = nullptr;
        metrics::Gauge *inFlight = nullptr;
        metrics::Gauge *circuitOpen = nullptr;
        metrics::Histogram *duration = nullptr;
        QHash<int, metrics::Counter *> dead;
    };
    struct Backlog {
        std::atomic<double> count { 0 };
        std::atomic<double> oldestAge { 0 };
    };
    Destination *find(const QString &destination);

    metrics::Registry &m_registry;
    QHash<QString, Destination> m_destinations;
    QHash<QString, std::shared_ptr<Backlog>> m_backlog;
    metrics::Counter *m_refused = nullptr;
    metrics::Counter *m_rescued = nullptr;
    metrics::Counter *m_purged = nullptr;
    metrics::Gauge *m_incidentsOpen = nullptr;
};

} // namespace redrive::delivery
