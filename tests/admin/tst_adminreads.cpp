// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Admin API reads and authentication, through AdminApi::handle() (no network).
#include "access/apitokens.h"
#include "adminfixture.h"
#include "audit/checkpoint.h"
#include "audit/signingkey.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSqlQuery>
#include <QTest>
#include <QUrl>

#include <future>

using namespace redrive;
using namespace redrive::test;

namespace {
bool isIso(const QJsonValue &v)
{
    const QString s = v.toString();
    return s.size() == 24 && s.endsWith(u'Z') && s[10] == u'T';
}
} // namespace

class TstAdminReads : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void unauthorized_data();
    void unauthorized();
    void revocationTakesEffectWithinTheBound();
    void whoami();
    void healthAndMetrics();
    void routing_data();
    void routing();
    void eventsPageByCursorStableUnderInserts();
    void eventsFilter_data();
    void eventsFilter();
    void eventDetail();
    void deliveriesList();
    void auditPagingVerifyAndCheckpoint();
    void destinationUrlsKeepTheirSecrets();

private:
    std::unique_ptr<AdminFixture> f;
};

void TstAdminReads::initTestCase()
{
    QString error;
    f = AdminFixture::create(&error);
    QVERIFY2(f, qPrintable(error));
    QVERIFY2(f->startApi(&error), qPrintable(error));
}

void TstAdminReads::cleanupTestCase()
{
    f.reset();
}

void TstAdminReads::unauthorized_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("reason");
    QTest::newRow("no header") << "none"
                               << "missing";
    QTest::newRow("basic scheme") << "basic"
                                  << "malformed";
    QTest::newRow("garbage token") << "garbage"
                                   << "malformed";
    QTest::newRow("unknown token") << "unknown"
                                   << "unknown";
    QTest::newRow("expired token") << "expired"
                                   << "expired";
    QTest::newRow("revoked token") << "revoked"
                                   << "revoked";
}

void TstAdminReads::unauthorized()
{
    QFETCH(QString, kind);
    QFETCH(QString, reason);
    http::Request request;
    request.method = "GET";
    request.path = request.target = "/admin/v1/whoami";
    QString error;
    if (kind == u"basic") {
        request.headers.add("Authorization", "Basic YWxpY2U6c2VjcmV0");
    } else if (kind == u"garbage") {
        request.headers.add("Authorization", "Bearer hunter2");
    } else if (kind == u"unknown") {
        request.headers.add("Authorization", "Bearer " + access::generateApiToken().toLatin1());
    } else if (kind == u"expired" || kind == u"revoked") {
        const QString name = QStringLiteral("tok-") + kind;
        const auto created = access::createApiToken(
            f->db(), name, name, Role::Operator, f->clock.nowMs() + 1000, f->clock.nowMs());
        QVERIFY2(created, qPrintable(created.error()));
        if (kind == u"expired") {
            QCOMPARE(f->call("GET", "whoami", created->secret).status, 200);
            f->clock.advanceMs(1000);
        } else {
            QVERIFY(access::revokeApiToken(f->db(), name, f->clock.nowMs()));
        }
        request.headers.add("Authorization", "Bearer " + created->secret.toLatin1());
    }
    auto &counter = f->registry.counter(QStringLiteral("redrive_admin_unauthorized_total"), QString(),
        { { QStringLiteral("reason"), reason } });
    const double before = counter.value();
    const qint64 audits = f->count(QStringLiteral("audit_log"));
    std::promise<http::Response> promise;
    auto future = promise.get_future();
    f->api->handle(std::move(request), [&promise](http::Response r) { promise.set_value(std::move(r)); });
    QVERIFY(future.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
    const http::Response r = future.get();
    QCOMPARE(r.status, 401);
    const QJsonObject body = QJsonDocument::fromJson(r.body).object();
    QCOMPARE(body.value(QLatin1String("error")).toString(), QStringLiteral("unauthorized"));
    QVERIFY(!body.value(QLatin1String("message")).toString().isEmpty());
    bool challenge = false;
    for (const auto &h : r.headers)
        challenge = challenge || h.first == "WWW-Authenticate";
    QVERIFY(challenge);
    QCOMPARE(counter.value(), before + 1);
    QCOMPARE(f->count(QStringLiteral("audit_log")), audits); // 401s are counted, not audited
}

void TstAdminReads::revocationTakesEffectWithinTheBound()
{
    QString error;
    const QString token = f->token(QStringLiteral("soon-revoked"), Role::Support);
    QCOMPARE(f->call("GET", "whoami", token).status, 200); // now cached
    QVERIFY(access::revokeApiToken(f->db(), QStringLiteral("soon-revoked"), f->clock.nowMs()));
    QElapsedTimer timer;
    timer.start();
    int status = 200;
    while (status == 200 && timer.elapsed() < 5000) {
        status = f->call("GET", "whoami", token).status;
        if (status == 200)
            QTest::qWait(50);
    }
    QCOMPARE(status, 401);
    QVERIFY2(timer.elapsed() <= 5000, qPrintable(QString::number(timer.elapsed())));
}

void TstAdminReads::whoami()
{
    const auto r = f->call("GET", "whoami", f->token(QStringLiteral("ada"), Role::Auditor));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(QLatin1String("name")).toString(), QStringLiteral("ada"));
    QCOMPARE(r.json.value(QLatin1String("role")).toString(), QStringLiteral("auditor"));
    const QJsonArray perms = r.json.value(QLatin1String("permissions")).toArray();
    QVERIFY(perms.contains(QStringLiteral("read_audit")));
    QVERIFY(!perms.contains(QStringLiteral("request_replay")));
    QVERIFY(r.json.value(QLatin1String("token_expires_at")).isNull());
}

