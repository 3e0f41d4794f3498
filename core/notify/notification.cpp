// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "notification.h"

#include "crypto/crypto.h"
#include "domain/types.h"
#include "storage/ingeststore.h"
#include "util/clock.h"

#include <QJsonDocument>
#include <QSqlQuery>

namespace redrive::notify {
namespace {

constexpr int kMaxReason = 200;

QString clipped(const QString &text)
{
    QString line = text.simplified();
    if (line.size() > kMaxReason)
        line = line.left(kMaxReason - 1) + QChar(0x2026);
    return line;
}

QString plural(qint64 n, const char *one, const char *many)
{
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

} // namespace

QString linkFor(const Notification &notification, const NotificationConfig &target)
{
    if (!notification.link)
        return {};
    ConsoleLink link = *notification.link;
    link.profile = target.consoleProfile;
    return link.toString();
}

QByteArray notificationBody(const Notification &notification, const NotificationConfig &target)
{
    const QString link = linkFor(notification, target);
    QJsonObject body;
    if (target.format == NotificationConfig::Format::Slack) {
        body.insert(QStringLiteral("text"),
            link.isEmpty() ? notification.summary : notification.summary + u' ' + link);
    } else {
        body = QJsonObject { { QStringLiteral("type"), notification.kind },
            { QStringLiteral("id"), notification.id }, { QStringLiteral("at"), isoUtc(notification.atMs) },
            { QStringLiteral("summary"), notification.summary },
            { QStringLiteral("link"), link.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(link) },
            { QStringLiteral("data"), notification.data } };
    }
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

bool anyWants(const QList<NotificationConfig> &targets, QStringView kind)
{
    return std::any_of(
        targets.cbegin(), targets.cend(), [&](const NotificationConfig &t) { return t.wants(kind); });
}

Result<int> enqueue(
    Db &db, const QList<NotificationConfig> &targets, const Notification &notification, qint64 nowMs)
{
    int created = 0;
    const QString source = QLatin1String(kInternalSource);
    for (const NotificationConfig &target : targets) {
        if (!target.wants(notification.kind))
            continue;
        const QString destination = target.destinationName();
        if (!notification.aboutDestination.isEmpty() && notification.aboutDestination == destination)
            continue;
        const QByteArray body = notificationBody(notification, target);
        const QString providerId = notification.id + u'@' + target.name;
        QSqlQuery event(db.handle());
        // The events' unique key (source, provider_event_id) makes the notification permanent-once.
        if (auto ran = runQuery(event,
                QStringLiteral(
                    "INSERT INTO events (source, provider_event_id, weak_id, event_type, occurred_at, "
                    "received_at, last_seen_at, seen_count, content_type, body, body_sha256, body_size, "
                    "headers, verified_by, remote_addr, origin) VALUES (?, ?, 0, ?, ?, ?, ?, 1, ?, ?, ?, ?, "
                    "'[]', '', '', 'notification') ON CONFLICT DO NOTHING RETURNING id"),
                { source, providerId, notification.kind, notification.atMs, nowMs, nowMs,
                    QStringLiteral("application/json"), body, QString::fromLatin1(crypto::sha256Hex(body)),
                    body.size() });
            !ran)
            return Failure(ran.error());
        if (!event.next())
            continue; // stored before
        const qint64 eventId = event.value(0).toLongLong();
        event.finish();
        QSqlQuery status(db.handle());
        if (auto ran
            = runQuery(status, QStringLiteral("INSERT INTO event_status (event_id, status) VALUES (?, ?)"),
                { eventId, toString(EventStatus::Pending) });
            !ran)
            return Failure(ran.error());
        QSqlQuery delivery(db.handle());
        if (auto ran = runQuery(delivery,
                QStringLiteral("INSERT INTO deliveries (event_id, destination, status, attempt_count, "
                               "next_attempt_at, idempotency_key, created_at, updated_at) VALUES "
                               "(?, ?, ?, 0, ?, ?, ?, ?)"),
                { eventId, destination, toString(DeliveryStatus::Pending), nowMs,
                    deliveryIdempotencyKey(source, providerId, destination), nowMs, nowMs });
            !ran)
            return Failure(ran.error());
        ++created;
    }
    return created;
}

Notification incidentOpened(qint64 incidentId, const QString &destination, const QString &category,
    qint64 deadLetters, bool grew, qint64 atMs)
{
    Notification n;
    n.kind = grew ? QStringLiteral("incident.grew") : QStringLiteral("incident.opened");
    // An incident opens once; a group that grows after an acknowledgement opens a new one, so
    // the incident's id is also the growth step's.
    n.id = QStringLiteral("%1:%2").arg(n.kind).arg(incidentId);
    n.atMs = atMs;
    const QString what = category.isEmpty() ? QStringLiteral("dead letters") : category;
    n.summary = grew ? QStringLiteral("Incident %1 grew: %2 for %3 (%4)")
                           .arg(incidentId)
                           .arg(plural(deadLetters, "dead letter", "dead letters"), destination, what)
                     : QStringLiteral("Incident %1 opened: %2 for %3 (%4)")
                           .arg(incidentId)
                           .arg(plural(deadLetters, "dead letter", "dead letters"), destination, what);
    n.link = ConsoleLink { LinkTarget::Incident, QString::number(incidentId), {} };
    n.data = QJsonObject { { QStringLiteral("incident_id"), incidentId },
        { QStringLiteral("destination"), destination }, { QStringLiteral("category"), category },
        { QStringLiteral("dead_letters"), deadLetters } };
    n.aboutDestination = destination;
    return n;
}

Notification replayPendingApproval(qint64 replayId, const QString &requestedBy, int count,
    const QString &reason, qint64 expiresAtMs, qint64 atMs)
{
    Notification n;
    n.kind = QStringLiteral("replay.pending_approval");
    n.id = QStringLiteral("%1:%2").arg(n.kind).arg(replayId);
    n.atMs = atMs;
    n.summary = QStringLiteral("Replay %1 of %2 by %3 waits for approval until %4")
                    .arg(replayId)
                    .arg(plural(count, "delivery", "deliveries"), requestedBy, isoUtc(expiresAtMs));
    n.link = ConsoleLink { LinkTarget::Replay, QString::number(replayId), {} };
    n.data = QJsonObject { { QStringLiteral("replay_id"), replayId },
        { QStringLiteral("requested_by"), requestedBy }, { QStringLiteral("count"), count },
        { QStringLiteral("reason"), clipped(reason) },
        { QStringLiteral("expires_at"), isoUtc(expiresAtMs) } };
    return n;
}

Notification replayHalted(
    qint64 replayId, qint64 failed, qint64 finished, qint64 unsent, const QString &reason, qint64 atMs)
{
    Notification n;
    n.kind = QStringLiteral("replay.halted");
    n.id = QStringLiteral("%1:%2").arg(n.kind).arg(replayId);
    n.atMs = atMs;
    n.summary = QStringLiteral("Replay %1 halted: %2 of %3 failed, %4 not sent")
                    .arg(replayId)
                    .arg(failed)
                    .arg(plural(finished, "finished attempt", "finished attempts"))
                    .arg(unsent);
    n.link = ConsoleLink { LinkTarget::Replay, QString::number(replayId), {} };
    n.data = QJsonObject { { QStringLiteral("replay_id"), replayId }, { QStringLiteral("failed"), failed },
        { QStringLiteral("finished"), finished }, { QStringLiteral("unsent"), unsent },
        { QStringLiteral("reason"), clipped(reason) } };
    return n;
}

Notification circuitChanged(const QString &destination, bool opened, const QString &reason, qint64 atMs)
{
    Notification n;
    n.kind = opened ? QStringLiteral("circuit.opened") : QStringLiteral("circuit.closed");
    // One per transition: the destination and the moment it changed.
    n.id = QStringLiteral("%1:%2:%3").arg(n.kind, destination).arg(atMs);
    n.atMs = atMs;
    n.summary = opened
        ? QStringLiteral("Circuit of %1 opened: its deliveries are held (%2)")
              .arg(destination, clipped(reason))
        : QStringLiteral("Circuit of %1 closed: its backlog drains (%2)").arg(destination, clipped(reason));
    n.link = ConsoleLink { LinkTarget::Destination, destination, {} };
    n.data = QJsonObject { { QStringLiteral("destination"), destination },
        { QStringLiteral("state"), opened ? QStringLiteral("open") : QStringLiteral("closed") },
        { QStringLiteral("reason"), clipped(reason) } };
    n.aboutDestination = destination;
    return n;
}

Notification reconcileMissing(
    const QString &source, qint64 runId, qint64 missing, qint64 recovered, qint64 atMs)
{
    Notification n;
    n.kind = QStringLiteral("reconcile.missing");
    n.id = QStringLiteral("%1:%2").arg(n.kind).arg(runId);
    n.atMs = atMs;
    n.summary = QStringLiteral("Reconciliation of %1 found %2 missing (%3 recovered)")
                    .arg(source, plural(missing, "event", "events"))
                    .arg(recovered);
    // No console link names a source or a run.
    n.data = QJsonObject { { QStringLiteral("source"), source }, { QStringLiteral("run_id"), runId },
        { QStringLiteral("missing"), missing }, { QStringLiteral("recovered"), recovered } };
    return n;
}

Notification auditChainBroken(std::optional<qint64> firstBadSeq, const QString &problem, qint64 atMs)
{
    Notification n;
    n.kind = QStringLiteral("audit.chain_broken");
    // One per broken entry: a chain that stays broken is not announced on every refusal.
    n.id = firstBadSeq ? QStringLiteral("%1:%2").arg(n.kind).arg(*firstBadSeq)
                       : QStringLiteral("%1:%2").arg(n.kind).arg(atMs);
    n.atMs = atMs;
    n.summary = firstBadSeq
        ? QStringLiteral("Audit chain broken at entry %1: %2").arg(*firstBadSeq).arg(clipped(problem))
        : QStringLiteral("Audit chain broken: %1").arg(clipped(problem));
    n.data = QJsonObject { { QStringLiteral("first_bad_seq"),
                               firstBadSeq ? QJsonValue(*firstBadSeq) : QJsonValue(QJsonValue::Null) },
        { QStringLiteral("problem"), clipped(problem) } };
    return n;
}

} // namespace redrive::notify
