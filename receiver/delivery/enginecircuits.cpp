// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
//
// The engine's circuit breakers: counting failures, opening and closing the shared state, probes.
// See docs/operations.md "Circuit breaker".
#include "engineprivate.h"
#include "notify/notification.h"
#include "storage/circuitstore.h"

#include <QJsonObject>

#include <algorithm>

namespace redrive::delivery {

namespace {

QString seconds(qint64 ms)
{
    return QString::number(static_cast<double>(ms) / 1000.0, 'g', 6);
}

} // namespace

bool DeliveryEngine::Private::circuitOpen(const QString &destination) const
{
    const auto it = destinations.constFind(destination);
    return it != destinations.constEnd() && it->circuit && it->circuit->isOpen();
}

void DeliveryEngine::Private::setCircuitOpen(
    const QString &name, DestinationState &state, bool open, qint64 nextProbeAt)
{
    const bool was = state.circuit->isOpen();
    state.circuit->setOpen(open, nextProbeAt);
    metrics.circuitOpen(name, open);
    if (open && !was)
        dispatcher->dropQueued(name); // claims not yet sent go back, untouched
    if (!open && was)
        inbox->wakeUp(); // the held backlog is due
}

void DeliveryEngine::Private::noteForCircuit(
    const Finished &f, const DestinationConfig *dest, AttemptRecord &attempt)
{
    const QString &name = f.claim.destination;
    auto it = destinations.find(name);
    if (it == destinations.end() || !it->circuit)
        return;
    CircuitBreaker &breaker = *it->circuit;
    const Classification &cls = attempt.classification;
    const qint64 now = clock.nowMs();
    if (cls.success) {
        breaker.succeeded();
        if (!breaker.isOpen())
            return;
        // A probe (or an attempt sent just before the circuit opened) got through: close it.
        const QString why = QStringLiteral("a probe succeeded");
        // This receiver closed it: the one that tells, in the transaction that closes it.
        const auto closed = closeCircuit(*db, name, why, now,
            [&] { return storeNotification(notify::circuitChanged(name, false, why, now)); });
        noteDb(closed.has_value());
        if (!closed)
            qCWarning(lcDelivery, "closing the circuit of %s failed: %s", qPrintable(name),
                qPrintable(closed.error()));
        else
            qCInfo(lcDelivery, "circuit of %s closed: a probe succeeded", qPrintable(name));
        setCircuitOpen(name, *it, false, 0);
        return;
    }
    if (!cls.retryable || breaker.isOpen() || !breaker.failed(attempt.recordedAt))
        return;
    const CircuitConfig &c = breaker.config();
    const QString reason = QStringLiteral("%1 retryable failures in a row within %2 s; the last: %3")
                               .arg(c.failures)
                               .arg(seconds(c.withinMs), cls.explanation.left(200));
    const QJsonObject details { { QStringLiteral("failures"), c.failures },
        { QStringLiteral("within_seconds"), static_cast<double>(c.withinMs) / 1000.0 },
        { QStringLiteral("probe_every_seconds"), static_cast<double>(c.probeEveryMs) / 1000.0 },
        { QStringLiteral("category"), toString(cls.category) },
        { QStringLiteral("status_code"), attempt.statusCode } };
    // Not the explanation in the notification: a redirect's explanation names its Location, and
    // header values stay out of notifications.
    const QString why
        = QStringLiteral("%1 retryable failures in a row within %2 s; the last: %3%4")
              .arg(c.failures)
              .arg(seconds(c.withinMs), toString(cls.category),
                  attempt.statusCode ? QStringLiteral(" (HTTP %1)").arg(attempt.statusCode) : QString());
    const auto opened = openCircuit(*db, name, reason, now, c.probeEveryMs, details,
        [&] { return storeNotification(notify::circuitChanged(name, true, why, now)); });
    noteDb(opened.has_value());
    if (!opened)
        qCWarning(lcDelivery, "recording the open circuit of %s failed (held here all the same): %s",
            qPrintable(name), qPrintable(opened.error()));
    else
        qCWarning(lcDelivery, "circuit of %s opened: %s; one probe every %s s", qPrintable(name),
            qPrintable(reason), qPrintable(seconds(c.probeEveryMs)));
    setCircuitOpen(name, *it, true, now + c.probeEveryMs);
    // The failure that opened the circuit is held like the ones after it.
    if (attempt.newStatus == DeliveryStatus::Dead && !f.claim.replayId)
        attempt = decide(f, dest, true);
}

std::optional<ClaimRequest> DeliveryEngine::Private::probeRequest(
    const QString &name, DestinationState &state, Steady::time_point *deadline)
{
    CircuitBreaker &breaker = *state.circuit;
    if (state.inFlight > 0)
        return std::nullopt; // a probe (or a claim from before) is still out; its result decides
    const qint64 now = clock.nowMs();
    if (now < breaker.nextProbeAt()) {
        *deadline
            = std::min(*deadline, Steady::now() + std::chrono::milliseconds(breaker.nextProbeAt() - now));
        return std::nullopt;
    }
    const qint64 every = breaker.config().probeEveryMs;
    breaker.setNextProbeAt(now + every);
    const auto took = takeCircuitProbe(*db, name, now, every);
    noteDb(took.has_value());
    if (!took || !*took)
        return std::nullopt; // another receiver probes this time, or the circuit closed (read back soon)
    return ClaimRequest { name, 1, leaseFor(*state.config), true };
}

void DeliveryEngine::Private::refreshCircuits()
{
    const bool any = std::any_of(destinations.cbegin(), destinations.cend(),
        [](const DestinationState &s) { return s.circuit.has_value(); });
    if (!any)
        return;
    const auto circuits = fetchCircuits(*db);
    noteDb(circuits.has_value());
    if (!circuits) {
        if (dbFailures <= 3)
            qCWarning(lcDelivery, "reading circuit states failed: %s", qPrintable(circuits.error()));
        return;
    }
    for (auto it = destinations.begin(); it != destinations.end(); ++it) {
        if (!it->circuit)
            continue;
        const CircuitState shared = circuits->value(it.key());
        if (shared.open == it->circuit->isOpen()) {
            if (shared.open && shared.nextProbeAt)
                it->circuit->setNextProbeAt(*shared.nextProbeAt);
            continue;
        }
        // Another receiver (or an admin) changed it.
        qCInfo(lcDelivery, "circuit of %s is %s (shared state)", qPrintable(it.key()),
            shared.open ? "open" : "closed");
        setCircuitOpen(it.key(), *it, shared.open, shared.nextProbeAt.value_or(clock.nowMs()));
    }
}

} // namespace redrive::delivery
