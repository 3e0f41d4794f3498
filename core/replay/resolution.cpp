// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "resolution.h"

#include "replay/selection.h"
#include "storage/eventstatus.h"
#include "storage/sqlrow.h"

#include <QSet>
#include <QSqlQuery>

#include <algorithm>

namespace redrive::replay {
namespace {
constexpr qsizetype kIdChunk = 500;

const QLatin1String kCandidateColumns("SELECT d.id, d.event_id, d.destination, d.status, d.replay_id ");

ResolveCandidate candidateFrom(const QSqlQuery &q)
{
    ResolveCandidate c;
    readColumns(q, c.deliveryId, c.eventId, c.destination, c.status);
    c.queuedByReplay = !q.value(4).isNull();
    return c;
}

QVariantList chunkOf(const QList<qint64> &ids, qsizetype start)
{
    QVariantList out;
    for (qint64 id : ids.mid(start, kIdChunk))
        out.append(id);
    return out;
}
} // namespace

QString ResolveCandidate::refusal() const
{
    if (status != DeliveryStatus::Dead)
        return QStringLiteral("not_dead");
    if (queuedByReplay)
        return QStringLiteral("queued_by_replay");
    return {};
}

Result<QList<ResolveCandidate>> resolveCandidatesById(
    Db &db, const QList<qint64> &ids, QList<qint64> *missing)
{
    QList<qint64> sorted = ids;
    std::sort(sorted.begin(), sorted.end());
    QList<ResolveCandidate> out;
    for (qsizetype start = 0; start < sorted.size(); start += kIdChunk) {
        const QVariantList chunk = chunkOf(sorted, start);
        auto rows = selectRows(db,
            kCandidateColumns + QLatin1String("FROM deliveries d WHERE d.id IN (")
                + sqlPlaceholders(chunk.size()) + QLatin1String(") ORDER BY d.id"),
            chunk, candidateFrom);
        if (!rows)
            return Failure(rows.error());
        out += *rows;
    }
    QSet<qint64> found;
    for (const ResolveCandidate &c : std::as_const(out))
        found.insert(c.deliveryId);
    for (qint64 id : std::as_const(sorted)) {
        if (!found.contains(id))
            missing->append(id);
    }
    return out;
}

Result<QList<ResolveCandidate>> deadDeliveriesMatching(Db &db, const EventFilter &filter, int limit)
{
    EventFilter dead = filter;
    dead.deliveryStatus = toString(DeliveryStatus::Dead);
    const SqlFragment frag = filteredDeliveriesSql(dead, db.dialect());
    QVariantList binds = frag.binds;
    binds.append(limit);
    return selectRows(db,
        kCandidateColumns
            + QStringLiteral("FROM deliveries d JOIN events e ON e.id = d.event_id "
                             "JOIN event_status s ON s.event_id = e.id WHERE %1 AND d.replay_id IS NULL "
                             "ORDER BY d.id LIMIT ?")
                  .arg(frag.sql),
        binds, candidateFrom);
}

Result<QList<qint64>> resolveDeliveries(Db &db, const QList<qint64> &ids, const DeliveryResolution &record)
{
    QList<qint64> sorted = ids;
    std::sort(sorted.begin(), sorted.end());
    QList<qint64> changed;
    QSet<qint64> events;
    for (qsizetype start = 0; start < sorted.size(); start += kIdChunk) {
        QVariantList binds { record.resolvedAt };
        binds += chunkOf(sorted, start);
        // RETURNING names exactly the rows this statement changed (both engines have it), so a
        // delivery a replay took meanwhile is neither resolved nor recorded.
        QSqlQuery q(db.handle());
        if (auto ran = runQuery(q,
                QStringLiteral("UPDATE deliveries SET status = %1, updated_at = ? WHERE id IN (%2) "
                               "AND status = %3 AND replay_id IS NULL RETURNING id, event_id")
                    .arg(sqlName(DeliveryStatus::Resolved), sqlPlaceholders(binds.size() - 1),
                        sqlName(DeliveryStatus::Dead)),
                binds);
            !ran)
            return Failure(ran.error());
        while (q.next()) {
            changed.append(q.value(0).toLongLong());
            events.insert(q.value(1).toLongLong());
        }
    }
    std::sort(changed.begin(), changed.end());
    for (qint64 id : std::as_const(changed)) {
        QSqlQuery insert(db.handle());
        if (auto ran = runQuery(insert,
                QStringLiteral("INSERT INTO delivery_resolutions (delivery_id, resolution, reason, ticket, "
                               "actor, role, resolved_at) VALUES (?, ?, ?, ?, ?, ?, ?)"),
                { id, record.resolution.name(), record.reason,
                    record.ticket.isNull() ? QStringLiteral("") : record.ticket, record.actor, record.role,
                    record.resolvedAt });
            !ran)
            return Failure(ran.error());
    }
    QList<qint64> eventIds(events.cbegin(), events.cend());
    std::sort(eventIds.begin(), eventIds.end());
    for (qint64 eventId : std::as_const(eventIds)) {
        if (auto refreshed = refreshEventStatus(db, eventId); !refreshed)
            return Failure(refreshed.error());
    }
    return changed;
}

} // namespace redrive::replay
