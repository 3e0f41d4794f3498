// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "domain/types.h"
#include "storage/database.h"
#include "storage/databaseavailability.h"
#include "storage/multirowinsert.h"
#include "storage/pgstatement.h"
#include "storage/sqlitestatement.h"

#include <QByteArray>
#include <QSqlQuery>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

// The SQL of ingest: what one group-commit transaction writes for each accepted webhook, the
// rejections table, and the receiver_instances row. Statements are prepared once per connection
// and reused for every batch. Every call runs inside the caller's transaction.
namespace redrive {

// One verified webhook, ready to store. The caller computes the digest and the redacted headers
// (on the I/O threads), so the single writer thread only binds and executes.
struct IncomingEvent {
    QString source;
    QString providerEventId;
    bool weakId = false;
    QString eventType;
    std::optional<qint64> occurredAtMs;
    qint64 receivedAtMs = 0;
    QString contentType;
    QByteArray body; // byte-exact
    QByteArray bodySha256Hex; // lowercase hex of SHA-256(body)
    QByteArray headersJson; // Headers::redacted().toJson()
    QString verifiedBy; // secret label, never the secret
    std::optional<qint64> clockSkewMs;
    QString remoteAddress;
    // The source dedupes on the body too (SourceConfig::dedupeByBody): the row's dedupe_sha256
    // gets the body digest, unique per source, so the same body under another id is a duplicate.
    bool dedupeByBody = false;
    QList<EventKey> keys; // business keys, stored with a new event in its transaction
    // The source's `redact` pointers matched (core/privacy/redaction.h): the redacted copy, the
    // pointers that matched and the keys read from a redacted value, as JSON arrays. All empty:
    // nothing redacted (stored as NULL, and readers see the body).
    QByteArray redactedBody;
    QByteArray redactedPathsJson;
    QByteArray redactedKeysJson;
    // Found by a reconciliation run in the provider's API rather than received: a new row gets
    // origin "reconciled" (markReconciled) in the transaction that stores it.
    bool reconciled = false;
    // The body failed its source's schema (on_invalid = "quarantine"): a JSON array of at most 20
    // {"pointer","message"}. The event is stored with status `invalid` and no deliveries.
    QByteArray validationErrors;
    [[nodiscard]] bool quarantined() const { return !validationErrors.isEmpty(); }
};

struct PlannedDelivery {
    QString destination;
    QString idempotencyKey;
    std::optional<QString> orderingKey;
};

struct RejectionRecord {
    QString source; // may be empty when the path named none
    QString reason;
    QString detail;
    int statusCode = 0;
    QString remoteAddress;
    QByteArray headersJson; // redacted
    qint64 receivedAtMs = 0;
};

// What a receiver writes about itself into receiver_instances (its heartbeat row). The console reads
// those rows as ReceiverInstance (query/receiverhealth.h), with the outage columns besides.
struct InstanceRecord {
    QString instanceId;
    QString host;
    qint64 pid = 0;
    QString version;
    qint64 startedAtMs = 0;
    qint64 heartbeatAtMs = 0;
    QString durability; // Db::durabilityReport()
    bool powerLossDurable = false;
};

struct UpsertResult {
    qint64 eventId = 0;
    int seenCount = 0;
    [[nodiscard]] bool isNew() const { return seenCount == 1; }
};

// One row of a multi-row upsert: distinct (source, provider_event_id) per call. `occurrences`
// is how often the batch carried this event; seen_count grows by that much, so the row is new
// exactly when the returned seenCount equals `occurrences`.
struct UpsertRow {
    const IncomingEvent *event = nullptr;
    QString status;
    int occurrences = 1;
};

// The business keys of one new event.
struct KeyRow {
    qint64 eventId = 0;
    QList<EventKey> keys;
};

// {"name":"value",…} in the order given, strings escaped as JSON requires: the `keys` of an
// event_keys_pending row.
QByteArray encodePendingKeys(const QList<EventKey> &keys);

struct DeliveryRow {
    qint64 eventId = 0;
    PlannedDelivery delivery;
    qint64 dueAtMs = 0;
};

// "rdv_" + the first 32 hex characters of SHA-256(source \0 provider_event_id \0 destination).
// Stable for an (event, destination) pair on every instance and every replay; the delivery
// engine sends it as Idempotency-Key and webhook-id.
QString deliveryIdempotencyKey(QStringView source, QStringView providerEventId, QStringView destination);

class IngestStore final {
public:
    // How PostgreSQL batches travel: binary arrays over the libpq handle behind QPSQL, or
    // multi-row QPSQL statements (used when the driver exposes no native handle; tests pick it).
    enum class PostgresBatches { Native, MultiRow };
    explicit IngestStore(Db &db, PostgresBatches batches = PostgresBatches::Native);
    IngestStore(const IngestStore &) = delete;
    IngestStore &operator=(const IngestStore &) = delete;

    Result<> prepare();

    // INSERT … ON CONFLICT DO NOTHING, then for a conflict seen_count + 1 on the stored row: the
    // one with the same (source, provider_event_id), else the one with the same (source,
    // dedupe_sha256). The database's unique keys decide new vs duplicate (seen_count == 1 ⇒ new);
    // there is no check-then-insert. A new event also gets its event_status row with `status`.
    Result<UpsertResult> upsertEvent(const IncomingEvent &event, const QString &status);
    // A pending delivery of a new event, due at `dueAtMs`.
    Result<> insertDelivery(qint64 eventId, const PlannedDelivery &delivery, qint64 dueAtMs, qint64 nowMs);

