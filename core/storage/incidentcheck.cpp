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

// Closes one open incident; false with an empty error when another receiver closed it first.
bool closeIncident(Db &db, qint64 id, qint64 nowMs, QString *error)
{
    QSqlQuery q(db.handle());
    if (!runQuery(q,
            QStringLiteral(
                "UPDATE incidents SET closed_at = ?, updated_at = ? WHERE id = ? AND closed_at IS NULL"),
            { nowMs, nowMs, id }, error))
        return false;
    if (q.numRowsAffected() != 1) {
        error->clear();
        return false;
    }
    return true;
}

// Opens an incident for the group unless one is open already (another receiver's check).
std::optional<qint64> openIncident(Db &db, const DeadLetterGroup &g, qint64 nowMs, QString *error)
{
    QSqlQuery q(db.handle());
    if (!runQuery(q,
            QStringLiteral(
                "INSERT INTO incidents (destination, category, opened_at, count_at_open, last_count, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"),
            { g.destination, g.category.name(), nowMs, g.count, g.count, nowMs }, error))
        return std::nullopt;
    if (q.numRowsAffected() != 1) {
        error->clear();
        return std::nullopt;
    }
    QSqlQuery id(db.handle());
    if (!runQuery(id,
            QStringLiteral(
                "SELECT id FROM incidents WHERE destination = ? AND category = ? AND closed_at IS NULL"),
            { g.destination, g.category.name() }, error)
        || !id.next())
        return std::nullopt;
    return id.value(0).toLongLong();
}

} // namespace

std::optional<IncidentCheckResult> checkIncidents(Db &db, qint64 nowMs, qint64 growThreshold, QString *error)
{
    Transaction tx(db);
    if (!tx.begin(error))
        return std::nullopt;
    const auto groups = fetchDeadLetterGroups(db, error);
    if (!groups)
        return std::nullopt;
    QHash<GroupKey, OpenRow> open;
    {
        QSqlQuery q(db.handle());
        if (!runQuery(q,
                QStringLiteral(
                    "SELECT id, destination, category, last_count, count_at_ack FROM incidents WHERE closed_at IS NULL"),
                {}, error))
            return std::nullopt;
        while (q.next()) {
            open.insert({ q.value(1).toString(), q.value(2).toString() },
                OpenRow { q.value(0).toLongLong(), q.value(3).toLongLong(),
                    q.value(4).isNull() ? std::nullopt : std::optional<qint64>(q.value(4).toLongLong()) });
        }
    }

    IncidentCheckResult result;
    QString problem;
    const auto opened = [&](const DeadLetterGroup &g) -> bool {
        const auto id = openIncident(db, g, nowMs, &problem);
        if (id)
            result.opened.append({ *id, g.destination, g.category.name(), g.count });
        return id || problem.isEmpty();
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
            if (closeIncident(db, row.id, nowMs, &problem)) {
                ++result.closed;
                if (!opened(g))
                    break;
            } else if (!problem.isEmpty()) {
                break;
            }
            continue;
        }
        if (g.count != row.lastCount) {
            QSqlQuery q(db.handle());
            if (!runQuery(q,
                    QStringLiteral("UPDATE incidents SET last_count = ?, updated_at = ? WHERE id = ? "
                                   "AND closed_at IS NULL"),
                    { g.count, nowMs, row.id }, &problem))
                break;
        }
    }
    // What is left open has no dead letters any more.
    if (problem.isEmpty()) {
        for (const OpenRow &row : std::as_const(open)) {
            if (closeIncident(db, row.id, nowMs, &problem))
                ++result.closed;
            else if (!problem.isEmpty())
                break;
        }
    }
    if (!problem.isEmpty()) {
        if (error)
            *error = problem;
        return std::nullopt;
    }
    QSqlQuery count(db.handle());
    if (!runQuery(count, QStringLiteral("SELECT count(*) FROM incidents WHERE closed_at IS NULL"), {}, error)
        || !count.next())
        return std::nullopt;
    result.open = count.value(0).toLongLong();
    if (!tx.commit(error))
        return std::nullopt;
    return result;
}

} // namespace redrive
