// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
//
// The ingest store's PostgreSQL batch path: a whole writer batch in one prepared statement over
// libpq, every column one binary array that unnest() turns back into rows (see PgStatement).
#include "ingeststore.h"
#include "storedtext.h"

#include <QHash>

#include <algorithm>

namespace redrive {
namespace {

using storedtext::storedHeaders;
using storedtext::validUtf8;

// PostgreSQL: one statement per batch whatever its size — every column travels as one binary
// array and unnest() turns them back into rows.
// A conflict on either unique key ((source, provider_event_id) or (source, dedupe_sha256)) skips
// the row; the skipped ones are counted on their stored row afterwards (pgCountDuplicates).
// A new event's summary row is inserted by the same statement: a row is new when it has been seen
// exactly as often as this batch carried it. The status side reads only the key, status and count
// arrays again; a shared CTE would copy every body into a tuplestore first.
const QString kPgUpsertEvents = QStringLiteral(
    "WITH ins AS (INSERT INTO events (source, provider_event_id, weak_id, event_type, occurred_at, received_at, "
    "last_seen_at, seen_count, content_type, body, body_sha256, body_size, headers, verified_by, clock_skew_ms, "
    "remote_addr, dedupe_sha256, redacted_body, redacted_paths, redacted_keys) SELECT s, p, w, t, o, r, r, c, ct, b, h, "
    "bs, hd, v, k, ra, dk, rb, rp, rk FROM unnest($1::text[], "
    "$2::text[], $3::int8[], $4::text[], $6::int8[], $7::int8[], $8::int8[], $9::text[], $10::bytea[], $11::text[], "
    "$12::int8[], $13::text[], $14::text[], $15::int8[], $16::text[], $17::text[], $18::bytea[], $19::text[], "
    "$20::text[]) AS u(s, p, w, t, o, r, c, ct, b, h, bs, hd, v, k, ra, dk, rb, rp, rk) ON CONFLICT DO NOTHING RETURNING id, seen_count, source, provider_event_id), "
    "es AS (INSERT INTO event_status (event_id, status) SELECT ins.id, x.st FROM ins JOIN "
    "unnest($1::text[], $2::text[], $5::text[], $8::int8[]) AS x(s, p, st, c) "
    "ON x.s = ins.source AND x.p = ins.provider_event_id WHERE ins.seen_count = x.c) "
    "SELECT id, seen_count, source, provider_event_id FROM ins");
constexpr int kPgEventArrays = 20;
// A batch's new deliveries and the business keys of its new events travel together: the keys'
// insert rides along as a data-modifying CTE, so keys cost no round trip of their own.
const QString kPgInsertDeliveries = QStringLiteral(
    "WITH k AS (INSERT INTO event_keys (event_id, name, value) SELECT e, n, v FROM "
    "unnest($7::int8[], $8::text[], $9::text[]) AS u(e, n, v)) "
    "INSERT INTO deliveries (event_id, destination, status, attempt_count, next_attempt_at, ordering_key, "
    "idempotency_key, created_at, updated_at) SELECT e, d, %1, 0, n, o, k, $6::int8, $6::int8 FROM "
    "unnest($1::int8[], $2::text[], $3::int8[], $4::text[], $5::text[]) AS u(e, d, n, o, k)")
                                        .arg(sqlName(DeliveryStatus::Pending));
constexpr int kPgDeliveryParameters = 9;
// The rows a batch's insert skipped, counted on their stored rows in one statement: each is
// found by its id, else by its body (dedupe_sha256 is NULL for sources that do not dedupe by
// body, and NULL matches nothing). The stored rows are locked in id order before they are
// updated, so lanes counting the same events at once wait for each other in one order and
// never in a cycle. Rows of the batch that found the same stored row add up on it, and each row
// reads the count as it stood after that row, as if the rows had been counted one by one.
const QString kPgCountDuplicates = QStringLiteral(
    "WITH u AS MATERIALIZED (SELECT u.i, COALESCE((SELECT id FROM events WHERE source = u.s AND "
    "provider_event_id = u.p), (SELECT id FROM events WHERE source = u.s AND dedupe_sha256 = u.dk)) AS id, "
    "u.c, u.r FROM unnest($1::text[], $2::text[], $3::text[], $4::int8[], $5::int8[]) WITH ORDINALITY "
    "AS u(s, p, dk, c, r, i)), "
    "l AS MATERIALIZED (SELECT e.id FROM events e WHERE e.id IN (SELECT id FROM u) ORDER BY e.id FOR UPDATE), "
    "g AS (SELECT u.id, sum(u.c)::int8 AS c, max(u.r) AS r FROM u JOIN l ON l.id = u.id GROUP BY u.id), "
    "up AS (UPDATE events e SET seen_count = e.seen_count + g.c, last_seen_at = g.r FROM g WHERE e.id = g.id "
    "RETURNING e.id, e.seen_count) "
    "SELECT u.i, up.id, up.seen_count - COALESCE(sum(u.c) OVER (PARTITION BY u.id ORDER BY u.i ROWS BETWEEN "
    "1 FOLLOWING AND UNBOUNDED FOLLOWING), 0)::int8 FROM u JOIN up ON up.id = u.id");
constexpr int kPgDuplicateParameters = 5;

void appendText(PgArray &array, const QString &value)
{
    if (value.isNull())
        array.appendNull();
    else
        array.append(value.toUtf8());
}

void appendInt(PgArray &array, const std::optional<qint64> &value)
{
    if (value)
        array.append(*value);
    else
        array.appendNull();
}

} // namespace

Result<> IngestStore::preparePostgresBatches()
{
    if (auto prepared = m_pgUpsertEvents.prepare(
            m_db, QByteArrayLiteral("redrive_ingest_upsert_events"), kPgUpsertEvents, kPgEventArrays);
        !prepared)
        return prepared;
    if (auto prepared
        = m_pgInsertDeliveries.prepare(m_db, QByteArrayLiteral("redrive_ingest_insert_deliveries"),
            kPgInsertDeliveries, kPgDeliveryParameters);
        !prepared)
        return prepared;
    return m_pgCountDuplicates.prepare(m_db, QByteArrayLiteral("redrive_ingest_count_duplicates"),
        kPgCountDuplicates, kPgDuplicateParameters);
}

Result<> IngestStore::pgCountDuplicatesNative(const QList<UpsertRow> &rows, QList<UpsertResult> *results)
{
    QList<qsizetype> skipped;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        if ((*results)[i].eventId == 0)
            skipped.append(i);
    }
    const qsizetype n = skipped.size();
    if (n == 0)
        return ok();
    using T = PgArray::Type;
    PgArray source(T::Text, n, 16 * n), id(T::Text, n, 40 * n), dedupe(T::Text, n, 64 * n), count(T::Int8, n),
        seenAt(T::Int8, n);
    for (const qsizetype i : std::as_const(skipped)) {
        const IncomingEvent &e = *rows[i].event;
        appendText(source, e.source);
        appendText(id, e.providerEventId);
        if (e.dedupeByBody)
            dedupe.append(e.bodySha256Hex);
        else
            dedupe.appendNull();
        count.append(qint64(std::max(1, rows[i].occurrences)));
        seenAt.append(e.receivedAtMs);
    }
    qsizetype found = 0;
    auto counted = m_pgCountDuplicates.exec(
        { source.finish(), id.finish(), dedupe.finish(), count.finish(), seenAt.finish() },
        [&](const PgStatement::Row &row) {
            const qint64 ordinal = row.int64(0);
            if (ordinal < 1 || ordinal > n)
                return;
            (*results)[skipped[ordinal - 1]] = UpsertResult { row.int64(1), static_cast<int>(row.int64(2)) };
            ++found;
        });
    if (!counted)
        return counted;
    if (found == n)
        return ok();
    for (const qsizetype i : std::as_const(skipped)) {
        if ((*results)[i].eventId == 0) {
            const IncomingEvent &e = *rows[i].event;
            return Failure(
                QStringLiteral("event %1 of source %2 was neither inserted nor found as a duplicate")
                    .arg(e.providerEventId, e.source));
        }
    }
    return ok();
}

