// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "syntheticevents.h"

#include "query/downstream.h"
#include "storage/schema.h"

#include <QElapsedTimer>
#include <QSqlQuery>

namespace redrive::bench {

const QStringList &sourceNames()
{
    static const QStringList names { QStringLiteral("github"), QStringLiteral("stripe"),
        QStringLiteral("shopify"), QStringLiteral("billing-hooks") };
    return names;
}

const QStringList &typeNames()
{
    static const QStringList names { QStringLiteral("push"), QStringLiteral("pull_request.opened"),
        QStringLiteral("invoice.paid"), QStringLiteral("orders/create"), QStringLiteral("customer.updated"),
        QStringLiteral("charge.refunded"), QStringLiteral("issue.closed") };
    return names;
}

const QList<EventStatus> &statusValues()
{
    static const QList<EventStatus> values { EventStatus::Succeeded, EventStatus::Retrying, EventStatus::Dead,
        EventStatus::Pending, EventStatus::NoRoute };
    return values;
}

const QList<Stored<FailureCategory>> &categoryValues()
{
    static const QList<Stored<FailureCategory>> values { {}, FailureCategory::HttpPermanent,
        FailureCategory::Timeout, FailureCategory::ConnectionRefused, FailureCategory::HttpRetryable };
    return values;
}

namespace {

// x % 100: 0-89 succeeded, 90-94 retrying, 95-97 dead, 98 pending, 99 no route.
int statusOf(qint64 x)
{
    const qint64 m = x % 100;
    return m < 90 ? 0 : m < 95 ? 1 : m < 98 ? 2 : m < 99 ? 3 : 4;
}

// The same rules in SQL; %1 is the event number column.
QString statusSql()
{
    return QStringLiteral(
        "CASE WHEN x % 100 < 90 THEN 'succeeded' WHEN x % 100 < 95 THEN 'retrying' "
        "WHEN x % 100 < 98 THEN 'dead' WHEN x % 100 < 99 THEN 'pending' ELSE 'no_route' END");
}

QString pick(const QStringList &names, const QString &expr)
{
    QString sql = QStringLiteral("CASE ");
    for (qsizetype i = 0; i < names.size(); ++i)
        sql += QStringLiteral("WHEN (%1) % %2 = %3 THEN '%4' ")
                   .arg(expr)
                   .arg(names.size())
                   .arg(i)
                   .arg(names[i]);
    return sql + QLatin1String("END");
}

} // namespace

SyntheticRow syntheticRow(qint64 x)
{
    SyntheticRow r;
    r.id = x;
    r.receivedAt = kBaseMs + x * 1000;
    r.source = quint8(x % sourceNames().size());
    r.type = quint8(x % typeNames().size());
    r.status = quint8(statusOf(x));
    r.providerId = QStringLiteral("evt_%1").arg(x);
    r.attempts = 0;
    r.lastFailure = 0;
    switch (r.status) {
    case 0:
        r.attempts = x % 3 == 0 ? 2 : 1;
        r.downstream = quint8(x % 2 == 0 ? DownstreamState::SucceededWithRef : DownstreamState::Succeeded);
        if (x % 2 == 0)
            r.downstreamRef = QStringLiteral("REF-%1").arg(x);
        break;
    case 1:
        r.attempts = 3;
        r.lastFailure = 4;
        r.downstream = quint8(x % 5 == 0 ? DownstreamState::OutcomeUnknown : DownstreamState::Pending);
        break;
    case 2:
        r.attempts = 8;
        r.lastFailure = quint8(1 + x % 3);
        r.downstream = quint8(x % 3 == 1 ? DownstreamState::OutcomeUnknown : DownstreamState::Failed);
        break;
    case 3:
        r.downstream = quint8(DownstreamState::Pending);
        break;
    default:
        r.downstream = quint8(DownstreamState::None);
        break;
    }
    return r;
}

bool ensureFixture(Db &db, qint64 rows, QString *error, double *secondsSpent)
{
    *secondsSpent = 0;
    if (auto migrated = migrate(db); !migrated) {
        *error = migrated.error();
        return false;
    }
    {
        QSqlQuery q(db.handle());
        // Two business keys per event (schema 7): a fixture from before them is rebuilt.
        if (q.exec(QStringLiteral("SELECT (SELECT count(*) FROM events), (SELECT count(*) FROM event_keys)"))
            && q.next() && q.value(0).toLongLong() == rows && q.value(1).toLongLong() == 2 * rows)
            return true;
    }
    QElapsedTimer timer;
    timer.start();
    const bool sqlite = db.isSqlite();
    if (sqlite) {
        // A throwaway benchmark file: no durability needed while it is written.
        static_cast<void>(db.exec(QStringLiteral("PRAGMA synchronous=OFF")));
        static_cast<void>(db.exec(QStringLiteral("PRAGMA cache_size=-262144")));
    }
    Transaction tx(db);
    if (!succeeded(tx.begin(), error))
        return false;
    for (const char *table : { "event_keys", "attempts", "deliveries", "event_status", "events" }) {
        if (!succeeded(db.exec(QStringLiteral("DELETE FROM %1").arg(QLatin1String(table))), error))
            return false;
    }
    // Rows are produced inside the engine from the event number x: a recursive CTE on SQLite,
    // generate_series on PostgreSQL. One statement per table, bound once.
    const QString series = sqlite
        ? QStringLiteral("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?) ")
        : QString();
    const QString from
        = sqlite ? QStringLiteral(" FROM n") : QStringLiteral(" FROM generate_series(1, ?::bigint) AS n(x)");
    const QString text = sqlite ? QStringLiteral("") : QStringLiteral("::text");
    const QString events = series
        + QStringLiteral(
            "INSERT INTO events (id, source, provider_event_id, event_type, received_at, last_seen_at, "
            "content_type, body, body_sha256, body_size, headers, verified_by, clock_skew_ms) SELECT x, %1, "
            "'evt_' || x%4, %2, %3 + x * 1000, %3 + x * 1000, 'application/json', %5, '', 48, "
            "'[[\"Content-Type\",\"application/json\"]]', 'env:SECRET', 150")
              .arg(pick(sourceNames(), QStringLiteral("x")), pick(typeNames(), QStringLiteral("x")))
              .arg(kBaseMs)
              .arg(text,
                  sqlite
                      ? QStringLiteral(
                          "CAST('{\"id\":\"evt_' || x || '\",\"amount\":' || (x % 1000) || '}' AS BLOB)")
                      : QStringLiteral(
                          "convert_to('{\"id\":\"evt_' || x || '\",\"amount\":' || (x % 1000) || '}', 'UTF8')"))
        + from;
    const QString statuses = series
        + QStringLiteral("INSERT INTO event_status (event_id, status) SELECT x, %1").arg(statusSql()) + from;
    const QString deliveryStatus = statusSql();
    const QString deliveries = series
        + QStringLiteral(
            "INSERT INTO deliveries (id, event_id, destination, status, attempt_count, next_attempt_at, idempotency_key, "
            "last_category, outcome_unknown, downstream_ref, succeeded_at, dead_at, created_at, updated_at) "
            "SELECT x, x, %1, st, "
            "CASE st WHEN 'succeeded' THEN (CASE WHEN x % 3 = 0 THEN 2 ELSE 1 END) WHEN 'retrying' THEN 3 "
            "WHEN 'dead' THEN 8 ELSE 0 END, "
            "CASE WHEN st IN ('retrying', 'pending') THEN %2 + x * 1000 + 300000 END, 'idem-' || x%3, "
            "CASE st WHEN 'succeeded' THEN 'success' WHEN 'retrying' THEN 'http_retryable' WHEN 'dead' THEN "
            "(CASE x % 3 WHEN 0 THEN 'http_permanent' WHEN 1 THEN 'timeout' ELSE 'connection_refused' END) END, "
            "CASE WHEN (st = 'dead' AND x % 3 = 1) OR (st = 'retrying' AND x % 5 = 0) THEN 1 ELSE 0 END, "
            "CASE WHEN st = 'succeeded' AND x % 2 = 0 THEN 'REF-' || x%3 END, "
            "CASE WHEN st = 'succeeded' THEN %2 + x * 1000 + 500 END, CASE WHEN st = 'dead' THEN %2 + x * 1000 + 60000 END, "
            "%2 + x * 1000, %2 + x * 1000 "
            "FROM (SELECT x, %4 AS st%5) s WHERE st <> 'no_route'")
              .arg(pick(QStringList { QStringLiteral("fulfillment"), QStringLiteral("crm"),
                            QStringLiteral("billing") },
                  QStringLiteral("x")))
              .arg(kBaseMs)
              .arg(text, deliveryStatus, from);
    const QString attempts = QStringLiteral(
        "INSERT INTO attempts (delivery_id, number, trigger_kind, scheduled_at, started_at, duration_ms, status_code, "
        "category, explanation, outcome_unknown, response_excerpt) "
        "SELECT d.id, d.attempt_count, 'automatic', d.created_at, d.created_at + 100, 40 + d.id % 200, "
        "CASE d.last_category WHEN 'success' THEN 200 WHEN 'http_retryable' THEN 503 WHEN 'http_permanent' THEN 410 END, "
        "d.last_category, 'synthetic attempt', d.outcome_unknown, '' FROM deliveries d WHERE d.attempt_count > 0");
    // Business keys: an order number shared by 4 consecutive events, a customer by 200.
    const QString keys = series
        + QStringLiteral("INSERT INTO event_keys (event_id, name, value) SELECT x, k.name, CASE k.name WHEN "
                         "'order' THEN 'ord-' || (x / 4)%1 ELSE 'cus_' || (x % 5000)%1 END")
              .arg(text)
        + from + QStringLiteral(", (SELECT 'order' AS name UNION ALL SELECT 'customer') k");
    for (const QString &sql : { events, statuses, deliveries, keys }) {
        QSqlQuery q(db.handle());
        if (!q.prepare(sql)) {
            *error = sqlErrorText(q);
            return false;
        }
        q.addBindValue(rows);
        if (!q.exec()) {
            *error = sqlErrorText(q);
            return false;
        }
    }
    if (!succeeded(db.exec(attempts), error))
        return false;
    if (!sqlite
        && !succeeded(
            db.exec(QStringLiteral("SELECT setval(pg_get_serial_sequence('events', 'id'), %1)").arg(rows)),
            error))
        return false;
    if (!succeeded(tx.commit(), error))
        return false;
    if (!sqlite)
        static_cast<void>(db.exec(QStringLiteral("ANALYZE")));
    else
        static_cast<void>(db.exec(QStringLiteral("PRAGMA synchronous=FULL")));
    *secondsSpent = double(timer.elapsed()) / 1000.0;
    return true;
}

} // namespace redrive::bench
