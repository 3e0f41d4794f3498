// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "destinationhandlers.h"

#include "admin/jsonbody.h"
#include "notify/notification.h"
#include "query/destinationstats.h"
#include "storage/circuitstore.h"
#include "storage/duewakeup.h"
#include "util/jsonvalues.h"

#include <QJsonArray>
#include <QSqlQuery>

namespace redrive::admin {
namespace {

// A pause with an end resumes by itself; one longer than this is a decision, not a wait: it is
// made without an end and lifted by hand.
constexpr qint64 kMaxTimedPauseMs = 31LL * 86'400'000;

// Scheme, host and port only. Many destinations are capability URLs: a chat incoming webhook
// (https://hooks.slack.com/services/T…/B…/<secret>) or a token in the query is a credential, and
// GET destinations is open to every role. Whatever followed the host is one "…".
QString redactedUrl(const QUrl &url)
{
    const QString origin
        = url.adjusted(QUrl::RemoveUserInfo | QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment)
              .toString();
    const bool more = (!url.path().isEmpty() && url.path() != u"/") || url.hasQuery() || url.hasFragment();
    return origin + (more ? QStringLiteral("/…") : QStringLiteral("/"));
}

// {"state","since","reason","next_probe_at"} and the breaker's settings.
QJsonObject circuitJson(const CircuitConfig &config, const CircuitState &state)
{
    return QJsonObject { { QStringLiteral("state"),
                             state.open ? QStringLiteral("open") : QStringLiteral("closed") },
        { QStringLiteral("since"), json::isoOrNull(state.since) },
        { QStringLiteral("reason"), json::textOrNull(state.reason) },
        { QStringLiteral("next_probe_at"), json::isoOrNull(state.open ? state.nextProbeAt : std::nullopt) },
        { QStringLiteral("failures"), config.failures },
        { QStringLiteral("within_seconds"), static_cast<double>(config.withinMs) / 1000.0 },
        { QStringLiteral("probe_every_seconds"), static_cast<double>(config.probeEveryMs) / 1000.0 } };
}

} // namespace

http::Response listDestinations(RequestContext &ctx)
{
    if (auto r = admitQuery(ctx, access::Action::ReadEvents, {}))
        return *r;
    const auto pauses = fetchDestinationPauses(ctx.db);
    if (!pauses)
        return databaseError("reading destination state", pauses.error());
    const auto circuits = fetchCircuits(ctx.db);
    if (!circuits)
        return databaseError("reading destination state", circuits.error());
    using json::textOrNull;
    QHash<QString, QJsonObject> state;
    for (auto it = pauses->cbegin(); it != pauses->cend(); ++it) {
        state.insert(it.key(),
            QJsonObject { { QStringLiteral("paused"), it->paused },
                { QStringLiteral("changed_by"), textOrNull(it->changedBy) },
                { QStringLiteral("changed_at"),
                    it->changedAt ? QJsonValue(isoUtc(*it->changedAt)) : QJsonValue(QJsonValue::Null) },
                { QStringLiteral("reason"), textOrNull(it->reason) },
                { QStringLiteral("paused_until"), json::isoOrNull(it->pausedUntil) } });
    }
    QJsonArray items;
    for (const DestinationConfig &d : ctx.config.destinations) {
        QJsonObject o { { QStringLiteral("name"), d.name }, { QStringLiteral("url"), redactedUrl(d.url) },
            { QStringLiteral("risk"), toString(d.risk) }, { QStringLiteral("paused"), false },
            { QStringLiteral("changed_by"), QJsonValue::Null },
            { QStringLiteral("changed_at"), QJsonValue::Null },
            { QStringLiteral("reason"), QJsonValue::Null },
            { QStringLiteral("paused_until"), QJsonValue::Null } };
        const QJsonObject s = state.value(d.name);
        for (auto it = s.begin(); it != s.end(); ++it)
            o.insert(it.key(), it.value());
        o.insert(QStringLiteral("circuit"),
            d.circuit ? circuitJson(*d.circuit, circuits->value(d.name)) : QJsonValue(QJsonValue::Null));
        items.append(o);
    }
    return jsonResponse(200, QJsonObject { { QStringLiteral("items"), items } });
}

http::Response setDestinationPaused(RequestContext &ctx, const QString &name, bool paused)
{
    const QString target = QStringLiteral("destination:%1").arg(name.left(200));
    if (auto r = requirePermission(ctx, access::Action::ManageDestinations, target))
        return *r;
    // {"reason"} for both; a pause may also name its end, {"until": an ISO-8601 time with a zone}.
    ApiError e;
    const auto body = parseJsonObject(ctx.request.body,
        paused ? QStringList { QStringLiteral("reason"), QStringLiteral("until") }
               : QStringList { QStringLiteral("reason") },
        &e);
    QString reason;
    if (!body || !readText(*body, QStringLiteral("reason"), TextRule {}, &reason, &e))
        return errorResponse(e);
    const qint64 now = ctx.clock.nowMs();
    std::optional<qint64> until;
    if (const QJsonValue value = body->value(QLatin1String("until"));
        !value.isUndefined() && !value.isNull()) {
        until = value.isString() ? parseTimestamp(value.toString()) : std::nullopt;
        if (!until)
            return errorResponse(badRequest(QStringLiteral("until"),
                QStringLiteral("must be an ISO-8601 time with a zone, such as 2026-12-03T06:00:00Z")));
        if (*until <= now)
            return errorResponse(
                badRequest(QStringLiteral("until"), QStringLiteral("must be in the future")));
        if (*until > now + kMaxTimedPauseMs)
            return errorResponse(badRequest(QStringLiteral("until"),
                QStringLiteral("may be at most 31 days ahead; pause without an end to pause for longer")));
    }
    if (!ctx.config.destination(name))
        return errorResponse(404, QStringLiteral("not_found"),
            QStringLiteral("no destination is named \"%1\"").arg(name.left(200)), QStringLiteral("name"));

    Transaction tx(ctx.db);
    if (auto failed = beginWrite(tx, "pausing a destination"))
        return *failed;
    QSqlQuery was(ctx.db.handle());
    was.prepare(QStringLiteral("SELECT paused FROM destination_state WHERE name = ?"));
    was.addBindValue(name);
    if (!was.exec())
        return databaseError("pausing a destination", sqlErrorText(was));
    const bool wasPaused = was.next() && was.value(0).toInt() != 0;
    was.finish();
    QSqlQuery q(ctx.db.handle());
    q.prepare(
        QStringLiteral("INSERT INTO destination_state (name, paused, changed_by, changed_at, reason, "
                       "paused_until) VALUES (?, ?, ?, ?, ?, ?) "
                       "ON CONFLICT (name) DO UPDATE SET paused = excluded.paused, changed_by = "
                       "excluded.changed_by, changed_at = excluded.changed_at, reason = excluded.reason, "
                       "paused_until = excluded.paused_until"));
    q.addBindValue(name);
    q.addBindValue(paused ? 1 : 0);
    q.addBindValue(ctx.who.name);
    q.addBindValue(now);
    q.addBindValue(reason);
    q.addBindValue(until ? QVariant(*until) : QVariant(QMetaType::fromType<qint64>()));
    if (!q.exec())
        return databaseError("pausing a destination", sqlErrorText(q));
    QJsonObject details { { QStringLiteral("was_paused"), wasPaused } };
    if (until)
        details.insert(QStringLiteral("until"), isoUtc(*until));
    const auto record
        = ctx.record(paused ? QStringLiteral("destination_paused") : QStringLiteral("destination_resumed"),
            target, reason, details);
    // A resumed destination's waiting deliveries are due now: wake every engine on the database.
    if (!paused) {
        if (auto notified = notifyDeliveriesDue(ctx.db); !notified)
            return databaseError("resuming a destination", notified.error());
    }
    if (auto committed = auditAndCommit(ctx, tx, record); !committed)
        return databaseError("pausing a destination", committed.error());
    if (!paused && ctx.wakeDelivery)
        ctx.wakeDelivery();
    return jsonResponse(200,
        QJsonObject { { QStringLiteral("name"), name }, { QStringLiteral("paused"), paused },
            { QStringLiteral("changed_by"), ctx.who.name }, { QStringLiteral("changed_at"), isoUtc(now) },
            { QStringLiteral("reason"), reason },
            { QStringLiteral("paused_until"), json::isoOrNull(until) } });
}

http::Response closeDestinationCircuit(RequestContext &ctx, const QString &name)
{
    const QString target = QStringLiteral("destination:%1").arg(name.left(200));
    if (auto r = requirePermission(ctx, access::Action::ManageDestinations, target))
        return *r;
    ApiError e;
    const auto body = parseJsonObject(ctx.request.body, { QStringLiteral("reason") }, &e);
    QString reason;
    if (!body || !readText(*body, QStringLiteral("reason"), TextRule {}, &reason, &e))
        return errorResponse(e);
    const DestinationConfig *destination = ctx.config.destination(name);
    if (!destination)
        return errorResponse(404, QStringLiteral("not_found"),
            QStringLiteral("no destination is named \"%1\"").arg(name.left(200)), QStringLiteral("name"));
    if (!destination->circuit)
        return errorResponse(409, QStringLiteral("no_circuit"),
            QStringLiteral("destination \"%1\" has no circuit breaker").arg(name), QStringLiteral("name"));
    const qint64 now = ctx.clock.nowMs();
    Transaction tx(ctx.db);
    if (auto failed = beginWrite(tx, "closing a circuit"))
        return *failed;
    const auto closed = markCircuitClosed(ctx.db, name, reason, now);
    if (!closed)
        return databaseError("closing a circuit", closed.error());
    if (!*closed)
        return errorResponse(409, QStringLiteral("circuit_not_open"),
            QStringLiteral("the circuit of \"%1\" is not open").arg(name), QStringLiteral("name"));
    // The held backlog is due now: wake every engine on the database.
    if (auto notified = notifyDeliveriesDue(ctx.db); !notified)
        return databaseError("closing a circuit", notified.error());
    if (auto told = notify::enqueue(ctx.db, ctx.config.notifications,
            notify::circuitChanged(
                name, false, QStringLiteral("closed by %1: %2").arg(ctx.who.name, reason), now),
            now);
        !told)
        return databaseError("closing a circuit", told.error());
    const auto record = ctx.record(QStringLiteral("circuit_closed"), target, reason,
        QJsonObject { { QStringLiteral("by_hand"), true } });
    if (auto committed = auditAndCommit(ctx, tx, record); !committed)
        return databaseError("closing a circuit", committed.error());
    if (ctx.wakeDelivery)
        ctx.wakeDelivery();
    return jsonResponse(200,
        QJsonObject { { QStringLiteral("name"), name },
            { QStringLiteral("circuit"),
                circuitJson(*destination->circuit, CircuitState { false, now, reason, std::nullopt }) } });
}

} // namespace redrive::admin
