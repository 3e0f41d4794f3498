// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "migrations.h"

#include "util/headers.h"

#include <QSqlQuery>
#include <QStringList>

#include <iterator>

namespace redrive::storage {
namespace {

// One schema, two engines. Statements are written once with these tokens:
//   {{PK}}     auto-increment primary key that never reuses ids
//   {{BLOB}}   raw bytes
//   {{ROWKEY}} a primary key that is another table's id (SQLite: the rowid itself)
//   {{NOUPDATE}} / {{NODELETE}}  append-only guards (engine-specific trigger bodies)
//   {{NOROWID}} after a table whose primary key is the only way it is read (SQLite: WITHOUT ROWID,
//              one B-tree instead of a rowid table plus the key's index)
const char *const kMigration1[] = {
    R"(CREATE TABLE events (
        id {{PK}},
        source TEXT NOT NULL,
        provider_event_id TEXT NOT NULL,
        weak_id INTEGER NOT NULL DEFAULT 0,
        event_type TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL,
        occurred_at BIGINT,
        received_at BIGINT NOT NULL,
        last_seen_at BIGINT NOT NULL,
        seen_count INTEGER NOT NULL DEFAULT 1,
        content_type TEXT NOT NULL DEFAULT '',
        body {{BLOB}} NOT NULL,
        body_sha256 TEXT NOT NULL,
        body_size INTEGER NOT NULL,
        headers TEXT NOT NULL DEFAULT '[]',
        verified_by TEXT NOT NULL DEFAULT '',
        clock_skew_ms BIGINT,
        remote_addr TEXT NOT NULL DEFAULT '',
        legal_hold INTEGER NOT NULL DEFAULT 0,
        UNIQUE (source, provider_event_id)
    ))",
    "CREATE INDEX events_status_id ON events (status, id)",
    "CREATE INDEX events_source_id ON events (source, id)",
    "CREATE INDEX events_type_id ON events (event_type, id)",
    "CREATE INDEX events_received ON events (received_at, id)",
    "CREATE INDEX events_provider_id ON events (provider_event_id)",

