// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
//
// Notifications to outside channels ([[notifications]]), on both engines: the real delivery
// engine sends them to loopback sinks as the internal destination notify:<name>. One
// incident.opened for 50 dead letters of one group, a Standard Webhooks signature a receiver can
// verify, circuit.opened when a breaker opens, replay.pending_approval naming the requester and
// the expiry, the Slack format's text, a sink that is down retried while event deliveries to a
// healthy destination go on, and never a byte of the triggering events' bodies.
#include "admin/replayexecutor.h"
#include "adminfixture.h"
#include "auditseed.h"
#include "crypto/crypto.h"
#include "enginetestbase.h"
#include "notify/notification.h"
#include "storage/incidentcheck.h"
#include "util/clock.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QTest>

using namespace redrive;
using namespace redrive::test;

namespace {

const QByteArray kSigningKey = QByteArrayLiteral("notification-signing-key-0123456");
// In every triggering event's body; must never reach a notification.
const QByteArray kMarker = QByteArrayLiteral("PAYLOAD-MARKER-5f1c9e");

NotificationConfig target(const QUrl &url, const QStringList &kinds,
    NotificationConfig::Format format = NotificationConfig::Format::Json)
{
    NotificationConfig n;
    n.name = QStringLiteral("ops");
    n.url = url;
    n.format = format;
    if (format == NotificationConfig::Format::Json)
        n.signingSecret = Secret { QStringLiteral("notifications[0].signing_secret"), kSigningKey };
    n.kinds = kinds;
    n.allowPrivate = true;
    n.consoleProfile = QStringLiteral("prod");
    return n;
}

// What parseConfig does for a [[notifications]] entry.
DestinationConfig &addTarget(Config &config, const NotificationConfig &n)
{
    config.notifications.append(n);
    config.destinations.append(notificationDestination(n));
    return config.destinations.last();
}

QJsonObject json(const QByteArray &body)
{
    return QJsonDocument::fromJson(body).object();
}

// Standard Webhooks: v1,<base64 HMAC-SHA256(key, id.timestamp.body)>.
bool signatureVerifies(const ScriptableDestination::Request &r)
{
    const QByteArray id = r.headers.value("webhook-id").toByteArray();
    const QByteArray timestamp = r.headers.value("webhook-timestamp").toByteArray();
    const QByteArray expected
        = "v1," + crypto::hmacSha256(kSigningKey, { id, ".", timestamp, ".", r.body }).toBase64();
    return !id.isEmpty() && !timestamp.isEmpty()
        && r.headers.value("webhook-signature").toByteArray().split(' ').contains(expected);
}

bool carriesMarker(const QList<ScriptableDestination::Request> &requests)
{
    for (const auto &r : requests) {
        if (r.body.contains(kMarker) || r.target.contains(kMarker))
            return true;
        for (const auto &[name, value] : r.headers.fields()) {
            if (value.contains(kMarker))
                return true;
        }
    }
    return false;
}

} // namespace

class TstNotifications final : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<EngineRig> m_rig;
    std::unique_ptr<ScriptableDestination> m_sinkServer; // a fresh one per test
    ScriptableDestination &sink() { return *m_sinkServer; }

    EngineRig &rig() { return *m_rig; }
    qint64 count(const QString &sql) { return scalar(*rig().db, sql); }
    SeedEvent markedEvent() const
    {
        SeedEvent e;
        e.body = "{\"id\":\"evt\",\"note\":\"" + kMarker + "\"}";
        return e;
    }

