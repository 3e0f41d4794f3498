// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "access/permissions.h"
#include "admin/apiresponse.h"
#include "admin/denialcoalescer.h"
#include "admin/tokenauth.h"
#include "audit/auditentry.h"
#include "config/config.h"
#include "http/server.h"
#include "storage/database.h"
#include "storage/reconcilestore.h"
#include "util/clock.h"
#include "util/metrics.h"

#include <QUrlQuery>

#include <functional>
#include <mutex>

namespace redrive::audit {
class SigningKey;
}

namespace redrive::admin {

struct AdminMetrics {
    explicit AdminMetrics(metrics::Registry &registry);
    metrics::Registry &registry;
    metrics::Counter &forbidden;
    metrics::Counter &checkpointsRefused;
    metrics::Counter &replaysRequested;
    metrics::Counter &replaysApproved;
    metrics::Counter &replaysRejected;
    metrics::Counter &replaysCancelled;
    metrics::Histogram &latency;
    metrics::Counter &authFailure(TokenAuthenticator::Failure failure);
    metrics::Counter &responses(int status);
};

// This receiver's reconciler, for POST sources/{name}/reconcile: the handler claims the run (its
// lease, owned by `owner`) in the transaction that audits the request, then hands it to `launch`.
struct ReconcileLauncher {
    QString owner;
    qint64 leaseMs = 0;
    std::function<void(const reconcile::Run &)> launch; // empty: no reconciler runs here
};

// Test seam: called with the audit action just before a write transaction commits; returning
// false makes that commit fail (and everything in the transaction roll back).
using BeforeCommitHook = std::function<bool(const QString &action)>;

// Everything one admin request handler needs. Lives on a worker thread's stack.
struct RequestContext {
    Db &db;
    const Config &config;
    const Clock &clock;
    const Principal &who;
    const http::Request &request;
    QUrlQuery query;
    QStringList segments; // path after /admin/v1/, split on '/'
    const audit::SigningKey *signingKey = nullptr;
    const BeforeCommitHook *beforeCommit = nullptr;
    std::function<void()> wakeExecutor;
    AdminMetrics *metrics = nullptr;
    DenialCoalescer *denials = nullptr; // null: every refusal gets an entry of its own
    std::function<void()> wakeDelivery; // this receiver's delivery engine, when it runs one
    // Checkpoint work runs one request at a time (takeCheckpointTurn); null: no limit.
    std::mutex *checkpointTurn = nullptr;
    const std::function<void()> *checkpointHook = nullptr; // test seam, AdminApi::setCheckpointHook
    const ReconcileLauncher *reconciler = nullptr;

    [[nodiscard]] audit::AuditRecord record(const QString &action, const QString &target,
        const QString &reason, const QJsonObject &details = {}) const;
};

// Appends the audit entry (last, see appendAuditEntry) and commits. On any failure the whole
// transaction — the action and its entry — rolls back and the failure is returned.
Result<> auditAndCommit(RequestContext &ctx, Transaction &tx, const audit::AuditRecord &record);

// 403, recorded in the audit log (action permission_denied) in a transaction of its own; with
// ctx.denials, only the first refusal of a token per minute at once (see DenialCoalescer).
http::Response forbidden(
    RequestContext &ctx, access::Action attempted, const QString &target, const QString &message);
// Refuses unless the caller's role allows `action` (then answers with forbidden()).
std::optional<http::Response> requirePermission(
    RequestContext &ctx, access::Action action, const QString &target = {});
// The door of a handler that reads its query: the role allows `action` (requirePermission), and
// the query names only `allowedKeys` (checkQueryKeys: a typo never widens a result).
std::optional<http::Response> admitQuery(
    RequestContext &ctx, access::Action action, const QStringList &allowedKeys, const QString &target = {});

// Appends the coalesced permission_denied tallies of minutes that have ended (all with `all`),
// each in a transaction of its own.
void flushDenials(Db &db, DenialCoalescer &denials, const Clock &clock, bool all = false);

// Logs the database error and answers 500 without details.
http::Response databaseError(const char *where, const QString &error);
// Begins a handler's transaction: nullopt when it began, else databaseError(where, …) to answer.
std::optional<http::Response> beginWrite(Transaction &tx, const char *where);

} // namespace redrive::admin
