// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "admin/requestcontext.h"
#include "config/config.h"
#include "ingest/groupcommitwriter.h"
#include "ingest/ingestservice.h"
#include "storage/database.h"
#include "util/clock.h"
#include "util/metrics.h"

#include <QString>

#include <functional>
#include <memory>
#include <vector>

namespace redrive::daemon {

// A long-running part of redrived beside ingest: the delivery engine, the admin API listener.
// The daemon starts components after the writer and before the ingest listener, and stops them
// in reverse order after ingest has drained.
class Component {
public:
    virtual ~Component() = default;
    [[nodiscard]] virtual QString name() const = 0;
    virtual Result<> start() = 0;
    // Graceful and bounded; called once, only after a successful start().
    virtual void stop() = 0;
};

// What a component factory may use. Everything outlives every component.
struct DaemonContext {
    std::shared_ptr<const Config> config;
    StorageUrl storage;
    metrics::Registry &metrics;
    const Clock &clock;
    ingest::IngestService &ingest; // addReadinessCheck() for /readyz

    // Called on the writer thread after every durable ingest commit (quick, non-blocking):
    // the delivery engine's wake-up. Register from a factory; the list is frozen at start.
    void addCommitListener(std::function<void(const ingest::CommitSummary &)> listener)
    {
        commitListeners.push_back(std::move(listener));
    }
    std::vector<std::function<void(const ingest::CommitSummary &)>> commitListeners;

    // The delivery engine's wake-up for other components that make deliveries due (the admin
    // API: replays queued, destinations resumed). Set by the delivery factory, which runs
    // first; empty when delivery is off here.
    std::function<void()> wakeDelivery;

    // This receiver's instance id (receiver_instances): the origin of the wake-ups its ingest
    // writer sends to the other receivers, which its own delivery engine ignores.
    QString instanceId;

    // The group-commit writer (started before any component): reconciliation records what it
    // recovers through it, as ingest does.
    ingest::GroupCommitWriter *writer = nullptr;

    // Set by the reconcile factory when a source reconciles, for the admin API's
    // POST sources/{name}/reconcile.
    admin::ReconcileLauncher reconcileLauncher;
};

// Builds a component (it must not start anything yet). A null component means "not configured
// here" (e.g. no admin_listen): the daemon skips it.
using ComponentFactory = std::function<Result<std::unique_ptr<Component>>(DaemonContext &context)>;

} // namespace redrive::daemon