    Result<> insertRejection(const RejectionRecord &rejection);

    // Whole batches in few statements. On PostgreSQL every statement is a network round trip,
    // so the writer sends a batch as a handful of multi-row statements; on SQLite (in-process)
    // these simply loop over the per-row statements.
    [[nodiscard]] bool prefersMultiRow() const { return !m_db.isSqlite(); }
    // The results in the order of `rows`.
    Result<QList<UpsertResult>> upsertEvents(const QList<UpsertRow> &rows);
    Result<> insertDeliveries(const QList<DeliveryRow> &rows, qint64 nowMs);
    Result<> insertRejections(const QList<RejectionRecord> &rows);
    // Business keys of new events (ingeststorekeys.cpp). SQLite: one event_keys_pending row per
    // event, indexed later in batches by indexPendingKeys(). PostgreSQL: straight into event_keys,
    // a multi-row insert (or riding the deliveries statement, insertDeliveriesAndKeys()).
    Result<> insertKeys(const QList<KeyRow> &rows);
    // Whether insertKeys() leaves keys pending, for indexPendingKeys() to move (SQLite).
    [[nodiscard]] bool keysGoPending() const { return m_db.isSqlite(); }
    // Moves every pending key into event_keys (the index) in a transaction of its own; the
    // number of keys indexed (0 on PostgreSQL, where nothing is pending).
    Result<int> indexPendingKeys();
    // A batch's new deliveries and keys: one statement over libpq on PostgreSQL.
    Result<> insertDeliveriesAndKeys(
        const QList<DeliveryRow> &deliveries, const QList<KeyRow> &keys, qint64 nowMs);
    // events.origin = 'reconciled' on these new events (reconciliation; a handful per batch).
    Result<> markReconciled(const QList<qint64> &eventIds);
    // Keeps the newest `keep` rejections; the number removed.
    Result<int> trimRejections(int keep);

    Result<> upsertInstance(const InstanceRecord &instance);
    // Also records the receiver's last database outage (`outage` null: none since it started), so
    // the console can say when the receiver could not reach the database and what it refused.
    Result<> heartbeat(const QString &instanceId, qint64 nowMs, const DatabaseOutage *outage = nullptr);
    // Forgets instances whose heartbeat stopped before `beforeMs` (long gone receivers).
    Result<> pruneInstances(qint64 beforeMs);

private:
    // SQLite: seen_count + 1 on the stored row `again` matches, read back with `row`; nullopt
    // when no row matched.
    Result<std::optional<UpsertResult>> countDuplicate(SqliteStatement &again, SqliteStatement &row,
        qint64 seenAtMs, const std::function<void(SqliteStatement &, int)> &bindKey);
    // PostgreSQL: rows the insert skipped (`results[i].eventId == 0`) are counted on the stored row.
    Result<> pgCountDuplicates(const QList<UpsertRow> &rows, QList<UpsertResult> *results);
    Result<> prepareKeys(); // ingeststorekeys.cpp
    // ingeststorepostgres.cpp
    Result<> preparePostgresBatches();
    Result<QList<UpsertResult>> pgUpsertEvents(const QList<UpsertRow> &rows);
    Result<> pgCountDuplicatesNative(const QList<UpsertRow> &rows, QList<UpsertResult> *results);
    Result<> pgInsertDeliveries(const QList<DeliveryRow> &rows, const QList<KeyRow> &keys, qint64 nowMs);

    Db &m_db;
    PostgresBatches m_batches;
    // SQLite: the per-event statements go through the native handle (see SqliteStatement).
    SqliteStatement m_fastInsertEvent;
    SqliteStatement m_fastInsertStatus;
    SqliteStatement m_fastSeenAgain;
    SqliteStatement m_fastSeenRow;
    SqliteStatement m_fastSeenAgainBody;
    SqliteStatement m_fastSeenRowBody;
    // Hashes of recently stored (source, id) keys, a hint that the next one is a duplicate.
    std::vector<std::size_t> m_recentKeys = std::vector<std::size_t>(std::size_t(1) << 14, 0);
    SqliteStatement m_fastInsertDelivery;
    SqliteStatement m_fastInsertKey;
    std::unique_ptr<MultiRowInsert> m_multiKeys;
    // PostgreSQL: a whole batch in one statement over libpq with binary arrays (PgStatement);
    // the multi-row QPSQL statements remain for rejections and when no native handle exists.
    PgStatement m_pgUpsertEvents;
    PgStatement m_pgInsertDeliveries;
    PgStatement m_pgCountDuplicates;
    std::unique_ptr<MultiRowInsert> m_multiEvents;
    std::unique_ptr<MultiRowInsert> m_multiStatuses;
    std::unique_ptr<MultiRowInsert> m_multiDeliveries;
    std::unique_ptr<MultiRowInsert> m_multiRejections;
    QSqlQuery m_pgCountDuplicate;
    QSqlQuery m_insertRejection; // SQLite
    QSqlQuery m_trimRejections;
    QSqlQuery m_upsertInstance;
    QSqlQuery m_heartbeat;
    QSqlQuery m_pruneInstances;
};

} // namespace redrive