    R"(CREATE TABLE deliveries (
        id {{PK}},
        event_id BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
        destination TEXT NOT NULL,
        status TEXT NOT NULL,
        attempt_count INTEGER NOT NULL DEFAULT 0,
        next_attempt_at BIGINT,
        lease_owner TEXT,
        lease_token BIGINT NOT NULL DEFAULT 0,
        lease_expires_at BIGINT,
        ordering_key TEXT,
        idempotency_key TEXT NOT NULL,
        last_status_code INTEGER,
        last_category TEXT,
        last_error TEXT,
        outcome_unknown INTEGER NOT NULL DEFAULT 0,
        downstream_ref TEXT,
        succeeded_at BIGINT,
        dead_at BIGINT,
        replay_id BIGINT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        UNIQUE (event_id, destination)
    ))",
    // The claim query: one destination's due rows in order, without reading other destinations' backlog.
    "CREATE INDEX deliveries_claim ON deliveries (destination, next_attempt_at, id) WHERE status IN ('pending', 'retrying')",
    "CREATE INDEX deliveries_status_dest ON deliveries (status, destination)",
    "CREATE INDEX deliveries_lease ON deliveries (lease_expires_at) WHERE status = 'in_flight'",
    "CREATE INDEX deliveries_ordering ON deliveries (destination, ordering_key, id) WHERE ordering_key IS NOT NULL",
    "CREATE INDEX deliveries_ref ON deliveries (downstream_ref) WHERE downstream_ref IS NOT NULL",
    "CREATE INDEX deliveries_idempotency ON deliveries (idempotency_key)",

    R"(CREATE TABLE attempts (
        id {{PK}},
        delivery_id BIGINT NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        trigger_kind TEXT NOT NULL,
        replay_id BIGINT,
        scheduled_at BIGINT,
        started_at BIGINT NOT NULL,
        duration_ms INTEGER NOT NULL DEFAULT 0,
        status_code INTEGER,
        category TEXT NOT NULL,
        explanation TEXT NOT NULL,
        outcome_unknown INTEGER NOT NULL DEFAULT 0,
        response_headers TEXT NOT NULL DEFAULT '[]',
        response_excerpt TEXT NOT NULL DEFAULT '',
        worker_id TEXT NOT NULL DEFAULT '',
        UNIQUE (delivery_id, number)
    ))",
    "CREATE INDEX attempts_started ON attempts (started_at)",
    "CREATE INDEX attempts_replay ON attempts (replay_id) WHERE replay_id IS NOT NULL",

    R"(CREATE TABLE rejections (
        id {{PK}},
        source TEXT NOT NULL,
        reason TEXT NOT NULL,
        detail TEXT NOT NULL DEFAULT '',
        status_code INTEGER NOT NULL,
        remote_addr TEXT NOT NULL DEFAULT '',
        headers TEXT NOT NULL DEFAULT '[]',
        received_at BIGINT NOT NULL
    ))",
    "CREATE INDEX rejections_received ON rejections (received_at)",

    R"(CREATE TABLE destination_state (
        name TEXT PRIMARY KEY,
        paused INTEGER NOT NULL DEFAULT 0,
        changed_by TEXT,
        changed_at BIGINT,
        reason TEXT
    ))",

    R"(CREATE TABLE notes (
        id {{PK}},
        event_id BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
        author TEXT NOT NULL,
        body TEXT NOT NULL,
        created_at BIGINT NOT NULL
    ))",
    "CREATE INDEX notes_event ON notes (event_id)",

    R"(CREATE TABLE api_tokens (
        id {{PK}},
        name TEXT NOT NULL,
        role TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at BIGINT NOT NULL,
        expires_at BIGINT,
        revoked_at BIGINT,
        last_used_at BIGINT
    ))",
    "CREATE UNIQUE INDEX api_tokens_active_name ON api_tokens (name) WHERE revoked_at IS NULL",

    R"(CREATE TABLE selections (
        hash TEXT PRIMARY KEY,
        created_by TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        items TEXT NOT NULL,
        summary TEXT NOT NULL
    ))",

    R"(CREATE TABLE replays (
        id {{PK}},
        status TEXT NOT NULL,
        selection_hash TEXT NOT NULL,
        requested_by TEXT NOT NULL,
        requester_role TEXT NOT NULL,
        reason TEXT NOT NULL,
        ticket TEXT,
        item_count INTEGER NOT NULL,
        requires_approval INTEGER NOT NULL,
        summary TEXT NOT NULL,
        approved_by TEXT,
        decided_at BIGINT,
        decision_reason TEXT,
        approval_expires_at BIGINT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        started_at BIGINT,
        finished_at BIGINT,
        queued_count INTEGER NOT NULL DEFAULT 0,
        succeeded_count INTEGER NOT NULL DEFAULT 0,
        failed_count INTEGER NOT NULL DEFAULT 0,
        skipped_count INTEGER NOT NULL DEFAULT 0
    ))",
    "CREATE INDEX replays_status ON replays (status, id)",
    R"(CREATE TABLE replay_items (
        replay_id BIGINT NOT NULL REFERENCES replays (id),
        delivery_id BIGINT NOT NULL,
        frozen_status TEXT NOT NULL,
        state TEXT NOT NULL DEFAULT 'waiting',
        PRIMARY KEY (replay_id, delivery_id)
    ))",
    "CREATE INDEX replay_items_delivery ON replay_items (delivery_id)",

    R"(CREATE TABLE audit_log (
        seq BIGINT PRIMARY KEY,
        at BIGINT NOT NULL,
        actor TEXT NOT NULL,
        role TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT NOT NULL DEFAULT '',
        reason TEXT NOT NULL DEFAULT '',
        details TEXT NOT NULL DEFAULT '{}',
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL
    ))",
    "CREATE INDEX audit_log_target ON audit_log (target)",
    "{{NOUPDATE audit_log}}",
    "{{NODELETE audit_log}}",

    R"(CREATE TABLE receiver_instances (
        instance_id TEXT PRIMARY KEY,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        version TEXT NOT NULL,
        started_at BIGINT NOT NULL,
        heartbeat_at BIGINT NOT NULL,
        durability TEXT NOT NULL,
        power_loss_durable INTEGER NOT NULL
    ))",
};

