// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "adminfixture.h"

#include "access/apitokens.h"
#include "crypto/crypto.h"
#include "storage/eventstatus.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QUrl>

#include <chrono>
#include <future>

namespace redrive::test {

std::unique_ptr<AdminFixture> AdminFixture::create(QString *error, const std::function<void(Config &)> &tweak)
{
    std::unique_ptr<AdminFixture> f(new AdminFixture);
    f->m_database = TestDatabase::create(error);
    if (!f->m_database)
        return nullptr;
    f->m_db = f->m_database->open(QStringLiteral("fixture"));
    if (!f->m_db) {
        *error = QStringLiteral("cannot open the test database");
        return nullptr;
    }
    Config &c = f->config;
    c.path = QStringLiteral("test.toml");
    c.storage.url = f->m_database->urlString();
    c.admin.auditKeyFile = f->m_database->scratchDir() + QStringLiteral("/audit-key.pem");
    c.admin.replayRatePerSecond = 100'000;
    auto dest = [](const QString &name, Risk risk) {
        DestinationConfig d;
        d.name = name;
        d.url = QUrl(QStringLiteral("https://%1.internal/hooks").arg(name));
        d.risk = risk;
        return d;
    };
    c.destinations = { dest(QStringLiteral("fulfillment"), Risk::High),
        dest(QStringLiteral("crm"), Risk::Low), dest(QStringLiteral("billing"), Risk::Low) };
    if (tweak)
        tweak(c);
    return f;
}

AdminFixture::~AdminFixture()
{
    stopApi();
}

bool AdminFixture::startApi(QString *error, bool withExecutor, int workers)
{
    api = std::make_unique<admin::AdminApi>(config, m_database->url(), clock, registry);
    api->setExecutorEnabled(withExecutor);
    api->setWorkerCount(workers);
    return succeeded(api->start(), error);
}

void AdminFixture::stopApi()
{
    if (api) {
        api->stop();
        api.reset();
    }
}

QString AdminFixture::token(const QString &name, Role role, const QString &owner)
{
    const QString person = owner.isEmpty() ? name : owner;
    const QString key = name + u'/' + toString(role) + u'/' + person;
    if (m_tokens.contains(key))
        return m_tokens.value(key);
    QString error;
    const auto created = access::createApiToken(*m_db, name, person, role, std::nullopt, clock.nowMs());
    if (!created)
        qFatal("cannot create token %s: %s", qPrintable(name), qPrintable(created.error()));
    m_tokens.insert(key, created->secret);
    return created->secret;
}

qint64 AdminFixture::insertEvent(const QString &source, const QString &type, const QString &providerId)
{
    QSqlQuery q(m_db->handle());
    q.prepare(QStringLiteral(
        "INSERT INTO events (source, provider_event_id, event_type, received_at, last_seen_at, "
        "content_type, body, body_sha256, body_size) VALUES (?, ?, ?, ?, ?, "
        "'application/json', ?, ?, ?)"));
    const QByteArray body = QByteArrayLiteral("{\"hello\":\"world\"}");
    q.addBindValue(source);
    q.addBindValue(providerId.isEmpty() ? QStringLiteral("evt-%1").arg(m_nextProviderId++) : providerId);
    q.addBindValue(type);
    q.addBindValue(clock.nowMs());
    q.addBindValue(clock.nowMs());
    q.addBindValue(body);
    q.addBindValue(QString::fromLatin1(crypto::sha256Hex(body)));
    q.addBindValue(body.size());
    if (!q.exec())
        qFatal("insertEvent: %s", qPrintable(sqlErrorText(q)));
    const qint64 id = q.lastInsertId().toLongLong();
    QSqlQuery s(m_db->handle());
    s.prepare(QStringLiteral("INSERT INTO event_status (event_id, status) VALUES (?, 'no_route')"));
    s.addBindValue(id);
    if (!s.exec())
        qFatal("insertEvent status: %s", qPrintable(sqlErrorText(s)));
    return id;
}

qint64 AdminFixture::insertDelivery(
    qint64 eventId, const QString &destination, DeliveryStatus status, bool outcomeUnknown)
{
    QSqlQuery q(m_db->handle());
    q.prepare(QStringLiteral(
        "INSERT INTO deliveries (event_id, destination, status, attempt_count, idempotency_key, "
        "outcome_unknown, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?, ?, ?)"));
    q.addBindValue(eventId);
    q.addBindValue(destination);
    q.addBindValue(toString(status));
    q.addBindValue(QStringLiteral("idem-%1-%2").arg(eventId).arg(destination));
    q.addBindValue(outcomeUnknown ? 1 : 0);
    q.addBindValue(clock.nowMs());
    q.addBindValue(clock.nowMs());
    if (!q.exec())
        qFatal("insertDelivery: %s", qPrintable(sqlErrorText(q)));
    const qint64 id = q.lastInsertId().toLongLong();
    static_cast<void>(refreshEventStatus(*m_db, eventId));
    return id;
}

qint64 AdminFixture::seedDelivery(const QString &destination, DeliveryStatus status, bool outcomeUnknown)
{
    return insertDelivery(insertEvent(), destination, status, outcomeUnknown);
}

void AdminFixture::setDeliveryStatus(qint64 deliveryId, DeliveryStatus status)
{
    QSqlQuery q(m_db->handle());
    q.prepare(QStringLiteral("UPDATE deliveries SET status = ? WHERE id = ?"));
    q.addBindValue(toString(status));
    q.addBindValue(deliveryId);
    if (!q.exec())
        qFatal("setDeliveryStatus: %s", qPrintable(sqlErrorText(q)));
}

void AdminFixture::seedBulk(
    const QString &source, const QString &destination, DeliveryStatus status, int count)
{
    Transaction tx(*m_db);
    QString error;
    if (!succeeded(tx.begin(), &error))
        qFatal("seedBulk: %s", qPrintable(error));
    constexpr int kPerInsert = 500;
    for (int done = 0; done < count;) {
        const int n = qMin(kPerInsert, count - done);
        QSqlQuery q(m_db->handle());
        q.prepare(QStringLiteral(
            "INSERT INTO events (source, provider_event_id, event_type, received_at, last_seen_at, "
            "body, body_sha256, body_size) VALUES %1")
                      .arg(QStringList(n, QStringLiteral("(?, ?, 'bulk', ?, ?, ?, '', 0)")).join(u',')));
        for (int i = 0; i < n; ++i) {
            q.addBindValue(source);
            q.addBindValue(QStringLiteral("%1-%2").arg(source).arg(done + i));
            q.addBindValue(clock.nowMs());
            q.addBindValue(clock.nowMs());
            q.addBindValue(QByteArray("{}"));
        }
        if (!q.exec())
            qFatal("seedBulk events: %s", qPrintable(sqlErrorText(q)));
        done += n;
    }
    QSqlQuery d(m_db->handle());
    d.prepare(QStringLiteral(
        "INSERT INTO deliveries (event_id, destination, status, attempt_count, idempotency_key, created_at, updated_at) "
        "SELECT id, ?, ?, 1, provider_event_id, received_at, received_at FROM events WHERE source = ?"));
    d.addBindValue(destination);
    d.addBindValue(toString(status));
    d.addBindValue(source);
    if (!d.exec())
        qFatal("seedBulk deliveries: %s", qPrintable(sqlErrorText(d)));
    QSqlQuery s(m_db->handle());
    s.prepare(QStringLiteral(
        "INSERT INTO event_status (event_id, status) SELECT id, ? FROM events WHERE source = ?"));
    s.addBindValue(toString(summariseEventStatus({ status })));
    s.addBindValue(source);
    if (!s.exec())
        qFatal("seedBulk statuses: %s", qPrintable(sqlErrorText(s)));
    if (!succeeded(tx.commit(), &error))
        qFatal("seedBulk: %s", qPrintable(error));
}

QByteArray AdminFixture::Reply::header(QByteArrayView name) const
{
    for (const auto &h : headers) {
        if (QByteArrayView(h.first).compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return {};
}

AdminFixture::Reply AdminFixture::call(
    const QByteArray &method, const QByteArray &target, const QString &token, const QByteArray &body)
{
    http::Request request;
    request.method = method;
    request.target = QByteArrayLiteral("/admin/v1/") + target;
    const qsizetype q = request.target.indexOf('?');
    const QByteArray rawPath = q < 0 ? request.target : request.target.left(q);
    request.path = QUrl::fromPercentEncoding(rawPath).toUtf8();
    request.query = q < 0 ? QByteArray() : request.target.mid(q + 1);
    if (!token.isEmpty())
        request.headers.add(
            QByteArrayLiteral("Authorization"), QByteArrayLiteral("Bearer ") + token.toLatin1());
    if (!body.isEmpty())
        request.headers.add(QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json"));
    request.body = body;
    request.remoteAddress = QStringLiteral("127.0.0.1");

    auto promise = std::make_shared<std::promise<http::Response>>();
    auto future = promise->get_future();
    api->handle(std::move(request), [promise](http::Response r) { promise->set_value(std::move(r)); });
    Reply reply;
    if (future.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
        reply.status = -1;
        return reply;
    }
    const http::Response r = future.get();
    reply.status = r.status;
    reply.body = r.body;
    reply.headers = r.headers;
    reply.json = QJsonDocument::fromJson(r.body).object();
    return reply;
}

AdminFixture::Reply AdminFixture::call(
    const QByteArray &method, const QByteArray &target, const QString &token, const QJsonObject &body)
{
    return call(method, target, token, QJsonDocument(body).toJson(QJsonDocument::Compact));
}

qint64 AdminFixture::requestReplay(
    const QString &token, const QList<qint64> &deliveryIds, const QString &reason, Reply *reply)
{
    QJsonArray ids;
    for (qint64 id : deliveryIds)
        ids.append(id);
    Reply local;
    Reply &r = reply ? *reply : local;
    r = call("POST", "replays/preview", token, QJsonObject { { QStringLiteral("delivery_ids"), ids } });
    if (r.status != 200)
        return 0;
    const QString hash = r.json.value(QLatin1String("selection_hash")).toString();
    r = call("POST", "replays", token,
        QJsonObject { { QStringLiteral("selection_hash"), hash }, { QStringLiteral("reason"), reason } });
    if (r.status != 201)
        return 0;
    return r.json.value(QLatin1String("id")).toInteger();
}

void AdminFixture::finishReplayItem(qint64 replayId, qint64 deliveryId, bool success)
{
    Transaction tx(*m_db);
    QString error;
    if (!succeeded(tx.begin(), &error))
        qFatal("finishReplayItem: %s", qPrintable(error));
    const QString sql[] = {
        QStringLiteral(
            "UPDATE deliveries SET status = '%1', replay_id = NULL, attempt_count = attempt_count + 1 WHERE id = %2 AND replay_id = %3")
            .arg(success ? QStringLiteral("succeeded") : QStringLiteral("dead"))
            .arg(deliveryId)
            .arg(replayId),
        QStringLiteral(
            "UPDATE replay_items SET state = '%1' WHERE replay_id = %2 AND delivery_id = %3 AND state = 'queued'")
            .arg(success ? QStringLiteral("succeeded") : QStringLiteral("failed"))
            .arg(replayId)
            .arg(deliveryId),
        QStringLiteral("UPDATE replays SET %1 = %1 + 1 WHERE id = %2")
            .arg(success ? QStringLiteral("succeeded_count") : QStringLiteral("failed_count"))
            .arg(replayId),
    };
    for (const QString &statement : sql) {
        QSqlQuery q(m_db->handle());
        if (!q.exec(statement) || q.numRowsAffected() != 1)
            qFatal("finishReplayItem: %s affected %d rows: %s", qPrintable(statement), q.numRowsAffected(),
                qPrintable(sqlErrorText(q)));
    }
    if (!succeeded(tx.commit(), &error))
        qFatal("finishReplayItem: %s", qPrintable(error));
}

qint64 AdminFixture::count(const QString &table, const QString &where)
{
    QSqlQuery q(m_db->handle());
    if (!q.exec(QStringLiteral("SELECT COUNT(*) FROM %1%2")
                    .arg(table, where.isEmpty() ? QString() : QLatin1String(" WHERE ") + where)))
        qFatal("count(%s): %s", qPrintable(table), qPrintable(sqlErrorText(q)));
    q.next();
    return q.value(0).toLongLong();
}

QMap<QString, qint64> AdminFixture::rowCounts()
{
    QMap<QString, qint64> out;
    for (const char *t : { "events", "deliveries", "attempts", "notes", "api_tokens", "selections", "replays",
             "replay_items", "audit_log", "destination_state", "incidents", "event_validation",
             "event_status", "delivery_resolutions" })
        out.insert(QLatin1String(t), count(QLatin1String(t)));
    return out;
}

QString AdminFixture::replayStatus(qint64 replayId)
{
    QSqlQuery q(m_db->handle());
    q.prepare(QStringLiteral("SELECT status FROM replays WHERE id = ?"));
    q.addBindValue(replayId);
    if (!q.exec() || !q.next())
        return {};
    return q.value(0).toString();
}

} // namespace redrive::test
