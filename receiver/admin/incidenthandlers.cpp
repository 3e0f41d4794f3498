// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "incidenthandlers.h"

#include "admin/jsonbody.h"
#include "query/incidents.h"
#include "util/clock.h"
#include "util/jsonvalues.h"

#include <QSqlQuery>

namespace redrive::admin {
namespace {

constexpr int kMaxIncidentNoteChars = 1000;

QJsonObject incidentJson(const Incident &i)
{
    return QJsonObject {
        { QStringLiteral("id"), i.id },
        { QStringLiteral("destination"), i.destination },
        { QStringLiteral("category"), i.category },
        { QStringLiteral("opened_at"), isoUtc(i.openedAt) },
        { QStringLiteral("count_at_open"), i.countAtOpen },
        { QStringLiteral("count"), i.count },
        { QStringLiteral("acknowledged_by"), json::nonEmptyOrNull(i.acknowledgedBy) },
        { QStringLiteral("acknowledged_at"), json::isoOrNull(i.acknowledgedAt) },
        { QStringLiteral("note"), json::nonEmptyOrNull(i.note) },
        { QStringLiteral("closed_at"), json::isoOrNull(i.closedAt) },
    };
}

} // namespace

http::Response listIncidents(RequestContext &ctx)
{
    if (auto r = admitQuery(ctx, access::Action::ReadEvents, {}))
        return *r;
    const auto rows = fetchOpenIncidents(ctx.db);
    if (!rows)
        return databaseError("listing incidents", rows.error());
    QJsonArray items;
    for (const Incident &i : *rows)
        items.append(incidentJson(i));
    return jsonResponse(200, QJsonObject { { QStringLiteral("items"), items } });
}

http::Response acknowledgeIncident(RequestContext &ctx, qint64 id)
{
    const QString target = QStringLiteral("incident:%1").arg(id);
    if (auto r = requirePermission(ctx, access::Action::AcknowledgeIncident, target))
        return *r;
    ApiError e;
    const auto body = readTextBody(
        ctx.request.body, QStringLiteral("note"), TextRule { true, kMaxIncidentNoteChars, true }, &e);
    if (!body)
        return errorResponse(e);
    const QString &note = *body;

    Transaction tx(ctx.db);
    if (auto failed = beginWrite(tx, "acknowledging an incident"))
        return *failed;
    const auto found = fetchIncident(ctx.db, id);
    if (!found)
        return databaseError("acknowledging an incident", found.error());
    const std::optional<Incident> &incident = *found;
    if (!incident) {
        return errorResponse(404, QStringLiteral("not_found"),
            QStringLiteral("incident %1 does not exist").arg(id), QStringLiteral("id"));
    }
    if (!incident->open())
        return errorResponse(409, QStringLiteral("conflict"),
            QStringLiteral("incident %1 is closed: its dead letters are gone").arg(id));
    if (incident->acknowledged())
        return errorResponse(409, QStringLiteral("conflict"),
            QStringLiteral("incident %1 was already acknowledged by %2")
                .arg(id)
                .arg(incident->acknowledgedBy));
    const qint64 now = ctx.clock.nowMs();
    QSqlQuery q(ctx.db.handle());
    // The guard in the WHERE clause makes a concurrent second acknowledgement change nothing.
    if (auto ran = runQuery(q,
            QStringLiteral("UPDATE incidents SET acknowledged_by = ?, acknowledged_at = ?, count_at_ack = "
                           "last_count, note = ?, updated_at = ? WHERE id = ? AND acknowledged_at IS NULL "
                           "AND closed_at IS NULL"),
            { ctx.who.name, now, note, now, id });
        !ran)
        return databaseError("acknowledging an incident", ran.error());
    if (q.numRowsAffected() != 1)
        return errorResponse(409, QStringLiteral("conflict"),
            QStringLiteral("incident %1 changed meanwhile; reload it").arg(id));
    const auto record = ctx.record(QStringLiteral("incident_acknowledged"), target, note,
        QJsonObject { { QStringLiteral("destination"), incident->destination },
            { QStringLiteral("category"), incident->category }, { QStringLiteral("count"), incident->count },
            { QStringLiteral("note"), note } });
    if (auto committed = auditAndCommit(ctx, tx, record); !committed)
        return databaseError("acknowledging an incident", committed.error());
    Incident done = *incident;
    done.acknowledgedBy = ctx.who.name;
    done.acknowledgedAt = now;
    done.note = note;
    return jsonResponse(200, incidentJson(done));
}

} // namespace redrive::admin
