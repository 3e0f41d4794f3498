// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "admin/requestcontext.h"
#include "config/config.h"
#include "http/server.h"
#include "storage/database.h"
#include "util/clock.h"
#include "util/metrics.h"

#include <memory>

namespace redrive::admin {

class ReplayExecutor;

// The admin API, /admin/v1 (docs/admin-api.md): bearer tokens, the roles × actions table, audited
// replays with preview and four-eyes approval, and the tamper-evident audit log.
//
// Besides /admin/v1 it answers GET /healthz (the database answers) and GET /metrics
// (Prometheus text of the daemon's registry), without a token.
//
// handle() plugs into http::Server and never blocks the I/O thread: requests go to a bounded
// queue served by worker threads, each with its own database connection (503 with Retry-After
// when the queue is full). start() also starts the replay executor thread.
//
// Token lookups are cached for TokenAuthenticator::kCacheTtl (2 s): a token revoked with
// `redrived token revoke` stops working within that time; expiry is exact.
class AdminApi final {
public:
    AdminApi(const Config &config, const StorageUrl &url, const Clock &clock, metrics::Registry &registry);
    ~AdminApi();
    AdminApi(const AdminApi &) = delete;
    AdminApi &operator=(const AdminApi &) = delete;

    // Checks the schema version, loads (or creates, mode 0600) admin.audit_key_file, opens one
    // connection per worker and starts the executor. Fails with a reason on any failure.
    Result<> start();
    // Finishes requests in progress, answers queued ones 503, stops the executor.
    void stop();

    void handle(http::Request &&request, http::Responder responder);

    static constexpr int kQueueCapacity = 1000;
    static constexpr QByteArrayView kPrefix = "/admin/v1/";

    // Before start():
    void setWorkerCount(int count); // default 4
    void setExecutorEnabled(bool enabled); // default true; tests may drive a ReplayExecutor themselves
    // This receiver's delivery engine wake-up, called after a commit that made deliveries due
    // (replay items queued, destination resumed); quick, must not block.
    void setDeliveryWake(std::function<void()> wake);
    // This receiver's reconciler (POST sources/{name}/reconcile); without one that answers 503.
    void setReconcileLauncher(ReconcileLauncher launcher);
    // Test seam, any time: see BeforeCommitHook (fault injection between an action and its
    // commit). Requests already running keep the hook they started with.
    void setBeforeCommitHook(BeforeCommitHook hook);
    // Test seam, any time: called by a request making a checkpoint (GET audit/checkpoint, an
    // evidence export) while it holds the one checkpoint turn and, for an export, its read
    // snapshot, right after the chain was verified. Requests already running keep theirs.
    void setCheckpointHook(std::function<void()> hook);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace redrive::admin
