// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "evidencereader.h"

#include "audit/auditlog.h"
#include "storage/sqlrow.h"

#include <QSqlQuery>

#include <algorithm>

namespace redrive::audit {
Result<std::optional<EvidenceData>> readEvidenceData(
    Db &db, qint64 eventId, const EvidenceReadOptions &options)
{
    EvidenceData data;
    EventDetailParts parts;
    parts.body = options.originalBody ? EventDetailParts::Body::Original : EventDetailParts::Body::Shown;
    auto detail = fetchEventDetail(db, eventId, parts);
    if (!detail)
        return Failure(detail.error());
    if (!*detail)
        return std::nullopt;
    data.detail = std::move(**detail);

    QList<qint64> deliveryIds;
    for (const DeliveryRecord &d : std::as_const(data.detail.deliveries))
        deliveryIds.append(d.summary.id);
    QList<qint64> replayIds;
    for (const DeliveryRecord &d : std::as_const(data.detail.deliveries)) {
        for (const AttemptRecord &a : d.attempts) {
            if (a.replayId)
                replayIds.append(*a.replayId);
        }
    }
    const auto selecting = fetchReplaysOfDeliveries(db, deliveryIds);
    if (!selecting)
        return Failure(selecting.error());
    replayIds.append(*selecting);
    std::sort(replayIds.begin(), replayIds.end());
    const auto last = std::unique(replayIds.begin(), replayIds.end());
    replayIds.resize(last - replayIds.begin());
    if (!replayIds.isEmpty()) {
        QVariantList binds;
        for (qint64 id : std::as_const(replayIds))
            binds.append(id);
        auto replays = selectRows(db,
            QLatin1String(
                "SELECT id, status, requested_by, requester_role, reason, ticket, requires_approval, "
                "item_count, approved_by, decision_reason, created_at, decided_at, started_at, finished_at "
                "FROM replays WHERE id IN (")
                + sqlPlaceholders(binds.size()) + QLatin1String(") ORDER BY id"),
            binds, [](const QSqlQuery &q) {
                EvidenceReplay r;
                readColumns(q, r.id, r.status, r.requestedBy, r.requesterRole, r.reason, r.ticket,
                    r.requiresApproval, r.count, r.approvedBy, r.decisionReason, r.createdAt, r.decidedAt,
                    r.startedAt, r.finishedAt);
                return r;
            });
        if (!replays)
            return Failure(replays.error());
        data.replays = std::move(*replays);
    }

    // The entries about this event: the event, its deliveries, and the replays that selected them.
    QStringList targets = auditTargetsFor(eventId, deliveryIds);
    for (qint64 id : std::as_const(replayIds))
        targets.append(QStringLiteral("replay:%1").arg(id));
    QVariantList binds;
    for (const QString &t : std::as_const(targets))
        binds.append(t);
    binds.append(options.checkpointSeq);
    const auto aboutRead = selectRows(db,
        QStringLiteral("SELECT %1 FROM audit_log WHERE target IN (").arg(QLatin1String(kAuditColumns))
            + sqlPlaceholders(targets.size()) + QLatin1String(") AND seq <= ? ORDER BY seq"),
        binds, auditEntryFromQuery);
    if (!aboutRead)
        return Failure(aboutRead.error());
    const QList<AuditEntry> &about = *aboutRead;
    for (const AuditEntry &e : std::as_const(about))
        data.aboutEvent.insert(e.seq);

    const qint64 first = about.isEmpty() ? 0 : about.first().seq;
    if (about.isEmpty() || options.checkpointSeq - first + 1 > options.maxLinkedEntries) {
        data.audit = about;
        data.linkedToCheckpoint = false;
    } else {
        // Every entry from the first one about the event to the signed head: with them, each
        // hash can be recomputed and each link followed up to the checkpoint's hash.
        AuditQuery page;
        page.afterSeq = first - 1;
        page.limit = 1000;
        while (page.afterSeq < options.checkpointSeq) {
            const auto read = readAuditEntries(db, page);
            if (!read)
                return Failure(read.error());
            const QList<AuditEntry> &rows = *read;
            for (const AuditEntry &e : std::as_const(rows)) {
                if (e.seq > options.checkpointSeq)
                    break;
                data.audit.append(e);
            }
            if (rows.isEmpty())
                break;
            page.afterSeq = rows.last().seq;
        }
        if (data.audit.isEmpty() || data.audit.last().seq != options.checkpointSeq)
            return Failure(
                QStringLiteral("the database does not hold the audit log up to the checkpoint's entry %1")
                    .arg(options.checkpointSeq));
        data.linkedToCheckpoint = true;
    }
    return data;
}

} // namespace redrive::audit