void TstAdminReads::healthAndMetrics()
{
    auto raw = [&](const QByteArray &method, const QByteArray &path) {
        http::Request request;
        request.method = method;
        request.path = request.target = path;
        std::promise<http::Response> promise;
        auto future = promise.get_future();
        f->api->handle(std::move(request), [&promise](http::Response r) { promise.set_value(std::move(r)); });
        return future.wait_for(std::chrono::seconds(30)) == std::future_status::ready ? future.get()
                                                                                      : http::Response {};
    };
    const http::Response health = raw("GET", "/healthz");
    QCOMPARE(health.status, 200);
    QCOMPARE(QJsonDocument::fromJson(health.body).object().value(QLatin1String("status")).toString(),
        QStringLiteral("ok"));
    f->call("GET", "whoami", QString()); // one 401, counted
    const http::Response metrics = raw("GET", "/metrics");
    QCOMPARE(metrics.status, 200);
    QVERIFY(metrics.contentType.startsWith("text/plain"));
    QVERIFY2(metrics.body.contains("redrive_admin_unauthorized_total{reason=\"missing\"}"),
        metrics.body.constData());
    QVERIFY(metrics.body.contains("redrive_admin_request_duration_seconds_bucket"));
    QCOMPARE(raw("POST", "/metrics").status, 405);
    QCOMPARE(raw("GET", "/admin/v2/whoami").status, 404);
}

void TstAdminReads::routing_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QByteArray>("target");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("field");
    QTest::newRow("unknown path") << QByteArray("GET") << QByteArray("nope") << 404 << "";
    QTest::newRow("too deep") << QByteArray("GET") << QByteArray("events/1/notes/2") << 404 << "";
    QTest::newRow("wrong method") << QByteArray("DELETE") << QByteArray("events") << 405 << "";
    QTest::newRow("post to a read") << QByteArray("POST") << QByteArray("whoami") << 405 << "";
    QTest::newRow("bad event id") << QByteArray("GET") << QByteArray("events/abc") << 400 << "id";
    QTest::newRow("negative id") << QByteArray("GET") << QByteArray("events/-1") << 400 << "id";
    QTest::newRow("huge id") << QByteArray("GET") << QByteArray("events/99999999999999999999") << 400 << "id";
    QTest::newRow("unknown event") << QByteArray("GET") << QByteArray("events/999999") << 404 << "id";
    QTest::newRow("unknown delivery") << QByteArray("GET") << QByteArray("deliveries/999999") << 404 << "id";
    QTest::newRow("unknown replay") << QByteArray("GET") << QByteArray("replays/999999") << 404 << "id";
    QTest::newRow("trailing slash") << QByteArray("GET") << QByteArray("whoami/") << 200 << "";
}

