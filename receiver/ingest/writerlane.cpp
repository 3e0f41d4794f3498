// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "writerlane.h"

#include "deliveryrules/deliveryplan.h"
#include "domain/types.h"
#include "storage/eventvalidation.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QSqlQuery>

#include <algorithm>
#include <numeric>

namespace redrive::ingest {

Q_LOGGING_CATEGORY(lcWriter, "redrive.ingest.writer")

namespace {

using SteadyClock = std::chrono::steady_clock;

double secondsSince(SteadyClock::time_point start, SteadyClock::time_point end = SteadyClock::now())
{
    return std::chrono::duration<double>(end - start).count();
}

} // namespace

WriterShared::WriterShared(std::shared_ptr<const Config> config_, WriterOptions options_,
    metrics::Registry &registry, const Clock &clock_)
    : config(std::move(config_))
    , options(std::move(options_))
    , clock(clock_)
    , commitSeconds(registry.histogram(QStringLiteral("redrive_ingest_commit_seconds"),
          QStringLiteral("Duration of one group-commit transaction, including the durable flush")))
    , ackSeconds(registry.histogram(QStringLiteral("redrive_ingest_ack_seconds"),
          QStringLiteral("From a verified request entering the write queue to its durable commit")))
    , batchSize(registry.histogram(QStringLiteral("redrive_ingest_batch_size"),
          QStringLiteral("Events per group-commit transaction"), {},
          { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096 }))
    , commitFailures(registry.counter(QStringLiteral("redrive_ingest_commit_failures_total"),
          QStringLiteral("Group commits that failed and were retried one event at a time")))
    , itemFailures(registry.counter(QStringLiteral("redrive_ingest_store_failures_total"),
          QStringLiteral("Events that could not be stored (answered 503)")))
    , rejectionsStored(registry.counter(QStringLiteral("redrive_ingest_rejections_stored_total"),
          QStringLiteral("Rejected requests recorded in the rejections table")))
    , rejectionsDropped(registry.counter(QStringLiteral("redrive_ingest_rejections_dropped_total"),
          QStringLiteral("Rejected requests not recorded because the rejection queue was full")))
    , rejectionsTrimmed(registry.counter(QStringLiteral("redrive_ingest_rejections_trimmed_total"),
          QStringLiteral("Old rejection rows removed to keep the table bounded")))
    , keysIndexed(registry.counter(QStringLiteral("redrive_ingest_keys_indexed_total"),
          QStringLiteral("Business keys moved from their events' pending rows into the key index")))
    , durableGauge(registry.gauge(QStringLiteral("redrive_storage_power_loss_durable"),
          QStringLiteral(
              "1 when an acknowledged event survives power loss (SQLite FULL, PostgreSQL synchronous_commit on)")))
    , availability(registry, QStringLiteral("ingest"))
{ }

void WriterShared::setDurability(const QString &report, bool durable)
{
    {
        std::lock_guard lock(m_mutex);
        m_durability = report;
    }
    powerLossDurable.store(durable);
    durableGauge.set(durable ? 1 : 0);
}

QString WriterShared::durabilityReport() const
{
    std::lock_guard lock(m_mutex);
    return m_durability;
}

WriterLane::WriterLane(WriterShared &shared, int index)
    : m_shared(shared)
    , m_index(index)
{ }

WriterLane::~WriterLane()
{
    close();
}

Result<> WriterLane::open()
{
    if (m_index == 0 && m_shared.options.url.dialect == Dialect::Sqlite) {
        m_checkpointer
            = std::make_unique<WalCheckpointer>(m_shared.options.url, m_shared.options.sqliteSynchronous);
        if (auto started = m_checkpointer->start(); !started) {
            m_checkpointer.reset();
            return started;
        }
    }
    if (auto opened = openDatabase(); !opened) {
        close();
        return Failure(
            opened.error().isEmpty() ? QStringLiteral("cannot open the database") : opened.error());
    }
    if (m_index == 0) {
        if (auto recorded = recordInstance(); !recorded) {
            close();
            return Failure(QStringLiteral("cannot record this receiver in receiver_instances: %1")
                               .arg(recorded.error()));
        }
    }
    m_lastHeartbeat = m_lastTrim = SteadyClock::now();
    m_lastReconnect = m_lastHeartbeat - std::chrono::seconds(2); // the first reconnect may happen at once
    if (m_index == 0 && m_store->keysGoPending()) { // keys a stopped receiver left pending: at the first turn
        m_unindexedEvents = 1;
        m_oldestUnindexed = m_lastHeartbeat - kKeyIndexDelay;
    }
    return ok();
}

void WriterLane::close()
{
    if (m_unindexedEvents > 0 && m_db) // a stopped receiver leaves its keys indexed
        indexKeys();
    if (m_checkpointer)
        m_checkpointer->stop();
    m_store.reset();
    m_db.reset(); // the last connection to close copies what is left of the WAL
    m_checkpointer.reset();
}

Result<> WriterLane::openDatabase()
{
    OpenOptions open;
    open.sqliteSynchronous = m_shared.options.sqliteSynchronous;
    auto opened = Db::open(m_shared.options.url,
        m_index == 0 ? QStringLiteral("writer") : QStringLiteral("writer%1").arg(m_index), open);
    if (!opened) {
        m_db.reset();
        return Failure(opened.error());
    }
    m_db = std::move(*opened);
    QString durability = m_db->durabilityReport();
    bool durable = m_db->powerLossDurable();
    if (m_db->isSqlite()) {
        // Checkpoints run on the WalCheckpointer's thread, never inside an acknowledgement.
        if (auto r = m_db->exec(QStringLiteral("PRAGMA wal_autocheckpoint=0")); !r)
            return r;
    } else {
        // Acknowledge only what the server has flushed, whatever its default is.
        if (auto r = m_db->exec(QStringLiteral("SET synchronous_commit TO on")); !r)
            return r;
        QSqlQuery q(m_db->handle());
        if (q.exec(QStringLiteral("SHOW synchronous_commit")) && q.next()) {
            const QString value = q.value(0).toString();
            durability = QStringLiteral("postgresql synchronous_commit=%1").arg(value);
            durable = value != u"off" && value != u"local";
        }
    }
    m_store = std::make_unique<IngestStore>(*m_db);
    if (auto prepared = m_store->prepare(); !prepared)
        return prepared;
    if (m_index == 0) // every lane sets the same session, one of them reports it
        m_shared.setDurability(durability, durable);
    return ok();
}

Result<> WriterLane::recordInstance()
{
    const qint64 now = m_shared.clock.nowMs();
    InstanceRecord instance = m_shared.options.instance;
    instance.startedAtMs = instance.startedAtMs ? instance.startedAtMs : now;
    instance.heartbeatAtMs = now;
    instance.durability = m_shared.durabilityReport();
    instance.powerLossDurable = m_shared.powerLossDurable.load();
    return withTransaction(*m_db, [&]() -> Result<> {
        if (auto pruned = m_store->pruneInstances(now - 7LL * 86'400'000); !pruned)
            return pruned;
        return m_store->upsertInstance(instance);
    });
}

const QStringList &WriterLane::routesFor(const QString &source, const QString &type)
{
    QString key;
    key.reserve(source.size() + type.size() + 1);
    key.append(source).append(QChar(0)).append(type);
    const auto it = m_routeCache.find(key);
    if (it != m_routeCache.end())
        return it->second;
    if (m_routeCache.size() >= 4096) // event types are sender-controlled: keep the cache bounded
        m_routeCache.clear();
    return m_routeCache.emplace(std::move(key), m_shared.config->routeDestinations(source, type))
        .first->second;
}

void WriterLane::planDeliveries(const IncomingEvent &event, qint64 eventId, QList<DeliveryRow> *out)
{
    delivery::planDeliveries(
        *m_shared.config, routesFor(event.source, event.eventType), event, eventId, event.receivedAtMs, out);
}

// The whole batch in a few multi-row statements (PostgreSQL: each statement is a round trip).
// Events repeated inside the batch are folded into one row that counts its occurrences; the
// first of them in queue order is the new one, if the row is new at all.
// Rows go to the database sorted by (source, provider_event_id): every lane of every receiver
// then takes the unique key's locks in one order, so two batches that share events wait for
// each other instead of deadlocking. (A conflict on the body digest alone — one body under
// several ids — is not ordered; should it ever deadlock, PostgreSQL aborts one batch and
// retryIndividually() stores its events one by one.)
Result<> WriterLane::storeBatchMultiRow(std::vector<PendingEvent> &batch, qint64 nowMs)
{
    static const QString pending = toString(EventStatus::Pending);
    static const QString noRoute = toString(EventStatus::NoRoute);
    static const QString invalid = toString(EventStatus::Invalid);
    struct Distinct {
        QString key;
        std::size_t first; // in queue order
        int occurrences = 0;
    };
    std::vector<Distinct> distinct;
    distinct.reserve(batch.size());
    std::vector<std::size_t> distinctOf(batch.size());
    std::unordered_map<QString, std::size_t> byKey;
    for (std::size_t i = 0; i < batch.size(); ++i) {
        PendingEvent &p = batch[i];
        p.outcome = IngestOutcome {};
        p.newDeliveries = 0;
        QString key = p.event.source + QChar(0) + p.event.providerEventId;
        const auto [it, inserted] = byKey.emplace(key, distinct.size());
        if (inserted)
            distinct.push_back(Distinct { std::move(key), i, 0 });
        ++distinct[it->second].occurrences;
        distinctOf[i] = it->second;
    }
    std::vector<std::size_t> order(distinct.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(order.begin(), order.end(),
        [&distinct](std::size_t a, std::size_t b) { return distinct[a].key < distinct[b].key; });
    std::vector<qsizetype> rowOfDistinct(distinct.size());
    QList<UpsertRow> rows;
    rows.reserve(static_cast<qsizetype>(distinct.size()));
    for (const std::size_t d : order) {
        const IncomingEvent &event = batch[distinct[d].first].event;
        const bool routed = !routesFor(event.source, event.eventType).isEmpty();
        rowOfDistinct[d] = rows.size();
        rows.append(UpsertRow { &event,
            event.quarantined() ? invalid
                : routed        ? pending
                                : noRoute,
            distinct[d].occurrences });
    }
    const auto upserted = m_store->upsertEvents(rows);
    if (!upserted)
        return Failure(upserted.error());
    const QList<UpsertResult> &results = *upserted;

    QList<DeliveryRow> deliveries;
    QList<KeyRow> keys;
    QList<qint64> reconciled;
    std::vector<bool> claimed(static_cast<std::size_t>(rows.size()), false);
    for (std::size_t i = 0; i < batch.size(); ++i) {
        PendingEvent &p = batch[i];
        const qsizetype r = rowOfDistinct[distinctOf[i]];
        const UpsertResult &result = results[r];
        const bool rowIsNew = result.seenCount == rows[r].occurrences;
        const bool first = !claimed[static_cast<std::size_t>(r)];
        claimed[static_cast<std::size_t>(r)] = true;
        p.outcome.ok = true; // for the client only once the transaction commits
        p.outcome.eventId = result.eventId;
        p.outcome.duplicate = !(rowIsNew && first);
        if (!p.outcome.duplicate) {
            if (p.event.quarantined()) {
                if (auto stored
                    = storeValidationErrors(*m_db, result.eventId, p.event.validationErrors, nowMs);
                    !stored)
                    return stored;
            } else {
                const qsizetype before = deliveries.size();
                planDeliveries(p.event, result.eventId, &deliveries);
                p.newDeliveries = static_cast<int>(deliveries.size() - before);
            }
            appendKeys(p.event, result.eventId, &keys);
            if (p.event.reconciled)
                reconciled.append(result.eventId);
        }
    }
    if (auto marked = m_store->markReconciled(reconciled); !marked)
        return marked;
    return m_store->insertDeliveriesAndKeys(deliveries, keys, nowMs);
}

Result<> WriterLane::storeOne(PendingEvent &p, qint64 nowMs)
{
    p.outcome = IngestOutcome {};
    p.newDeliveries = 0;
    const QStringList &destinations = routesFor(p.event.source, p.event.eventType);
    static const QString pending = toString(EventStatus::Pending);
    static const QString noRoute = toString(EventStatus::NoRoute);
    static const QString invalid = toString(EventStatus::Invalid);
    const auto stored = m_store->upsertEvent(p.event,
        p.event.quarantined()        ? invalid
            : destinations.isEmpty() ? noRoute
                                     : pending);
    if (!stored)
        return Failure(stored.error());
    const UpsertResult &upserted = *stored;
    if (upserted.isNew() && p.event.quarantined()) {
        // Quarantined: stored and deduplicated like any event, its errors beside it, no deliveries.
        if (auto errors = storeValidationErrors(*m_db, upserted.eventId, p.event.validationErrors, nowMs);
            !errors)
            return errors;
    }
    if (upserted.isNew()) {
        if (p.event.reconciled) {
            if (auto marked = m_store->markReconciled({ upserted.eventId }); !marked)
                return marked;
        }
        QList<DeliveryRow> deliveries;
        if (!p.event.quarantined())
            planDeliveries(p.event, upserted.eventId, &deliveries);
        for (const DeliveryRow &d : deliveries) {
            if (auto inserted = m_store->insertDelivery(d.eventId, d.delivery, d.dueAtMs, nowMs); !inserted)
                return inserted;
            ++p.newDeliveries;
        }
        QList<KeyRow> keys;
        appendKeys(p.event, upserted.eventId, &keys);
        if (auto inserted = m_store->insertKeys(keys); !inserted)
            return inserted;
    }
    p.outcome.ok = true; // becomes true for the client only once the transaction commits
    p.outcome.eventId = upserted.eventId;
    p.outcome.duplicate = !upserted.isNew();
    return {};
}

void WriterLane::finish(PendingEvent &p, bool ok, IngestOutcome::Failure failure)
{
    if (!ok) {
        p.outcome = IngestOutcome {};
        p.outcome.failure = failure;
    } else
        m_shared.ackSeconds.observe(secondsSince(p.enqueued));
    if (p.done) {
        try {
            p.done(p.outcome);
        } catch (const std::exception &e) {
            qCWarning(lcWriter, "completion callback failed: %s", e.what());
        }
    }
    p.done = nullptr; // release the responder now, not when the batch buffer is reused
}

void WriterLane::commit(std::vector<PendingEvent> &batch, std::vector<RejectionRecord> &rejections)
{
    const auto started = SteadyClock::now();
    const qint64 nowMs = m_shared.clock.nowMs();
    QString error;
    const bool connected = m_db || reconnectIfNeeded();
    bool ok = connected;
    if (ok) {
        const auto stored = withTransaction(*m_db, [&]() -> Result<> {
            if (m_store->prefersMultiRow()) {
                if (auto events = storeBatchMultiRow(batch, nowMs); !events)
                    return events;
                if (!rejections.empty()) {
                    if (auto inserted = m_store->insertRejections(
                            QList<RejectionRecord>(rejections.begin(), rejections.end()));
                        !inserted)
                        return inserted;
                }
            } else {
                for (PendingEvent &p : batch) {
                    if (auto one = storeOne(p, nowMs); !one)
                        return one;
                }
                for (const RejectionRecord &r : rejections) {
                    if (auto inserted = m_store->insertRejection(r); !inserted)
                        return inserted;
                }
            }
            return {};
        });
        ok = stored.has_value();
        error = stored.error();
    }
    if (!ok) {
        m_shared.commitFailures.inc();
        // Without a connection the outage is logged once by the availability tracker; during an
        // outage every batch fails.
        if (connected && m_shared.availability.isUp())
            qCWarning(lcWriter,
                "group commit of %d event(s) and %d rejection(s) failed: %s; retrying one at a time",
                static_cast<int>(batch.size()), static_cast<int>(rejections.size()), qUtf8Printable(error));
        retryIndividually(batch, rejections);
        return;
    }
    m_shared.healthy.store(true, std::memory_order_release);
    m_shared.availability.reportUp(started);
    if (m_checkpointer)
        m_checkpointer->noteCommit();
    CommitSummary summary;
    if (!batch.empty()) {
        m_shared.commitSeconds.observe(secondsSince(started));
        m_shared.batchSize.observe(static_cast<double>(batch.size()));
    }
    for (auto &p : batch) {
        ++summary.events;
        summary.newEvents += p.outcome.duplicate ? 0 : 1;
        summary.duplicates += p.outcome.duplicate ? 1 : 0;
        summary.newDeliveries += p.newDeliveries;
        if (!p.outcome.duplicate && !p.event.keys.isEmpty())
            noteUnindexedKeys(started);
        finish(p, true);
    }
    m_shared.rejectionsStored.inc(static_cast<double>(rejections.size()));
    m_shared.rejectionsSinceTrim.fetch_add(static_cast<int>(rejections.size()));
    batch.clear();
    rejections.clear();
    announce(summary);
}

// After a commit: this process's listeners (its delivery engine) in-process, and on PostgreSQL
// the other receivers' engines through the notifier, once the commit is visible to them.
void WriterLane::announce(const CommitSummary &summary)
{
    if (summary.events == 0)
        return;
    if (summary.newDeliveries > 0 && m_shared.notifier)
        m_shared.notifier->poke();
    if (m_shared.onCommitted)
        m_shared.onCommitted(summary);
}

// One poisoned item must not fail its neighbours: after a failed batch every item gets its own
// transaction. An item that still fails is answered 503 (the sender retries), never 200.
void WriterLane::retryIndividually(std::vector<PendingEvent> &batch, std::vector<RejectionRecord> &rejections)
{
    reconnectIfNeeded();
    const qint64 nowMs = m_shared.clock.nowMs();
    CommitSummary summary;
    int failed = 0;
    QString lastError;
    for (auto &p : batch) {
        QString error;
        bool ok = false;
        const auto started = SteadyClock::now();
        if (m_db) {
            const auto stored = withTransaction(*m_db, [&] { return storeOne(p, nowMs); });
            ok = stored.has_value();
            error = stored.error();
            if (ok) {
                m_shared.commitSeconds.observe(secondsSince(started));
                m_shared.batchSize.observe(1);
            }
        }
        if (ok) {
            m_shared.healthy.store(true, std::memory_order_release);
            m_shared.availability.reportUp(started);
            if (m_checkpointer)
                m_checkpointer->noteCommit();
            ++summary.events;
            summary.newEvents += p.outcome.duplicate ? 0 : 1;
            summary.duplicates += p.outcome.duplicate ? 1 : 0;
            summary.newDeliveries += p.newDeliveries;
            if (!p.outcome.duplicate && !p.event.keys.isEmpty())
                noteUnindexedKeys(SteadyClock::now());
        } else {
            m_shared.itemFailures.inc();
            ++failed;
            lastError = m_db ? error : QStringLiteral("no database connection");
        }
        // Without a connection the database is down (reconnectIfNeeded reported it): the sender
        // is told so, and retries after Retry-After.
        const bool unreachable = !ok && (!m_db || !m_shared.availability.isUp());
        if (unreachable)
            m_shared.availability.countUnavailable();
        finish(p, ok,
            unreachable ? IngestOutcome::Failure::DatabaseUnavailable : IngestOutcome::Failure::StoreFailed);
    }
    if (failed > 0 && m_db && m_shared.availability.isUp()) {
        qCWarning(lcWriter, "%d of %d event(s) could not be stored and were answered 503: %s", failed,
            static_cast<int>(batch.size()), qUtf8Printable(lastError));
    }
    for (const auto &r : rejections) {
        bool ok = false;
        if (m_db)
            ok = withTransaction(*m_db, [&] { return m_store->insertRejection(r); }).has_value();
        if (ok) {
            m_shared.rejectionsStored.inc();
            m_shared.rejectionsSinceTrim.fetch_add(1);
        } else {
            m_shared.rejectionsDropped.inc();
        }
    }
    if (summary.events == 0 && !batch.empty())
        m_shared.healthy.store(false, std::memory_order_release);
    batch.clear();
    rejections.clear();
    announce(summary);
}

// After a failure: is the connection still usable? If not, reopen it (at most once a second,
// so a database outage costs one attempt per second, not one per request).
bool WriterLane::reconnectIfNeeded()
{
    if (m_db && m_db->exec(QStringLiteral("SELECT 1")))
        return true;
    // The connection is gone: drop it now, so that until the next attempt this lane answers
    // "database unavailable" at once instead of failing (and logging) batch after batch on it.
    m_store.reset();
    m_db.reset();
    const auto now = SteadyClock::now();
    if (now - m_lastReconnect < std::chrono::seconds(1))
        return false;
    m_lastReconnect = now;
    if (auto opened = openDatabase(); !opened) {
        m_store.reset();
        m_db.reset();
        m_shared.healthy.store(false, std::memory_order_release);
        // Logged when the outage starts, not every second; a connect that began before another
        // lane got through is not a new outage.
        m_shared.availability.reportDown(opened.error(), now);
        return false;
    }
    qCInfo(lcWriter, "database connection re-established (%s)", qUtf8Printable(m_shared.durabilityReport()));
    return true;
}

SteadyClock::time_point WriterLane::nextHeartbeat() const
{
    return m_lastHeartbeat + std::chrono::milliseconds(std::max(100, m_shared.options.heartbeatIntervalMs));
}

void WriterLane::maintenance()
{
    const auto now = SteadyClock::now();
    indexKeysIfDue(now);
    const int trimEvery = std::max(1, m_shared.options.rejectionsKeep / 10);
    int sinceTrim = m_shared.rejectionsSinceTrim.load();
    // Any lane trims (the one that stored the rejections is awake); one claims the work.
    if (m_db && sinceTrim > 0 && (sinceTrim >= trimEvery || now - m_lastTrim >= std::chrono::seconds(5))
        && m_shared.rejectionsSinceTrim.compare_exchange_strong(sinceTrim, 0)) {
        const auto deleted = withTransaction(
            *m_db, [&] { return m_store->trimRejections(m_shared.options.rejectionsKeep); });
        if (deleted)
            m_shared.rejectionsTrimmed.inc(*deleted);
        else
            qCWarning(lcWriter, "trimming the rejections table failed: %s", qUtf8Printable(deleted.error()));
        m_lastTrim = now;
    }
    if (m_index != 0) { // the heartbeat is the primary lane's; the others only wake as often
        if (now >= nextHeartbeat())
            m_lastHeartbeat = now;
        return;
    }
    if (now >= nextHeartbeat()) {
        m_lastHeartbeat = now;
        if (!m_db && !reconnectIfNeeded())
            return;
        const bool wasUp = m_shared.availability.isUp();
        const std::optional<DatabaseOutage> outage = m_shared.availability.lastOutage();
        const auto beat = withTransaction(*m_db, [&] {
            return m_store->heartbeat(
                m_shared.options.instance.instanceId, m_shared.clock.nowMs(), outage ? &*outage : nullptr);
        });
        const bool ok = beat.has_value();
        m_shared.healthy.store(ok, std::memory_order_release);
        if (ok)
            m_shared.availability.reportUp(now);
        // The outage ended with this beat (or it ended before it but the row still says ongoing):
        // beat again at the next wake-up so the console learns the end now, not a heartbeat later.
        if (ok && (!wasUp || (outage && !outage->endedAtMs)))
            m_lastHeartbeat = now - std::chrono::milliseconds(m_shared.options.heartbeatIntervalMs);
        if (!ok) {
            if (m_shared.availability.isUp())
                qCWarning(lcWriter, "heartbeat failed: %s", qUtf8Printable(beat.error()));
            reconnectIfNeeded();
        }
    }
}

} // namespace redrive::ingest
