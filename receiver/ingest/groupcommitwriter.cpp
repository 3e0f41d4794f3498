// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "groupcommitwriter.h"

#include "domain/types.h"
#include "storage/duewakeup.h"
#include "util/jsonpointer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QSqlQuery>

#include <algorithm>

namespace redrive::ingest {
namespace {

Q_LOGGING_CATEGORY(lcWriter, "redrive.ingest.writer")

using SteadyClock = std::chrono::steady_clock;

double secondsSince(SteadyClock::time_point start, SteadyClock::time_point end = SteadyClock::now())
{
    return std::chrono::duration<double>(end - start).count();
}

} // namespace

GroupCommitWriter::GroupCommitWriter(
    std::shared_ptr<const Config> config, Options options, metrics::Registry &registry, const Clock &clock)
    : m_config(std::move(config))
    , m_options(std::move(options))
    , m_clock(clock)
    , m_commitSeconds(registry.histogram(QStringLiteral("redrive_ingest_commit_seconds"),
          QStringLiteral("Duration of one group-commit transaction, including the durable flush")))
    , m_ackSeconds(registry.histogram(QStringLiteral("redrive_ingest_ack_seconds"),
          QStringLiteral("From a verified request entering the write queue to its durable commit")))
    , m_batchSize(registry.histogram(QStringLiteral("redrive_ingest_batch_size"),
          QStringLiteral("Events per group-commit transaction"), {},
          { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096 }))
    , m_commitFailures(registry.counter(QStringLiteral("redrive_ingest_commit_failures_total"),
          QStringLiteral("Group commits that failed and were retried one event at a time")))
    , m_itemFailures(registry.counter(QStringLiteral("redrive_ingest_store_failures_total"),
          QStringLiteral("Events that could not be stored (answered 503)")))
    , m_rejectionsStored(registry.counter(QStringLiteral("redrive_ingest_rejections_stored_total"),
          QStringLiteral("Rejected requests recorded in the rejections table")))
    , m_rejectionsDropped(registry.counter(QStringLiteral("redrive_ingest_rejections_dropped_total"),
          QStringLiteral("Rejected requests not recorded because the rejection queue was full")))
    , m_rejectionsTrimmed(registry.counter(QStringLiteral("redrive_ingest_rejections_trimmed_total"),
          QStringLiteral("Old rejection rows removed to keep the table bounded")))
    , m_durableGauge(registry.gauge(QStringLiteral("redrive_storage_power_loss_durable"),
          QStringLiteral(
              "1 when an acknowledged event survives power loss (SQLite FULL, PostgreSQL synchronous_commit on)")))
    , m_availability(registry, QStringLiteral("ingest"))
{
    m_options.batchMax = std::max(1, m_options.batchMax);
    m_options.queueCapacity = std::max(1, m_options.queueCapacity);
    registry
        .gauge(QStringLiteral("redrive_ingest_queue_capacity"), QStringLiteral("Capacity of the write queue"))
        .set(m_options.queueCapacity);
    registry.callbackGauge(QStringLiteral("redrive_ingest_queue_depth"),
        QStringLiteral("Verified requests waiting for the group-commit writer"), {},
        [depth = m_depth] { return static_cast<double>(depth->load(std::memory_order_relaxed)); });
}

GroupCommitWriter::~GroupCommitWriter()
{
    stop();
}

QString GroupCommitWriter::durabilityReport() const
{
    std::lock_guard lock(m_mutex);
    return m_durability;
}

void GroupCommitWriter::setPaused(bool paused)
{
    {
        std::lock_guard lock(m_mutex);
        m_paused = paused;
    }
    m_cv.notify_all();
}

bool GroupCommitWriter::start(QString *error)
{
    if (m_thread.joinable()) {
        *error = QStringLiteral("writer already started");
        return false;
    }
    std::promise<QString> ready;
    auto result = ready.get_future();
    m_thread = std::thread([this, &ready] { run(&ready); });
    const QString failure = result.get();
    if (!failure.isEmpty()) {
        m_thread.join();
        *error = failure;
        return false;
    }
    return true;
}

void GroupCommitWriter::stop()
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_thread.joinable())
            return;
        m_stopRequested = true;
    }
    m_cv.notify_all();
    m_thread.join();
}

