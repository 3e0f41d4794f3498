// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "circuitstore.h"

#include "audit/auditlog.h"
#include "storage/duewakeup.h"
#include "storage/sqlrow.h"

namespace redrive {

namespace {

// Rows the statement touched: its RETURNING name, read back.
Result<bool> changedOne(Db &db, const QString &sql, const QVariantList &binds)
{
    const auto row = selectRow(db, sql, binds, [](const QSqlQuery &) { return true; });
    if (!row)
        return Failure(row.error());
    return row->has_value();
}

audit::AuditRecord systemRecord(
    const char *action, const QString &destination, const QString &reason, QJsonObject details)
{
    return audit::AuditRecord { QLatin1String(audit::kSystemActor), QLatin1String(audit::kSystemRole),
        QLatin1String(action), QStringLiteral("destination:%1").arg(destination), reason,
        std::move(details) };
}

} // namespace

Result<QHash<QString, CircuitState>> fetchCircuits(Db &db)
{
    struct Row {
        QString name;
        CircuitState state;
    };
    const auto rows = selectRows(db,
        QStringLiteral("SELECT name, circuit_open, circuit_since, circuit_reason, circuit_next_probe_at "
                       "FROM destination_state"),
        {}, [](const QSqlQuery &q) {
            Row r;
            readColumns(q, r.name, r.state.open, r.state.since, r.state.reason, r.state.nextProbeAt);
            return r;
        });
    if (!rows)
        return Failure(rows.error());
    QHash<QString, CircuitState> circuits;
    for (const Row &r : *rows)
        circuits.insert(r.name, r.state);
    return circuits;
}

Result<bool> markCircuitOpen(
    Db &db, const QString &destination, const QString &reason, qint64 nowMs, qint64 nextProbeAtMs)
{
    return changedOne(db,
        QStringLiteral(
            "INSERT INTO destination_state (name, circuit_open, circuit_since, circuit_reason, "
            "circuit_next_probe_at) VALUES (?, 1, ?, ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET circuit_open = 1, circuit_since = excluded.circuit_since, "
            "circuit_reason = excluded.circuit_reason, "
            "circuit_next_probe_at = excluded.circuit_next_probe_at "
            "WHERE destination_state.circuit_open = 0 RETURNING name"),
        { destination, nowMs, reason, nextProbeAtMs });
}

Result<bool> markCircuitClosed(Db &db, const QString &destination, const QString &reason, qint64 nowMs)
{
    return changedOne(db,
        QStringLiteral(
            "UPDATE destination_state SET circuit_open = 0, circuit_since = ?, circuit_reason = ?, "
            "circuit_next_probe_at = NULL WHERE name = ? AND circuit_open = 1 RETURNING name"),
        { nowMs, reason, destination });
}

Result<bool> openCircuit(Db &db, const QString &destination, const QString &reason, qint64 nowMs,
    qint64 probeEveryMs, const QJsonObject &details, const std::function<Result<>()> &alsoInTransaction)
{
    return withTransaction(db, [&]() -> Result<bool> {
        auto opened = markCircuitOpen(db, destination, reason, nowMs, nowMs + probeEveryMs);
        if (!opened || !*opened)
            return opened;
        if (alsoInTransaction) {
            if (auto also = alsoInTransaction(); !also)
                return Failure(also.error());
        }
        // The audit entry last: appending holds the chain's lock until the commit.
        if (auto appended = audit::appendAuditEntry(
                db, systemRecord("circuit_opened", destination, reason, details), nowMs);
            !appended)
            return Failure(appended.error());
        return true;
    });
}

Result<bool> closeCircuit(Db &db, const QString &destination, const QString &reason, qint64 nowMs,
    const std::function<Result<>()> &alsoInTransaction)
{
    return withTransaction(db, [&]() -> Result<bool> {
        auto closed = markCircuitClosed(db, destination, reason, nowMs);
        if (!closed || !*closed)
            return closed;
        if (alsoInTransaction) {
            if (auto also = alsoInTransaction(); !also)
                return Failure(also.error());
        }
        // The held backlog is due: wake every engine on the database.
        if (auto notified = notifyDeliveriesDue(db); !notified)
            return Failure(notified.error());
        if (auto appended
            = audit::appendAuditEntry(db, systemRecord("circuit_closed", destination, reason, {}), nowMs);
            !appended)
            return Failure(appended.error());
        return true;
    });
}

Result<bool> takeCircuitProbe(Db &db, const QString &destination, qint64 nowMs, qint64 probeEveryMs)
{
    return changedOne(db,
        QStringLiteral("UPDATE destination_state SET circuit_next_probe_at = ? WHERE name = ? "
                       "AND circuit_open = 1 AND circuit_next_probe_at <= ? RETURNING name"),
        { nowMs + probeEveryMs, destination, nowMs });
}

} // namespace redrive