Result<QList<UpsertResult>> IngestStore::pgUpsertEvents(const QList<UpsertRow> &rows)
{
    QList<UpsertResult> results;
    const qsizetype n = rows.size();
    if (n == 0)
        return results;
    qsizetype bodyBytes = 0;
    qsizetype headerBytes = 0;
    for (const UpsertRow &row : rows) {
        bodyBytes += row.event->body.size();
        headerBytes += row.event->headersJson.size();
    }
    using T = PgArray::Type;
    PgArray source(T::Text, n, 16 * n), id(T::Text, n, 40 * n), weak(T::Int8, n), type(T::Text, n, 24 * n),
        status(T::Text, n, 8 * n), occurred(T::Int8, n), received(T::Int8, n), count(T::Int8, n),
        contentType(T::Text, n, 20 * n), body(T::Bytea, n, bodyBytes), sha(T::Text, n, 64 * n),
        size(T::Int8, n), headers(T::Text, n, headerBytes + 2 * n), verifiedBy(T::Text, n, 8 * n),
        skew(T::Int8, n), remote(T::Text, n, 16 * n), dedupe(T::Text, n, 64 * n), redactedBody(T::Bytea, n),
        redactedPaths(T::Text, n), redactedKeys(T::Text, n);
    // Keyed by the UTF-8 bytes the server returns: RETURNING order is not guaranteed.
    QHash<QByteArray, qsizetype> index;
    index.reserve(n);
    for (qsizetype i = 0; i < n; ++i) {
        const IncomingEvent &e = *rows[i].event;
        const QByteArray sourceUtf8 = e.source.toUtf8();
        const QByteArray idUtf8 = e.providerEventId.toUtf8();
        index.insert(sourceUtf8 + '\0' + idUtf8, i);
        // source and provider_event_id stay as given: an event without them must fail loudly.
        e.source.isNull() ? source.appendNull() : source.append(sourceUtf8);
        e.providerEventId.isNull() ? id.appendNull() : id.append(idUtf8);
        weak.append(qint64(e.weakId ? 1 : 0));
        type.append(e.eventType.toUtf8());
        status.append(rows[i].status.toUtf8());
        appendInt(occurred, e.occurredAtMs);
        received.append(e.receivedAtMs);
        count.append(qint64(std::max(1, rows[i].occurrences)));
        contentType.append(e.contentType.toUtf8());
        body.append(e.body);
        sha.append(e.bodySha256Hex);
        size.append(qint64(e.body.size()));
        headers.append(validUtf8(storedHeaders(e.headersJson)));
        verifiedBy.append(e.verifiedBy.toUtf8());
        appendInt(skew, e.clockSkewMs);
        remote.append(e.remoteAddress.toUtf8());
        if (e.dedupeByBody)
            dedupe.append(e.bodySha256Hex);
        else
            dedupe.appendNull();
        e.redactedBody.isEmpty() ? redactedBody.appendNull() : redactedBody.append(e.redactedBody);
        e.redactedPathsJson.isEmpty() ? redactedPaths.appendNull()
                                      : redactedPaths.append(e.redactedPathsJson);
        e.redactedKeysJson.isEmpty() ? redactedKeys.appendNull() : redactedKeys.append(e.redactedKeysJson);
    }
    const QList<QByteArray> parameters { source.finish(), id.finish(), weak.finish(), type.finish(),
        status.finish(), occurred.finish(), received.finish(), count.finish(), contentType.finish(),
        body.finish(), sha.finish(), size.finish(), headers.finish(), verifiedBy.finish(), skew.finish(),
        remote.finish(), dedupe.finish(), redactedBody.finish(), redactedPaths.finish(),
        redactedKeys.finish() };
    results.resize(n);
    qsizetype returned = 0;
    QByteArray key;
    const auto upserted = m_pgUpsertEvents.exec(parameters, [&](const PgStatement::Row &row) {
        key.clear();
        key.append(row.text(2)).append('\0').append(row.text(3));
        const auto it = index.constFind(key);
        if (it == index.cend())
            return;
        results[*it] = UpsertResult { row.int64(0), static_cast<int>(row.int64(1)) };
        ++returned;
    });
    if (!upserted)
        return Failure(upserted.error());
    if (returned != n) {
        if (auto counted = pgCountDuplicatesNative(rows, &results); !counted)
            return Failure(counted.error());
    }
    return results;
}