GroupCommitWriter::Submit GroupCommitWriter::submit(IncomingEvent &&event, Completion &&done)
{
    std::unique_lock lock(m_mutex);
    if (m_stopRequested || !m_running.load(std::memory_order_acquire))
        return Submit::Stopped;
    if (static_cast<int>(m_queue.size()) >= m_options.queueCapacity)
        return Submit::QueueFull;
    m_queue.push_back(Pending { std::move(event), std::move(done), SteadyClock::now(), {}, 0 });
    m_depth->fetch_add(1, std::memory_order_relaxed);
    const bool wasEmpty = m_queue.size() == 1;
    lock.unlock();
    if (wasEmpty) // otherwise the writer is busy and will look at the queue before waiting
        m_cv.notify_one();
    return Submit::Queued;
}

bool GroupCommitWriter::submitRejection(RejectionRecord &&rejection)
{
    std::unique_lock lock(m_mutex);
    if (m_stopRequested || static_cast<int>(m_rejectionQueue.size()) >= m_options.rejectionQueueCapacity) {
        lock.unlock();
        m_rejectionsDropped.inc();
        return false;
    }
    m_rejectionQueue.push_back(std::move(rejection));
    const bool wasEmpty = m_rejectionQueue.size() == 1 && m_queue.empty();
    lock.unlock();
    if (wasEmpty)
        m_cv.notify_one();
    return true;
}

bool GroupCommitWriter::openDatabase(QString *error)
{
    OpenOptions open;
    open.sqliteSynchronous = m_options.sqliteSynchronous;
    m_db = Db::open(m_options.url, QStringLiteral("writer"), open, error);
    if (!m_db)
        return false;
    QString durability = m_db->durabilityReport();
    bool durable = m_db->powerLossDurable();
    if (m_db->isSqlite()) {
        // Checkpoints run on the WalCheckpointer's thread, never inside an acknowledgement.
        if (!m_db->exec(QStringLiteral("PRAGMA wal_autocheckpoint=0"), error))
            return false;
    } else {
        // Acknowledge only what the server has flushed, whatever its default is.
        if (!m_db->exec(QStringLiteral("SET synchronous_commit TO on"), error))
            return false;
        QSqlQuery q(m_db->handle());
        if (q.exec(QStringLiteral("SHOW synchronous_commit")) && q.next()) {
            const QString value = q.value(0).toString();
            durability = QStringLiteral("postgresql synchronous_commit=%1").arg(value);
            durable = value != u"off" && value != u"local";
        }
    }
    m_store = std::make_unique<IngestStore>(*m_db);
    if (!m_store->prepare(error))
        return false;
    {
        std::lock_guard lock(m_mutex);
        m_durability = durability;
    }
    m_powerLossDurable.store(durable);
    m_durableGauge.set(durable ? 1 : 0);
    return true;
}