private Q_SLOTS:
    void init()
    {
        m_rig = std::make_unique<EngineRig>();
        QString error;
        QVERIFY2(rig().prepare(&error), qPrintable(error));
        m_sinkServer = std::make_unique<ScriptableDestination>();
        QVERIFY2(sink().start(&error), qPrintable(error));
        rig().config.delivery.jitter = 0;
        rig().config.incidents.checkIntervalMs = 1'000;
    }
    void cleanup()
    {
        if (m_rig && m_rig->engine)
            m_rig->engine->stop(2'000);
        m_rig.reset();
        m_sinkServer.reset();
    }

    // The bodies, as functions of the notification and the target alone.
    void bodiesFollowTheContract()
    {
        const auto n = notify::incidentOpened(
            7, QStringLiteral("shop"), QStringLiteral("http_permanent"), 50, false, 1'700'000'000'000);
        const QJsonObject body = json(notify::notificationBody(
            n, target(QUrl(QStringLiteral("http://127.0.0.1:1/")), { QStringLiteral("incident.opened") })));
        QCOMPARE(body.value(QLatin1String("type")).toString(), QStringLiteral("incident.opened"));
        QCOMPARE(body.value(QLatin1String("id")).toString(), QStringLiteral("incident.opened:7"));
        QCOMPARE(body.value(QLatin1String("at")).toString(), isoUtc(1'700'000'000'000));
        QCOMPARE(body.value(QLatin1String("link")).toString(),
            QStringLiteral("redrive://incident/7?profile=prod"));
        QCOMPARE(body.value(QLatin1String("summary")).toString(),
            QStringLiteral("Incident 7 opened: 50 dead letters for shop (http_permanent)"));
        const QJsonObject data = body.value(QLatin1String("data")).toObject();
        QCOMPARE(data.value(QLatin1String("dead_letters")).toInteger(), 50);
        QCOMPARE(data.value(QLatin1String("destination")).toString(), QStringLiteral("shop"));
        QCOMPARE(body.keys(),
            (QStringList { QStringLiteral("at"), QStringLiteral("data"), QStringLiteral("id"),
                QStringLiteral("link"), QStringLiteral("summary"), QStringLiteral("type") }));

        // A kind no console link names: link is null.
        const QJsonObject missing = json(notify::notificationBody(
            notify::reconcileMissing(QStringLiteral("stripe"), 3, 2, 2, 1'700'000'000'000),
            target(QUrl(QStringLiteral("http://127.0.0.1:1/")), { QStringLiteral("reconcile.missing") })));
        QVERIFY(missing.value(QLatin1String("link")).isNull());
    }

    void slackFormatIsOneLineOfText()
    {
        const auto slack = target(QUrl(QStringLiteral("http://127.0.0.1:1/")),
            { QStringLiteral("replay.pending_approval") }, NotificationConfig::Format::Slack);
        const auto n = notify::replayPendingApproval(12, QStringLiteral("rita"), 3,
            QStringLiteral("orders stuck"), 1'700'086'400'000, 1'700'000'000'000);
        const QJsonObject body = json(notify::notificationBody(n, slack));
        QCOMPARE(body.keys(), QStringList { QStringLiteral("text") });
        QCOMPARE(body.value(QLatin1String("text")).toString(),
            QStringLiteral("Replay 12 of 3 deliveries by rita waits for approval until %1 "
                           "redrive://replay/12?profile=prod")
                .arg(isoUtc(1'700'086'400'000)));
    }

    // 50 dead letters of one group (410 from "shop"), made by the engine: one incident, one
    // notification, signed, with no byte of the events' bodies.
    void oneIncidentOpenedForFiftyDeadLetters()
    {
        addTarget(rig().config, target(sink().url(), { QStringLiteral("incident.opened") }));
        rig().destination.setDefault(ScriptableDestination::status(410, "gone"));
        rig().destination.enqueue(ScriptableDestination::status(410, kMarker)); // an excerpt, too
        for (int i = 0; i < 50; ++i)
            QVERIFY(rig().seedOne(markedEvent()) > 0);
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        rig().engine->wake();
        QVERIFY(waitUntil(
            [&] {
                return count(QStringLiteral("SELECT COUNT(*) FROM deliveries WHERE status = 'dead'")) == 50;
            },
            20'000));
        // A check after the 50th dead letter: the incident follows the group's size.
        QVERIFY(waitUntil(
            [&] {
                return count(QStringLiteral(
                           "SELECT COUNT(*) FROM incidents WHERE closed_at IS NULL AND last_count = 50"))
                    == 1;
            },
            20'000));
        QVERIFY(sink().waitForRequests(1, 10'000));
        QVERIFY(waitUntil(
            [&] {
                return count(QStringLiteral(
                           "SELECT COUNT(*) FROM deliveries WHERE destination = 'notify:ops' AND status = 'succeeded'"))
                    == 1;
            },
            10'000));
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM incidents")), 1);
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM events WHERE source = 'redrive'")), 1);
        QCOMPARE(count(QStringLiteral(
                     "SELECT COUNT(*) FROM events WHERE source = 'redrive' AND origin = 'notification'")),
            1);
        QCOMPARE(sink().requestCount(), 1);
        const auto request = sink().requests().first();
        const QJsonObject body = json(request.body);
        QCOMPARE(body.value(QLatin1String("type")).toString(), QStringLiteral("incident.opened"));
        const qint64 incident = count(QStringLiteral("SELECT id FROM incidents"));
        QCOMPARE(
            body.value(QLatin1String("id")).toString(), QStringLiteral("incident.opened:%1").arg(incident));
        QCOMPARE(body.value(QLatin1String("link")).toString(),
            QStringLiteral("redrive://incident/%1?profile=prod").arg(incident));
        const QJsonObject data = body.value(QLatin1String("data")).toObject();
        QCOMPARE(data.value(QLatin1String("destination")).toString(), QStringLiteral("shop"));
        QCOMPARE(data.value(QLatin1String("category")).toString(), QStringLiteral("http_permanent"));
        QVERIFY(data.value(QLatin1String("dead_letters")).toInteger() >= 1);
        QCOMPARE(request.headers.value("content-type").toByteArray(), QByteArray("application/json"));
        QVERIFY2(
            signatureVerifies(request), request.headers.value("webhook-signature").toByteArray().constData());
        QVERIFY(!carriesMarker(sink().requests()));
    }

    // The opening and its notification commit together: a notification that cannot be stored
    // leaves the incident unopened, so the next check opens it and tells.
    void anIncidentOpensOnlyWithItsNotification()
    {
        addTarget(rig().config, target(sink().url(), { QStringLiteral("incident.opened") }));
        SeedDelivery dead;
        dead.status = QStringLiteral("dead");
        rig().seedOne(markedEvent(), dead);
        const qint64 now = rig().clock.nowMs();
        const auto refused = checkIncidents(*rig().db, now, 10,
            [](const OpenedIncident &) -> Result<> { return Failure(QStringLiteral("no room")); });
        QVERIFY(!refused);
        QCOMPARE(refused.error(), QStringLiteral("no room"));
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM incidents")), 0);
        const auto told = checkIncidents(*rig().db, now, 10, [&](const OpenedIncident &i) -> Result<> {
            const auto stored = notify::enqueue(*rig().db, rig().config.notifications,
                notify::incidentOpened(i.id, i.destination, i.category, i.count, i.grew, now), now);
            if (!stored)
                return Failure(stored.error());
            return ok();
        });
        QVERIFY2(told, told ? "" : qPrintable(told.error()));
        QCOMPARE(told->opened.size(), 1);
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM incidents")), 1);
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM events WHERE source = 'redrive'")), 1);
    }

    void aCircuitOpeningNotifies()
    {
        DestinationConfig &shop = rig().config.destinations.first();
        shop.circuit = CircuitConfig { 2, 60'000, 3'600'000 };
        shop.concurrency = 1;
        addTarget(rig().config,
            target(sink().url(), { QStringLiteral("circuit.opened"), QStringLiteral("circuit.closed") }));
        rig().destination.setDefault(ScriptableDestination::status(503, kMarker));
        for (int i = 0; i < 3; ++i)
            rig().seedOne(markedEvent());
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        rig().engine->wake();
        QVERIFY(sink().waitForRequests(1, 10'000));
        const auto request = sink().requests().first();
        const QJsonObject body = json(request.body);
        QCOMPARE(body.value(QLatin1String("type")).toString(), QStringLiteral("circuit.opened"));
        QCOMPARE(body.value(QLatin1String("link")).toString(),
            QStringLiteral("redrive://destination/shop?profile=prod"));
        const QJsonObject data = body.value(QLatin1String("data")).toObject();
        QCOMPARE(data.value(QLatin1String("destination")).toString(), QStringLiteral("shop"));
        QCOMPARE(data.value(QLatin1String("state")).toString(), QStringLiteral("open"));
        QVERIFY2(data.value(QLatin1String("reason")).toString().contains(QLatin1String("HTTP 503")),
            qPrintable(data.value(QLatin1String("reason")).toString()));
        QVERIFY(signatureVerifies(request));
        QCOMPARE(count(QStringLiteral("SELECT COUNT(*) FROM events WHERE source = 'redrive' AND event_type = "
                                      "'circuit.opened'")),
            1);
        QVERIFY(!carriesMarker(sink().requests()));
    }

    // The sink hangs (each attempt runs into its timeout) and then answers 503: its notifications
    // are retried, while 20 event deliveries to the healthy "shop" complete in the meantime.
    void aDownSinkIsRetriedWithoutDelayingEvents()
    {
        DestinationConfig &internal
            = addTarget(rig().config, target(sink().url(), { QStringLiteral("replay.halted") }));
        internal.timeoutMs = 3'000;
        internal.retryScheduleMs = { 5'000 };
        internal.maxAttempts = 10;
        ScriptableDestination::Response hang;
        hang.hang = true;
        sink().setDefault(hang);
        const qint64 now = rig().clock.nowMs();
        for (qint64 replay = 1; replay <= 3; ++replay) {
            const auto stored = withTransaction(*rig().db, [&]() -> Result<int> {
                return notify::enqueue(*rig().db, rig().config.notifications,
                    notify::replayHalted(replay, 6, 10, 40, QStringLiteral("6 of 10 failed"), now), now);
            });
            QVERIFY(stored);
            QCOMPARE(*stored, 1);
        }
        // Stored once: the same notification again is no second message.
        const auto again = withTransaction(*rig().db, [&]() -> Result<int> {
            return notify::enqueue(*rig().db, rig().config.notifications,
                notify::replayHalted(1, 6, 10, 40, QStringLiteral("6 of 10 failed"), now), now);
        });
        QVERIFY(again);
        QCOMPARE(*again, 0);
        QString error;
        QVERIFY2(rig().startEngine(&error), qPrintable(error));
        rig().engine->wake();
        QVERIFY(sink().waitForRequests(2, 10'000)); // concurrency 2: both held by the hanging sink
        QList<qint64> events;
        for (int i = 0; i < 20; ++i)
            events.append(rig().seedOne(markedEvent()));
        rig().engine->wake();
        QVERIFY(waitUntil(
            [&] {
                return count(QStringLiteral(
                           "SELECT COUNT(*) FROM deliveries WHERE destination = 'shop' AND status = 'succeeded'"))
                    == 20;
            },
            10'000));
        // ... while the sink has not taken a single notification.
        QCOMPARE(
            count(QStringLiteral(
                "SELECT COUNT(*) FROM deliveries WHERE destination = 'notify:ops' AND status = 'succeeded'")),
            0);

        // The hung attempts time out (outcome unknown, retryable); the sink is now down hard.
        sink().setDefault(ScriptableDestination::status(503, "down"));
        QVERIFY(waitUntil(
            [&] {
                return count(
                           QStringLiteral("SELECT COUNT(*) FROM deliveries WHERE destination = 'notify:ops' "
                                          "AND status = 'retrying' AND attempt_count >= 1"))
                    == 3;
            },
            20'000));
        const int before = sink().requestCount();
        rig().clock.setMs(now + 10'000);
        rig().engine->wake();
        QVERIFY(sink().waitForRequests(before + 3, 10'000)); // each retried
        QVERIFY(waitUntil(
            [&] {
                return count(
                           QStringLiteral("SELECT COUNT(*) FROM deliveries WHERE destination = 'notify:ops' "
                                          "AND status = 'retrying' AND attempt_count >= 2"))
                    == 3;
            },
            10'000));
        // Back: the next retry delivers each, once.
        sink().setDefault(ScriptableDestination::status(200, "ok"));
        rig().clock.setMs(now + 30'000);
        rig().engine->wake();
        QVERIFY(waitUntil(
            [&] {
                return count(QStringLiteral(
                           "SELECT COUNT(*) FROM deliveries WHERE destination = 'notify:ops' AND status = 'succeeded'"))
                    == 3;
            },
            10'000));
        QSet<QString> ids;
        for (const auto &r : sink().requests()) {
            QVERIFY(signatureVerifies(r));
            ids.insert(json(r.body).value(QLatin1String("id")).toString());
        }
        QCOMPARE(ids,
            (QSet<QString> { QStringLiteral("replay.halted:1"), QStringLiteral("replay.halted:2"),
                QStringLiteral("replay.halted:3") }));
        QVERIFY(!carriesMarker(sink().requests()));
    }

    // A high-risk replay request waits for approval: the approvers are told who asked, for how
    // many deliveries and until when; a replay that needs no approval tells no one.
    void pendingApprovalNamesRequesterAndExpiry()
    {
        QString error;
        const QUrl sinkUrl = sink().url();
        auto f = AdminFixture::create(&error,
            [&](Config &c) { addTarget(c, target(sinkUrl, { QStringLiteral("replay.pending_approval") })); });
        QVERIFY2(f, qPrintable(error));
        QVERIFY2(f->startApi(&error), qPrintable(error));
        const QString rita = f->token(QStringLiteral("rita"), Role::Operator);
        const qint64 low
            = f->requestReplay(rita, { f->seedDelivery(QStringLiteral("crm"), DeliveryStatus::Dead) });
        QVERIFY(low > 0);
        QCOMPARE(f->count(QStringLiteral("events"), QStringLiteral("source = 'redrive'")), 0);

        const qint64 now = f->clock.nowMs();
        const qint64 id = f->requestReplay(rita,
            { f->seedDelivery(QStringLiteral("fulfillment"), DeliveryStatus::Dead),
                f->seedDelivery(QStringLiteral("fulfillment"), DeliveryStatus::Dead) },
            QStringLiteral("orders stuck since the outage"));
        QVERIFY(id > 0);
        QCOMPARE(f->replayStatus(id), QStringLiteral("pending_approval"));
        QCOMPARE(f->count(QStringLiteral("events"), QStringLiteral("source = 'redrive'")), 1);
        QCOMPARE(f->count(QStringLiteral("deliveries"),
                     QStringLiteral("destination = 'notify:ops' AND status = 'pending'")),
            1);
        QSqlQuery q(f->db().handle());
        QVERIFY(q.exec(QStringLiteral(
            "SELECT provider_event_id, event_type, body FROM events WHERE source = 'redrive'")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("replay.pending_approval:%1@ops").arg(id));
        QCOMPARE(q.value(1).toString(), QStringLiteral("replay.pending_approval"));
        const QJsonObject body = json(q.value(2).toByteArray());
        QCOMPARE(body.value(QLatin1String("link")).toString(),
            QStringLiteral("redrive://replay/%1?profile=prod").arg(id));
        const QJsonObject data = body.value(QLatin1String("data")).toObject();
        QCOMPARE(data.value(QLatin1String("requested_by")).toString(), QStringLiteral("rita"));
        QCOMPARE(data.value(QLatin1String("count")).toInt(), 2);
        QCOMPARE(
            data.value(QLatin1String("expires_at")).toString(), isoUtc(now + f->config.admin.approvalTtlMs));
        QVERIFY(body.value(QLatin1String("summary")).toString().contains(QLatin1String("rita")));

        // Not a customer event: left out of the event list unless asked for.
        const auto sources = [&](const QByteArray &query) {
            QStringList out;
            const auto r = f->call("GET", "events" + query, rita);
            for (const auto &item : r.json.value(QLatin1String("items")).toArray())
                out.append(item.toObject().value(QLatin1String("source")).toString());
            return out;
        };
        QCOMPARE(sources("").size(), 3);
        QVERIFY(!sources("").contains(QStringLiteral("redrive")));
        QCOMPARE(sources("?source=redrive"), QStringList { QStringLiteral("redrive") });
        QCOMPARE(sources("?destination=notify:ops"), QStringList { QStringLiteral("redrive") });
        QVERIFY(body.value(QLatin1String("summary"))
                    .toString()
                    .contains(isoUtc(now + f->config.admin.approvalTtlMs)));
    }

    // A bulk replay that stops itself tells once, in the transaction that halts it.
    void aHaltedReplayNotifiesOnce()
    {
        QString error;
        const QUrl sinkUrl = sink().url();
        auto f = AdminFixture::create(&error, [&](Config &c) {
            c.admin.replayRatePerSecond = 4;
            c.admin.haltAfter = 2;
            c.admin.haltFailureRatio = 0.5;
            addTarget(c, target(sinkUrl, { QStringLiteral("replay.halted") }));
        });
        QVERIFY2(f, qPrintable(error));
        QVERIFY2(f->startApi(&error), qPrintable(error));
        admin::ReplayExecutor exec(f->config, f->database().url(), f->clock);
        const QString sue = f->token(QStringLiteral("sue"), Role::Support);
        QList<qint64> ids;
        for (int i = 0; i < 6; ++i)
            ids.append(f->seedDelivery(QStringLiteral("crm"), DeliveryStatus::Dead));
        const qint64 id = f->requestReplay(sue, ids, QStringLiteral("crm was down"));
        QVERIFY(id > 0);
        QVERIFY(exec.runOnce());
        f->finishReplayItem(id, ids[0], false);
        f->finishReplayItem(id, ids[1], false);
        const auto pass = exec.runOnce();
        QVERIFY(pass);
        QCOMPARE(pass->halted, 1);
        QVERIFY(exec.runOnce());
        QCOMPARE(f->count(QStringLiteral("events"), QStringLiteral("source = 'redrive'")), 1);
        QSqlQuery q(f->db().handle());
        QVERIFY(q.exec(QStringLiteral("SELECT body FROM events WHERE source = 'redrive'")));
        QVERIFY(q.next());
        const QJsonObject body = json(q.value(0).toByteArray());
        QCOMPARE(body.value(QLatin1String("type")).toString(), QStringLiteral("replay.halted"));
        QCOMPARE(body.value(QLatin1String("id")).toString(), QStringLiteral("replay.halted:%1").arg(id));
        const QJsonObject data = body.value(QLatin1String("data")).toObject();
        QCOMPARE(data.value(QLatin1String("failed")).toInteger(), 2);
        QCOMPARE(data.value(QLatin1String("finished")).toInteger(), 2);
        QVERIFY(data.value(QLatin1String("unsent")).toInteger() >= 1);
        QCOMPARE(f->count(QStringLiteral("deliveries"), QStringLiteral("destination = 'notify:ops'")), 1);
    }

    // A refused checkpoint (the chain no longer extends the signed head) tells once per broken
    // entry, however often the console asks again.
    void aBrokenAuditChainNotifiesOnce()
    {
        QString error;
        const QUrl sinkUrl = sink().url();
        auto f = AdminFixture::create(&error,
            [&](Config &c) { addTarget(c, target(sinkUrl, { QStringLiteral("audit.chain_broken") })); });
        QVERIFY2(f, qPrintable(error));
        QVERIFY2(f->startApi(&error), qPrintable(error));
        const QString ada = f->token(QStringLiteral("ada"), Role::Auditor);
        const QString root = f->token(QStringLiteral("root"), Role::Admin);
        for (const char *what : { "pause", "resume", "pause" }) {
            QCOMPARE(f->call("POST", QByteArray("destinations/crm/") + what, root,
                          QJsonObject { { QStringLiteral("reason"), QStringLiteral("maintenance") } })
                         .status,
                200);
        }
        QCOMPARE(f->call("GET", "audit/checkpoint", ada).status, 200);
        const qint64 signedAt = f->count(QStringLiteral("audit_log"));
        QVERIFY2(dropAuditTriggers(f->db(), &error), qPrintable(error));
        QVERIFY2(
            succeeded(f->db().exec(QStringLiteral("DELETE FROM audit_log WHERE seq > %1").arg(signedAt - 2)),
                &error),
            qPrintable(error));
        QCOMPARE(f->call("GET", "audit/checkpoint", ada).status, 409);
        QCOMPARE(f->call("GET", "audit/checkpoint", ada).status, 409);
        QCOMPARE(f->count(QStringLiteral("events"), QStringLiteral("source = 'redrive'")), 1);
        QSqlQuery q(f->db().handle());
        QVERIFY(q.exec(QStringLiteral("SELECT body FROM events WHERE source = 'redrive'")));
        QVERIFY(q.next());
        const QJsonObject body = json(q.value(0).toByteArray());
        QCOMPARE(body.value(QLatin1String("type")).toString(), QStringLiteral("audit.chain_broken"));
        QVERIFY(body.value(QLatin1String("link")).isNull());
        QCOMPARE(
            body.value(QLatin1String("data")).toObject().value(QLatin1String("first_bad_seq")).toInteger(),
            signedAt - 1);
    }
};

QTEST_GUILESS_MAIN(TstNotifications)
#include "tst_notifications.moc"