// An event's summary status changes on every delivery result. In the events row it cost a new
// version of the whole wide row (body inline) and an entry in each of its indexes per change;
// PostgreSQL's delivery drain could not keep up with ingest. The summary now lives in a narrow
// table of its own, one row per event, created with the event and removed with it.
const char *const kMigration2[] = {
    R"(CREATE TABLE event_status (
        event_id {{ROWKEY}} REFERENCES events (id) ON DELETE CASCADE,
        status TEXT NOT NULL
    ))",
    "INSERT INTO event_status (event_id, status) SELECT id, status FROM events",
    "CREATE INDEX event_status_status ON event_status (status, event_id)",
    "DROP INDEX events_status_id",
    "ALTER TABLE events DROP COLUMN status",
};

// The provider-id search index duplicated the unique key's second column. Real provider ids are
// random (GitHub's X-GitHub-Delivery is a UUID), so each new event dirtied a random leaf page of
// both indexes: with UUID ids, dropping this one took SQLite ingest from 13.5k to 17.6k events/s.
// The search now looks the id up under each source through the unique key (eventfilter.cpp).
const char *const kMigration3[] = {
    "DROP INDEX events_provider_id",
};

// A replay item freezes the delivery's outcome-unknown flag with its status: approval is owed for
// both, so the executor must see either change. Items frozen before this migration get 0, so a
// delivery that is outcome-unknown now counts as changed and is skipped (the safe side).
const char *const kMigration4[] = {
    "ALTER TABLE replay_items ADD COLUMN frozen_outcome_unknown INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE replay_items ADD COLUMN skip_reason TEXT",
};

// GitHub, Shopify and the generic scheme sign the body only, so a stored signature header plus the
// stored body is everything needed to re-send the event under a fresh id. Signature fields are no
// longer stored; this removes them from the rows stored before. Events whose source signs only the
// body now also dedupe on its digest (dedupe_sha256, unique per source; NULL where the source does
// not): the first stored event of each body gets it, so a body captured before the upgrade cannot
// come back as a new event after it either.
const char *const kMigration5[] = {
    "ALTER TABLE events ADD COLUMN dedupe_sha256 TEXT",
    "UPDATE events SET dedupe_sha256 = body_sha256 WHERE id IN (SELECT MIN(id) FROM events GROUP BY source, body_sha256)",
    "CREATE UNIQUE INDEX events_source_dedupe ON events (source, dedupe_sha256) WHERE dedupe_sha256 IS NOT NULL",
};

// Rewrites the stored headers of `table` without signature fields, a page of rows at a time.
Result<> stripSignatureHeaders(Db &db, const QString &table, const MigrateOptions &options)
{
    constexpr int kPage = 500;
    qint64 after = 0;
    QSqlQuery read(db.handle());
    read.setForwardOnly(true);
    read.prepare(
        QStringLiteral("SELECT id, headers FROM %1 WHERE id > ? ORDER BY id LIMIT %2").arg(table).arg(kPage));
    QSqlQuery write(db.handle());
    write.prepare(QStringLiteral("UPDATE %1 SET headers = ? WHERE id = ?").arg(table));
    auto isSignature = [&options](QByteArrayView name) {
        if (Headers::isSignature(name))
            return true;
        for (const QByteArray &extra : options.signatureHeaders) {
            if (Headers::isSignature(name, extra))
                return true;
        }
        return false;
    };
    for (;;) {
        read.addBindValue(after);
        if (!read.exec())
            return Failure(sqlErrorText(read));
        QList<std::pair<qint64, QByteArray>> changed;
        int rows = 0;
        while (read.next()) {
            ++rows;
            after = read.value(0).toLongLong();
            const Headers stored = Headers::fromJson(read.value(1).toString().toUtf8());
            Headers kept;
            for (const auto &[name, value] : stored.fields()) {
                if (!isSignature(name))
                    kept.add(name, value);
            }
            if (kept.size() != stored.size())
                changed.append({ after, kept.toJson() });
        }
        read.finish();
        for (const auto &[id, json] : changed) {
            write.addBindValue(QString::fromUtf8(json));
            write.addBindValue(id);
            if (!write.exec())
                return Failure(sqlErrorText(write));
            write.finish();
        }
        if (rows < kPage)
            return ok();
    }
}