void GroupCommitWriter::run(std::promise<QString> *ready)
{
    QString error;
    if (m_options.url.dialect == Dialect::Sqlite) {
        m_checkpointer = std::make_unique<WalCheckpointer>(m_options.url, m_options.sqliteSynchronous);
        if (!m_checkpointer->start(&error)) {
            m_checkpointer.reset();
            ready->set_value(error);
            return;
        }
    }
    if (!openDatabase(&error)) {
        m_store.reset();
        m_db.reset();
        m_checkpointer.reset();
        ready->set_value(error.isEmpty() ? QStringLiteral("cannot open the database") : error);
        return;
    }
    {
        const qint64 now = m_clock.nowMs();
        ReceiverInstance instance = m_options.instance;
        instance.startedAtMs = instance.startedAtMs ? instance.startedAtMs : now;
        instance.heartbeatAtMs = now;
        instance.durability = durabilityReport();
        instance.powerLossDurable = m_powerLossDurable.load();
        Transaction tx(*m_db);
        if (!tx.begin(&error) || !m_store->pruneInstances(now - 7LL * 86'400'000, &error)
            || !m_store->upsertInstance(instance, &error) || !tx.commit(&error)) {
            m_store.reset();
            m_db.reset();
            m_checkpointer.reset();
            ready->set_value(
                QStringLiteral("cannot record this receiver in receiver_instances: %1").arg(error));
            return;
        }
    }
    m_lastHeartbeat = m_lastTrim = SteadyClock::now();
    m_lastReconnect = m_lastHeartbeat - std::chrono::seconds(2); // the first reconnect may happen at once
    m_rejectionsSinceTrim = 1; // trim once soon after start, in case rejections_keep was lowered
    m_batch.reserve(static_cast<std::size_t>(m_options.batchMax));
    m_healthy.store(true);
    {
        std::lock_guard lock(m_mutex);
        m_running.store(true, std::memory_order_release);
    }
    ready->set_value(QString());

    const auto heartbeatEvery = std::chrono::milliseconds(std::max(100, m_options.heartbeatIntervalMs));
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            m_cv.wait_until(lock, m_lastHeartbeat + heartbeatEvery, [this] {
                return m_stopRequested || (!m_paused && (!m_queue.empty() || !m_rejectionQueue.empty()));
            });
            const bool draining = m_stopRequested;
            if (!m_paused || draining) {
                const std::size_t n = std::min(m_queue.size(), static_cast<std::size_t>(m_options.batchMax));
                for (std::size_t i = 0; i < n; ++i) {
                    m_batch.push_back(std::move(m_queue.front()));
                    m_queue.pop_front();
                }
                m_depth->fetch_sub(static_cast<int>(n), std::memory_order_relaxed);
                const std::size_t r = std::min(m_rejectionQueue.size(),
                    static_cast<std::size_t>(std::max(1, m_options.rejectionsPerBatch)));
                for (std::size_t i = 0; i < r; ++i) {
                    m_rejections.push_back(std::move(m_rejectionQueue.front()));
                    m_rejectionQueue.pop_front();
                }
            }
            if (draining && m_batch.empty() && m_rejections.empty() && m_queue.empty()
                && m_rejectionQueue.empty())
                break;
            if (draining)
                m_running.store(false, std::memory_order_release);
        }
        if (!m_batch.empty() || !m_rejections.empty())
            commitBatch();
        maintenance();
    }
    m_running.store(false, std::memory_order_release);
    if (m_checkpointer)
        m_checkpointer->stop();
    m_store.reset();
    m_db.reset(); // the last connection to close copies what is left of the WAL
    m_checkpointer.reset();
}

const QStringList &GroupCommitWriter::routesFor(const QString &source, const QString &type)
{
    QString key;
    key.reserve(source.size() + type.size() + 1);
    key.append(source).append(QChar(0)).append(type);
    const auto it = m_routeCache.find(key);
    if (it != m_routeCache.end())
        return it->second;
    if (m_routeCache.size() >= 4096) // event types are sender-controlled: keep the cache bounded
        m_routeCache.clear();
    return m_routeCache.emplace(std::move(key), m_config->routeDestinations(source, type)).first->second;
}

std::optional<QString> GroupCommitWriter::orderingKey(
    const DestinationConfig &destination, const QByteArray &body, std::optional<QJsonValue> &parsed)
{
    if (!parsed) {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
        if (parseError.error != QJsonParseError::NoError)
            parsed = QJsonValue();
        else
            parsed = doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array());
    }
    if (parsed->isNull())
        return std::nullopt;
    const auto value = resolveJsonPointer(*parsed, destination.orderingKeyPointer);
    return value ? jsonScalarText(*value) : std::nullopt;
}

void GroupCommitWriter::planDeliveries(const IncomingEvent &event, qint64 eventId, QList<DeliveryRow> *out)
{
    std::optional<QJsonValue> parsed;
    for (const QString &name : routesFor(event.source, event.eventType)) {
        DeliveryRow row;
        row.eventId = eventId;
        row.dueAtMs = event.receivedAtMs;
        row.delivery.destination = name;
        row.delivery.idempotencyKey = deliveryIdempotencyKey(event.source, event.providerEventId, name);
        const DestinationConfig *destination = m_config->destination(name);
        if (destination && !destination->orderingKeyPointer.isEmpty())
            row.delivery.orderingKey = orderingKey(*destination, event.body, parsed);
        out->append(std::move(row));
    }
}

