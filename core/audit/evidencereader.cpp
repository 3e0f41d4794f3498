// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "evidencereader.h"

#include "audit/auditlog.h"

#include <QSqlQuery>

#include <algorithm>

namespace redrive::audit {
namespace {

std::optional<qint64> optLong(const QVariant &v)
{
    return v.isNull() ? std::nullopt : std::optional<qint64>(v.toLongLong());
}

} // namespace

Result<std::optional<EvidenceData>> readEvidenceData(
    Db &db, qint64 eventId, const EvidenceReadOptions &options)
{
    EvidenceData data;
    auto detail = fetchEventDetail(db, eventId);
    if (!detail)
        return Failure(detail.error());
    if (!*detail)
        return std::nullopt;
    data.detail = std::move(**detail);

    QVariantList deliveryIds;
    for (const DeliveryRecord &d : std::as_const(data.detail.deliveries))
        deliveryIds.append(d.summary.id);
    QList<qint64> replayIds;
    for (const DeliveryRecord &d : std::as_const(data.detail.deliveries)) {
        for (const AttemptRecord &a : d.attempts) {
            if (a.replayId)
                replayIds.append(*a.replayId);
        }
    }
    QSqlQuery q(db.handle());
    if (!deliveryIds.isEmpty()) {
        if (auto ran = runQuery(q,
                QLatin1String("SELECT DISTINCT replay_id FROM replay_items WHERE delivery_id IN (")
                    + sqlPlaceholders(deliveryIds.size()) + u')',
                deliveryIds);
            !ran)
            return Failure(ran.error());
        while (q.next())
            replayIds.append(q.value(0).toLongLong());
        q.finish();
    }
    std::sort(replayIds.begin(), replayIds.end());
    const auto last = std::unique(replayIds.begin(), replayIds.end());
    replayIds.resize(last - replayIds.begin());
    if (!replayIds.isEmpty()) {
        QVariantList binds;
        for (qint64 id : std::as_const(replayIds))
            binds.append(id);
        if (auto ran = runQuery(q,
                QLatin1String(
                    "SELECT id, status, requested_by, requester_role, reason, ticket, requires_approval, "
                    "item_count, approved_by, decision_reason, created_at, decided_at, started_at, finished_at "
                    "FROM replays WHERE id IN (")
                    + sqlPlaceholders(binds.size()) + QLatin1String(") ORDER BY id"),
                binds);
            !ran)
            return Failure(ran.error());
        while (q.next()) {
            EvidenceReplay r;
            r.id = q.value(0).toLongLong();
            r.status = q.value(1).toString();
            r.requestedBy = q.value(2).toString();
            r.requesterRole = q.value(3).toString();
            r.reason = q.value(4).toString();
            r.ticket = q.value(5).toString();
            r.requiresApproval = q.value(6).toInt() != 0;
            r.count = q.value(7).toLongLong();
            r.approvedBy = q.value(8).toString();
            r.decisionReason = q.value(9).toString();
            r.createdAt = q.value(10).toLongLong();
            r.decidedAt = optLong(q.value(11));
            r.startedAt = optLong(q.value(12));
            r.finishedAt = optLong(q.value(13));
            data.replays.append(r);
        }
        q.finish();
    }

    // The entries about this event: the event, its deliveries, and the replays that selected them.
    QList<qint64> deliveryIdList;
    for (const QVariant &v : std::as_const(deliveryIds))
        deliveryIdList.append(v.toLongLong());
    QStringList targets = auditTargetsFor(eventId, deliveryIdList);
    for (qint64 id : std::as_const(replayIds))
        targets.append(QStringLiteral("replay:%1").arg(id));
    QVariantList binds;
    for (const QString &t : std::as_const(targets))
        binds.append(t);
    binds.append(options.checkpointSeq);
    if (auto ran = runQuery(q,
            QStringLiteral("SELECT %1 FROM audit_log WHERE target IN (").arg(QLatin1String(kAuditColumns))
                + sqlPlaceholders(targets.size()) + QLatin1String(") AND seq <= ? ORDER BY seq"),
            binds);
        !ran)
        return Failure(ran.error());
    QList<AuditEntry> about;
    while (q.next())
        about.append(auditEntryFromQuery(q));
    q.finish();
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