void TstAdminReads::routing()
{
    QFETCH(QByteArray, method);
    QFETCH(QByteArray, target);
    QFETCH(int, status);
    QFETCH(QString, field);
    const auto r = f->call(method, target, f->token(QStringLiteral("olga"), Role::Operator));
    QCOMPARE(r.status, status);
    if (status >= 400) {
        QVERIFY(!r.error().isEmpty());
        QVERIFY(!r.json.value(QLatin1String("message")).toString().isEmpty());
        QCOMPARE(r.field(), field);
    }
    if (status == 405)
        QVERIFY(!r.header("Allow").isEmpty());
}

void TstAdminReads::eventsPageByCursorStableUnderInserts()
{
    const QString token = f->token(QStringLiteral("sam"), Role::Support);
    QList<qint64> seeded;
    for (int i = 0; i < 7; ++i)
        seeded.append(f->insertEvent(QStringLiteral("paging")));
    f->insertDelivery(seeded.last(), QStringLiteral("crm"), DeliveryStatus::Dead);

    QList<qint64> seen;
    QByteArray target = "events?source=paging&limit=3";
    int pages = 0;
    for (;;) {
        const auto r = f->call("GET", target, token);
        QCOMPARE(r.status, 200);
        const QJsonArray items = r.json.value(QLatin1String("items")).toArray();
        QVERIFY(items.size() <= 3);
        for (const QJsonValue &v : items) {
            const QJsonObject e = v.toObject();
            for (const char *key : { "id", "source", "provider_event_id", "type", "status", "received_at",
                     "seen_count", "deliveries" })
                QVERIFY2(e.contains(QLatin1String(key)), key);
            QVERIFY(isIso(e.value(QLatin1String("received_at"))));
            seen.append(e.value(QLatin1String("id")).toInteger());
        }
        ++pages;
        if (pages == 1) {
            // A concurrent insert must not shift later pages (keyset paging, newest first).
            f->insertEvent(QStringLiteral("paging"));
            const QJsonArray ds = items[0].toObject().value(QLatin1String("deliveries")).toArray();
            QCOMPARE(ds.size(), 1);
            QCOMPARE(ds[0].toObject().value(QLatin1String("destination")).toString(), QStringLiteral("crm"));
        }
        const QJsonValue next = r.json.value(QLatin1String("next_cursor"));
        if (next.isNull())
            break;
        QVERIFY(next.isString());
        target = "events?source=paging&limit=3&cursor=" + QUrl::toPercentEncoding(next.toString());
        QVERIFY(pages < 10);
    }
    QCOMPARE(pages, 3);
    QList<qint64> expected = seeded;
    std::reverse(expected.begin(), expected.end());
    QCOMPARE(seen, expected);
}

void TstAdminReads::eventsFilter_data()
{
    QTest::addColumn<QByteArray>("query");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("field");
    QTest::newRow("status dead") << QByteArray("status=dead&source=filtering") << 200 << "";
    QTest::newRow("bad status") << QByteArray("status=lost") << 400 << "status";
    QTest::newRow("bad cursor") << QByteArray("cursor=%%%") << 400 << "cursor";
    QTest::newRow("forged cursor") << QByteArray("cursor=ZTowCg") << 400 << "cursor";
    QTest::newRow("limit zero") << QByteArray("limit=0") << 400 << "limit";
    QTest::newRow("limit too big") << QByteArray("limit=501") << 400 << "limit";
    QTest::newRow("limit not a number") << QByteArray("limit=ten") << 400 << "limit";
    QTest::newRow("unknown parameter") << QByteArray("destinaton=crm") << 400 << "destinaton";
    QTest::newRow("repeated parameter") << QByteArray("source=a&source=b") << 400 << "source";
    QTest::newRow("bad since") << QByteArray("since=yesterday") << 400 << "since";
    QTest::newRow("until before since") << QByteArray("since=2000&until=1000") << 400 << "until";
}