// A new event's business keys, stored in its transaction (a duplicate carries the same body).
void GroupCommitWriter::appendKeys(const IncomingEvent &event, qint64 eventId, QList<KeyRow> *out)
{
    for (const EventKey &key : event.keys)
        out->append(KeyRow { eventId, key.name, key.value });
}

// The whole batch in a few multi-row statements (PostgreSQL: each statement is a round trip).
// Events repeated inside the batch are folded into one row that counts its occurrences; the
// first of them in queue order is the new one, if the row is new at all.
bool GroupCommitWriter::storeBatchMultiRow(qint64 nowMs, QString *error)
{
    static const QString pending = toString(EventStatus::Pending);
    static const QString noRoute = toString(EventStatus::NoRoute);
    QList<UpsertRow> rows;
    rows.reserve(static_cast<qsizetype>(m_batch.size()));
    std::vector<qsizetype> rowOf(m_batch.size());
    std::unordered_map<QString, qsizetype> byKey;
    for (std::size_t i = 0; i < m_batch.size(); ++i) {
        Pending &p = m_batch[i];
        p.outcome = IngestOutcome {};
        p.newDeliveries = 0;
        const QString key = p.event.source + QChar(0) + p.event.providerEventId;
        const auto [it, inserted] = byKey.emplace(key, rows.size());
        if (inserted) {
            const bool routed = !routesFor(p.event.source, p.event.eventType).isEmpty();
            rows.append(UpsertRow { &p.event, routed ? pending : noRoute, 1 });
        } else {
            ++rows[it->second].occurrences;
        }
        rowOf[i] = it->second;
    }
    QList<UpsertResult> results;
    if (!m_store->upsertEvents(rows, &results, error))
        return false;

    QList<DeliveryRow> deliveries;
    QList<KeyRow> keys;
    std::vector<bool> claimed(static_cast<std::size_t>(rows.size()), false);
    for (std::size_t i = 0; i < m_batch.size(); ++i) {
        Pending &p = m_batch[i];
        const qsizetype r = rowOf[i];
        const UpsertResult &result = results[r];
        const bool rowIsNew = result.seenCount == rows[r].occurrences;
        const bool first = !claimed[static_cast<std::size_t>(r)];
        claimed[static_cast<std::size_t>(r)] = true;
        p.outcome.ok = true; // for the client only once the transaction commits
        p.outcome.eventId = result.eventId;
        p.outcome.duplicate = !(rowIsNew && first);
        if (!p.outcome.duplicate) {
            const qsizetype before = deliveries.size();
            planDeliveries(p.event, result.eventId, &deliveries);
            p.newDeliveries = static_cast<int>(deliveries.size() - before);
            appendKeys(p.event, result.eventId, &keys);
        }
    }
    return (deliveries.isEmpty() || m_store->insertDeliveries(deliveries, nowMs, error))
        && m_store->insertKeys(keys, error);
}

bool GroupCommitWriter::storeOne(Pending &p, qint64 nowMs, QString *error)
{
    p.outcome = IngestOutcome {};
    p.newDeliveries = 0;
    const QStringList &destinations = routesFor(p.event.source, p.event.eventType);
    static const QString pending = toString(EventStatus::Pending);
    static const QString noRoute = toString(EventStatus::NoRoute);
    UpsertResult upserted;
    if (!m_store->upsertEvent(p.event, destinations.isEmpty() ? noRoute : pending, &upserted, error))
        return false;
    if (upserted.isNew()) {
        QList<DeliveryRow> deliveries;
        planDeliveries(p.event, upserted.eventId, &deliveries);
        for (const DeliveryRow &d : deliveries) {
            if (!m_store->insertDelivery(d.eventId, d.delivery, d.dueAtMs, nowMs, error))
                return false;
            ++p.newDeliveries;
        }
        QList<KeyRow> keys;
        appendKeys(p.event, upserted.eventId, &keys);
        if (!m_store->insertKeys(keys, error))
            return false;
    }
    p.outcome.ok = true; // becomes true for the client only once the transaction commits
    p.outcome.eventId = upserted.eventId;
    p.outcome.duplicate = !upserted.isNew();
    return true;
}

