// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "reconcilehandlers.h"

#include "admin/jsonbody.h"
#include "util/clock.h"
#include "util/jsonvalues.h"

namespace redrive::admin {
namespace {

constexpr int kDefaultPage = 50;
constexpr int kMaxPage = 500;

} // namespace

QJsonObject reconcileRunJson(const reconcile::Run &run)
{
    return QJsonObject {
        { QStringLiteral("id"), run.id },
        { QStringLiteral("source"), run.source },
        { QStringLiteral("provider"), run.provider },
        { QStringLiteral("started_at"), isoUtc(run.startedAtMs) },
        { QStringLiteral("finished_at"), json::isoOrNull(run.finishedAtMs) },
        { QStringLiteral("status"), run.status.name() },
        { QStringLiteral("checked"), run.checked },
        { QStringLiteral("missing"), run.missing },
        { QStringLiteral("recovered"), run.recovered },
        { QStringLiteral("error"), run.error },
        { QStringLiteral("requested_by"), json::nonEmptyOrNull(run.requestedBy) },
    };
}

http::Response listReconciliations(RequestContext &ctx)
{
    if (auto r = requirePermission(ctx, access::Action::ReadEvents))
        return *r;
    ApiError e;
    if (!checkQueryKeys(
            ctx.query, { QStringLiteral("source"), QStringLiteral("limit"), QStringLiteral("cursor") }, &e))
        return errorResponse(e);
    const QString source = ctx.query.queryItemValue(QStringLiteral("source"), QUrl::FullyDecoded).trimmed();
    if (source.size() > 64)
        return errorResponse(
            badRequest(QStringLiteral("source"), QStringLiteral("is longer than 64 characters")));
    PageRequest page;
    if (!readPageRequest(ctx.query, kDefaultPage, kMaxPage, &page, &e))
        return errorResponse(e);
    auto rows = reconcile::listRuns(ctx.db, source, page.before, page.limit + 1);
    if (!rows)
        return databaseError("listing reconciliations", rows.error());
    return jsonResponse(200,
        pageJson(std::move(*rows), page.limit, reconcileRunJson,
            [](const reconcile::Run &run) { return run.id; }));
}

http::Response requestReconciliation(RequestContext &ctx, const QString &name)
{
    const QString target = QStringLiteral("source:%1").arg(name.left(64));
    if (auto r = admitQuery(ctx, access::Action::RunReconciliation, {}, target))
        return *r;
    ApiError e;
    const auto reason = readOptionalReason(ctx.request.body, &e);
    if (!reason)
        return errorResponse(e);
    const SourceConfig *source = ctx.config.source(name);
    if (!source)
        return errorResponse(404, QStringLiteral("not_found"),
            QStringLiteral("no source named \"%1\" is configured").arg(name.left(64)),
            QStringLiteral("name"));
    if (!source->reconcile)
        return errorResponse(409, QStringLiteral("conflict"),
            QStringLiteral("source %1 has no [sources.reconcile] section; nothing to run").arg(name));
    if (!ctx.reconciler || !ctx.reconciler->launch)
        return errorResponse(503, QStringLiteral("unavailable"),
            QStringLiteral("this receiver runs no reconciler; ask one that does"));

    Transaction tx(ctx.db);
    if (auto failed = beginWrite(tx, "requesting a reconciliation"))
        return *failed;
    const reconcile::ClaimRequest request { source->name, toString(source->reconcile->provider),
        ctx.reconciler->owner, ctx.who.name, ctx.clock.nowMs(), ctx.reconciler->leaseMs, std::nullopt };
    const auto claim = reconcile::claimRun(ctx.db, request);
    if (!claim)
        return databaseError("requesting a reconciliation", claim.error());
    if (!claim->run) {
        tx.rollback();
        const reconcile::Run &running = *claim->running;
        return errorResponse(409, QStringLiteral("conflict"),
            QStringLiteral("reconciliation run %1 of %2 is already running (since %3)")
                .arg(running.id)
                .arg(source->name, isoUtc(running.startedAtMs)));
    }
    const reconcile::Run run = *claim->run;
    const auto record = ctx.record(QStringLiteral("reconcile_requested"), target, *reason,
        QJsonObject { { QStringLiteral("run_id"), run.id }, { QStringLiteral("provider"), run.provider } });
    if (auto committed = auditAndCommit(ctx, tx, record); !committed)
        return databaseError("requesting a reconciliation", committed.error());
    ctx.reconciler->launch(run);
    return jsonResponse(202, reconcileRunJson(run));
}

} // namespace redrive::admin