void TstAdminReads::eventsFilter()
{
    QFETCH(QByteArray, query);
    QFETCH(int, status);
    QFETCH(QString, field);
    const qint64 dead = f->insertEvent(QStringLiteral("filtering"));
    f->insertDelivery(dead, QStringLiteral("crm"), DeliveryStatus::Dead);
    const qint64 ok = f->insertEvent(QStringLiteral("filtering"));
    f->insertDelivery(ok, QStringLiteral("crm"), DeliveryStatus::Succeeded);
    const auto r = f->call("GET", "events?" + query, f->token(QStringLiteral("sam"), Role::Support));
    QCOMPARE(r.status, status);
    QCOMPARE(r.field(), field);
    if (status == 200) {
        const QJsonArray items = r.json.value(QLatin1String("items")).toArray();
        QVERIFY(!items.isEmpty());
        for (const QJsonValue &v : items)
            QCOMPARE(v.toObject().value(QLatin1String("status")).toString(), QStringLiteral("dead"));
    }
}

void TstAdminReads::eventDetail()
{
    const qint64 event = f->insertEvent(QStringLiteral("detail"));
    const qint64 delivery
        = f->insertDelivery(event, QStringLiteral("fulfillment"), DeliveryStatus::Dead, true);
    QSqlQuery q(f->db().handle());
    q.prepare(QStringLiteral(
        "INSERT INTO attempts (delivery_id, number, trigger_kind, started_at, duration_ms, status_code, "
        "category, explanation, outcome_unknown) VALUES (?, 1, 'automatic', ?, 120, 503, "
        "'http_retryable', '503 is retryable', 0)"));
    q.addBindValue(delivery);
    q.addBindValue(f->clock.nowMs());
    QVERIFY(q.exec());
    const QString support = f->token(QStringLiteral("sam"), Role::Support);
    QCOMPARE(f->call("POST", QByteArray("events/") + QByteArray::number(event) + "/notes", support,
                  QJsonObject { { QStringLiteral("body"), QStringLiteral("customer called") } })
                 .status,
        201);

    const auto r = f->call("GET", QByteArray("events/") + QByteArray::number(event), support);
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(QLatin1String("id")).toInteger(), event);
    QCOMPARE(r.json.value(QLatin1String("status")).toString(), QStringLiteral("dead"));
    const QJsonArray deliveries = r.json.value(QLatin1String("deliveries")).toArray();
    QCOMPARE(deliveries.size(), 1);
    const QJsonObject d = deliveries[0].toObject();
    for (const char *key : { "id", "event_id", "destination", "status", "attempt_count", "next_attempt_at",
             "downstream_ref", "outcome_unknown", "attempts" })
        QVERIFY2(d.contains(QLatin1String(key)), key);
    QCOMPARE(d.value(QLatin1String("outcome_unknown")).toBool(), true);
    QCOMPARE(d.value(QLatin1String("risk")).toString(), QStringLiteral("high"));
    const QJsonArray attempts = d.value(QLatin1String("attempts")).toArray();
    QCOMPARE(attempts.size(), 1);
    const QJsonObject a = attempts[0].toObject();
    for (const char *key : { "number", "trigger", "started_at", "duration_ms", "status_code", "category",
             "explanation", "outcome_unknown", "replay_id" })
        QVERIFY2(a.contains(QLatin1String(key)), key);
    QCOMPARE(a.value(QLatin1String("status_code")).toInt(), 503);
    QCOMPARE(a.value(QLatin1String("trigger")).toString(), QStringLiteral("automatic"));
    QVERIFY(a.value(QLatin1String("replay_id")).isNull());
    QVERIFY(isIso(a.value(QLatin1String("started_at"))));
    const QJsonArray notes = r.json.value(QLatin1String("notes")).toArray();
    QCOMPARE(notes.size(), 1);
    QCOMPARE(notes[0].toObject().value(QLatin1String("author")).toString(), QStringLiteral("sam"));
    const QJsonArray trail = r.json.value(QLatin1String("audit")).toArray();
    QCOMPARE(trail.size(), 1);
    QCOMPARE(trail[0].toObject().value(QLatin1String("action")).toString(), QStringLiteral("note_added"));
}

