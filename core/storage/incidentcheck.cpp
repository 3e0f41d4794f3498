// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "incidentcheck.h"

#include "query/opsstats.h"

#include <QHash>
#include <QSqlQuery>
#include <QVariant>

namespace redrive {
namespace {

struct OpenRow {
    qint64 id = 0;
    qint64 lastCount = 0;
    std::optional<qint64> countAtAck;
};

using GroupKey = std::pair<QString, QString>; // destination, category

// Closes one open incident; false when another receiver closed it first.
Result<bool> closeIncident(Db &db, qint64 id, qint64 nowMs)
{
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q,
            QStringLiteral(
                "UPDATE incidents SET closed_at = ?, updated_at = ? WHERE id = ? AND closed_at IS NULL"),
            { nowMs, nowMs, id });
        !ran)
        return Failure(ran.error());
    return q.numRowsAffected() == 1;
}

// Opens an incident for the group unless one is open already (another receiver's check): then
// nullopt.
Result<std::optional<qint64>> openIncident(Db &db, const DeadLetterGroup &g, qint64 nowMs)
{
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q,
            QStringLiteral(
                "INSERT INTO incidents (destination, category, opened_at, count_at_open, last_count, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"),
            { g.destination, g.category.name(), nowMs, g.count, g.count, nowMs });
        !ran)
        return Failure(ran.error());
    if (q.numRowsAffected() != 1)
        return std::nullopt;
    QSqlQuery id(db.handle());
    if (auto ran = runQuery(id,
            QStringLiteral(
                "SELECT id FROM incidents WHERE destination = ? AND category = ? AND closed_at IS NULL"),
            { g.destination, g.category.name() });
        !ran)
        return Failure(ran.error());
    if (!id.next())
        return Failure(QString());
    return id.value(0).toLongLong();
}

} // namespace

Result<IncidentCheckResult> checkIncidents(
    Db &db, qint64 nowMs, qint64 growThreshold, const OnIncidentOpened &onOpened)
{
    Transaction tx(db);
    if (auto begun = tx.begin(); !begun)
        return Failure(begun.error());
    const auto groups = fetchDeadLetterGroups(db);
    if (!groups)
        return Failure(groups.error());
    QHash<GroupKey, OpenRow> open;
    {
        QSqlQuery q(db.handle());
        if (auto ran = runQuery(q,
                QStringLiteral(
                    "SELECT id, destination, category, last_count, count_at_ack FROM incidents WHERE closed_at IS NULL"),
                {});
            !ran)
            return Failure(ran.error());
        while (q.next()) {
            open.insert({ q.value(1).toString(), q.value(2).toString() },
                OpenRow { q.value(0).toLongLong(), q.value(3).toLongLong(),
                    q.value(4).isNull() ? std::nullopt : std::optional<qint64>(q.value(4).toLongLong()) });
        }
    }

    IncidentCheckResult result;
    QString problem;
    const auto opened = [&](const DeadLetterGroup &g, bool grew = false) -> bool {
        const auto id = openIncident(db, g, nowMs);
        if (!id) {
            problem = id.error();
            return problem.isEmpty();
        }
        if (!*id)
            return true;
        result.opened.append({ **id, g.destination, g.category.name(), g.count, grew });
        if (onOpened) {
            if (auto done = onOpened(result.opened.last()); !done) {
                problem = done.error().isEmpty() ? QStringLiteral("storing an incident's notification failed")
                                                 : done.error();
                return false;
            }
        }
        return true;
    };
    const auto closed = [&](qint64 id) -> bool {
        const auto done = closeIncident(db, id, nowMs);
        if (!done)
            problem = done.error();
        return done.value_or(false);
    };
    for (const DeadLetterGroup &g : *groups) {
        const auto it = open.constFind({ g.destination, g.category.name() });
        if (it == open.constEnd()) {
            if (!opened(g))
                break;
            continue;
        }
        const OpenRow row = *it;
        open.erase(it);
        if (row.countAtAck && g.count >= *row.countAtAck + growThreshold) {
            if (closed(row.id)) {
                ++result.closed;
                if (!opened(g, true))
                    break;
            } else if (!problem.isEmpty()) {
                break;
            }
            continue;
        }
        if (g.count != row.lastCount) {
            QSqlQuery q(db.handle());
            if (auto ran = runQuery(q,
                    QStringLiteral("UPDATE incidents SET last_count = ?, updated_at = ? WHERE id = ? "
                                   "AND closed_at IS NULL"),
                    { g.count, nowMs, row.id });
                !ran) {
                problem = ran.error();
                break;
            }
        }
    }
    // What is left open has no dead letters any more.
    if (problem.isEmpty()) {
        for (const OpenRow &row : std::as_const(open)) {
            if (closed(row.id))
                ++result.closed;
            else if (!problem.isEmpty())
                break;
        }
    }
    if (!problem.isEmpty())
        return Failure(problem);
    QSqlQuery count(db.handle());
    if (auto ran
        = runQuery(count, QStringLiteral("SELECT count(*) FROM incidents WHERE closed_at IS NULL"), {});
        !ran)
        return Failure(ran.error());
    if (!count.next())
        return Failure(QString());
    result.open = count.value(0).toLongLong();
    if (auto committed = tx.commit(); !committed)
        return Failure(committed.error());
    return result;
}

Result<int> closeEmptiedIncidents(Db &db, qint64 nowMs)
{
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q,
            QStringLiteral("UPDATE incidents SET closed_at = ?, updated_at = ? WHERE closed_at IS NULL "
                           "AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.status = %1 "
                           "AND d.destination = incidents.destination "
                           "AND COALESCE(d.last_category, '') = incidents.category)")
                .arg(sqlName(DeliveryStatus::Dead)),
            { nowMs, nowMs });
        !ran)
        return Failure(ran.error());
    return q.numRowsAffected();
}

Result<int> purgeClosedIncidents(Db &db, qint64 cutoffMs, int batch)
{
    QSqlQuery q(db.handle());
    if (auto ran = runQuery(q,
            QStringLiteral(
                "DELETE FROM incidents WHERE id IN (SELECT id FROM incidents WHERE closed_at IS NOT "
                "NULL AND closed_at < ? ORDER BY closed_at, id LIMIT ?)"),
            { cutoffMs, batch });
        !ran)
        return Failure(ran.error());
    return q.numRowsAffected();
}

} // namespace redrive