Result<> migration5(Db &db, const MigrateOptions &options)
{
    if (auto events = stripSignatureHeaders(db, QStringLiteral("events"), options); !events)
        return events;
    return stripSignatureHeaders(db, QStringLiteral("rejections"), options);
}

// Four eyes means two people, not two token names: a token belongs to an owner, and approver and
// requester are compared by owner. Tokens made before this migration belong to an owner of their
// own name (each was one identity until now); replays remember both owners, so the comparison
// does not depend on a token that may be revoked or renamed later.
const char *const kMigration6[] = {
    "ALTER TABLE api_tokens ADD COLUMN owner TEXT NOT NULL DEFAULT ''",
    "UPDATE api_tokens SET owner = name",
    "ALTER TABLE replays ADD COLUMN requester_owner TEXT NOT NULL DEFAULT ''",
    "UPDATE replays SET requester_owner = requested_by",
    "ALTER TABLE replays ADD COLUMN approver_owner TEXT",
    "UPDATE replays SET approver_owner = approved_by WHERE approved_by IS NOT NULL",
};

// Business keys (a source's `keys`): the values support searches by, one narrow row per key of an
// event, removed with the event (the primary key is the cascade's lookup; on PostgreSQL a delete
// trigger replaced the foreign key in migration 11). One index serves both
// searches: (value, name, event_id) answers `key=order:1042` (value and name equal) and a search
// that names no key (value equal), each newest first from the index alone. A second index led
// by name would answer nothing more and cost ingest a random B-tree insert per key (bench_keys).
// On SQLite the primary key holds the row itself (WITHOUT ROWID). Events stored before a key was
// configured have no rows: keys are read at ingest, never from old bodies.
const char *const kMigration7[] = {
    R"(CREATE TABLE event_keys (
        event_id BIGINT NOT NULL REFERENCES events (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (event_id, name)
    ) {{NOROWID}})",
    "CREATE INDEX event_keys_value ON event_keys (value, name, event_id)",
};

// Incidents: a dead-letter group (failure category x destination) that appeared, or grew past
// `[incidents] grow_threshold` after someone acknowledged it. The receiver opens, updates and
// closes them (core/storage/incidentcheck.cpp, run by the delivery engine); people acknowledge them through
// the admin API. At most one open incident per group, enforced by the database (several receivers share a
// PostgreSQL database and each runs the check): the partial unique index makes a second opening a conflict,
// never a duplicate. count_at_ack is the group's size when acknowledged, the base the growth threshold is
// measured from.
const char *const kMigration8[] = {
    R"(CREATE TABLE incidents (
        id {{PK}},
        destination TEXT NOT NULL,
        category TEXT NOT NULL,
        opened_at BIGINT NOT NULL,
        count_at_open BIGINT NOT NULL,
        last_count BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        acknowledged_by TEXT,
        acknowledged_at BIGINT,
        count_at_ack BIGINT,
        note TEXT,
        closed_at BIGINT
    ))",
    "CREATE UNIQUE INDEX incidents_open_group ON incidents (destination, category) WHERE closed_at IS NULL",
};