void TstAdminReads::deliveriesList()
{
    const qint64 event = f->insertEvent(QStringLiteral("dl"));
    const qint64 dead = f->insertDelivery(event, QStringLiteral("billing"), DeliveryStatus::Dead);
    f->insertDelivery(event, QStringLiteral("crm"), DeliveryStatus::Succeeded);
    const QString token = f->token(QStringLiteral("ada"), Role::Auditor);
    const auto r = f->call(
        "GET", "deliveries?status=dead&destination=billing&event_id=" + QByteArray::number(event), token);
    QCOMPARE(r.status, 200);
    const QJsonArray items = r.json.value(QLatin1String("items")).toArray();
    QCOMPARE(items.size(), 1);
    QCOMPARE(items[0].toObject().value(QLatin1String("id")).toInteger(), dead);
    QVERIFY(r.json.value(QLatin1String("next_cursor")).isNull());
    QCOMPARE(f->call("GET", "deliveries?status=gone", token).field(), QStringLiteral("status"));
    QCOMPARE(f->call("GET", "deliveries?event_id=x", token).field(), QStringLiteral("event_id"));
    const auto one = f->call("GET", "deliveries/" + QByteArray::number(dead), token);
    QCOMPARE(one.status, 200);
    QVERIFY(one.json.value(QLatin1String("attempts")).isArray());
}

void TstAdminReads::auditPagingVerifyAndCheckpoint()
{
    // A few audited actions to read back.
    const QString admin = f->token(QStringLiteral("root"), Role::Admin);
    for (const char *what : { "pause", "resume", "pause" })
        QCOMPARE(f->call("POST", QByteArray("destinations/crm/") + what, admin,
                      QJsonObject { { QStringLiteral("reason"), QStringLiteral("maintenance") } })
                     .status,
            200);
    const QString auditor = f->token(QStringLiteral("ada"), Role::Auditor);
    const qint64 total = f->count(QStringLiteral("audit_log"));
    QVERIFY(total >= 3);

    QList<qint64> seqs;
    QByteArray target = "audit?limit=2";
    for (int pages = 0; pages < 100; ++pages) {
        const auto r = f->call("GET", target, auditor);
        QCOMPARE(r.status, 200);
        for (const QJsonValue &v : r.json.value(QLatin1String("items")).toArray()) {
            const QJsonObject e = v.toObject();
            for (const char *key : { "seq", "at", "actor", "role", "action", "target", "reason", "details",
                     "prev_hash", "hash" })
                QVERIFY2(e.contains(QLatin1String(key)), key);
            QVERIFY(e.value(QLatin1String("details")).isObject());
            seqs.append(e.value(QLatin1String("seq")).toInteger());
        }
        const QJsonValue next = r.json.value(QLatin1String("next_cursor"));
        if (next.isNull())
            break;
        target = "audit?limit=2&after=" + next.toString().toLatin1();
    }
    QCOMPARE(seqs.size(), total);
    for (qsizetype i = 0; i < seqs.size(); ++i)
        QCOMPARE(seqs[i], i + 1);
    const auto filtered = f->call("GET", "audit?action=destination_paused&target=destination:crm", auditor);
    QCOMPARE(filtered.json.value(QLatin1String("items")).toArray().size(), 2);
    QCOMPARE(f->call("GET", "audit?after=x", auditor).field(), QStringLiteral("after"));

    const auto v = f->call("GET", "audit/verify", auditor);
    QCOMPARE(v.status, 200);
    QCOMPARE(v.json.value(QLatin1String("ok")).toBool(), true);
    QCOMPARE(v.json.value(QLatin1String("count")).toInteger(), total);
    QVERIFY(v.json.value(QLatin1String("first_bad_seq")).isNull());
    QVERIFY(v.json.value(QLatin1String("problem")).isNull());

    const auto c = f->call("GET", "audit/checkpoint", auditor);
    QCOMPARE(c.status, 200);
    QString error;
    const auto cp = audit::Checkpoint::fromJson(c.json);
    QVERIFY2(cp, qPrintable(cp.error()));
    QCOMPARE(cp->seq, total);
    QVERIFY(cp->signatureValid()); // checkable offline with the published public key
    auto key = audit::SigningKey::load(f->config.admin.auditKeyFile);
    QVERIFY2(key, qPrintable(key.error()));
    QCOMPARE(cp->publicKey, (*key)->publicKey());

    const QByteArray good = "audit/verify?checkpoint_seq=" + QByteArray::number(cp->seq)
        + "&checkpoint_hash=" + cp->hash.toLatin1();
    QCOMPARE(f->call("GET", good, auditor).json.value(QLatin1String("ok")).toBool(), true);
    const QByteArray beyond = "audit/verify?checkpoint_seq=" + QByteArray::number(cp->seq + 5)
        + "&checkpoint_hash=" + cp->hash.toLatin1();
    const auto truncated = f->call("GET", beyond, auditor);
    QCOMPARE(truncated.json.value(QLatin1String("ok")).toBool(), false);
    QCOMPARE(truncated.json.value(QLatin1String("first_bad_seq")).toInteger(),
        f->count(QStringLiteral("audit_log")) + 1);
    QCOMPARE(
        f->call("GET", "audit/verify?checkpoint_seq=1", auditor).field(), QStringLiteral("checkpoint_hash"));
}

