// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "ingeststore.h"

#include "crypto/crypto.h"
#include "storedtext.h"

#include <QHash>
#include <QVariant>

#include <unordered_map>

namespace redrive {
namespace {

using storedtext::safeText;
using storedtext::storedHeaders;
using storedtext::validUtf8;

constexpr qsizetype kMaxRejectionSource = 64;
constexpr qsizetype kMaxRejectionReason = 64;
constexpr qsizetype kMaxRejectionDetail = 1000;

QVariant nullableInt(const std::optional<qint64> &v)
{
    return v ? QVariant(*v) : QVariant(QMetaType::fromType<qint64>());
}

QVariant nullableText(const std::optional<QString> &v)
{
    return v ? QVariant(*v) : QVariant(QMetaType::fromType<QString>());
}

// QtSql binds a null QString or QByteArray as SQL NULL. Text and blob columns that are NOT NULL
// get an empty, non-null value instead (an empty body or a missing header is not NULL).
QString text(const QString &s)
{
    return s.isNull() ? QString::fromLatin1("", 0) : s;
}

QByteArray blob(const QByteArray &b)
{
    return b.isNull() ? QByteArray("", 0) : b;
}

Result<> run(QSqlQuery &q)
{
    if (q.exec())
        return ok();
    const QString why = sqlErrorText(q);
    q.finish();
    return Failure(why);
}

// A statement prepared on `db` into `query`.
Result<> prepareInto(Db &db, QSqlQuery *query, const QString &sql)
{
    auto prepared = db.prepare(sql);
    if (!prepared)
        return Failure(prepared.error());
    *query = std::move(*prepared);
    return ok();
}

} // namespace

QString deliveryIdempotencyKey(QStringView source, QStringView providerEventId, QStringView destination)
{
    const QByteArray s = source.toUtf8();
    const QByteArray id = providerEventId.toUtf8();
    const QByteArray d = destination.toUtf8();
    QByteArray material;
    material.reserve(s.size() + id.size() + d.size() + 2);
    material.append(s).append('\0').append(id).append('\0').append(d);
    return QLatin1String("rdv_") + QLatin1String(crypto::sha256Hex(material).first(32));
}

IngestStore::IngestStore(Db &db, PostgresBatches batches)
    : m_db(db)
    , m_batches(batches)
{ }

namespace {

const QString kEventColumns = QStringLiteral(
    "INSERT INTO events (source, provider_event_id, weak_id, event_type, occurred_at, received_at, "
    "last_seen_at, seen_count, content_type, body, body_sha256, body_size, headers, verified_by, clock_skew_ms, "
    "remote_addr, dedupe_sha256, redacted_body, redacted_paths, redacted_keys) VALUES");
const QString kDeliveryColumns = QStringLiteral(
    "INSERT INTO deliveries (event_id, destination, status, attempt_count, next_attempt_at, ordering_key, "
    "idempotency_key, created_at, updated_at) VALUES");
const QString kStatusColumns = QStringLiteral("INSERT INTO event_status (event_id, status) VALUES");
const QString kRejectionColumns = QStringLiteral(
    "INSERT INTO rejections (source, reason, detail, status_code, remote_addr, headers, received_at) VALUES");
constexpr int kEventParameters = 20;
constexpr int kDeliveryParameters = 7;
constexpr int kRejectionParameters = 7;

QVariant dedupeKey(const IncomingEvent &e)
{
    return e.dedupeByBody ? QVariant(QString::fromLatin1(e.bodySha256Hex))
                          : QVariant(QMetaType::fromType<QString>());
}

// A skipped insert is counted on the stored row with the same id, else the one with the same
// body (dedupe_sha256 is NULL for sources that do not dedupe by body, and NULL matches nothing).
const QString kPgCountDuplicate = QStringLiteral(
    "UPDATE events SET seen_count = seen_count + ?, last_seen_at = ? WHERE id = COALESCE("
    "(SELECT id FROM events WHERE source = ? AND provider_event_id = ?), "
    "(SELECT id FROM events WHERE source = ? AND dedupe_sha256 = ?)) RETURNING id, seen_count");

// source and provider_event_id stay as given: an event without them must fail loudly.
void bindEvent(QSqlQuery &q, int i, const IncomingEvent &e, int occurrences)
{
    q.bindValue(i++, e.source);
    q.bindValue(i++, e.providerEventId);
    q.bindValue(i++, e.weakId ? 1 : 0);
    q.bindValue(i++, text(e.eventType));
    q.bindValue(i++, nullableInt(e.occurredAtMs));
    q.bindValue(i++, e.receivedAtMs);
    q.bindValue(i++, e.receivedAtMs);
    q.bindValue(i++, occurrences);
    q.bindValue(i++, text(e.contentType));
    q.bindValue(i++, blob(e.body));
    q.bindValue(i++, QString::fromLatin1(e.bodySha256Hex));
    q.bindValue(i++, e.body.size());
    q.bindValue(i++, QString::fromUtf8(storedHeaders(e.headersJson)));
    q.bindValue(i++, text(e.verifiedBy));
    q.bindValue(i++, nullableInt(e.clockSkewMs));
    q.bindValue(i++, text(e.remoteAddress));
    q.bindValue(i++, dedupeKey(e));
    q.bindValue(i++,
        e.redactedBody.isEmpty() ? QVariant(QMetaType::fromType<QByteArray>()) : QVariant(e.redactedBody));
    for (const QByteArray *json : { &e.redactedPathsJson, &e.redactedKeysJson })
        q.bindValue(i++,
            json->isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(QString::fromUtf8(*json)));
}

// Everything in a rejection may come from an unauthenticated sender (the path it named, the
// detail quoting it): made safe here, once, so no rejection can fail the group commit it rides.
void bindRejection(QSqlQuery &q, int i, const RejectionRecord &r)
{
    q.bindValue(i++, text(safeText(r.source, kMaxRejectionSource)));
    q.bindValue(i++, text(safeText(r.reason, kMaxRejectionReason)));
    q.bindValue(i++, text(safeText(r.detail, kMaxRejectionDetail)));
    q.bindValue(i++, r.statusCode);
    q.bindValue(i++, text(safeText(r.remoteAddress, kMaxRejectionReason)));
    q.bindValue(i++, QString::fromUtf8(storedHeaders(r.headersJson)));
    q.bindValue(i++, r.receivedAtMs);
}

QString placeholders(int n)
{
    QString row = QStringLiteral("(");
    for (int i = 0; i < n; ++i)
        row += i == 0 ? QStringLiteral("?") : QStringLiteral(", ?");
    return row + u')';
}

} // namespace

Result<> IngestStore::prepare()
{
    if (m_db.isSqlite()) {
        // One row at a time (in-process, no round trips): seen_count starts at 1 and grows by 1.
        // Insert-or-ignore, and only for a duplicate the update and read-back. No RETURNING:
        // SQLite implements it with a trigger program and an ephemeral table per execution,
        // which cost the writer more than the index updates of the row itself.
        // No conflict target: a clash on either unique key, (source, provider_event_id) or
        // (source, dedupe_sha256), skips the insert and the duplicate is counted below.
        const QString insert = kEventColumns
            + QStringLiteral(
                " (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING");
        const std::pair<SqliteStatement *, QString> statements[] = {
            { &m_fastInsertEvent, insert },
            { &m_fastInsertStatus, kStatusColumns + QStringLiteral(" (?, ?)") },
            { &m_fastSeenAgain,
                QStringLiteral("UPDATE events SET seen_count = seen_count + 1, last_seen_at = ? "
                               "WHERE source = ? AND provider_event_id = ?") },
            { &m_fastSeenRow,
                QStringLiteral(
                    "SELECT id, seen_count FROM events WHERE source = ? AND provider_event_id = ?") },
            { &m_fastSeenAgainBody,
                QStringLiteral("UPDATE events SET seen_count = seen_count + 1, last_seen_at = ? "
                               "WHERE source = ? AND dedupe_sha256 = ?") },
            { &m_fastSeenRowBody,
                QStringLiteral("SELECT id, seen_count FROM events WHERE source = ? AND dedupe_sha256 = ?") },
            { &m_fastInsertDelivery,
                kDeliveryColumns
                    + QStringLiteral(" (?, ?, %1, 0, ?, ?, ?, ?, ?)").arg(sqlName(DeliveryStatus::Pending)) },
        };
        for (const auto &[statement, sql] : statements) {
            if (auto prepared = statement->prepare(m_db, sql); !prepared)
                return prepared;
        }
        if (auto prepared = prepareInto(
                m_db, &m_insertRejection, kRejectionColumns + u' ' + placeholders(kRejectionParameters));
            !prepared)
            return prepared;
    } else {
        m_multiEvents = std::make_unique<MultiRowInsert>(m_db, kEventColumns, placeholders(kEventParameters),
            kEventParameters,
            QStringLiteral(" ON CONFLICT DO NOTHING RETURNING id, seen_count, source, provider_event_id"));
        m_multiStatuses = std::make_unique<MultiRowInsert>(m_db, kStatusColumns, QStringLiteral("(?, ?)"), 2,
            QStringLiteral(" ON CONFLICT (event_id) DO NOTHING"));
        m_multiDeliveries = std::make_unique<MultiRowInsert>(m_db, kDeliveryColumns,
            QStringLiteral("(?, ?, %1, 0, ?, ?, ?, ?, ?)").arg(sqlName(DeliveryStatus::Pending)),
            kDeliveryParameters, QString());
        m_multiRejections = std::make_unique<MultiRowInsert>(
            m_db, kRejectionColumns, placeholders(kRejectionParameters), kRejectionParameters, QString());
        if (auto prepared = prepareInto(m_db, &m_pgCountDuplicate, kPgCountDuplicate); !prepared)
            return prepared;
        if (m_batches == PostgresBatches::Native && PgStatement::nativeHandle(m_db)) {
            if (auto prepared = preparePostgresBatches(); !prepared)
                return prepared;
        }
    }
    if (auto prepared = prepareKeys(); !prepared)
        return prepared;
    struct Statement {
        QSqlQuery *query;
        QString sql;
    };
    const Statement statements[] = {
        { &m_trimRejections,
            QStringLiteral("DELETE FROM rejections WHERE id <= "
                           "(SELECT id FROM rejections ORDER BY id DESC LIMIT 1 OFFSET ?)") },
        { &m_upsertInstance,
            QStringLiteral(
                "INSERT INTO receiver_instances (instance_id, host, pid, version, started_at, heartbeat_at, "
                "durability, power_loss_durable) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (instance_id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at, "
                "durability = excluded.durability, power_loss_durable = excluded.power_loss_durable, "
                "version = excluded.version") },
        { &m_heartbeat,
            QStringLiteral("UPDATE receiver_instances SET heartbeat_at = ?, db_outage_began_at = ?, "
                           "db_outage_ended_at = ?, db_outage_refused = ? WHERE instance_id = ?") },
        { &m_pruneInstances, QStringLiteral("DELETE FROM receiver_instances WHERE heartbeat_at < ?") },
    };
    for (const auto &s : statements) {
        if (auto prepared = prepareInto(m_db, s.query, s.sql); !prepared)
            return prepared;
    }
    return ok();
}

Result<> IngestStore::markReconciled(const QList<qint64> &eventIds)
{
    if (eventIds.isEmpty())
        return ok();
    QVariantList binds;
    for (const qint64 id : eventIds)
        binds.append(id);
    QSqlQuery q(m_db.handle());
    return runQuery(q,
        QStringLiteral("UPDATE events SET origin = 'reconciled' WHERE id IN (%1)")
            .arg(sqlPlaceholders(eventIds.size())),
        binds);
}

Result<UpsertResult> IngestStore::upsertEvent(const IncomingEvent &e, const QString &status)
{
    if (!m_fastInsertEvent.isValid()) {
        const auto results = upsertEvents({ UpsertRow { &e, status, 1 } });
        if (!results)
            return Failure(results.error());
        return results->value(0);
    }
    // Text is bound as UTF-8 without a copy: the buffers live until the statements have run.
    const QByteArray source = e.source.toUtf8();
    const QByteArray id = e.providerEventId.toUtf8();
    auto bindKey = [&](SqliteStatement &st, int first) {
        // source and provider_event_id stay as given: an event without them must fail loudly.
        e.source.isNull() ? st.bindNull(first) : st.bindUtf8(first, source);
        e.providerEventId.isNull() ? st.bindNull(first + 1) : st.bindUtf8(first + 1, id);
    };
    // A key stored moments ago is most likely a duplicate (a retry, a duplicate storm): count it
    // straight away. A failed insert costs more than the update, since SQLite builds the whole
    // record (body included) and bumps the AUTOINCREMENT counter before it finds the conflict.
    // The hint is only a shortcut: when the row is not there the insert below still decides.
    const std::size_t keyHash = qHash(QByteArrayView(id), qHash(QByteArrayView(source)));
    std::size_t &recent = m_recentKeys[keyHash & (m_recentKeys.size() - 1)];
    const bool probablySeen = recent == keyHash;
    recent = keyHash;
    if (probablySeen) {
        const auto counted = countDuplicate(m_fastSeenAgain, m_fastSeenRow, e.receivedAtMs, bindKey);
        if (!counted)
            return Failure(counted.error());
        if (*counted)
            return **counted;
    }

    const QByteArray type = text(e.eventType).toUtf8();
    const QByteArray statusUtf8 = status.toUtf8();
    const QByteArray contentType = text(e.contentType).toUtf8();
    const QByteArray headers = validUtf8(storedHeaders(e.headersJson));
    const QByteArray verifiedBy = text(e.verifiedBy).toUtf8();
    const QByteArray remote = text(e.remoteAddress).toUtf8();
    SqliteStatement &s = m_fastInsertEvent;
    int i = 1;
    bindKey(s, i);
    i += 2;
    s.bindInt64(i++, e.weakId ? 1 : 0);
    s.bindUtf8(i++, type);
    e.occurredAtMs ? s.bindInt64(i++, *e.occurredAtMs) : s.bindNull(i++);
    s.bindInt64(i++, e.receivedAtMs);
    s.bindInt64(i++, e.receivedAtMs);
    s.bindUtf8(i++, contentType);
    s.bindBlob(i++, blob(e.body));
    s.bindUtf8(i++, e.bodySha256Hex.isNull() ? QByteArrayView("") : QByteArrayView(e.bodySha256Hex));
    s.bindInt64(i++, e.body.size());
    s.bindUtf8(i++, headers);
    s.bindUtf8(i++, verifiedBy);
    e.clockSkewMs ? s.bindInt64(i++, *e.clockSkewMs) : s.bindNull(i++);
    s.bindUtf8(i++, remote);
    e.dedupeByBody ? s.bindUtf8(i++, e.bodySha256Hex) : s.bindNull(i++);
    e.redactedBody.isEmpty() ? s.bindNull(i++) : s.bindBlob(i++, e.redactedBody);
    e.redactedPathsJson.isEmpty() ? s.bindNull(i++) : s.bindUtf8(i++, e.redactedPathsJson);
    e.redactedKeysJson.isEmpty() ? s.bindNull(i++) : s.bindUtf8(i++, e.redactedKeysJson);
    if (auto inserted = s.execute(); !inserted)
        return Failure(inserted.error());
    const bool isNew = s.changes() == 1;
    const qint64 newId = isNew ? s.lastInsertRowId() : 0;
    if (isNew) {
        // The summary row is born with the event, in the same transaction.
        SqliteStatement &st = m_fastInsertStatus;
        st.bindInt64(1, newId);
        st.bindUtf8(2, statusUtf8);
        if (auto stored = st.execute(); !stored)
            return Failure(stored.error());
        return UpsertResult { newId, 1 };
    }
    const auto byId = countDuplicate(m_fastSeenAgain, m_fastSeenRow, e.receivedAtMs, bindKey);
    if (!byId)
        return Failure(byId.error());
    if (*byId)
        return **byId;
    if (e.dedupeByBody) {
        // Not the id: the body. The same bytes under a fresh id (or another type header) are a
        // captured webhook re-sent, or the provider's own retry under a new delivery id.
        auto bindBody = [&](SqliteStatement &st, int first) {
            e.source.isNull() ? st.bindNull(first) : st.bindUtf8(first, source);
            st.bindUtf8(first + 1, e.bodySha256Hex);
        };
        const auto byBody = countDuplicate(m_fastSeenAgainBody, m_fastSeenRowBody, e.receivedAtMs, bindBody);
        if (!byBody)
            return Failure(byBody.error());
        if (*byBody)
            return **byBody;
    }
    return Failure(QStringLiteral("duplicate event not found after its insert was ignored"));
}

// The same transaction counts the duplicate and reads the stored row back.
Result<std::optional<UpsertResult>> IngestStore::countDuplicate(SqliteStatement &again, SqliteStatement &row,
    qint64 seenAtMs, const std::function<void(SqliteStatement &, int)> &bindKey)
{
    again.bindInt64(1, seenAtMs);
    bindKey(again, 2);
    if (auto ran = again.execute(); !ran)
        return Failure(ran.error());
    // sqlite3_changes() counts the last completed statement; the reset does not clear it.
    if (again.changes() != 1)
        return std::nullopt;
    bindKey(row, 1);
    const auto step = row.step();
    if (step != SqliteStatement::Step::Row) {
        const QString problem = step == SqliteStatement::Step::Done
            ? QStringLiteral("duplicate event not found after its update")
            : row.errorText();
        row.reset();
        return Failure(problem);
    }
    const UpsertResult result { row.columnInt64(0), static_cast<int>(row.columnInt64(1)) };
    row.reset();
    return std::optional<UpsertResult>(result);
}

Result<QList<UpsertResult>> IngestStore::upsertEvents(const QList<UpsertRow> &rows)
{
    QList<UpsertResult> results;
    if (m_fastInsertEvent.isValid()) { // SQLite: in-process, one row at a time is cheap
        results.reserve(rows.size());
        for (const UpsertRow &row : rows) {
            UpsertResult r;
            for (int n = 0; n < std::max(1, row.occurrences); ++n) {
                auto upserted = upsertEvent(*row.event, row.status);
                if (!upserted)
                    return Failure(upserted.error());
                r = *upserted;
            }
            results.append(r);
        }
        return results;
    }
    if (m_pgUpsertEvents.isValid())
        return pgUpsertEvents(rows);
    // RETURNING order is not guaranteed: map the rows back by their unique key.
    std::unordered_map<QString, qsizetype> index;
    index.reserve(static_cast<std::size_t>(rows.size()));
    for (qsizetype i = 0; i < rows.size(); ++i)
        index.emplace(rows[i].event->source + QChar(0) + rows[i].event->providerEventId, i);
    results.resize(rows.size());
    qsizetype returned = 0;
    const auto inserted = m_multiEvents->exec(
        static_cast<int>(rows.size()),
        [&rows](int row, QSqlQuery &q, int first) {
            const UpsertRow &r = rows[row];
            bindEvent(q, first, *r.event, std::max(1, r.occurrences));
        },
        [&](const QSqlQuery &q) {
            const auto it = index.find(q.value(2).toString() + QChar(0) + q.value(3).toString());
            if (it == index.end())
                return;
            results[it->second] = UpsertResult { q.value(0).toLongLong(), q.value(1).toInt() };
            ++returned;
        });
    if (!inserted)
        return Failure(inserted.error());
    if (returned != rows.size()) {
        if (auto counted = pgCountDuplicates(rows, &results); !counted)
            return Failure(counted.error());
    }
    // New rows (seen as often as this batch carried them) get their summary status.
    QList<qsizetype> fresh;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        if (results[i].seenCount == std::max(1, rows[i].occurrences))
            fresh.append(i);
    }
    if (fresh.isEmpty())
        return results;
    const auto summarised = m_multiStatuses->exec(static_cast<int>(fresh.size()),
        [&](int row, QSqlQuery &q, int first) {
            q.bindValue(first, results[fresh[row]].eventId);
            q.bindValue(first + 1, rows[fresh[row]].status);
        },
        {});
    if (!summarised)
        return Failure(summarised.error());
    return results;
}

