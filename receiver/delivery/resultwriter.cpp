// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "resultwriter.h"

#include "storage/eventstatus.h"
#include "storage/pgstatement.h"
#include "storage/sqlitestatement.h"

#include <QHash>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <optional>

namespace redrive::delivery {
namespace {

// A PostgreSQL array literal ("{1,NULL,\"text\"}") built column by column; bound as one text
// parameter and cast to the column's array type by the statement.
class ArrayLiteral {
public:
    void add(qint64 value) { next() += QString::number(value); }
    void add(const std::optional<qint64> &value)
    {
        if (value)
            add(*value);
        else
            addNull();
    }
    void addNull() { next() += QStringLiteral("NULL"); }
    void add(const QString &value)
    {
        if (value.isNull()) {
            addNull();
            return;
        }
        QString &out = next();
        out += u'"';
        for (const QChar c : value) {
            if (c == u'"' || c == u'\\')
                out += u'\\';
            out += c;
        }
        out += u'"';
    }
    [[nodiscard]] QString text() const { return m_text + u'}'; }

private:
    QString &next()
    {
        m_text += m_empty ? QString() : QStringLiteral(",");
        m_empty = false;
        return m_text;
    }
    QString m_text = QStringLiteral("{");
    bool m_empty = true;
};

QString notNull(const QString &s)
{
    return s.isNull() ? QStringLiteral("") : s;
}

// summariseEventStatus() in SQL, derived from the C++ rule so the two cannot drift apart:
// deliveries ranked worst first (a higher rank wins), 0 for an unknown status.
QList<DeliveryStatus> worstFirst()
{
    QList<DeliveryStatus> all = { DeliveryStatus::Pending, DeliveryStatus::InFlight, DeliveryStatus::Retrying,
        DeliveryStatus::Succeeded, DeliveryStatus::Dead, DeliveryStatus::Resolved };
    std::sort(all.begin(), all.end(), [](DeliveryStatus a, DeliveryStatus b) {
        const EventStatus both = summariseEventStatus({ a, b });
        return both == summariseEventStatus({ a }) && both != summariseEventStatus({ b });
    });
    return all;
}

QString summaryRank(const QString &column)
{
    const QList<DeliveryStatus> order = worstFirst();
    QString sql = QStringLiteral("CASE ") + column;
    for (qsizetype i = 0; i < order.size(); ++i)
        sql += QStringLiteral(" WHEN %1 THEN %2").arg(sqlName(order.at(i))).arg(order.size() - i);
    return sql + QStringLiteral(" ELSE 0 END");
}

QString summaryFromRank(const QString &rank)
{
    const QList<DeliveryStatus> order = worstFirst();
    QString sql = QStringLiteral("CASE ") + rank;
    for (qsizetype i = 0; i < order.size(); ++i)
        sql += QStringLiteral(" WHEN %1 THEN %2")
                   .arg(order.size() - i)
                   .arg(sqlName(summariseEventStatus({ order.at(i) })));
    return sql + QStringLiteral(" ELSE %1 END").arg(sqlName(summariseEventStatus({})));
}

const QString &fencedUpdateSqlite()
{
    static const QString sql = QStringLiteral(
        "UPDATE deliveries SET status = ?1, attempt_count = ?2, next_attempt_at = ?3, lease_owner = NULL, "
        "lease_expires_at = NULL, last_status_code = ?4, last_category = ?5, last_error = ?6, "
        "outcome_unknown = CASE WHEN ?7 = 1 THEN 0 WHEN ?8 = 1 THEN 1 ELSE outcome_unknown END, "
        "downstream_ref = CASE WHEN ?7 = 1 THEN COALESCE(?9, downstream_ref) ELSE downstream_ref END, "
        "succeeded_at = CASE WHEN ?7 = 1 THEN ?10 ELSE succeeded_at END, dead_at = ?11, replay_id = NULL, "
        "updated_at = ?10 WHERE id = ?12 AND lease_token = ?13 AND status = %1")
                                   .arg(sqlName(DeliveryStatus::InFlight));
    return sql;
}

// PostgreSQL records a whole batch in one statement: every column travels as one array, the
// fenced UPDATE returns the rows it changed, and only those get an attempt row and an event
// status. All parts of one statement read the same snapshot, so the events' summaries combine
// the new statuses (from the UPDATE's RETURNING) with the unchanged deliveries of those events.
QString recordSqlPostgres()
{
    const QString eventSummary
        = QStringLiteral(
            "ranked AS (SELECT upd.event_id, %1 AS r FROM upd UNION ALL "
            "SELECT d.event_id, %2 FROM deliveries d WHERE d.event_id IN (SELECT event_id FROM upd) "
            "AND d.id NOT IN (SELECT id FROM upd)), "
            "st AS (SELECT event_id, %3 AS summary FROM ranked GROUP BY event_id), "
            "ev AS (UPDATE event_status es SET status = st.summary FROM st WHERE es.event_id = st.event_id "
            "AND es.status <> st.summary) ")
              .arg(summaryRank(QStringLiteral("upd.status")), summaryRank(QStringLiteral("d.status")),
                  summaryFromRank(QStringLiteral("MAX(r)")));
    return QStringLiteral(
               "WITH v AS (SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[], "
               "$6::bigint[], $7::text[], $8::text[], $9::bigint[], $10::bigint[], $11::text[], $12::bigint[], "
               "$13::bigint[], $14::text[], $15::bigint[], $16::bigint[], $17::bigint[], $18::bigint[], $19::text[], "
               "$20::text[], $21::text[], $22::text[], $23::text[]) "
               "AS v (id, token, status, attempts, next_at, code, category, error, ok, unknown, ref, rec_at, dead, "
               "trig, replay, sched, started, duration, a_category, explanation, headers, excerpt, worker)), "
               "upd AS (UPDATE deliveries SET status = v.status, attempt_count = v.attempts, next_attempt_at = v.next_at, "
               "lease_owner = NULL, lease_expires_at = NULL, last_status_code = v.code, last_category = v.category, "
               "last_error = v.error, "
               "outcome_unknown = CASE WHEN v.ok = 1 THEN 0 WHEN v.unknown = 1 THEN 1 ELSE deliveries.outcome_unknown END, "
               "downstream_ref = CASE WHEN v.ok = 1 THEN COALESCE(v.ref, deliveries.downstream_ref) "
               "ELSE deliveries.downstream_ref END, "
               "succeeded_at = CASE WHEN v.ok = 1 THEN v.rec_at ELSE deliveries.succeeded_at END, "
               "dead_at = v.dead, replay_id = NULL, updated_at = v.rec_at "
               "FROM v WHERE deliveries.id = v.id AND deliveries.lease_token = v.token "
               "AND deliveries.status = %1 RETURNING deliveries.id, deliveries.event_id, deliveries.status), "
               "ins AS (INSERT INTO attempts (delivery_id, number, trigger_kind, replay_id, scheduled_at, started_at, "
               "duration_ms, status_code, category, explanation, outcome_unknown, response_headers, response_excerpt, "
               "worker_id) SELECT v.id, v.attempts, v.trig, v.replay, v.sched, v.started, v.duration, v.code, "
               "v.a_category, v.explanation, v.unknown, v.headers, v.excerpt, v.worker FROM v JOIN upd ON upd.id = v.id), ")
               .arg(sqlName(DeliveryStatus::InFlight))
        + eventSummary + QStringLiteral("SELECT id FROM upd");
}

const char *const kAttemptColumns
    = "INSERT INTO attempts (delivery_id, number, trigger_kind, replay_id, scheduled_at, started_at, duration_ms, "
      "status_code, category, explanation, outcome_unknown, response_headers, response_excerpt, worker_id) ";

const char *const kAttemptValuesSqlite
    = "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)";

// The delivery's new state as bound values, shared by both engines.
struct Fenced {
    QString status;
    std::optional<qint64> nextAttemptAt;
    std::optional<qint64> statusCode;
    QString category; // null on success
    QString error; // null on success
    bool success = false;
    bool outcomeUnknown = false;
    std::optional<QString> downstreamRef;
    qint64 recordedAt = 0;
    std::optional<qint64> deadAt;
};

Fenced fenced(const AttemptRecord &a)
{
    Fenced f;
    f.success = a.newStatus == DeliveryStatus::Succeeded;
    f.status = toString(a.newStatus);
    if (a.newStatus == DeliveryStatus::Retrying || a.newStatus == DeliveryStatus::Pending)
        f.nextAttemptAt = a.nextAttemptAt;
    if (a.statusCode > 0)
        f.statusCode = a.statusCode;
    if (!f.success) {
        f.category = toString(a.classification.category);
        f.error = notNull(a.classification.explanation);
    }
    f.outcomeUnknown = a.classification.outcomeUnknown;
    f.downstreamRef = a.downstreamRef;
    f.recordedAt = a.recordedAt;
    if (a.newStatus == DeliveryStatus::Dead)
        f.deadAt = a.recordedAt;
    return f;
}

qint64 clampedDuration(const AttemptRecord &a)
{
    return std::clamp<qint64>(a.durationMs, 0, 0x7fffffff);
}

} // namespace

struct ResultWriter::Statements {
    // SQLite: native statements, prepared on first use.
    SqliteStatement fencedUpdate;
    SqliteStatement attemptInsert;
    SqliteStatement statusSelect;
    SqliteStatement statusUpdate;
    // PostgreSQL: one statement per batch (and two for a status refresh on its own).
    PgStatement pgRecord;
    std::optional<QSqlQuery> pgStatusSelect;
    std::optional<QSqlQuery> pgStatusUpdate;
    // Both: the rare replay bookkeeping.
    std::optional<QSqlQuery> replayItem;
    std::optional<QSqlQuery> replaySucceeded;
    std::optional<QSqlQuery> replayFailed;
};

namespace {

Result<> ready(Db &db, SqliteStatement &s, const QString &sql)
{
    if (s.isValid())
        return ok();
    return s.prepare(db, sql);
}

Result<QSqlQuery *> ready(Db &db, std::optional<QSqlQuery> &q, const QString &sql)
{
    if (!q) {
        auto prepared = db.prepare(sql);
        if (!prepared)
            return Failure(prepared.error());
        prepared->setForwardOnly(true);
        q.emplace(std::move(*prepared));
    }
    return &*q;
}

Failure failed(const QString &text)
{
    return Failure(text.isEmpty() ? QStringLiteral("the database connection is closed") : text);
}

Failure failed(const QSqlQuery &q)
{
    return failed(sqlErrorText(q));
}

} // namespace

ResultWriter::ResultWriter(Db &db)
    : m_db(db)
    , m_s(std::make_unique<Statements>())
{ }

ResultWriter::~ResultWriter() = default;

Result<QList<RecordResult>> ResultWriter::write(const Items &items)
{
    QList<RecordResult> results;
    if (items.isEmpty())
        return results;
    const auto recorded = m_db.isSqlite() ? recordSqlite(items) : recordPostgres(items);
    if (!recorded)
        return Failure(recorded.error());
    QList<int> rows; // items whose result is recorded
    for (int i = 0; i < items.size(); ++i) {
        const bool held = recorded->contains(items.at(i).first.deliveryId);
        results.append(held ? RecordResult::Recorded : RecordResult::LeaseLost);
        if (held)
            rows.append(i);
    }
    if (auto r = replayBookkeeping(items, rows); !r)
        return Failure(r.error());
    return results;
}

// SQLite: the fenced update, then the attempt row, per result; then the events' statuses.
Result<QSet<qint64>> ResultWriter::recordSqlite(const Items &items)
{
    SqliteStatement &u = m_s->fencedUpdate;
    SqliteStatement &ins = m_s->attemptInsert;
    if (auto r = ready(m_db, u, fencedUpdateSqlite()); !r)
        return Failure(r.error());
    if (!ins.isValid()) {
        if (auto r = ins.prepare(
                m_db, QString::fromLatin1(kAttemptColumns) + QString::fromLatin1(kAttemptValuesSqlite));
            !r)
            return Failure(r.error());
    }
    QSet<qint64> recorded;
    QList<qint64> events;
    QSet<qint64> seen;
    for (const auto &[claim, a] : items) {
        const Fenced f = fenced(a);
        u.bindText(1, f.status);
        u.bindInt64(2, a.number);
        f.nextAttemptAt ? u.bindInt64(3, *f.nextAttemptAt) : u.bindNull(3);
        f.statusCode ? u.bindInt64(4, *f.statusCode) : u.bindNull(4);
        u.bindText(5, f.category);
        u.bindText(6, f.error);
        u.bindInt64(7, f.success ? 1 : 0);
        u.bindInt64(8, f.outcomeUnknown ? 1 : 0);
        f.downstreamRef ? u.bindText(9, *f.downstreamRef) : u.bindNull(9);
        u.bindInt64(10, f.recordedAt);
        f.deadAt ? u.bindInt64(11, *f.deadAt) : u.bindNull(11);
        u.bindInt64(12, claim.deliveryId);
        u.bindInt64(13, claim.leaseToken);
        auto step = u.step();
        const qint64 changed = u.changes();
        u.reset();
        if (step == SqliteStatement::Step::Error)
            return failed(u.errorText());
        if (changed != 1)
            continue; // the lease was lost: nothing else is written
        recorded.insert(claim.deliveryId);
        if (!seen.contains(claim.eventId)) {
            seen.insert(claim.eventId);
            events.append(claim.eventId);
        }

        ins.bindInt64(1, claim.deliveryId);
        ins.bindInt64(2, a.number);
        ins.bindText(3, toString(a.trigger));
        a.replayId ? ins.bindInt64(4, *a.replayId) : ins.bindNull(4);
        ins.bindInt64(5, a.scheduledAt);
        ins.bindInt64(6, a.startedAt);
        ins.bindInt64(7, clampedDuration(a));
        f.statusCode ? ins.bindInt64(8, *f.statusCode) : ins.bindNull(8);
        ins.bindText(9, toString(a.classification.category));
        ins.bindText(10, notNull(a.classification.explanation));
        ins.bindInt64(11, f.outcomeUnknown ? 1 : 0);
        ins.bindText(12, QString::fromUtf8(a.responseHeadersJson));
        ins.bindText(13, notNull(a.responseExcerpt));
        ins.bindText(14, notNull(a.workerId));
        step = ins.step();
        ins.reset();
        if (step == SqliteStatement::Step::Error)
            return failed(ins.errorText());
    }
    if (auto r = refreshEventStatuses(events); !r)
        return Failure(r.error());
    return recorded;
}

Result<QSet<qint64>> ResultWriter::recordPostgres(const Items &items)
{
    PgStatement &statement = m_s->pgRecord;
    if (!statement.isValid()) {
        if (auto r
            = statement.prepare(m_db, QByteArrayLiteral("redrive_delivery_record"), recordSqlPostgres(), 23);
            !r)
            return Failure(r.error());
    }
    const qsizetype n = items.size();
    using T = PgArray::Type;
    PgArray id(T::Int8, n), token(T::Int8, n), status(T::Text, n, n * 10), attempts(T::Int8, n),
        nextAt(T::Int8, n), code(T::Int8, n), category(T::Text, n), err(T::Text, n), ok(T::Int8, n),
        unknown(T::Int8, n), ref(T::Text, n), recAt(T::Int8, n), dead(T::Int8, n),
        trigger(T::Text, n, n * 10), replay(T::Int8, n), scheduled(T::Int8, n), started(T::Int8, n),
        duration(T::Int8, n), attemptCategory(T::Text, n, n * 16), explanation(T::Text, n, n * 64),
        headers(T::Text, n, n * 64), excerpt(T::Text, n, n * 64), worker(T::Text, n, n * 24);
    const auto int8 = [](PgArray &a, const std::optional<qint64> &v) { v ? a.append(*v) : a.appendNull(); };
    const auto text
        = [](PgArray &a, const QString &v) { v.isNull() ? a.appendNull() : a.append(v.toUtf8()); };
    for (const auto &[claim, a] : items) {
        const Fenced f = fenced(a);
        id.append(claim.deliveryId);
        token.append(claim.leaseToken);
        text(status, f.status);
        attempts.append(qint64(a.number));
        int8(nextAt, f.nextAttemptAt);
        int8(code, f.statusCode);
        text(category, f.category);
        text(err, f.error);
        ok.append(qint64(f.success ? 1 : 0));
        unknown.append(qint64(f.outcomeUnknown ? 1 : 0));
        text(ref, f.downstreamRef ? *f.downstreamRef : QString());
        recAt.append(f.recordedAt);
        int8(dead, f.deadAt);
        text(trigger, toString(a.trigger));
        int8(replay, a.replayId);
        scheduled.append(a.scheduledAt);
        started.append(a.startedAt);
        duration.append(clampedDuration(a));
        text(attemptCategory, toString(a.classification.category));
        text(explanation, notNull(a.classification.explanation));
        headers.append(QByteArrayView(a.responseHeadersJson));
        text(excerpt, notNull(a.responseExcerpt));
        text(worker, notNull(a.workerId));
    }
    QList<QByteArray> parameters;
    parameters.reserve(23);
    for (PgArray *column : { &id, &token, &status, &attempts, &nextAt, &code, &category, &err, &ok, &unknown,
             &ref, &recAt, &dead, &trigger, &replay, &scheduled, &started, &duration, &attemptCategory,
             &explanation, &headers, &excerpt, &worker })
        parameters.append(column->finish());
    QSet<qint64> recorded;
    if (auto r
        = statement.exec(parameters, [&](const PgStatement::Row &row) { recorded.insert(row.int64(0)); });
        !r)
        return Failure(r.error());
    return recorded;
}

// Replay execution contract (docs/architecture.md): item state and counters move with the attempt.
Result<> ResultWriter::replayBookkeeping(const Items &items, const QList<int> &rows)
{
    for (int row : rows) {
        const auto &[claim, a] = items.at(row);
        if (!a.replayId)
            continue;
        const bool success = a.newStatus == DeliveryStatus::Succeeded;
        const auto prepared = ready(m_db, m_s->replayItem,
            QStringLiteral(
                "UPDATE replay_items SET state = ? WHERE replay_id = ? AND delivery_id = ? AND state = %1")
                .arg(sqlName(ReplayItemState::Queued)));
        if (!prepared)
            return Failure(prepared.error());
        QSqlQuery *item = *prepared;
        item->bindValue(0, toString(success ? ReplayItemState::Succeeded : ReplayItemState::Failed));
        item->bindValue(1, *a.replayId);
        item->bindValue(2, claim.deliveryId);
        if (!item->exec())
            return failed(*item);
        const bool moved = item->numRowsAffected() == 1;
        item->finish();
        if (!moved)
            continue;
        const auto counterPrepared = success
            ? ready(m_db, m_s->replaySucceeded,
                QStringLiteral("UPDATE replays SET succeeded_count = succeeded_count + 1, updated_at = ? "
                               "WHERE id = ?"))
            : ready(m_db, m_s->replayFailed,
                QStringLiteral("UPDATE replays SET failed_count = failed_count + 1, updated_at = ? "
                               "WHERE id = ?"));
        if (!counterPrepared)
            return Failure(counterPrepared.error());
        QSqlQuery *counter = *counterPrepared;
        counter->bindValue(0, a.recordedAt);
        counter->bindValue(1, *a.replayId);
        if (!counter->exec())
            return failed(*counter);
        counter->finish();
    }
    return ok();
}

Result<> ResultWriter::refreshEventStatuses(const QList<qint64> &eventIds)
{
    if (eventIds.isEmpty())
        return ok();
    if (m_db.isSqlite()) {
        SqliteStatement &sel = m_s->statusSelect;
        SqliteStatement &upd = m_s->statusUpdate;
        if (auto r = ready(m_db, sel, QStringLiteral("SELECT status FROM deliveries WHERE event_id = ?1"));
            !r)
            return r;
        if (auto r = ready(m_db, upd,
                QStringLiteral("UPDATE event_status SET status = ?1 WHERE event_id = ?2 AND status <> ?1"));
            !r)
            return r;
        for (qint64 id : eventIds) {
            QList<DeliveryStatus> statuses;
            sel.bindInt64(1, id);
            SqliteStatement::Step step;
            while ((step = sel.step()) == SqliteStatement::Step::Row) {
                if (auto s = deliveryStatusFromString(sel.columnText(0)))
                    statuses.append(*s);
            }
            sel.reset();
            if (step == SqliteStatement::Step::Error)
                return failed(sel.errorText());
            upd.bindText(1, toString(summariseEventStatus(statuses)));
            upd.bindInt64(2, id);
            step = upd.step();
            upd.reset();
            if (step == SqliteStatement::Step::Error)
                return failed(upd.errorText());
        }
        return ok();
    }
    const auto selPrepared = ready(m_db, m_s->pgStatusSelect,
        QStringLiteral("SELECT event_id, status FROM deliveries "
                       "WHERE event_id = ANY (CAST(? AS BIGINT[]))"));
    if (!selPrepared)
        return Failure(selPrepared.error());
    const auto updPrepared = ready(m_db, m_s->pgStatusUpdate,
        QStringLiteral("UPDATE event_status es SET status = v.status "
                       "FROM unnest(CAST(? AS BIGINT[]), CAST(? AS TEXT[])) AS v (id, status) "
                       "WHERE es.event_id = v.id AND es.status <> v.status"));
    if (!updPrepared)
        return Failure(updPrepared.error());
    QSqlQuery *sel = *selPrepared;
    QSqlQuery *upd = *updPrepared;
    ArrayLiteral ids;
    for (qint64 id : eventIds)
        ids.add(id);
    sel->bindValue(0, ids.text());
    if (!sel->exec()) {
        Failure failure = failed(*sel);
        sel->finish();
        return failure;
    }
    QHash<qint64, QList<DeliveryStatus>> statuses;
    while (sel->next()) {
        if (auto s = deliveryStatusFromString(sel->value(1).toString()))
            statuses[sel->value(0).toLongLong()].append(*s);
    }
    sel->finish();
    ArrayLiteral summaries;
    for (qint64 id : eventIds)
        summaries.add(toString(summariseEventStatus(statuses.value(id))));
    upd->bindValue(0, ids.text());
    upd->bindValue(1, summaries.text());
    if (!upd->exec()) {
        Failure failure = failed(*upd);
        upd->finish();
        return failure;
    }
    upd->finish();
    return ok();
}

} // namespace redrive::delivery
