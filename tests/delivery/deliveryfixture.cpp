// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "deliveryfixture.h"

#include "crypto/crypto.h"

#include <QSqlQuery>
#include <QVariant>

#include <atomic>
#include <chrono>
#include <thread>

namespace redrive::test {
namespace {

std::optional<qint64> optInt(const QVariant &v)
{
    if (v.isNull())
        return std::nullopt;
    return v.toLongLong();
}

} // namespace

qint64 seedEvent(
    Db &db, const SeedEvent &e, const QList<SeedDelivery> &deliveries, QList<qint64> *deliveryIds)
{
    static std::atomic<int> counter { 0 };
    Transaction tx(db);
    QString error;
    if (!succeeded(tx.begin(), &error)) {
        qWarning("seedEvent: %s", qPrintable(error));
        return 0;
    }
    const QString providerId = e.providerEventId.isEmpty()
        ? QStringLiteral("evt_%1").arg(counter.fetch_add(1))
        : e.providerEventId;
    QSqlQuery q(db.handle());
    q.prepare(QStringLiteral("INSERT INTO events (source, provider_event_id, event_type, received_at, "
                             "last_seen_at, content_type, body, body_sha256, body_size, legal_hold) "
                             "VALUES (?, ?, 'order.created', ?, ?, ?, ?, ?, ?, ?) RETURNING id"));
    q.addBindValue(e.source);
    q.addBindValue(providerId);
    q.addBindValue(e.receivedAt);
    q.addBindValue(e.receivedAt);
    q.addBindValue(QString::fromUtf8(e.contentType));
    q.addBindValue(e.body);
    q.addBindValue(e.bodySha256.value_or(QString::fromLatin1(crypto::sha256Hex(e.body))));
    q.addBindValue(e.body.size());
    q.addBindValue(e.legalHold ? 1 : 0);
    if (!q.exec() || !q.next()) {
        qWarning("seedEvent: %s", qPrintable(sqlErrorText(q)));
        return 0;
    }
    const qint64 eventId = q.value(0).toLongLong();
    q.finish();
    QSqlQuery st(db.handle());
    st.prepare(QStringLiteral("INSERT INTO event_status (event_id, status) VALUES (?, ?)"));
    st.addBindValue(eventId);
    st.addBindValue(deliveries.isEmpty() ? QStringLiteral("no_route") : QStringLiteral("pending"));
    if (!st.exec()) {
        qWarning("seedEvent: %s", qPrintable(sqlErrorText(st)));
        return 0;
    }
    for (const SeedDelivery &sd : deliveries) {
        QSqlQuery d(db.handle());
        d.prepare(QStringLiteral(
            "INSERT INTO deliveries (event_id, destination, status, next_attempt_at, "
            "ordering_key, idempotency_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "RETURNING id"));
        d.addBindValue(eventId);
        d.addBindValue(sd.destination);
        d.addBindValue(sd.status);
        d.addBindValue(sd.nextAttemptAt.value_or(e.receivedAt));
        d.addBindValue(sd.orderingKey ? QVariant(*sd.orderingKey) : QVariant(QMetaType::fromType<QString>()));
        d.addBindValue(sd.idempotencyKey.isEmpty()
                ? QStringLiteral("idem_%1_%2").arg(eventId).arg(sd.destination)
                : sd.idempotencyKey);
        d.addBindValue(e.receivedAt);
        d.addBindValue(e.receivedAt);
        if (!d.exec() || !d.next()) {
            qWarning("seedEvent delivery: %s", qPrintable(sqlErrorText(d)));
            return 0;
        }
        if (deliveryIds)
            deliveryIds->append(d.value(0).toLongLong());
    }
    if (!succeeded(tx.commit(), &error)) {
        qWarning("seedEvent commit: %s", qPrintable(error));
        return 0;
    }
    return eventId;
}

DeliveryRow readDelivery(Db &db, qint64 deliveryId)
{
    DeliveryRow r;
    QSqlQuery q(db.handle());
    q.prepare(QStringLiteral(
        "SELECT status, attempt_count, next_attempt_at, lease_token, lease_owner, last_category, "
        "last_error, last_status_code, outcome_unknown, downstream_ref, succeeded_at, dead_at, "
        "replay_id, event_id, idempotency_key FROM deliveries WHERE id = ?"));
    q.addBindValue(deliveryId);
    if (!q.exec() || !q.next())
        return r;
    r.status = q.value(0).toString();
    r.attemptCount = q.value(1).toInt();
    r.nextAttemptAt = optInt(q.value(2));
    r.leaseToken = q.value(3).toLongLong();
    r.leaseOwner = q.value(4).toString();
    r.lastCategory = q.value(5).toString();
    r.lastError = q.value(6).toString();
    r.lastStatusCode = q.value(7).toInt();
    r.outcomeUnknown = q.value(8).toInt() != 0;
    r.downstreamRef = q.value(9).toString();
    r.succeededAt = optInt(q.value(10));
    r.deadAt = optInt(q.value(11));
    r.replayId = optInt(q.value(12));
    r.eventId = q.value(13).toLongLong();
    r.idempotencyKey = q.value(14).toString();
    return r;
}

QList<AttemptRow> readAttempts(Db &db, qint64 deliveryId)
{
    QList<AttemptRow> out;
    QSqlQuery q(db.handle());
    q.prepare(QStringLiteral(
        "SELECT number, trigger_kind, replay_id, scheduled_at, started_at, duration_ms, status_code, "
        "category, explanation, outcome_unknown, response_headers, response_excerpt, worker_id "
        "FROM attempts WHERE delivery_id = ? ORDER BY number"));
    q.addBindValue(deliveryId);
    if (!q.exec())
        return out;
    while (q.next()) {
        AttemptRow a;
        a.number = q.value(0).toInt();
        a.trigger = q.value(1).toString();
        a.replayId = optInt(q.value(2));
        a.scheduledAt = q.value(3).toLongLong();
        a.startedAt = q.value(4).toLongLong();
        a.durationMs = q.value(5).toInt();
        a.statusCode = q.value(6).toInt();
        a.category = q.value(7).toString();
        a.explanation = q.value(8).toString();
        a.outcomeUnknown = q.value(9).toInt() != 0;
        a.responseHeaders = q.value(10).toString().toUtf8();
        a.responseExcerpt = q.value(11).toString();
        a.workerId = q.value(12).toString();
        out.append(a);
    }
    return out;
}

QString eventStatus(Db &db, qint64 eventId)
{
    QSqlQuery q(db.handle());
    q.prepare(QStringLiteral("SELECT status FROM event_status WHERE event_id = ?"));
    q.addBindValue(eventId);
    if (!q.exec() || !q.next())
        return {};
    return q.value(0).toString();
}

qint64 scalar(Db &db, const QString &sql)
{
    QSqlQuery q(db.handle());
    if (!q.exec(sql) || !q.next()) {
        qWarning("scalar(%s): %s", qPrintable(sql), qPrintable(sqlErrorText(q)));
        return -1;
    }
    return q.value(0).toLongLong();
}

DestinationConfig loopbackDestination(const QString &name, const QUrl &url)
{
    DestinationConfig d;
    d.name = name;
    d.url = url;
    d.allowPrivate = true;
    d.timeoutMs = 2'000;
    d.maxAttempts = 4;
    d.retryScheduleMs = { 1'000, 2'000, 4'000 };
    d.concurrency = 8;
    return d;
}

Config engineConfig(const QList<DestinationConfig> &destinations)
{
    Config c;
    c.destinations = destinations;
    c.delivery.pollIntervalMs = 50;
    c.delivery.sweepIntervalMs = 100;
    c.delivery.leaseMs = 30'000;
    c.delivery.jitter = 0.2;
    c.delivery.retryAfterMaxMs = 60'000;
    return c;
}

bool waitUntil(const std::function<bool()> &condition, int timeoutMs)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (!condition()) {
        if (std::chrono::steady_clock::now() >= deadline)
            return condition();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

} // namespace redrive::test