void GroupCommitWriter::finish(Pending &p, bool ok, IngestOutcome::Failure failure)
{
    if (!ok) {
        p.outcome = IngestOutcome {};
        p.outcome.failure = failure;
    } else
        m_ackSeconds.observe(secondsSince(p.enqueued));
    if (p.done) {
        try {
            p.done(p.outcome);
        } catch (const std::exception &e) {
            qCWarning(lcWriter, "completion callback failed: %s", e.what());
        }
    }
    p.done = nullptr; // release the responder now, not when the batch buffer is reused
}

void GroupCommitWriter::commitBatch()
{
    const auto started = SteadyClock::now();
    const qint64 nowMs = m_clock.nowMs();
    QString error;
    bool ok = m_db || reconnectIfNeeded();
    if (ok) {
        Transaction tx(*m_db);
        ok = tx.begin(&error);
        if (m_store->prefersMultiRow()) {
            ok = ok && storeBatchMultiRow(nowMs, &error);
            ok = ok
                && (m_rejections.empty()
                    || m_store->insertRejections(
                        QList<RejectionRecord>(m_rejections.begin(), m_rejections.end()), &error));
        } else {
            for (auto it = m_batch.begin(); ok && it != m_batch.end(); ++it)
                ok = storeOne(*it, nowMs, &error);
            for (auto it = m_rejections.begin(); ok && it != m_rejections.end(); ++it)
                ok = m_store->insertRejection(*it, &error);
        }
        // Wakes the delivery engines of every receiver on a PostgreSQL database when (and only
        // if) the batch commits; one per batch.
        if (ok && std::any_of(m_batch.begin(), m_batch.end(), [](const Pending &p) {
                return p.newDeliveries > 0;
            }))
            ok = notifyDeliveriesDue(*m_db, &error);
        if (ok)
            ok = tx.commit(&error);
    }
    if (ok) {
        m_healthy.store(true, std::memory_order_release);
        m_availability.reportUp();
        if (m_checkpointer)
            m_checkpointer->noteCommit();
        CommitSummary summary;
        if (!m_batch.empty()) {
            m_commitSeconds.observe(secondsSince(started));
            m_batchSize.observe(static_cast<double>(m_batch.size()));
        }
        for (auto &p : m_batch) {
            ++summary.events;
            summary.newEvents += p.outcome.duplicate ? 0 : 1;
            summary.duplicates += p.outcome.duplicate ? 1 : 0;
            summary.newDeliveries += p.newDeliveries;
            finish(p, true);
        }
        m_rejectionsStored.inc(static_cast<double>(m_rejections.size()));
        m_rejectionsSinceTrim += static_cast<int>(m_rejections.size());
        m_batch.clear();
        m_rejections.clear();
        if (m_onCommitted && summary.events > 0)
            m_onCommitted(summary);
        return;
    }
    m_commitFailures.inc();
    if (m_availability.isUp()) // during an outage every batch fails: the outage is logged once
        qCWarning(lcWriter,
            "group commit of %d event(s) and %d rejection(s) failed: %s; retrying one at a time",
            static_cast<int>(m_batch.size()), static_cast<int>(m_rejections.size()), qUtf8Printable(error));
    retryIndividually();
}

