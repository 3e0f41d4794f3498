// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "reconciler.h"

#include "audit/auditlog.h"
#include "crypto/crypto.h"
#include "delivery/httpclient.h"
#include "ingest/groupcommitwriter.h"
#include "notify/notification.h"
#include "privacy/incomingredaction.h"
#include "providerpages.h"
#include "signatures/jsonbody.h"
#include "validation/schemavalidator.h"

#include <QLoggingCategory>
#include <QSet>
#include <QUrlQuery>

#include <condition_variable>
#include <mutex>

namespace redrive::reconcile {

Q_LOGGING_CATEGORY(lcReconcile, "redrive.reconcile")

namespace {

// The audit actor of runs nobody asked for (the schedule), as the replay executor's.
constexpr char kSystemActor[] = "redrive";
constexpr char kSystemRole[] = "system";

QUrl apiUrl(const ReconcileConfig &c, const QString &path)
{
    QUrl url = c.apiUrl;
    url.setPath(c.apiUrl.path() + path);
    return url;
}

bool sameOrigin(const QUrl &a, const QUrl &b)
{
    return a.scheme() == b.scheme() && a.host().compare(b.host(), Qt::CaseInsensitive) == 0
        && a.port(a.scheme() == u"https" ? 443 : 80) == b.port(b.scheme() == u"https" ? 443 : 80);
}

// The source's body business keys of a listed event, as ingest reads them from a webhook (the
// header keys have no header to come from).
QList<EventKey> bodyKeys(const SourceConfig &source, const QByteArray &body)
{
    QList<QByteArrayView> pointers;
    for (const BusinessKey &key : source.keys) {
        if (key.kind == BusinessKey::Kind::JsonPointer)
            pointers.append(QByteArrayView(key.pointer));
    }
    QList<EventKey> keys;
    if (pointers.isEmpty())
        return keys;
    QList<signatures::jsonbody::Scalar> scalars(pointers.size());
    if (signatures::jsonbody::readObject(body, {}, {},
            { pointers.constData(), static_cast<std::size_t>(pointers.size()) },
            { scalars.data(), static_cast<std::size_t>(scalars.size()) })
        != signatures::jsonbody::Status::Ok)
        return keys;
    qsizetype i = 0;
    for (const BusinessKey &key : source.keys) {
        if (key.kind != BusinessKey::Kind::JsonPointer)
            continue;
        const QString text = scalars[i++].text.value_or(QString());
        if (!text.isEmpty() && !text.contains(QChar(0)) && text.size() <= kMaxBusinessKeyValueLength)
            keys.append(EventKey { key.name, text });
    }
    return keys;
}

} // namespace

Reconciler::Reconciler(std::shared_ptr<const Config> config, StorageUrl storage,
    ingest::GroupCommitWriter &writer, metrics::Registry &registry, const Clock &clock, QString owner,
    ReconcilerOptions options)
    : m_config(std::move(config))
    , m_storage(std::move(storage))
    , m_writer(writer)
    , m_registry(registry)
    , m_clock(clock)
    , m_owner(std::move(owner))
    , m_options(options)
    , m_http(std::make_unique<delivery::HttpClient>())
{
    // Every series exists from the start, so a dashboard shows 0 rather than nothing.
    for (const SourceConfig &s : m_config->sources) {
        if (!s.reconcile)
            continue;
        for (const char *result : { "ok", "failed" })
            m_registry.counter(QStringLiteral("redrive_reconcile_runs_total"),
                QStringLiteral("Reconciliation runs finished, by source and result"),
                { { QStringLiteral("source"), s.name },
                    { QStringLiteral("result"), QLatin1String(result) } });
        m_registry.counter(QStringLiteral("redrive_reconcile_missing_total"),
            QStringLiteral("Events the provider listed that the source had never stored"),
            { { QStringLiteral("source"), s.name } });
    }
}

Reconciler::~Reconciler()
{
    stop();
}

Result<> Reconciler::start()
{
    return m_worker.start(
        1,
        [this](int) -> Result<> {
            auto db = Db::open(m_storage, QStringLiteral("reconcile"), OpenOptions {});
            if (!db)
                return Failure(db.error());
            m_db = std::move(*db);
            return ok();
        },
        [this](int) {
            loop();
            m_db.reset();
        });
}

void Reconciler::stop()
{
    m_worker.requestStop();
    m_http->cancelAll();
    m_worker.stop();
}

void Reconciler::launch(const Run &run)
{
    {
        auto lock = m_worker.lock();
        m_queue.push_back(run);
    }
    m_worker.wake();
}

void Reconciler::loop()
{
    while (!m_worker.stopRequested()) {
        std::optional<Run> next;
        {
            auto lock = m_worker.lock();
            if (!m_queue.empty()) {
                next = m_queue.front();
                m_queue.pop_front();
            }
        }
        if (next) {
            execute(*next);
            continue;
        }
        runScheduled();
        // The next scheduled check, or a launch.
        qint64 waitMs = m_options.scheduleCheck.count();
        const qint64 now = m_clock.nowMs();
        for (auto it = m_nextCheckMs.cbegin(); it != m_nextCheckMs.cend(); ++it)
            waitMs = std::min(waitMs, std::max<qint64>(10, it.value() - now));
        if (!m_worker.sleepFor(std::chrono::milliseconds(waitMs)))
            return;
    }
    // Runs launched but never started: their rows would otherwise wait for the lease to expire.
    std::deque<Run> left;
    {
        auto lock = m_worker.lock();
        left.swap(m_queue);
    }
    for (Run &run : left)
        finish(run, Outcome { {}, QStringLiteral("the receiver stopped before the run started") });
}

void Reconciler::runScheduled()
{
    for (const SourceConfig &source : m_config->sources) {
        if (m_worker.stopRequested())
            return;
        if (!source.reconcile || source.reconcile->everyMs <= 0)
            continue;
        const qint64 now = m_clock.nowMs();
        const qint64 every = source.reconcile->everyMs;
        if (m_nextCheckMs.value(source.name, 0) > now)
            continue;
        m_nextCheckMs.insert(source.name, now + std::min<qint64>(every, m_options.scheduleCheck.count()));
        ClaimRequest request { source.name, toString(source.reconcile->provider), m_owner, QString(), now,
            m_options.leaseMs, now - every };
        const auto claim = withTransaction(*m_db, [&] { return claimRun(*m_db, request); });
        if (!claim) {
            qCWarning(lcReconcile, "source %s: could not claim a scheduled run: %s", qPrintable(source.name),
                qPrintable(claim.error()));
            continue;
        }
        if (claim->run)
            execute(*claim->run);
    }
}

bool Reconciler::sleep(std::chrono::milliseconds duration)
{
    auto lock = m_worker.lock();
    const auto until = std::chrono::steady_clock::now() + duration;
    m_worker.waitUntil(lock, until, [this] { return m_worker.stopRequested(); });
    return !m_worker.stopRequested();
}

bool Reconciler::keepLease(const Run &run)
{
    if (m_worker.stopRequested())
        return false;
    const auto now = std::chrono::steady_clock::now();
    if (now - m_lastRenew < std::chrono::milliseconds(m_options.leaseMs / 6))
        return true;
    const auto renewed = renewLease(*m_db, run.id, m_owner, m_clock.nowMs() + m_options.leaseMs);
    if (!renewed || !*renewed)
        return false;
    m_lastRenew = now;
    return true;
}

void Reconciler::execute(const Run &run)
{
    m_lastRenew = std::chrono::steady_clock::now();
    const SourceConfig *source = m_config->source(run.source);
    if (!source || !source->reconcile) {
        finish(
            run, Outcome { {}, QStringLiteral("source %1 has no [sources.reconcile] here").arg(run.source) });
        return;
    }
    qCInfo(lcReconcile, "source %s: reconciliation run %lld started", qPrintable(run.source), run.id);
    ProviderClient client(
        *m_http, *source->reconcile, m_options.api, [this](std::chrono::milliseconds d) { return sleep(d); });
    const Outcome outcome = source->reconcile->provider == ReconcileConfig::Provider::Stripe
        ? runStripe(run, *source, client)
        : runGitHub(run, *source, client);
    finish(run, outcome);
}

Reconciler::Outcome Reconciler::runStripe(const Run &run, const SourceConfig &source, ProviderClient &client)
{
    Outcome out;
    const ReconcileConfig &c = *source.reconcile;
    const qint64 sinceSeconds = (m_clock.nowMs() - c.lookbackMs) / 1000;
    QList<StripeEvent> listed;
    QSet<QString> seen;
    QString startingAfter;
    for (int page = 0;; ++page) {
        if (page >= m_options.maxPages) {
            out.error
                = QStringLiteral("the provider listed more than %1 pages inside the lookback; nothing was "
                                 "recorded (shorten lookback or run more often)")
                      .arg(m_options.maxPages);
            return out;
        }
        if (!keepLease(run)) {
            out.error
                = QStringLiteral("the run lost its lease or the receiver stopped; nothing was recorded");
            return out;
        }
        QUrl url = apiUrl(c, QStringLiteral("/v1/events"));
        QUrlQuery query;
        query.addQueryItem(QStringLiteral("created%5Bgte%5D"), QString::number(sinceSeconds));
        query.addQueryItem(QStringLiteral("limit"), QStringLiteral("100"));
        if (!startingAfter.isEmpty())
            query.addQueryItem(QStringLiteral("starting_after"),
                QString::fromLatin1(QUrl::toPercentEncoding(startingAfter)));
        url.setQuery(query);
        const auto answer = client.get(url);
        if (!answer) {
            out.error = answer.error() + QStringLiteral("; nothing was recorded");
            return out;
        }
        auto parsed = parseStripePage(answer->body);
        if (!parsed) {
            out.error = parsed.error() + QStringLiteral("; nothing was recorded");
            return out;
        }
        const QString lastId = parsed->events.isEmpty() ? QString() : parsed->events.last().id;
        for (StripeEvent &e : parsed->events) {
            if (!seen.contains(e.id)) {
                seen.insert(e.id);
                listed.append(std::move(e));
            }
        }
        out.counts.checked = listed.size();
        if (!parsed->hasMore)
            break;
        startingAfter = lastId;
    }
    QStringList ids;
    ids.reserve(listed.size());
    for (const StripeEvent &e : std::as_const(listed))
        ids.append(e.id);
    const auto stored = storedIds(*m_db, source.name, ids);
    if (!stored) {
        out.error = QStringLiteral("reading the stored events failed: %1").arg(stored.error());
        return out;
    }
    QList<StripeEvent> missing;
    for (const StripeEvent &e : std::as_const(listed)) {
        if (!stored->contains(e.id))
            missing.append(e);
    }
    out.counts.missing = missing.size();
    const auto recorded = record(source, missing);
    if (!recorded) {
        out.error = recorded.error();
        return out;
    }
    out.counts.recovered = *recorded;
    return out;
}

Result<qint64> Reconciler::record(const SourceConfig &source, const QList<StripeEvent> &events)
{
    struct Progress {
        std::mutex mutex;
        std::condition_variable cv;
        int inFlight = 0;
        qint64 stored = 0;
        qint64 failed = 0;
    };
    auto progress = std::make_shared<Progress>();
    const QString label = source.reconcile->credential.label;
    for (const StripeEvent &e : events) {
        {
            std::unique_lock lock(progress->mutex);
            progress->cv.wait(lock, [&] { return progress->inFlight < m_options.maxInFlight; });
        }
        IncomingEvent in;
        in.source = source.name;
        in.providerEventId = e.id;
        in.eventType = e.type;
        in.occurredAtMs = e.createdSeconds * 1000;
        in.receivedAtMs = m_clock.nowMs();
        in.contentType = QStringLiteral("application/json");
        in.body = e.raw;
        in.bodySha256Hex = crypto::sha256Hex(e.raw);
        in.headersJson = QByteArrayLiteral("[]");
        in.verifiedBy = label; // fetched with this credential over the provider's API
        in.dedupeByBody = source.dedupeByBody;
        in.keys = bodyKeys(source, e.raw);
        in.reconciled = true;
        privacy::redactIncoming(in, source);
        // Validated like the webhook it stands for; with no request to refuse, an invalid one is
        // quarantined whatever on_invalid says (the provider will not send it again either).
        if (const SchemaRule *rule = source.schemaFor(e.type)) {
            const QList<validation::ValidationError> errors = rule->schema->validateBody(e.raw);
            if (!errors.isEmpty())
                in.validationErrors = validation::validationErrorsJson(errors);
        }
        for (int tries = 0;; ++tries) {
            {
                std::lock_guard lock(progress->mutex);
                ++progress->inFlight;
            }
            // NOLINTNEXTLINE(bugprone-use-after-move): submit() moves `in` only when it queued it
            const auto submitted = m_writer.submit(std::move(in), [progress](const ingest::IngestOutcome &o) {
                std::lock_guard lock(progress->mutex);
                --progress->inFlight;
                if (o.ok && !o.duplicate)
                    ++progress->stored;
                else if (!o.ok)
                    ++progress->failed;
                progress->cv.notify_all();
            });
            if (submitted == ingest::GroupCommitWriter::Submit::Queued)
                break;
            {
                std::lock_guard lock(progress->mutex);
                --progress->inFlight;
            }
            if (submitted == ingest::GroupCommitWriter::Submit::Stopped || tries >= 100
                || !sleep(std::chrono::milliseconds(50)))
                return Failure(
                    QStringLiteral("the ingest writer did not take the missing events (queue full or "
                                   "stopped); the next run records them"));
        }
    }
    std::unique_lock lock(progress->mutex);
    progress->cv.wait(lock, [&] { return progress->inFlight == 0; });
    if (progress->failed > 0)
        return Failure(QStringLiteral(
            "%1 of %2 missing events could not be stored (database); the next run records them")
                           .arg(progress->failed)
                           .arg(events.size()));
    return progress->stored;
}

Reconciler::Outcome Reconciler::runGitHub(const Run &run, const SourceConfig &source, ProviderClient &client)
{
    Outcome out;
    const ReconcileConfig &c = *source.reconcile;
    const qint64 sinceMs = m_clock.nowMs() - c.lookbackMs;
    // Newest first; a guid may have several deliveries (the original and redeliveries).
    QHash<QString, qint64> deliveryOf; // guid → the delivery to redeliver
    QStringList guids;
    QUrl url = apiUrl(c, QStringLiteral("/%1/deliveries").arg(c.hook));
    url.setQuery(QStringLiteral("per_page=100"));
    for (int page = 0;; ++page) {
        if (page >= m_options.maxPages) {
            out.error = QStringLiteral(
                "the provider listed more than %1 pages inside the lookback (shorten lookback "
                "or run more often)")
                            .arg(m_options.maxPages);
            return out;
        }
        if (!keepLease(run)) {
            out.error = QStringLiteral("the run lost its lease or the receiver stopped");
            return out;
        }
        const auto answer = client.get(url);
        if (!answer) {
            out.error = answer.error();
            return out;
        }
        const auto parsed = parseGitHubPage(answer->body);
        if (!parsed) {
            out.error = parsed.error();
            return out;
        }
        bool older = false;
        for (const GitHubDelivery &d : *parsed) {
            if (d.deliveredAtMs < sinceMs) {
                older = true;
                continue;
            }
            if (!deliveryOf.contains(d.guid)) {
                guids.append(d.guid);
                deliveryOf.insert(d.guid, d.id);
            }
        }
        out.counts.checked = guids.size();
        const auto next = nextLink(answer->headers.value("Link").toByteArray());
        if (older || !next || parsed->isEmpty())
            break;
        // The credential goes only where api_url points.
        if (!sameOrigin(*next, c.apiUrl)) {
            out.error = QStringLiteral("the provider's next page link points to another origin (%1); refused")
                            .arg(next->toDisplayString(
                                QUrl::RemoveUserInfo | QUrl::RemovePath | QUrl::RemoveQuery));
            return out;
        }
        url = *next;
    }
    const auto stored = storedIds(*m_db, source.name, guids);
    if (!stored) {
        out.error = QStringLiteral("reading the stored events failed: %1").arg(stored.error());
        return out;
    }
    QStringList missing;
    for (const QString &guid : std::as_const(guids)) {
        if (!stored->contains(guid))
            missing.append(guid);
    }
    out.counts.missing = missing.size();
    const auto asked = redeliveryAttempts(*m_db, source.name, missing);
    if (!asked) {
        out.error = QStringLiteral("reading the redeliveries asked so far failed: %1").arg(asked.error());
        return out;
    }
    for (const QString &guid : std::as_const(missing)) {
        if (asked->value(guid, 0) >= kMaxRedeliveries)
            continue;
        if (!keepLease(run)) {
            out.error = QStringLiteral("the run lost its lease or the receiver stopped");
            return out;
        }
        // Counted before the ask, so a guid is never asked more than kMaxRedeliveries times.
        if (auto counted = withTransaction(
                *m_db, [&] { return countRedelivery(*m_db, source.name, guid, m_clock.nowMs()); });
            !counted) {
            out.error = QStringLiteral("recording a redelivery failed: %1").arg(counted.error());
            return out;
        }
        const auto answer = client.post(
            apiUrl(c, QStringLiteral("/%1/deliveries/%2/attempts").arg(c.hook).arg(deliveryOf.value(guid))));
        if (!answer) {
            out.error = answer.error();
            return out;
        }
        ++out.counts.recovered;
    }
    return out;
}

void Reconciler::finish(Run run, const Outcome &outcome)
{
    run.checked = outcome.counts.checked;
    run.missing = outcome.counts.missing;
    run.recovered = outcome.counts.recovered;
    run.status = outcome.error.isEmpty() ? kStatusOk : kStatusFailed;
    run.error = outcome.error;
    const qint64 now = m_clock.nowMs();
    run.finishedAtMs = now;
    const QString actor = run.requestedBy.isEmpty() ? QLatin1String(kSystemActor) : run.requestedBy;
    const QJsonObject details { { QStringLiteral("run_id"), run.id },
        { QStringLiteral("provider"), run.provider }, { QStringLiteral("status"), run.status.name() },
        { QStringLiteral("checked"), run.checked }, { QStringLiteral("missing"), run.missing },
        { QStringLiteral("recovered"), run.recovered }, { QStringLiteral("error"), run.error } };
    bool held = false;
    const auto done = withTransaction(*m_db, [&]() -> Result<> {
        const auto finished = finishRun(*m_db, run, now);
        if (!finished)
            return Failure(finished.error());
        held = *finished;
        if (!held)
            return ok(); // another receiver declared it failed (lease expired): its audit is not ours
        // A failed run's counts are partial and it recorded nothing: the next run tells.
        if (run.missing > 0 && run.status == kStatusOk) {
            const auto told = notify::enqueue(*m_db, m_config->notifications,
                notify::reconcileMissing(run.source, run.id, run.missing, run.recovered, now), now);
            if (!told)
                return Failure(told.error());
        }
        const auto appended = audit::appendAuditEntry(*m_db,
            audit::AuditRecord { actor, QLatin1String(kSystemRole), QStringLiteral("reconcile_run"),
                QStringLiteral("source:%1").arg(run.source),
                run.requestedBy.isEmpty() ? QStringLiteral("scheduled")
                                          : QStringLiteral("asked through the admin API"),
                details },
            now);
        if (!appended)
            return Failure(appended.error());
        return ok();
    });
    if (!done) {
        qCWarning(lcReconcile, "source %s: run %lld could not be recorded: %s", qPrintable(run.source),
            run.id, qPrintable(done.error()));
    } else if (held) {
        m_registry
            .counter(QStringLiteral("redrive_reconcile_runs_total"),
                QStringLiteral("Reconciliation runs finished, by source and result"),
                { { QStringLiteral("source"), run.source }, { QStringLiteral("result"), run.status.name() } })
            .inc();
        m_registry
            .counter(QStringLiteral("redrive_reconcile_missing_total"),
                QStringLiteral("Events the provider listed that the source had never stored"),
                { { QStringLiteral("source"), run.source } })
            .inc(static_cast<double>(run.missing));
        if (run.status == kStatusOk)
            qCInfo(lcReconcile, "source %s: run %lld ok: checked %lld, missing %lld, recovered %lld",
                qPrintable(run.source), run.id, run.checked, run.missing, run.recovered);
        else
            qCWarning(lcReconcile, "source %s: run %lld failed: %s", qPrintable(run.source), run.id,
                qPrintable(run.error));
    }
    if (m_onFinished)
        m_onFinished(run);
}

} // namespace redrive::reconcile
