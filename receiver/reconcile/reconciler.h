// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"
#include "providerclient.h"
#include "providerpages.h"
#include "storage/database.h"
#include "storage/reconcilestore.h"
#include "util/clock.h"
#include "util/metrics.h"
#include "util/worker.h"

#include <QHash>
#include <QString>

#include <chrono>
#include <deque>
#include <functional>
#include <memory>

namespace redrive::delivery {
class HttpClient;
}
namespace redrive::ingest {
class GroupCommitWriter;
}

// Reconciliation with the provider, the door of receiver/reconcile/ (docs/architecture.md,
// "Reconciliation"). For each source with [sources.reconcile] it asks the provider's API what was
// sent inside the lookback and compares it with what the source stored:
//
//   Stripe  pages GET /v1/events to the end (all pages first: a run that fails mid-paging writes
//           nothing), then submits each listed event the source never stored to the ingest
//           group-commit writer as if it had arrived, origin "reconciled". The writer's unique
//           key decides new vs duplicate, routes it and plans its deliveries, exactly as for a
//           webhook; a webhook arriving later for it is a duplicate.
//   GitHub  pages GET /{hook}/deliveries (Link rel="next") back to the lookback and asks GitHub to
//           redeliver each guid never stored (POST …/deliveries/{id}/attempts), so it arrives signed
//           through the normal path; at most kMaxRedeliveries times per guid in all, counted before
//           each ask.
//
// One thread runs one run at a time: the scheduled ones (`every` > 0: when no run of the source
// started within `every`) and those the admin API claimed (launch()). Every run holds its
// reconcile_runs row as a lease, renewed while it runs, so several receivers on one PostgreSQL
// never run a source twice at once. A finished run updates its row, counts, metrics, and appends
// a `reconcile_run` audit entry in one transaction.
namespace redrive::reconcile {

struct ReconcilerOptions {
    ApiOptions api;
    qint64 leaseMs = 120'000;
    // 300 pages is 72 h at 10,000 events a day; past this cap the run fails, saying so.
    int maxPages = 1000;
    // How often a scheduled source is looked at (at most; less when `every` is shorter).
    std::chrono::milliseconds scheduleCheck { 30'000 };
    // Most reconciled events waiting for the writer at once: a big recovery never fills the
    // ingest queue that webhooks need.
    int maxInFlight = 256;
};

class Reconciler final {
public:
    Reconciler(std::shared_ptr<const Config> config, StorageUrl storage, ingest::GroupCommitWriter &writer,
        metrics::Registry &registry, const Clock &clock, QString owner, ReconcilerOptions options = {});
    ~Reconciler();
    Reconciler(const Reconciler &) = delete;
    Reconciler &operator=(const Reconciler &) = delete;

    // Opens the thread's connection.
    Result<> start();
    // Cancels the provider request in progress; the run in progress fails ("the receiver
    // stopped") and the thread is joined.
    void stop();

    // Runs a run claimed elsewhere (the admin API claims it in its own transaction, audited).
    void launch(const Run &run);
    // The receiver instance id that owns this reconciler's leases.
    [[nodiscard]] const QString &owner() const { return m_owner; }
    [[nodiscard]] qint64 leaseMs() const { return m_options.leaseMs; }
    // Called on the reconciler's thread after each run ended (tests, bench).
    void setOnFinished(std::function<void(const Run &)> callback) { m_onFinished = std::move(callback); }

private:
    struct Counts {
        qint64 checked = 0;
        qint64 missing = 0;
        qint64 recovered = 0;
    };
    // What a provider run found before it failed or finished; the failure reason when it failed.
    struct Outcome {
        Counts counts;
        QString error;
    };
    void loop();
    void runScheduled();
    void execute(const Run &run);
    Outcome runStripe(const Run &run, const SourceConfig &source, ProviderClient &client);
    Outcome runGitHub(const Run &run, const SourceConfig &source, ProviderClient &client);
    // Stores the missing Stripe events through the writer; the number newly stored, or why not.
    Result<qint64> record(const SourceConfig &source, const QList<StripeEvent> &events);
    // Extends the lease every leaseMs / 6; false when it was lost or the receiver stops.
    bool keepLease(const Run &run);
    bool sleep(std::chrono::milliseconds duration);
    void finish(Run run, const Outcome &outcome);

    std::shared_ptr<const Config> m_config;
    StorageUrl m_storage;
    ingest::GroupCommitWriter &m_writer;
    metrics::Registry &m_registry;
    const Clock &m_clock;
    QString m_owner;
    ReconcilerOptions m_options;
    std::function<void(const Run &)> m_onFinished;

    std::unique_ptr<delivery::HttpClient> m_http;
    std::unique_ptr<Db> m_db; // the thread's connection
    Worker m_worker; // its mutex guards m_queue
    std::deque<Run> m_queue;
    QHash<QString, qint64> m_nextCheckMs; // per scheduled source
    std::chrono::steady_clock::time_point m_lastRenew;
};

} // namespace redrive::reconcile
