// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "requestcontext.h"

#include "admin/adminlog.h"
#include "admin/jsonbody.h"
#include "audit/auditlog.h"

namespace redrive::admin {

AdminMetrics::AdminMetrics(metrics::Registry &r)
    : registry(r)
    , forbidden(r.counter(QStringLiteral("redrive_admin_forbidden_total"),
          QStringLiteral("Admin API requests refused because the role does not allow them (each audited)")))
    , checkpointsRefused(r.counter(QStringLiteral("redrive_audit_checkpoints_refused_total"),
          QStringLiteral(
              "Checkpoints and evidence exports refused because the audit log does not verify or does "
              "not extend the last signed head (each audited)")))
    , replaysRequested(r.counter(QStringLiteral("redrive_admin_replay_transitions_total"),
          QStringLiteral("Replay requests by transition"),
          { { QStringLiteral("to"), QStringLiteral("requested") } }))
    , replaysApproved(r.counter(QStringLiteral("redrive_admin_replay_transitions_total"),
          QStringLiteral("Replay requests by transition"),
          { { QStringLiteral("to"), toString(ReplayStatus::Approved) } }))
    , replaysRejected(r.counter(QStringLiteral("redrive_admin_replay_transitions_total"),
          QStringLiteral("Replay requests by transition"),
          { { QStringLiteral("to"), toString(ReplayStatus::Rejected) } }))
    , replaysCancelled(r.counter(QStringLiteral("redrive_admin_replay_transitions_total"),
          QStringLiteral("Replay requests by transition"),
          { { QStringLiteral("to"), toString(ReplayStatus::Cancelled) } }))
    , latency(r.histogram(QStringLiteral("redrive_admin_request_duration_seconds"),
          QStringLiteral("Admin API request handling time")))
{ }

metrics::Counter &AdminMetrics::authFailure(TokenAuthenticator::Failure failure)
{
    return registry.counter(QStringLiteral("redrive_admin_unauthorized_total"),
        QStringLiteral("Admin API requests refused with 401, by reason"),
        { { QStringLiteral("reason"), TokenAuthenticator::failureName(failure) } });
}

metrics::Counter &AdminMetrics::responses(int status)
{
    return registry.counter(QStringLiteral("redrive_admin_responses_total"),
        QStringLiteral("Admin API responses by status code"),
        { { QStringLiteral("code"), QString::number(status) } });
}

audit::AuditRecord RequestContext::record(
    const QString &action, const QString &target, const QString &reason, const QJsonObject &details) const
{
    // The actor is the token; the person behind it is named beside it in every entry.
    QJsonObject withOwner = details;
    withOwner.insert(QStringLiteral("actor_owner"), who.owner);
    return audit::AuditRecord { who.name, toString(who.role), action, target, reason, withOwner };
}

Result<> auditAndCommit(RequestContext &ctx, Transaction &tx, const audit::AuditRecord &record)
{
    if (auto appended = audit::appendAuditEntry(ctx.db, record, ctx.clock.nowMs()); !appended) {
        tx.rollback();
        return Failure(appended.error());
    }
    if (ctx.beforeCommit && *ctx.beforeCommit && !(*ctx.beforeCommit)(record.action)) {
        tx.rollback();
        return Failure(QStringLiteral("commit refused by the test hook"));
    }
    return tx.commit();
}

http::Response forbidden(
    RequestContext &ctx, access::Action attempted, const QString &target, const QString &message)
{
    if (ctx.metrics)
        ctx.metrics->forbidden.inc();
    QJsonObject details {
        { QStringLiteral("attempted"), access::toString(attempted) },
        { QStringLiteral("method"), QString::fromLatin1(ctx.request.method.left(16)) },
        { QStringLiteral("path"), QString::fromUtf8(ctx.request.path.left(300)) },
        { QStringLiteral("why"), message },
    };
    if (ctx.denials) {
        flushDenials(ctx.db, *ctx.denials, ctx.clock);
        const DenialCoalescer::Denial denial { ctx.who.tokenId, ctx.who.name, ctx.who.owner,
            toString(ctx.who.role), access::toString(attempted), target };
        if (!ctx.denials->admit(denial, ctx.clock.nowMs()))
            return errorResponse(403, QStringLiteral("forbidden"), message);
        details.insert(QStringLiteral("count"), 1);
    }
    const auto record = ctx.record(QStringLiteral("permission_denied"), target, QString(), details);
    const auto audited
        = withTransaction(ctx.db, [&] { return audit::appendAuditEntry(ctx.db, record, ctx.clock.nowMs()); });
    if (!audited)
        qCWarning(lcAdmin, "admin: could not audit a refused request: %s", qPrintable(audited.error()));
    return errorResponse(403, QStringLiteral("forbidden"), message);
}

void flushDenials(Db &db, DenialCoalescer &denials, const Clock &clock, bool all)
{
    const auto records = denials.takeClosed(clock.nowMs(), all);
    for (const auto &record : records) {
        const auto audited
            = withTransaction(db, [&] { return audit::appendAuditEntry(db, record, clock.nowMs()); });
        if (!audited)
            qCWarning(lcAdmin, "admin: could not audit %lld coalesced refusals of %s: %s",
                static_cast<long long>(record.details.value(QLatin1String("count")).toInteger()),
                qPrintable(record.actor), qPrintable(audited.error()));
    }
}

std::optional<http::Response> requirePermission(
    RequestContext &ctx, access::Action action, const QString &target)
{
    if (access::allows(ctx.who.role, action))
        return std::nullopt;
    return forbidden(ctx, action, target,
        QStringLiteral("the %1 role may not %2")
            .arg(toString(ctx.who.role), access::toString(action).replace(u'_', u' ')));
}

std::optional<http::Response> admitQuery(
    RequestContext &ctx, access::Action action, const QStringList &allowedKeys, const QString &target)
{
    if (auto refused = requirePermission(ctx, action, target))
        return refused;
    if (ApiError e; !checkQueryKeys(ctx.query, allowedKeys, &e))
        return errorResponse(e);
    return std::nullopt;
}

http::Response databaseError(const char *where, const QString &error)
{
    qCWarning(lcAdmin, "admin: %s failed: %s", where, qPrintable(error));
    return internalError();
}

std::optional<http::Response> beginWrite(Transaction &tx, const char *where)
{
    if (auto begun = tx.begin(); !begun)
        return databaseError(where, begun.error());
    return std::nullopt;
}

} // namespace redrive::admin