Result<> IngestStore::pgCountDuplicates(const QList<UpsertRow> &rows, QList<UpsertResult> *results)
{
    QSqlQuery &q = m_pgCountDuplicate;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        if ((*results)[i].eventId != 0)
            continue; // inserted
        const IncomingEvent &e = *rows[i].event;
        q.bindValue(0, std::max(1, rows[i].occurrences));
        q.bindValue(1, e.receivedAtMs);
        q.bindValue(2, e.source);
        q.bindValue(3, e.providerEventId);
        q.bindValue(4, e.source);
        q.bindValue(5, dedupeKey(e));
        if (auto ran = run(q); !ran)
            return ran;
        if (!q.next()) {
            q.finish();
            return Failure(
                QStringLiteral("event %1 of source %2 was neither inserted nor found as a duplicate")
                    .arg(e.providerEventId, e.source));
        }
        (*results)[i] = UpsertResult { q.value(0).toLongLong(), q.value(1).toInt() };
        q.finish();
    }
    return ok();
}

Result<> IngestStore::insertDelivery(qint64 eventId, const PlannedDelivery &d, qint64 dueAtMs, qint64 nowMs)
{
    if (!m_fastInsertDelivery.isValid())
        return insertDeliveries({ DeliveryRow { eventId, d, dueAtMs } }, nowMs);
    SqliteStatement &s = m_fastInsertDelivery;
    s.bindInt64(1, eventId);
    s.bindText(2, d.destination);
    s.bindInt64(3, dueAtMs);
    d.orderingKey ? s.bindText(4, *d.orderingKey) : s.bindNull(4);
    s.bindText(5, d.idempotencyKey);
    s.bindInt64(6, nowMs);
    s.bindInt64(7, nowMs);
    return s.execute();
}