// SQLite: business keys on their way to the index. Ingest writes one row per new event (its keys
// as one JSON object) in the event's transaction, and the writer moves them into event_keys in
// batches (IngestStore::indexPendingKeys). A random insert into the value index per key,
// committed with every group commit, cost ingest a fifth of its rate; in batches the index pages
// are written once per batch instead of once per commit (the idea of PostgreSQL's GIN pending
// list). Searches and the event detail read both tables, so a key is findable from its event's
// commit. No key, index or foreign key here: each would cost ingest what the table is for; the
// batch joins events, so a row whose event is gone is dropped, never indexed. PostgreSQL writes
// keys straight into event_keys (batches measured slower there) and leaves this table empty.
const char *const kMigration9[] = {
    "CREATE TABLE event_keys_pending (event_id BIGINT NOT NULL, keys TEXT NOT NULL)",
};

// A receiver's last database outage, written with its heartbeat once the database is back: when
// it began and ended (wall clock, ms) and how many ingest requests were answered 503 meanwhile.
// The console's receivers banner and tooltip show it. NULL: no outage since the receiver started.
const char *const kMigration10[] = {
    "ALTER TABLE receiver_instances ADD COLUMN db_outage_began_at BIGINT",
    "ALTER TABLE receiver_instances ADD COLUMN db_outage_ended_at BIGINT",
    "ALTER TABLE receiver_instances ADD COLUMN db_outage_refused BIGINT",
};

// PostgreSQL: a key row follows its event through a statement trigger instead of a foreign key.
// The foreign key checked every inserted key with a row lock on its event (a lookup and a WAL
// record per key, three per event with three keys): the group-commit writer alone kept 0.71× of
// its rate with three keys, 0.96× without the check (redrive-writerbench, four connections, four
// rounds each). Keys are written only by ingest, in the statement that inserts their event, so
// the check guarded nothing ingest could get wrong; what the foreign key still did was the
// cascade, and the trigger does that once per DELETE statement (retention deletes in batches),
// through the primary key's event_id prefix. SQLite keeps its foreign key: ingest writes pending
// rows there, and the batch that indexes them turns the check off (ingeststorekeys.cpp).
const char *const kMigration11Postgres[] = {
    "ALTER TABLE event_keys DROP CONSTRAINT event_keys_event_id_fkey",
    "CREATE OR REPLACE FUNCTION event_keys_follow_events() RETURNS trigger LANGUAGE plpgsql AS "
    "$$ BEGIN DELETE FROM event_keys k USING gone g WHERE k.event_id = g.id; RETURN NULL; END $$",
    "CREATE TRIGGER events_delete_keys AFTER DELETE ON events REFERENCING OLD TABLE AS gone "
    "FOR EACH STATEMENT EXECUTE FUNCTION event_keys_follow_events()",
};

Result<> migration11(Db &db, const MigrateOptions & /*options*/)
{
    if (db.isSqlite())
        return ok();
    for (const char *statement : kMigration11Postgres) {
        if (auto ran = db.exec(QString::fromUtf8(statement)); !ran)
            return ran;
    }
    return ok();
}

// Schema validation: the errors of an event that failed its source's JSON Schema (status
// `invalid`, quarantined without deliveries), written with the event and replaced when support
// revalidates it. `errors` is a JSON array of at most 20 {"pointer","message"}. A row exists only
// for an event that was found invalid at least once; it goes with its event.
const char *const kMigration12[] = {
    R"(CREATE TABLE event_validation (
        event_id {{ROWKEY}} REFERENCES events (id) ON DELETE CASCADE,
        errors TEXT NOT NULL,
        checked_at BIGINT NOT NULL
    ))",
};