// Capability URLs (a chat incoming webhook, a token in the query) carry their secret in the path
// or the query: GET destinations shows scheme, host and port only, to every role.
void TstAdminReads::destinationUrlsKeepTheirSecrets()
{
    const QHash<QString, std::pair<QString, QString>> urls {
        { QStringLiteral("slack"),
            { QStringLiteral("https://hooks.slack.com/services/T000SECRET/B000SECRET/XXXXSECRETXXXX"),
                QStringLiteral("https://hooks.slack.com/…") } },
        { QStringLiteral("query"),
            { QStringLiteral("https://api.example.com/?token=QUERYSECRET#FRAGMENTSECRET"),
                QStringLiteral("https://api.example.com/…") } },
        { QStringLiteral("port"),
            { QStringLiteral("https://someone:PASSWORDSECRET@[::1]:8443/hooks/PATHSECRET"),
                QStringLiteral("https://[::1]:8443/…") } },
        { QStringLiteral("bare"),
            { QStringLiteral("http://10.0.0.7:8080"), QStringLiteral("http://10.0.0.7:8080/") } },
    };
    QString error;
    auto g = AdminFixture::create(&error, [&](Config &c) {
        for (auto it = urls.cbegin(); it != urls.cend(); ++it) {
            DestinationConfig d;
            d.name = it.key();
            d.url = QUrl(it->first);
            c.destinations.append(d);
        }
    });
    QVERIFY2(g, qPrintable(error));
    QVERIFY2(g->startApi(&error, false, 1), qPrintable(error));
    for (const Role role : { Role::Support, Role::Operator, Role::Auditor, Role::Admin }) {
        const auto r
            = g->call("GET", "destinations", g->token(QStringLiteral("reader-") + toString(role), role));
        QCOMPARE(r.status, 200);
        QVERIFY2(!r.body.contains("SECRET"), r.body.constData());
        QHash<QString, QString> shown;
        for (const QJsonValue &v : r.json.value(QLatin1String("items")).toArray())
            shown.insert(v[QLatin1String("name")].toString(), v[QLatin1String("url")].toString());
        for (auto it = urls.cbegin(); it != urls.cend(); ++it)
            QCOMPARE(shown.value(it.key()), it->second);
        QCOMPARE(shown.value(QStringLiteral("crm")), QStringLiteral("https://crm.internal/…"));
    }
}

QTEST_GUILESS_MAIN(TstAdminReads)
#include "tst_adminreads.moc"
