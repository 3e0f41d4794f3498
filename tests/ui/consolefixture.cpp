// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "consolefixture.h"

#include "crypto/crypto.h"

#include <QSqlQuery>

namespace redrive::test {

bool ConsoleFixture::run(QSqlQuery &q)
{
    if (q.exec())
        return true;
    m_error = sqlErrorText(q);
    qWarning("fixture: %s", qPrintable(m_error));
    return false;
}

qint64 ConsoleFixture::addEvent(const EventSpec &s)
{
    static int counter = 0;
    QSqlQuery q(m_db.handle());
    q.prepare(QStringLiteral(
        "INSERT INTO events (source, provider_event_id, event_type, received_at, last_seen_at, seen_count, "
        "content_type, body, body_sha256, body_size, headers, verified_by, clock_skew_ms, remote_addr, origin) "
        "VALUES (?, ?, ?, ?, ?, ?, 'application/json', ?, ?, ?, ?, ?, ?, '127.0.0.1', ?)"));
    q.addBindValue(s.source);
    q.addBindValue(s.providerId.isEmpty() ? QStringLiteral("prov-%1").arg(++counter) : s.providerId);
    q.addBindValue(s.type);
    q.addBindValue(s.receivedAt);
    q.addBindValue(s.receivedAt);
    q.addBindValue(s.seenCount);
    q.addBindValue(s.body);
    q.addBindValue(QString::fromLatin1(crypto::sha256(s.body).toHex()));
    q.addBindValue(qint64(s.body.size()));
    q.addBindValue(QString::fromUtf8(s.headers));
    q.addBindValue(s.verifiedBy);
    q.addBindValue(s.clockSkewMs ? QVariant(*s.clockSkewMs) : QVariant(QMetaType::fromType<qint64>()));
    q.addBindValue(s.origin);
    if (!run(q))
        return 0;
    QSqlQuery id(m_db.handle());
    id.exec(QStringLiteral("SELECT max(id) FROM events"));
    const qint64 eventId = id.next() ? id.value(0).toLongLong() : 0;
    QSqlQuery st(m_db.handle());
    st.prepare(QStringLiteral("INSERT INTO event_status (event_id, status) VALUES (?, ?)"));
    st.addBindValue(eventId);
    st.addBindValue(s.status);
    return run(st) ? eventId : 0;
}

qint64 ConsoleFixture::addDelivery(qint64 eventId, const DeliverySpec &s)
{
    auto opt = [](const std::optional<qint64> &v) {
        return v ? QVariant(*v) : QVariant(QMetaType::fromType<qint64>());
    };
    auto text = [](const QString &v) {
        return v.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(v);
    };
    QSqlQuery q(m_db.handle());
    q.prepare(QStringLiteral(
        "INSERT INTO deliveries (event_id, destination, status, attempt_count, next_attempt_at, idempotency_key, "
        "last_category, last_error, outcome_unknown, downstream_ref, succeeded_at, dead_at, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(eventId);
    q.addBindValue(s.destination);
    q.addBindValue(s.status);
    q.addBindValue(s.attemptCount);
    q.addBindValue(opt(s.nextAttemptAt));
    q.addBindValue(QStringLiteral("idem-%1-%2").arg(eventId).arg(s.destination));
    q.addBindValue(text(s.lastCategory));
    q.addBindValue(text(s.lastError));
    q.addBindValue(s.outcomeUnknown ? 1 : 0);
    q.addBindValue(text(s.downstreamRef));
    q.addBindValue(opt(s.succeededAt));
    q.addBindValue(opt(s.deadAt));
    q.addBindValue(s.createdAt);
    q.addBindValue(s.createdAt);
    if (!run(q))
        return 0;
    QSqlQuery id(m_db.handle());
    id.exec(QStringLiteral("SELECT max(id) FROM deliveries"));
    return id.next() ? id.value(0).toLongLong() : 0;
}

void ConsoleFixture::addAttempt(qint64 deliveryId, const AttemptSpec &s)
{
    QSqlQuery q(m_db.handle());
    q.prepare(QStringLiteral(
        "INSERT INTO attempts (delivery_id, number, trigger_kind, scheduled_at, started_at, duration_ms, status_code, "
        "category, explanation, outcome_unknown, response_excerpt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(deliveryId);
    q.addBindValue(s.number);
    q.addBindValue(s.trigger);
    q.addBindValue(s.startedAt);
    q.addBindValue(s.startedAt);
    q.addBindValue(s.durationMs);
    q.addBindValue(s.statusCode ? QVariant(*s.statusCode) : QVariant(QMetaType::fromType<int>()));
    q.addBindValue(s.category);
    q.addBindValue(s.explanation);
    q.addBindValue(s.outcomeUnknown ? 1 : 0);
    q.addBindValue(s.responseExcerpt.isEmpty() ? QStringLiteral("")
                                               : s.responseExcerpt); // NOT NULL: never bind a null string
    run(q);
}

void ConsoleFixture::addNote(qint64 eventId, const QString &author, const QString &body, qint64 at)
{
    QSqlQuery q(m_db.handle());
    q.prepare(QStringLiteral("INSERT INTO notes (event_id, author, body, created_at) VALUES (?, ?, ?, ?)"));
    q.addBindValue(eventId);
    q.addBindValue(author);
    q.addBindValue(body);
    q.addBindValue(at);
    run(q);
}

void ConsoleFixture::addAudit(qint64 seq, const QString &actor, const QString &action, const QString &target,
    const QString &reason, qint64 at)
{
    QSqlQuery q(m_db.handle());
    q.prepare(QStringLiteral(
        "INSERT INTO audit_log (seq, at, actor, role, action, target, reason, details, prev_hash, hash) "
        "VALUES (?, ?, ?, 'support', ?, ?, ?, '{}', 'prev', 'hash')"));
    q.addBindValue(seq);
    q.addBindValue(at);
    q.addBindValue(actor);
    q.addBindValue(action);
    q.addBindValue(target);
    q.addBindValue(reason);
    run(q);
}

void ConsoleFixture::addRejection(
    const QString &source, const QString &reason, int statusCode, qint64 at, const QString &detail)
{
    QSqlQuery q(m_db.handle());
    q.prepare(QStringLiteral(
        "INSERT INTO rejections (source, reason, detail, status_code, remote_addr, received_at) "
        "VALUES (?, ?, ?, ?, '203.0.113.9', ?)"));
    q.addBindValue(source);
    q.addBindValue(reason);
    q.addBindValue(detail);
    q.addBindValue(statusCode);
    q.addBindValue(at);
    run(q);
}

void ConsoleFixture::addReceiver(const QString &instanceId, const QString &host, qint64 pid,
    qint64 heartbeatAt, const QString &durability, bool powerLossDurable)
{
    QSqlQuery q(m_db.handle());
    q.prepare(QStringLiteral(
        "INSERT INTO receiver_instances (instance_id, host, pid, version, started_at, heartbeat_at, "
        "durability, power_loss_durable) VALUES (?, ?, ?, '0.1.0', ?, ?, ?, ?)"));
    q.addBindValue(instanceId);
    q.addBindValue(host);
    q.addBindValue(pid);
    q.addBindValue(heartbeatAt - 3'600'000);
    q.addBindValue(heartbeatAt);
    q.addBindValue(durability);
    q.addBindValue(powerLossDurable ? 1 : 0);
    run(q);
}

qint64 ConsoleFixture::addReconcileRun(const RunSpec &spec)
{
    QSqlQuery q(m_db.handle());
    q.prepare(QStringLiteral(
        "INSERT INTO reconcile_runs (source, provider, started_at, finished_at, status, checked, missing, "
        "recovered, error, requested_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(spec.source);
    q.addBindValue(spec.provider);
    q.addBindValue(spec.startedAt);
    q.addBindValue(spec.finishedAt ? QVariant(*spec.finishedAt) : QVariant(QMetaType(QMetaType::LongLong)));
    q.addBindValue(spec.status);
    q.addBindValue(spec.checked);
    q.addBindValue(spec.missing);
    q.addBindValue(spec.recovered);
    q.addBindValue(spec.error.isEmpty() ? QStringLiteral("") : spec.error); // NOT NULL, '' for none
    q.addBindValue(spec.requestedBy.isEmpty() ? QStringLiteral("") : spec.requestedBy);
    if (!run(q))
        return 0;
    return q.lastInsertId().toLongLong();
}

ConsoleFixture::Scenario ConsoleFixture::addScenario(qint64 base)
{
    Scenario s;
    {
        EventSpec e;
        e.providerId = QStringLiteral("gh-delivery-1");
        e.status = QStringLiteral("succeeded");
        e.receivedAt = base;
        s.succeeded = addEvent(e);
        DeliverySpec d;
        d.status = QStringLiteral("succeeded");
        d.attemptCount = 2;
        d.lastCategory = QStringLiteral("success");
        d.downstreamRef = QStringLiteral("ORD-1001");
        d.succeededAt = base + 6'000;
        d.createdAt = base;
        const qint64 did = addDelivery(s.succeeded, d);
        AttemptSpec a1;
        a1.number = 1;
        a1.startedAt = base + 10;
        a1.statusCode = 503;
        a1.category = QStringLiteral("http_retryable");
        a1.explanation = QStringLiteral("HTTP 503 is retryable (rule R2: 408, 429, 500, 502, 503, 504)");
        a1.responseExcerpt = QStringLiteral("<html>upstream unavailable</html>");
        addAttempt(did, a1);
        AttemptSpec a2;
        a2.number = 2;
        a2.startedAt = base + 5'010;
        a2.statusCode = 201;
        a2.explanation = QStringLiteral("HTTP 201: success; reference ORD-1001 from json:/id");
        a2.responseExcerpt = QStringLiteral("{\"id\":\"ORD-1001\"}");
        addAttempt(did, a2);
    }
    {
        EventSpec e;
        e.source = QStringLiteral("stripe");
        e.providerId = QStringLiteral("evt_failed_1");
        e.type = QStringLiteral("invoice.paid");
        e.status = QStringLiteral("dead");
        e.receivedAt = base + 1'000;
        e.body = QByteArrayLiteral(
            "{\"id\":\"evt_failed_1\",\"type\":\"invoice.paid\",\"data\":{\"object\":{\"amount\":4200}}}");
        s.failed = addEvent(e);
        DeliverySpec d;
        d.destination = QStringLiteral("billing");
        d.status = QStringLiteral("dead");
        d.attemptCount = 1;
        d.lastCategory = QStringLiteral("http_permanent");
        d.lastError = QStringLiteral("HTTP 410 Gone");
        d.deadAt = base + 2'000;
        d.createdAt = base + 1'000;
        const qint64 did = addDelivery(s.failed, d);
        AttemptSpec a;
        a.startedAt = base + 1'100;
        a.statusCode = 410;
        a.category = QStringLiteral("http_permanent");
        a.explanation
            = QStringLiteral("HTTP 410 is permanent (rule P1): the destination says the endpoint is gone");
        a.responseExcerpt = QStringLiteral("gone");
        addAttempt(did, a);
        addNote(s.failed, QStringLiteral("alice"),
            QStringLiteral("Billing endpoint retired; <b>not</b> HTML"), base + 3'000);
        addAudit(1, QStringLiteral("alice"), QStringLiteral("note.add"),
            QStringLiteral("event:%1").arg(s.failed), QStringLiteral("triage"), base + 3'000);
    }
    {
        EventSpec e;
        e.source = QStringLiteral("shopify");
        e.providerId = QStringLiteral("shop-unknown-1");
        e.type = QStringLiteral("orders/create");
        e.status = QStringLiteral("retrying");
        e.receivedAt = base + 2'000;
        s.unknown = addEvent(e);
        DeliverySpec d;
        d.status = QStringLiteral("retrying");
        d.attemptCount = 1;
        d.lastCategory = QStringLiteral("timeout");
        d.outcomeUnknown = true;
        d.nextAttemptAt = base + 302'000;
        d.createdAt = base + 2'000;
        const qint64 did = addDelivery(s.unknown, d);
        AttemptSpec a;
        a.startedAt = base + 2'100;
        a.durationMs = 10'000;
        a.category = QStringLiteral("timeout");
        a.explanation
            = QStringLiteral("No answer within 10000 ms after the request was fully sent: outcome unknown");
        a.outcomeUnknown = true;
        addAttempt(did, a);
    }
    {
        EventSpec e;
        e.providerId = QStringLiteral("gh-pending-1");
        e.type = QStringLiteral("pull_request.opened");
        e.status = QStringLiteral("pending");
        e.receivedAt = base + 3'000;
        s.pending = addEvent(e);
        DeliverySpec d;
        d.nextAttemptAt = base + 3'000;
        d.createdAt = base + 3'000;
        addDelivery(s.pending, d);
    }
    {
        EventSpec e;
        e.providerId = QStringLiteral("gh-noroute-1");
        e.type = QStringLiteral("star.created");
        e.status = QStringLiteral("no_route");
        e.receivedAt = base + 4'000;
        s.noRoute = addEvent(e);
    }
    addRejection(QStringLiteral("stripe"), QStringLiteral("bad_signature"), 401, base + 500);
    addRejection(QStringLiteral("unknown"), QStringLiteral("unknown_source"), 404, base + 600);
    addReceiver(QStringLiteral("web-1-instance"), QStringLiteral("web-1"), 4242, base + 50'000,
        QStringLiteral("sqlite journal_mode=wal synchronous=FULL"), true);
    return s;
}

void ConsoleFixture::addBulk(int count, qint64 base, const QString &source)
{
    Transaction tx(m_db);
    static_cast<void>(tx.begin());
    QSqlQuery e(m_db.handle());
    e.prepare(QStringLiteral(
        "INSERT INTO events (source, provider_event_id, event_type, received_at, last_seen_at, "
        "body, body_sha256, body_size) VALUES (?, ?, 'bulk.created', ?, ?, '{}', '', 2)"));
    QSqlQuery st(m_db.handle());
    st.prepare(QStringLiteral(
        "INSERT INTO event_status (event_id, status) SELECT max(id), 'succeeded' FROM events"));
    QSqlQuery d(m_db.handle());
    d.prepare(QStringLiteral(
        "INSERT INTO deliveries (event_id, destination, status, attempt_count, idempotency_key, "
        "last_category, created_at, updated_at) SELECT max(id), 'sink', 'succeeded', 1, "
        "'k' || max(id), 'success', ?, ? FROM events"));
    for (int i = 0; i < count; ++i) {
        e.addBindValue(source);
        e.addBindValue(QStringLiteral("%1-%2").arg(source).arg(i));
        e.addBindValue(base + i);
        e.addBindValue(base + i);
        if (!run(e))
            return;
        d.addBindValue(base + i);
        d.addBindValue(base + i);
        if (!run(d) || !run(st))
            return;
    }
    static_cast<void>(tx.commit());
}

} // namespace redrive::test