// Reconciliation with the provider (receiver/reconcile/). events.origin says how an event came
// in: "webhook", or "reconciled" when a run found it in the provider's API and recorded it as if
// it had arrived; the partial index serves `origin=reconciled` without costing webhook inserts.
// reconcile_runs: one row per run; the partial unique index is the lease that keeps one run at a
// time per source on every receiver sharing the database (owner and lease_expires_at let a
// receiver that died mid-run be noticed and its run failed). reconcile_redeliveries: how often a
// GitHub delivery was asked again, so a guid that never comes back is asked at most three times.
const char *const kMigration13[] = {
    "ALTER TABLE events ADD COLUMN origin TEXT NOT NULL DEFAULT 'webhook'",
    "CREATE INDEX events_reconciled ON events (id) WHERE origin = 'reconciled'",
    R"(CREATE TABLE reconcile_runs (
        id {{PK}},
        source TEXT NOT NULL,
        provider TEXT NOT NULL,
        started_at BIGINT NOT NULL,
        finished_at BIGINT,
        status TEXT NOT NULL,
        checked INTEGER NOT NULL DEFAULT 0,
        missing INTEGER NOT NULL DEFAULT 0,
        recovered INTEGER NOT NULL DEFAULT 0,
        error TEXT NOT NULL DEFAULT '',
        requested_by TEXT NOT NULL DEFAULT '',
        owner TEXT NOT NULL DEFAULT '',
        lease_expires_at BIGINT
    ))",
    "CREATE INDEX reconcile_runs_source_id ON reconcile_runs (source, id)",
    "CREATE UNIQUE INDEX reconcile_runs_one_running ON reconcile_runs (source) WHERE status = 'running'",
    R"(CREATE TABLE reconcile_redeliveries (
        source TEXT NOT NULL,
        guid TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_at BIGINT NOT NULL,
        PRIMARY KEY (source, guid)
    ) {{NOROWID}})",
};

// A pause may name its end: the delivery engine lifts it when paused_until passes (NULL: the
// pause lasts until someone resumes the destination).
const char *const kMigration14[] = {
    "ALTER TABLE destination_state ADD COLUMN paused_until BIGINT",
};

// The circuit breaker ([[destinations]] circuit): one state per destination, shared by every
// receiver on the database. circuit_open = 1 holds the destination's deliveries (the claim skips
// them) except one probe per interval; circuit_next_probe_at is the slot a receiver takes, with a
// conditional update, before it sends the probe, so receivers sharing the database probe once
// between them.
const char *const kMigration15[] = {
    "ALTER TABLE destination_state ADD COLUMN circuit_open INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE destination_state ADD COLUMN circuit_since BIGINT",
    "ALTER TABLE destination_state ADD COLUMN circuit_reason TEXT",
    "ALTER TABLE destination_state ADD COLUMN circuit_next_probe_at BIGINT",
};

// Resolve without replay: a dead delivery someone handled another way becomes `resolved`, and
// who resolved it, how and why is kept beside it (one row per delivery, gone with it).
const char *const kMigration16[] = {
    R"(CREATE TABLE delivery_resolutions (
        delivery_id BIGINT PRIMARY KEY REFERENCES deliveries (id) ON DELETE CASCADE,
        resolution TEXT NOT NULL,
        reason TEXT NOT NULL,
        ticket TEXT NOT NULL DEFAULT '',
        actor TEXT NOT NULL,
        role TEXT NOT NULL,
        resolved_at BIGINT NOT NULL
    ))",
};

