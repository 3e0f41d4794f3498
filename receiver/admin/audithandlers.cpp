// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "audithandlers.h"

#include "admin/adminlog.h"
#include "admin/eventviews.h"
#include "admin/jsonbody.h"
#include "audit/auditlog.h"
#include "audit/auditverifier.h"
#include "audit/checkpoint.h"
#include "audit/signedhead.h"
#include "audit/signingkey.h"
#include "notify/notification.h"

#include <QSqlQuery>

namespace redrive::admin {

http::Response whoami(RequestContext &ctx)
{
    ApiError e;
    if (!checkQueryKeys(ctx.query, {}, &e))
        return errorResponse(e);
    return jsonResponse(200,
        QJsonObject {
            { QStringLiteral("name"), ctx.who.name },
            { QStringLiteral("owner"), ctx.who.owner },
            { QStringLiteral("role"), toString(ctx.who.role) },
            { QStringLiteral("permissions"),
                QJsonArray::fromStringList(access::allowedActionNames(ctx.who.role)) },
            { QStringLiteral("token_expires_at"),
                ctx.who.expiresAt ? QJsonValue(isoUtc(*ctx.who.expiresAt)) : QJsonValue(QJsonValue::Null) },
        });
}

http::Response listAudit(RequestContext &ctx)
{
    if (auto r = admitQuery(ctx, access::Action::ReadAudit,
            { QStringLiteral("after"), QStringLiteral("limit"), QStringLiteral("target"),
                QStringLiteral("actor"), QStringLiteral("action") },
            QStringLiteral("audit")))
        return *r;
    ApiError e;
    audit::AuditQuery aq;
    if (!readLimit(ctx.query, 100, 1000, &aq.limit, &e))
        return errorResponse(e);
    if (ctx.query.hasQueryItem(QStringLiteral("after"))) {
        const QString after = ctx.query.queryItemValue(QStringLiteral("after"));
        if (after != u"0") {
            const auto seq = parsePathId(after);
            if (!seq)
                return errorResponse(badRequest(QStringLiteral("after"),
                    QStringLiteral("must be a sequence number (the next_cursor of a previous page)")));
            aq.afterSeq = *seq;
        }
    }
    for (const auto &[key, field] : { std::pair { "target", &aq.target }, std::pair { "actor", &aq.actor },
             std::pair { "action", &aq.action } }) {
        *field = ctx.query.queryItemValue(QLatin1String(key), QUrl::FullyDecoded);
        if (field->size() > 300)
            return errorResponse(
                badRequest(QLatin1String(key), QStringLiteral("is longer than 300 characters")));
    }
    const int limit = aq.limit;
    aq.limit = limit + 1;
    auto read = audit::readAuditEntries(ctx.db, aq);
    if (!read)
        return databaseError("reading the audit log", read.error());
    return jsonResponse(200,
        pageJson(
            std::move(*read), limit, auditEntryApiJson,
            [](const audit::AuditEntry &entry) { return entry.seq; }, sequenceCursor));
}

Result<QJsonArray> auditTrailJson(Db &db, const QString &target, int limit)
{
    audit::AuditQuery aq;
    aq.target = target;
    aq.limit = limit;
    auto entries = audit::readAuditEntries(db, aq);
    if (!entries)
        return Failure(entries.error());
    QJsonArray trail;
    for (const auto &entry : std::as_const(*entries))
        trail.append(auditEntryApiJson(entry));
    return trail;
}

http::Response verifyAudit(RequestContext &ctx)
{
    if (auto r = requirePermission(ctx, access::Action::ReadAudit, QStringLiteral("audit")))
        return *r;
    ApiError e;
    if (!checkQueryKeys(
            ctx.query, { QStringLiteral("checkpoint_seq"), QStringLiteral("checkpoint_hash") }, &e))
        return errorResponse(e);
    audit::VerifyOptions options;
    const bool hasSeq = ctx.query.hasQueryItem(QStringLiteral("checkpoint_seq"));
    const bool hasHash = ctx.query.hasQueryItem(QStringLiteral("checkpoint_hash"));
    if (hasSeq != hasHash)
        return errorResponse(
            badRequest(hasSeq ? QStringLiteral("checkpoint_hash") : QStringLiteral("checkpoint_seq"),
                QStringLiteral("checkpoint_seq and checkpoint_hash go together")));
    if (hasSeq) {
        const auto seq = parsePathId(ctx.query.queryItemValue(QStringLiteral("checkpoint_seq")));
        const QString hash = ctx.query.queryItemValue(QStringLiteral("checkpoint_hash"));
        if (!seq)
            return errorResponse(
                badRequest(QStringLiteral("checkpoint_seq"), QStringLiteral("must be a positive integer")));
        if (!isSha256Hex(hash))
            return errorResponse(badRequest(
                QStringLiteral("checkpoint_hash"), QStringLiteral("must be 64 lowercase hex digits")));
        // The caller holds the checkpoint it trusts; the comparison needs no signature here.
        audit::Checkpoint cp;
        cp.seq = *seq;
        cp.hash = hash;
        options.checkpoint = cp;
        options.checkSignature = false;
    }
    // The same check `redrived audit verify` makes, the last signed head included: the chain
    // alone verifies a log whose signed tail was cut.
    const auto verified = audit::verifyAuditLog(ctx.db, options, ctx.config.admin.auditKeyFile);
    if (!verified)
        return databaseError("verifying the audit log", verified.error());
    const audit::VerifyResult &result = verified->result;
    const auto &lastSigned = verified->lastSigned;
    return jsonResponse(200,
        QJsonObject {
            { QStringLiteral("ok"), result.ok },
            { QStringLiteral("count"), result.count },
            { QStringLiteral("first_bad_seq"),
                result.firstBadSeq ? QJsonValue(*result.firstBadSeq) : QJsonValue(QJsonValue::Null) },
            { QStringLiteral("problem"),
                result.ok ? QJsonValue(QJsonValue::Null) : QJsonValue(result.problem) },
            { QStringLiteral("head"),
                QJsonObject { { QStringLiteral("seq"), result.head.seq },
                    { QStringLiteral("hash"), result.head.hash } } },
            { QStringLiteral("checkpoint_checked"), result.checkpointChecked },
            { QStringLiteral("signed_head"),
                lastSigned ? QJsonValue(QJsonObject { { QStringLiteral("seq"), lastSigned->seq },
                    { QStringLiteral("hash"), lastSigned->hash },
                    { QStringLiteral("at"), isoUtc(lastSigned->atMs) } })
                           : QJsonValue(QJsonValue::Null) },
            { QStringLiteral("broken_at_signed_head"), verified->brokenAtLastSigned },
        });
}

http::Response auditCheckpoint(RequestContext &ctx)
{
    if (auto r = admitQuery(ctx, access::Action::ReadAudit, {}, QStringLiteral("audit")))
        return *r;
    if (!ctx.signingKey)
        return errorResponse(503, QStringLiteral("not_configured"),
            QStringLiteral("signed checkpoints need admin.audit_key_file in the receiver's configuration"));
    std::unique_lock<std::mutex> turn;
    if (auto busy = takeCheckpointTurn(ctx, &turn))
        return *busy;
    http::Response refusal;
    const auto cp = guardedCheckpoint(ctx, &refusal);
    if (!cp)
        return refusal;
    return jsonResponse(200, cp->toJson());
}

std::optional<http::Response> takeCheckpointTurn(RequestContext &ctx, std::unique_lock<std::mutex> *turn)
{
    if (!ctx.checkpointTurn)
        return std::nullopt;
    *turn = std::unique_lock(*ctx.checkpointTurn, std::try_to_lock);
    if (turn->owns_lock())
        return std::nullopt;
    http::Response r = errorResponse(503, QStringLiteral("busy"),
        QStringLiteral("another checkpoint or evidence export is verifying the audit log; retry shortly"));
    r.headers.append({ QByteArrayLiteral("Retry-After"), QByteArrayLiteral("1") });
    return r;
}

audit::GuardedCheckpoint signCheckpoint(RequestContext &ctx)
{
    auto g = audit::makeGuardedCheckpoint(
        ctx.db, *ctx.signingKey, audit::signedHeadPath(ctx.config.admin.auditKeyFile), ctx.clock.nowMs());
    if (ctx.checkpointHook && *ctx.checkpointHook)
        (*ctx.checkpointHook)();
    return g;
}

std::optional<audit::Checkpoint> guardedCheckpoint(RequestContext &ctx, http::Response *refusal)
{
    auto g = signCheckpoint(ctx);
    switch (g.outcome) {
    case audit::GuardedCheckpoint::Outcome::Signed:
        return std::move(g.checkpoint);
    case audit::GuardedCheckpoint::Outcome::Failed:
        *refusal = databaseError("making a checkpoint", g.problem);
        return std::nullopt;
    case audit::GuardedCheckpoint::Outcome::Refused:
        break;
    }
    *refusal = checkpointRefused(ctx, g);
    return std::nullopt;
}

http::Response checkpointRefused(RequestContext &ctx, const audit::GuardedCheckpoint &g)
{
    if (ctx.metrics)
        ctx.metrics->checkpointsRefused.inc();
    QJsonObject details { { QStringLiteral("problem"), g.problem },
        { QStringLiteral("path"), QString::fromUtf8(ctx.request.path.left(300)) } };
    if (g.firstBadSeq)
        details.insert(QStringLiteral("first_bad_seq"), *g.firstBadSeq);
    if (g.lastSigned) {
        details.insert(QStringLiteral("last_signed_seq"), g.lastSigned->seq);
        details.insert(QStringLiteral("last_signed_hash"), g.lastSigned->hash);
    }
    // One entry per incident: while the newest entry is already a refusal nothing has changed
    // since, and the console's refresh every few seconds must not grow the log without bound.
    QString error;
    Transaction tx(ctx.db);
    const auto record
        = ctx.record(QStringLiteral("checkpoint_refused"), QStringLiteral("audit"), QString(), details);
    bool ok = succeeded(tx.begin(), &error);
    bool repeated = false;
    if (ok) {
        QSqlQuery last(ctx.db.handle());
        ok = last.exec(QStringLiteral("SELECT action FROM audit_log ORDER BY seq DESC LIMIT 1"));
        if (!ok)
            error = sqlErrorText(last);
        repeated = ok && last.next() && last.value(0).toString() == u"checkpoint_refused";
    }
    if (ok && !repeated) {
        const qint64 now = ctx.clock.nowMs();
        const auto told = notify::enqueue(
            ctx.db, ctx.config.notifications, notify::auditChainBroken(g.firstBadSeq, g.problem, now), now);
        ok = told.has_value();
        if (!ok)
            error = told.error();
    }
    if (ok && !repeated) {
        const auto appended = audit::appendAuditEntry(ctx.db, record, ctx.clock.nowMs());
        ok = appended.has_value();
        if (!ok)
            error = appended.error();
    }
    if (!ok || !succeeded(tx.commit(), &error))
        qCWarning(lcAdmin, "admin: could not audit a refused checkpoint: %s", qPrintable(error));
    qCWarning(lcAdmin, "admin: refused to sign the audit log: %s", qPrintable(g.problem));
    return errorResponse(409, QStringLiteral("audit_chain_broken"),
        QStringLiteral("the audit log does not verify or does not extend the last signed head: %1")
            .arg(g.problem));
}

} // namespace redrive::admin
