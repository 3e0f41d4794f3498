// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "adminapi.h"

#include "admin/adminlog.h"
#include "admin/audithandlers.h"
#include "admin/destinationhandlers.h"
#include "admin/eventhandlers.h"
#include "admin/evidencehandlers.h"
#include "admin/incidenthandlers.h"
#include "admin/jsonbody.h"
#include "admin/reconcilehandlers.h"
#include "admin/replayexecutor.h"
#include "admin/replayhandlers.h"
#include "admin/resolvehandlers.h"
#include "admin/revealhandlers.h"
#include "admin/tokenauth.h"
#include "admin/validationhandlers.h"
#include "audit/signingkey.h"
#include "storage/databaseavailability.h"
#include "storage/schema.h"
#include "util/worker.h"

#include <QSqlQuery>

#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

namespace redrive::admin {
namespace {

// The primary's WAL position after a write committed, so a console reading a hot standby can
// wait until the standby replayed at least this far (pg_last_wal_replay_lsn() >= it) before
// showing the result. Empty on SQLite or when the position cannot be read.
QByteArray commitLsn(Db &db)
{
    if (db.isSqlite())
        return {};
    QSqlQuery q(db.handle());
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT pg_current_wal_lsn()::text")) || !q.next())
        return {};
    return q.value(0).toString().toLatin1();
}
struct Job {
    http::Request request;
    http::Responder responder;
};

http::Response methodNotAllowed(const QByteArray &allow)
{
    http::Response r = errorResponse(405, QStringLiteral("method_not_allowed"),
        QStringLiteral("use %1 for this path").arg(QString::fromLatin1(allow)));
    r.headers.append({ QByteArrayLiteral("Allow"), allow });
    return r;
}

http::Response unknownPath()
{
    return errorResponse(404, QStringLiteral("not_found"), QStringLiteral("no such admin API path"));
}

// While the database cannot be reached every request gets this, in the one error shape.
http::Response databaseUnavailable()
{
    http::Response r = errorResponse(503, QStringLiteral("database_unavailable"),
        QStringLiteral("the database cannot be reached; retry shortly"));
    r.headers.append(
        { QByteArrayLiteral("Retry-After"), QByteArray::number(DatabaseAvailability::kRetryAfterSeconds) });
    return r;
}

http::Response badId(const QString &what)
{
    return errorResponse(
        badRequest(QStringLiteral("id"), QStringLiteral("%1 id must be a positive integer").arg(what)));
}
} // namespace

struct AdminApi::Impl {
    Impl(const Config &c, const StorageUrl &u, const Clock &clk, metrics::Registry &r)
        : config(c)
        , url(u)
        , clock(clk)
        , metrics(r)
        , auth(clk)
        , availability(r, QStringLiteral("admin"))
    { }

    const Config config;
    const StorageUrl url;
    const Clock &clock;
    AdminMetrics metrics;
    TokenAuthenticator auth;
    DatabaseAvailability availability;
    DenialCoalescer denials;
    std::unique_ptr<audit::SigningKey> key;
    std::unique_ptr<ReplayExecutor> executor;
    std::mutex hookMutex;
    std::shared_ptr<const BeforeCommitHook> beforeCommit;
    std::shared_ptr<const std::function<void()>> checkpointHook;
    std::mutex checkpointTurn; // see takeCheckpointTurn
    int workerCount = 4;
    bool executorEnabled = true;
    std::function<void()> wakeDelivery;
    ReconcileLauncher reconciler;

    Worker workers; // its mutex guards queue and running
    std::deque<Job> queue;
    bool running = false;
    std::vector<std::unique_ptr<Db>> dbs; // one per worker, used on its thread