// Privacy by role. A source's `redact` pointers are applied at ingest: redacted_body is the body
// with those values (whole subtrees) replaced by "[redacted]", byte for byte elsewhere, and
// redacted_paths the JSON array of pointers that matched (both NULL: nothing was redacted);
// redacted_keys the names of business keys read from a redacted value (searchable, never shown). The
// event_payloads view is what everyone but a destination reads: the redacted copy where there is
// one, the body otherwise. It is the consoles' door on PostgreSQL, where a read-only console role
// may select the view and every events column except body (redrived console-role). erased_at: an
// approved erasure removed the body, headers and keys (ids, digests, times and statuses stay, so a
// redelivery is still a duplicate). erasures / erasure_items: requests to erase, decided by a
// second operator over a frozen list of events, as high-risk replays are. rebuild_progress: where
// `redrived redact rebuild` and `redrived keys rebuild` stand, so a stopped run resumes.
const char *const kMigration17[] = {
    "ALTER TABLE events ADD COLUMN redacted_body {{BLOB}}",
    "ALTER TABLE events ADD COLUMN redacted_paths TEXT",
    "ALTER TABLE events ADD COLUMN redacted_keys TEXT",
    "ALTER TABLE events ADD COLUMN erased_at BIGINT",
    R"(CREATE VIEW event_payloads AS SELECT id AS event_id,
        CASE WHEN redacted_paths IS NULL THEN body ELSE redacted_body END AS body, redacted_paths, erased_at
        FROM events)",
    R"(CREATE TABLE erasures (
        id {{PK}},
        status TEXT NOT NULL,
        selector TEXT NOT NULL,
        reason TEXT NOT NULL,
        requested_by TEXT NOT NULL,
        requester_owner TEXT NOT NULL,
        requester_role TEXT NOT NULL,
        item_count INTEGER NOT NULL,
        approved_by TEXT,
        approver_owner TEXT,
        decided_at BIGINT,
        decision_reason TEXT,
        approval_expires_at BIGINT NOT NULL,
        created_at BIGINT NOT NULL,
        executed_at BIGINT,
        erased_count INTEGER NOT NULL DEFAULT 0,
        held_count INTEGER NOT NULL DEFAULT 0
    ))",
    "CREATE INDEX erasures_status ON erasures (status, id)",
    R"(CREATE TABLE erasure_items (
        erasure_id BIGINT NOT NULL REFERENCES erasures (id),
        event_id BIGINT NOT NULL,
        PRIMARY KEY (erasure_id, event_id)
    ) {{NOROWID}})",
    R"(CREATE TABLE rebuild_progress (
        task TEXT NOT NULL,
        source TEXT NOT NULL,
        after_id BIGINT NOT NULL DEFAULT 0,
        upto_id BIGINT NOT NULL,
        processed BIGINT NOT NULL DEFAULT 0,
        changed BIGINT NOT NULL DEFAULT 0,
        started_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        finished_at BIGINT,
        PRIMARY KEY (task, source)
    ) {{NOROWID}})",
};

const Migration kMigrations[] = {
    { 1, "initial schema", kMigration1, std::size(kMigration1) },
    { 2, "event summary status in its own table", kMigration2, std::size(kMigration2) },
    { 3, "provider-id search through the unique key; one index fewer", kMigration3, std::size(kMigration3) },
    { 4, "replay items freeze outcome-unknown and say why they were skipped", kMigration4,
        std::size(kMigration4) },
    { 5, "signature headers are not stored; events also dedupe on the body digest", kMigration5,
        std::size(kMigration5), migration5 },
    { 6, "tokens have an owner; replays remember requester and approver owners", kMigration6,
        std::size(kMigration6) },
    { 7, "business keys: event_keys, searchable by name and value", kMigration7, std::size(kMigration7) },
    { 8, "incidents: dead-letter groups that appeared or grew, and who acknowledged them", kMigration8,
        std::size(kMigration8) },
    { 9, "business keys are indexed in batches: event_keys_pending", kMigration9, std::size(kMigration9) },
    { 10, "receivers record their last database outage", kMigration10, std::size(kMigration10) },
    { 11, "business keys follow their event by a delete trigger on PostgreSQL", nullptr, 0, migration11 },
    { 12, "schema validation: the errors of quarantined events", kMigration12, std::size(kMigration12) },
    { 13, "reconciliation: events.origin, reconcile_runs, reconcile_redeliveries", kMigration13,
        std::size(kMigration13) },
    { 14, "a pause may end by itself: destination_state.paused_until", kMigration14,
        std::size(kMigration14) },
    { 15, "circuit breaker state per destination: destination_state.circuit_*", kMigration15,
        std::size(kMigration15) },
    { 16, "dead letters resolved without a replay: delivery_resolutions", kMigration16,
        std::size(kMigration16) },
    { 17, "privacy by role: redacted copies, event_payloads, erasures, rebuild progress", kMigration17,
        std::size(kMigration17) },
};

} // namespace

std::span<const Migration> migrations()
{
    return kMigrations;
}

} // namespace redrive::storage