// One poisoned item must not fail its neighbours: after a failed batch every item gets its own
// transaction. An item that still fails is answered 503 (the sender retries), never 200.
void GroupCommitWriter::retryIndividually()
{
    reconnectIfNeeded();
    const qint64 nowMs = m_clock.nowMs();
    CommitSummary summary;
    int failed = 0;
    QString lastError;
    for (auto &p : m_batch) {
        QString error;
        bool ok = false;
        if (m_db) {
            const auto started = SteadyClock::now();
            Transaction tx(*m_db);
            ok = tx.begin(&error) && storeOne(p, nowMs, &error)
                && (p.newDeliveries == 0 || notifyDeliveriesDue(*m_db, &error)) && tx.commit(&error);
            if (ok) {
                m_commitSeconds.observe(secondsSince(started));
                m_batchSize.observe(1);
            }
        }
        if (ok) {
            m_healthy.store(true, std::memory_order_release);
            m_availability.reportUp();
            if (m_checkpointer)
                m_checkpointer->noteCommit();
            ++summary.events;
            summary.newEvents += p.outcome.duplicate ? 0 : 1;
            summary.duplicates += p.outcome.duplicate ? 1 : 0;
            summary.newDeliveries += p.newDeliveries;
        } else {
            m_itemFailures.inc();
            ++failed;
            lastError = m_db ? error : QStringLiteral("no database connection");
        }
        // Without a connection the database is down (reconnectIfNeeded reported it): the sender
        // is told so, and retries after Retry-After.
        const bool unreachable = !ok && (!m_db || !m_availability.isUp());
        if (unreachable)
            m_availability.countUnavailable();
        finish(p, ok,
            unreachable ? IngestOutcome::Failure::DatabaseUnavailable : IngestOutcome::Failure::StoreFailed);
    }
    if (failed > 0 && m_availability.isUp()) {
        qCWarning(lcWriter, "%d of %d event(s) could not be stored and were answered 503: %s", failed,
            static_cast<int>(m_batch.size()), qUtf8Printable(lastError));
    }
    for (const auto &r : m_rejections) {
        QString error;
        bool ok = false;
        if (m_db) {
            Transaction tx(*m_db);
            ok = tx.begin(&error) && m_store->insertRejection(r, &error) && tx.commit(&error);
        }
        if (ok) {
            m_rejectionsStored.inc();
            ++m_rejectionsSinceTrim;
        } else {
            m_rejectionsDropped.inc();
        }
    }
    if (summary.events == 0 && !m_batch.empty())
        m_healthy.store(false, std::memory_order_release);
    m_batch.clear();
    m_rejections.clear();
    if (m_onCommitted && summary.events > 0)
        m_onCommitted(summary);
}

// After a failure: is the connection still usable? If not, reopen it (at most once a second,
// so a database outage costs one attempt per second, not one per request).
bool GroupCommitWriter::reconnectIfNeeded()
{
    if (m_db && m_db->exec(QStringLiteral("SELECT 1")))
        return true;
    const auto now = SteadyClock::now();
    if (now - m_lastReconnect < std::chrono::seconds(1))
        return false;
    m_lastReconnect = now;
    m_store.reset();
    m_db.reset();
    QString error;
    if (!openDatabase(&error)) {
        m_store.reset();
        m_db.reset();
        m_healthy.store(false, std::memory_order_release);
        m_availability.reportDown(error); // logged when the outage starts, not every second
        return false;
    }
    qCInfo(lcWriter, "database connection re-established (%s)", qUtf8Printable(durabilityReport()));
    return true;
}

void GroupCommitWriter::maintenance()
{
    const auto now = SteadyClock::now();
    const int trimEvery = std::max(1, m_options.rejectionsKeep / 10);
    if (m_db && m_rejectionsSinceTrim > 0
        && (m_rejectionsSinceTrim >= trimEvery || now - m_lastTrim >= std::chrono::seconds(5))) {
        QString error;
        int deleted = 0;
        Transaction tx(*m_db);
        if (tx.begin(&error) && m_store->trimRejections(m_options.rejectionsKeep, &deleted, &error)
            && tx.commit(&error))
            m_rejectionsTrimmed.inc(deleted);
        else
            qCWarning(lcWriter, "trimming the rejections table failed: %s", qUtf8Printable(error));
        m_rejectionsSinceTrim = 0;
        m_lastTrim = now;
    }
    if (now - m_lastHeartbeat >= std::chrono::milliseconds(std::max(100, m_options.heartbeatIntervalMs))) {
        m_lastHeartbeat = now;
        if (!m_db && !reconnectIfNeeded())
            return;
        QString error;
        bool ok = false;
        {
            Transaction tx(*m_db);
            ok = tx.begin(&error)
                && m_store->heartbeat(m_options.instance.instanceId, m_clock.nowMs(), &error)
                && tx.commit(&error);
        }
        m_healthy.store(ok, std::memory_order_release);
        if (ok)
            m_availability.reportUp();
        if (!ok) {
            if (m_availability.isUp())
                qCWarning(lcWriter, "heartbeat failed: %s", qUtf8Printable(error));
            reconnectIfNeeded();
        }
    }
}

} // namespace redrive::ingest