    void workerMain(std::unique_ptr<Db> db);
    http::Response process(Db &db, const http::Request &request);
    http::Response processGuarded(Db &db, const http::Request &request);
    http::Response route(RequestContext &ctx);
    void finish(Job &job, http::Response response, std::chrono::steady_clock::time_point started);
};

AdminApi::AdminApi(
    const Config &config, const StorageUrl &url, const Clock &clock, metrics::Registry &registry)
    : d(std::make_unique<Impl>(config, url, clock, registry))
{ }

AdminApi::~AdminApi()
{
    stop();
}

void AdminApi::setDeliveryWake(std::function<void()> wake)
{
    d->wakeDelivery = std::move(wake);
}

void AdminApi::setReconcileLauncher(ReconcileLauncher launcher)
{
    d->reconciler = std::move(launcher);
}

void AdminApi::setWorkerCount(int count)
{
    d->workerCount = qBound(1, count, 64);
}

void AdminApi::setExecutorEnabled(bool enabled)
{
    d->executorEnabled = enabled;
}

void AdminApi::setBeforeCommitHook(BeforeCommitHook hook)
{
    auto shared = hook ? std::make_shared<const BeforeCommitHook>(std::move(hook)) : nullptr;
    std::lock_guard lock(d->hookMutex);
    d->beforeCommit = std::move(shared);
}

void AdminApi::setCheckpointHook(std::function<void()> hook)
{
    auto shared = hook ? std::make_shared<const std::function<void()>>(std::move(hook)) : nullptr;
    std::lock_guard lock(d->hookMutex);
    d->checkpointHook = std::move(shared);
}

Result<> AdminApi::start()
{
    if (d->running)
        return ok();
    {
        auto db = Db::open(d->url, QStringLiteral("admin-check"), OpenOptions {});
        if (!db)
            return Failure(db.error());
        const auto readVersion = schemaVersion(**db);
        const int version = readVersion.value_or(-1);
        if (version != kSchemaVersion) {
            if (version < 0)
                return Failure(readVersion.error());
            return Failure(QStringLiteral(
                "the database schema is at version %1 but this build needs %2; run `redrived migrate`")
                               .arg(version)
                               .arg(kSchemaVersion));
        }
    }
    if (!d->config.admin.auditKeyFile.isEmpty()) {
        bool created = false;
        auto key = audit::SigningKey::loadOrCreate(d->config.admin.auditKeyFile, &created);
        if (!key)
            return Failure(key.error());
        d->key = std::move(*key);
        if (created)
            qCInfo(lcAdmin, "admin: created audit checkpoint key %s (key id %s)",
                qPrintable(d->config.admin.auditKeyFile), qPrintable(d->key->keyId()));
    } else {
        qCWarning(lcAdmin,
            "admin: admin.audit_key_file is not set; GET audit/checkpoint and events/{id}/evidence answer 503");
    }

    d->dbs.resize(static_cast<std::size_t>(d->workerCount));
    const Result<> started = d->workers.start(
        d->workerCount,
        [this](int i) -> Result<> {
            auto opened = Db::open(d->url, QStringLiteral("admin"), OpenOptions {});
            if (!opened)
                return Failure(opened.error());
            d->dbs[static_cast<std::size_t>(i)] = std::move(*opened);
            return ok();
        },
        [this](int i) { d->workerMain(std::move(d->dbs[static_cast<std::size_t>(i)])); });
    if (!started) {
        stop();
        return Failure(QStringLiteral("admin API: ") + started.error());
    }
    if (d->executorEnabled) {
        d->executor = std::make_unique<ReplayExecutor>(d->config, d->url, d->clock, &d->metrics.registry);
        d->executor->setOnQueued(d->wakeDelivery);
        if (auto executing = d->executor->start(); !executing) {
            stop();
            return executing;
        }
    }
    auto lock = d->workers.lock();
    d->running = true;
    return ok();
}

void AdminApi::stop()
{
    std::deque<Job> orphans;
    {
        auto lock = d->workers.lock();
        d->running = false;
    }
    d->workers.stop();
    {
        auto lock = d->workers.lock();
        orphans.swap(d->queue);
    }
    for (auto &job : orphans)
        job.responder(errorResponse(
            503, QStringLiteral("unavailable"), QStringLiteral("the admin API is shutting down")));
    if (d->executor) {
        d->executor->stop();
        d->executor.reset();
    }
    // The open minutes' tallies of refused requests, so a restart does not drop them.
    if (d->denials.hasPending()) {
        QString error;
        if (auto db = takeValue(Db::open(d->url, QStringLiteral("admin-stop"), OpenOptions {}), &error))
            flushDenials(*db, d->denials, d->clock, /*all=*/true);
        else
            qCWarning(lcAdmin, "admin: cannot write the last refused-request tallies: %s", qPrintable(error));
    }
}

void AdminApi::handle(http::Request &&request, http::Responder responder)
{
    if (request.path == "/metrics") {
        // Rendering reads atomics only: answer on the I/O thread.
        http::Response r;
        if (request.method == "GET") {
            r.contentType = QByteArrayLiteral("text/plain; version=0.0.4");
            r.body = d->metrics.registry.renderPrometheus();
        } else {
            r = methodNotAllowed("GET");
        }
        responder(std::move(r));
        return;
    }
    auto lock = d->workers.lock();
    if (!d->running) {
        lock.unlock();
        responder(errorResponse(
            503, QStringLiteral("unavailable"), QStringLiteral("the admin API is not running")));
        return;
    }
    if (d->queue.size() >= static_cast<std::size_t>(kQueueCapacity)) {
        lock.unlock();
        http::Response r = errorResponse(503, QStringLiteral("busy"),
            QStringLiteral("too many admin requests in progress; retry shortly"));
        r.headers.append({ QByteArrayLiteral("Retry-After"), QByteArrayLiteral("1") });
        d->metrics.responses(503).inc();
        responder(std::move(r));
        return;
    }
    d->queue.push_back(Job { std::move(request), std::move(responder) });
    lock.unlock();
    d->workers.notifyOne();
}

void AdminApi::Impl::workerMain(std::unique_ptr<Db> db)
{
    // Opens a new connection, at most once a second per worker: during an outage a request
    // costs one refused connect, not a connect per request.
    auto lastReopen = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    auto reopen = [&]() -> bool {
        const auto now = std::chrono::steady_clock::now();
        if (now - lastReopen < std::chrono::seconds(1))
            return false;
        lastReopen = now;
        QString reopenError;
        db = takeValue(Db::open(url, QStringLiteral("admin"), OpenOptions {}), &reopenError);
        if (!db)
            availability.reportDown(reopenError, now);
        return db != nullptr;
    };
    for (;;) {
        Job job;
        {
            auto lock = workers.lock();
            workers.wait(lock, [this] { return workers.stopRequested() || !queue.empty(); });
            if (workers.stopRequested())
                break;
            job = std::move(queue.front());
            queue.pop_front();
        }
        const auto started = std::chrono::steady_clock::now();
        // A connection the server closed while it was idle (a restart) is replaced before the
        // request runs, so the first write after an outage is not refused for a dead handle.
        if (db && !db->connectionLost().isEmpty())
            db.reset();
        if (!db && !reopen()) {
            availability.countUnavailable();
            finish(job, databaseUnavailable(), started);
            continue;
        }
        http::Response response = processGuarded(*db, job.request);
        bool refused = false;
        // After a server error, check the connection. A dead one (PostgreSQL restarted, or down)
        // is replaced; a read is safe to run again on the new one, a write is not (its commit
        // may have landed), so the client is told to retry.
        if (response.status >= 500 && !db->exec(QStringLiteral("SELECT 1"))) {
            db.reset();
            const bool read = job.request.method == "GET";
            if (reopen() && read) {
                response = processGuarded(*db, job.request);
            } else {
                response = databaseUnavailable();
                refused = true;
            }
        }
        if (refused)
            availability.countUnavailable();
        else
            availability.reportUp();
        if (!refused && job.request.method != "GET" && response.status >= 200 && response.status < 300) {
            // Read after the action's commit on the same connection: at or past its commit record.
            if (const QByteArray lsn = commitLsn(*db); !lsn.isEmpty())
                response.headers.append({ QByteArrayLiteral("Redrive-Commit-LSN"), lsn });
        }
        finish(job, std::move(response), started);
    }
    db.reset();
}

void AdminApi::Impl::finish(Job &job, http::Response response, std::chrono::steady_clock::time_point started)
{
    metrics.latency.observe(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    metrics.responses(response.status).inc();
    job.responder(std::move(response));
}

// process(), with an exception answered as a server error (never a stack trace).
http::Response AdminApi::Impl::processGuarded(Db &db, const http::Request &request)
{
    try {
        return process(db, request);
    } catch (const std::exception &e) {
        qCWarning(lcAdmin, "admin: request failed: %s", e.what());
    } catch (...) {
        qCWarning(lcAdmin, "admin: request failed with an unknown exception");
    }
    return internalError();
}

http::Response AdminApi::Impl::process(Db &db, const http::Request &request)
{
    const QByteArrayView path(request.path);
    if (path == "/healthz") {
        if (request.method != "GET")
            return methodNotAllowed("GET");
        if (!db.exec(QStringLiteral("SELECT 1")))
            return errorResponse(
                503, QStringLiteral("unavailable"), QStringLiteral("the database does not answer"));
        return jsonResponse(200, QJsonObject { { QStringLiteral("status"), QStringLiteral("ok") } });
    }
    if (!path.startsWith(kPrefix))
        return unknownPath();
    const auto result = auth.authenticate(db, request.headers.value("Authorization"));
    if (!result.principal) {
        metrics.authFailure(result.failure).inc();
        if (result.failure == TokenAuthenticator::Failure::Database)
            return internalError();
        http::Response r = errorResponse(401, QStringLiteral("unauthorized"), result.message);
        r.headers.append(
            { QByteArrayLiteral("WWW-Authenticate"), QByteArrayLiteral("Bearer realm=\"redrive-admin\"") });
        return r;
    }
    QString rest = QString::fromUtf8(path.sliced(kPrefix.size()));
    if (rest.endsWith(u'/'))
        rest.chop(1);
    std::shared_ptr<const BeforeCommitHook> hook;
    std::shared_ptr<const std::function<void()>> onCheckpoint;
    {
        std::lock_guard lock(hookMutex);
        hook = beforeCommit;
        onCheckpoint = checkpointHook;
    }
    RequestContext ctx { db, config, clock, *result.principal, request,
        QUrlQuery(QString::fromUtf8(request.query)), rest.split(u'/'), key.get(), hook.get(), {}, &metrics,
        &denials, wakeDelivery, &checkpointTurn, onCheckpoint.get(), &reconciler };
    // Minutes of coalesced refusals that have ended are written by whichever request comes next.
    flushDenials(db, denials, clock);
    if (executor) {
        ReplayExecutor *exec = executor.get();
        ctx.wakeExecutor = [exec] { exec->wake(); };
    }
    return route(ctx);
}

http::Response AdminApi::Impl::route(RequestContext &ctx)
{
    const QStringList &s = ctx.segments;
    const QByteArray &m = ctx.request.method;
    const bool get = m == "GET";
    const bool post = m == "POST";
    const qsizetype n = s.size();
    const QString first = s.value(0);

    if (first == u"whoami" && n == 1)
        return get ? whoami(ctx) : methodNotAllowed("GET");
    if (first == u"events") {
        if (n == 1)
            return get ? listEvents(ctx) : methodNotAllowed("GET");
        if (n == 2 && s[1] == u"revalidate")
            return post ? revalidateEvents(ctx) : methodNotAllowed("POST");
        const auto id = parsePathId(s[1]);
        if (n == 2
            || (n == 3
                && (s[2] == u"notes" || s[2] == u"evidence" || s[2] == u"revalidate" || s[2] == u"reveal"))) {
            if (!id)
                return badId(QStringLiteral("event"));
            if (n == 2)
                return get ? getEvent(ctx, *id) : methodNotAllowed("GET");
            if (s[2] == u"evidence")
                return get ? exportEvidence(ctx, *id) : methodNotAllowed("GET");
            if (s[2] == u"revalidate")
                return post ? revalidateEvent(ctx, *id) : methodNotAllowed("POST");
            if (s[2] == u"reveal")
                return post ? revealEvent(ctx, *id) : methodNotAllowed("POST");
            return post ? addNote(ctx, *id) : methodNotAllowed("POST");
        }
    }
    if (first == u"deliveries") {
        if (n == 1)
            return get ? listDeliveries(ctx) : methodNotAllowed("GET");
        if (n == 2 && s[1] == u"resolve")
            return post ? resolveDeliveries(ctx) : methodNotAllowed("POST");
        if (n == 2) {
            const auto id = parsePathId(s[1]);
            if (!id)
                return badId(QStringLiteral("delivery"));
            return get ? getDelivery(ctx, *id) : methodNotAllowed("GET");
        }
    }
    if (first == u"incidents") {
        if (n == 1)
            return get ? listIncidents(ctx) : methodNotAllowed("GET");
        if (n == 3 && s[2] == u"acknowledge") {
            if (!post)
                return methodNotAllowed("POST");
            const auto id = parsePathId(s[1]);
            if (!id)
                return badId(QStringLiteral("incident"));
            return acknowledgeIncident(ctx, *id);
        }
    }
    if (first == u"destinations") {
        if (n == 1)
            return get ? listDestinations(ctx) : methodNotAllowed("GET");
        if (n == 3 && (s[2] == u"pause" || s[2] == u"resume"))
            return post ? setDestinationPaused(ctx, s[1], s[2] == u"pause") : methodNotAllowed("POST");
        if (n == 4 && s[2] == u"circuit" && s[3] == u"close")
            return post ? closeDestinationCircuit(ctx, s[1]) : methodNotAllowed("POST");
    }
    if (first == u"replays") {
        if (n == 1) {
            if (get)
                return listReplays(ctx);
            return post ? createReplay(ctx) : methodNotAllowed("GET, POST");
        }
        if (n == 2 && s[1] == u"preview")
            return post ? previewReplay(ctx) : methodNotAllowed("POST");
        const auto id = parsePathId(s[1]);
        if (n == 2) {
            if (!id)
                return badId(QStringLiteral("replay"));
            return get ? getReplay(ctx, *id) : methodNotAllowed("GET");
        }
        if (n == 3 && (s[2] == u"approve" || s[2] == u"reject" || s[2] == u"cancel")) {
            if (!post)
                return methodNotAllowed("POST");
            if (!id)
                return badId(QStringLiteral("replay"));
            if (s[2] == u"cancel")
                return cancelReplay(ctx, *id);
            return decideReplay(ctx, *id, s[2] == u"approve" ? Decision::Approve : Decision::Reject);
        }
    }
    if (first == u"reconciliations" && n == 1)
        return get ? listReconciliations(ctx) : methodNotAllowed("GET");
    if (first == u"sources" && n == 3 && s[2] == u"reconcile")
        return post ? requestReconciliation(ctx, s[1]) : methodNotAllowed("POST");
    if (first == u"audit") {
        if (n == 1)
            return get ? listAudit(ctx) : methodNotAllowed("GET");
        if (n == 2 && s[1] == u"verify")
            return get ? verifyAudit(ctx) : methodNotAllowed("GET");
        if (n == 2 && s[1] == u"checkpoint")
            return get ? auditCheckpoint(ctx) : methodNotAllowed("GET");
    }
    return unknownPath();
}

} // namespace redrive::admin
