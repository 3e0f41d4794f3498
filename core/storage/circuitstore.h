// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "storage/database.h"

#include <QHash>
#include <QJsonObject>
#include <QString>

#include <functional>
#include <optional>

// A destination's circuit breaker state in destination_state: one row per destination, shared by
// every receiver on the database. The delivery engine opens a circuit after its destination's
// failures and closes it on a successful probe; an admin may close it by hand (admin API). Opening
// and closing are conditional updates, so of several receivers exactly one does each and audits it.
namespace redrive {

struct CircuitState {
    bool open = false;
    std::optional<qint64> since; // when it last opened or closed
    QString reason;
    std::optional<qint64> nextProbeAt; // while open
};

// Every recorded circuit state, by destination name.
Result<QHash<QString, CircuitState>> fetchCircuits(Db &db);

// Inside the caller's transaction: marks the circuit open unless it is open already. True when
// this call opened it.
Result<bool> markCircuitOpen(
    Db &db, const QString &destination, const QString &reason, qint64 nowMs, qint64 nextProbeAtMs);
// Inside the caller's transaction: marks an open circuit closed. True when this call closed it.
Result<bool> markCircuitClosed(Db &db, const QString &destination, const QString &reason, qint64 nowMs);

// The engine's steps, each its own transaction with its audit entry (actor "redrive", role
// "system"): circuit_opened with `details`, circuit_closed. True when this call changed the state.
// `alsoInTransaction` runs in the same transaction when this call changed the state (the engine
// stores the transition's notification there); its failure rolls the change back.
Result<bool> openCircuit(Db &db, const QString &destination, const QString &reason, qint64 nowMs,
    qint64 probeEveryMs, const QJsonObject &details, const std::function<Result<>()> &alsoInTransaction = {});
Result<bool> closeCircuit(Db &db, const QString &destination, const QString &reason, qint64 nowMs,
    const std::function<Result<>()> &alsoInTransaction = {});

// Takes the open circuit's probe slot when it is due (next probe at <= now), moving it
// `probeEveryMs` on. True when this receiver may send the probe; false when the circuit is
// closed, not due, or another receiver took the slot.
Result<bool> takeCircuitProbe(Db &db, const QString &destination, qint64 nowMs, qint64 probeEveryMs);

} // namespace redrive