Result<> IngestStore::insertDeliveries(const QList<DeliveryRow> &rows, qint64 nowMs)
{
    if (m_fastInsertDelivery.isValid()) {
        for (const DeliveryRow &r : rows) {
            if (auto inserted = insertDelivery(r.eventId, r.delivery, r.dueAtMs, nowMs); !inserted)
                return inserted;
        }
        return ok();
    }
    if (m_pgInsertDeliveries.isValid())
        return pgInsertDeliveries(rows, {}, nowMs);
    return m_multiDeliveries->exec(static_cast<int>(rows.size()),
        [&rows, nowMs](int row, QSqlQuery &q, int i) {
            const DeliveryRow &r = rows[row];
            q.bindValue(i++, r.eventId);
            q.bindValue(i++, r.delivery.destination);
            q.bindValue(i++, r.dueAtMs);
            q.bindValue(i++, nullableText(r.delivery.orderingKey));
            q.bindValue(i++, r.delivery.idempotencyKey);
            q.bindValue(i++, nowMs);
            q.bindValue(i++, nowMs);
        },
        {});
}

Result<> IngestStore::insertRejection(const RejectionRecord &r)
{
    if (m_multiRejections)
        return insertRejections({ r });
    bindRejection(m_insertRejection, 0, r);
    auto ran = run(m_insertRejection);
    m_insertRejection.finish();
    return ran;
}