Result<> IngestStore::pgInsertDeliveries(
    const QList<DeliveryRow> &rows, const QList<KeyRow> &keys, qint64 nowMs)
{
    const qsizetype n = rows.size();
    if (n == 0 && keys.isEmpty())
        return ok();
    using T = PgArray::Type;
    qsizetype keyCount = 0;
    for (const KeyRow &r : keys)
        keyCount += r.keys.size();
    PgArray keyEvent(T::Int8, keyCount), keyName(T::Text, keyCount, 8 * keyCount),
        keyValue(T::Text, keyCount, 24 * keyCount);
    for (const KeyRow &r : keys) {
        for (const EventKey &key : r.keys) {
            keyEvent.append(r.eventId);
            appendText(keyName, key.name);
            appendText(keyValue, key.value);
        }
    }
    PgArray event(T::Int8, n), destination(T::Text, n, 16 * n), due(T::Int8, n), ordering(T::Text, n, 16 * n),
        key(T::Text, n, 36 * n);
    for (const DeliveryRow &r : rows) {
        event.append(r.eventId);
        appendText(destination, r.delivery.destination);
        due.append(r.dueAtMs);
        if (r.delivery.orderingKey)
            ordering.append(r.delivery.orderingKey->toUtf8());
        else
            ordering.appendNull();
        appendText(key, r.delivery.idempotencyKey);
    }
    return m_pgInsertDeliveries.exec(
        { event.finish(), destination.finish(), due.finish(), ordering.finish(), key.finish(),
            PgStatement::int8(nowMs), keyEvent.finish(), keyName.finish(), keyValue.finish() },
        {});
}

} // namespace redrive
