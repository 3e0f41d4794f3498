// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"
#include "storage/database.h"
#include "util/clock.h"
#include "util/metrics.h"
#include "util/result.h"
#include "util/worker.h"

#include <functional>
#include <memory>

namespace redrive::admin {

// The executor side of the replay execution contract (docs/architecture.md):
//   - expires requests whose approval (or start) window ended;
//   - claims approved requests with a conditional update approved → executing, so exactly one
//     executor runs each, even with several receivers on one PostgreSQL;
//   - queues waiting items at admin.replay_rate_per_second (token bucket on the injected
//     clock): delivery → pending, next_attempt_at = now, replay_id = request; item → queued.
//     Items whose delivery vanished, is in flight or is queued by another replay → skipped;
//   - halts a replay (audited, waiting items stay unsent) once at least admin.halt_after items
//     finished and the failed share exceeds admin.halt_failure_ratio;
//   - completes it (audited, with outcome counts) when no item is waiting or queued.
// Each pass looks at up to 50 executing replays, starting after the last one the previous pass
// looked at: a replay held up (a paused destination) never keeps a later one from its turn.
// The delivery engine records each replay attempt and moves items to succeeded / failed.
class ReplayExecutor final {
public:
    ReplayExecutor(const Config &config, const StorageUrl &url, const Clock &clock,
        metrics::Registry *registry = nullptr);
    ~ReplayExecutor();
    ReplayExecutor(const ReplayExecutor &) = delete;
    ReplayExecutor &operator=(const ReplayExecutor &) = delete;

    // Runs passes on a thread of its own until stop(): every pollIntervalMs of real time, and
    // at once after wake().
    Result<> start();
    void stop();
    void wake();
    void setPollIntervalMs(int ms) { m_pollIntervalMs = ms; }
    // Called on the executor thread after each commit that queued deliveries (quick, must not
    // block): the delivery engine's wake-up. Set before start().
    void setOnQueued(std::function<void()> callback) { m_onQueued = std::move(callback); }

    struct Pass {
        int expired = 0;
        int started = 0;
        int queued = 0;
        int skipped = 0;
        int halted = 0;
        int completed = 0;
    };
    // One pass in the calling thread (the executor's connection belongs to the first thread that
    // calls this; don't mix with start()). Fails on a database error.
    Result<Pass> runOnce();

private:
    Result<> ensureDb();
    Result<> expire(Pass &pass);
    Result<> startApproved(Pass &pass);
    Result<> queueItems(Pass &pass);
    Result<> queueBatch(qint64 replayId, const QList<qint64> &deliveryIds, Pass &pass);
    Result<> settle(Pass &pass);
    void refill();
    void loop();

    const Config m_config;
    const StorageUrl m_url;
    const Clock &m_clock;
    std::function<void()> m_onQueued;
    metrics::Counter *m_queuedCounter = nullptr;
    metrics::Counter *m_haltedCounter = nullptr;
    metrics::Counter *m_completedCounter = nullptr;
    // Requests waiting for a second operator, counted every few seconds (an alert's input).
    metrics::Gauge *m_pendingApproval = nullptr;
    qint64 m_lastPendingCountMs = -1;
    Result<> countPendingApproval(qint64 nowMs);
    std::unique_ptr<Db> m_db;

    // Where the next pass's queueing and settling start (replaysInTurn): after the last
    // executing replay each looked at.
    qint64 m_queueCursor = 0;
    qint64 m_settleCursor = 0;
    double m_tokens = 0;
    qint64 m_lastRefillMs = -1;
    qint64 m_lastCleanupMs = 0;

    int m_pollIntervalMs = 200;
    Worker m_worker;
};

} // namespace redrive::admin