Result<> IngestStore::insertRejections(const QList<RejectionRecord> &rows)
{
    if (!m_multiRejections) {
        for (const RejectionRecord &r : rows) {
            if (auto inserted = insertRejection(r); !inserted)
                return inserted;
        }
        return ok();
    }
    return m_multiRejections->exec(static_cast<int>(rows.size()),
        [&rows](int row, QSqlQuery &q, int first) { bindRejection(q, first, rows[row]); }, {});
}

Result<int> IngestStore::trimRejections(int keep)
{
    QSqlQuery &q = m_trimRejections;
    q.bindValue(0, std::max(0, keep));
    if (auto ran = run(q); !ran)
        return Failure(ran.error());
    const int deleted = q.numRowsAffected();
    q.finish();
    return deleted;
}

Result<> IngestStore::upsertInstance(const InstanceRecord &r)
{
    QSqlQuery &q = m_upsertInstance;
    q.bindValue(0, r.instanceId);
    q.bindValue(1, text(r.host));
    q.bindValue(2, r.pid);
    q.bindValue(3, text(r.version));
    q.bindValue(4, r.startedAtMs);
    q.bindValue(5, r.heartbeatAtMs);
    q.bindValue(6, text(r.durability));
    q.bindValue(7, r.powerLossDurable ? 1 : 0);
    auto ran = run(q);
    q.finish();
    return ran;
}

Result<> IngestStore::heartbeat(const QString &instanceId, qint64 nowMs, const DatabaseOutage *outage)
{
    QSqlQuery &q = m_heartbeat;
    const QVariant none(QMetaType::fromType<qint64>());
    q.bindValue(0, nowMs);
    q.bindValue(1, outage ? QVariant(outage->beganAtMs) : none);
    q.bindValue(2, outage && outage->endedAtMs ? QVariant(*outage->endedAtMs) : none);
    q.bindValue(3, outage ? QVariant(outage->refused) : none);
    q.bindValue(4, instanceId);
    auto ran = run(q);
    q.finish();
    return ran;
}

Result<> IngestStore::pruneInstances(qint64 beforeMs)
{
    QSqlQuery &q = m_pruneInstances;
    q.bindValue(0, beforeMs);
    auto ran = run(q);
    q.finish();
    return ran;
}

} // namespace redrive
