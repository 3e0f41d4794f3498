// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Admin API writes through AdminApi::handle(): notes, destinations, replay preview / request /
// cancel, the bad-input corpus (nothing written) and atomicity of an action with its audit entry.
#include "adminfixture.h"
#include "storage/circuitstore.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QTest>

#include <stdexcept>

using namespace redrive;
using namespace redrive::test;

namespace {
QJsonArray ids(std::initializer_list<qint64> list)
{
    QJsonArray a;
    for (qint64 id : list)
        a.append(id);
    return a;
}

QByteArray json(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QString lastAuditAction(AdminFixture &f)
{
    QSqlQuery q(f.db().handle());
    q.exec(QStringLiteral("SELECT action FROM audit_log ORDER BY seq DESC LIMIT 1"));
    return q.next() ? q.value(0).toString() : QString();
}
} // namespace

class TstAdminWrites : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void notes();
    void pauseAndResumeDestinations();
    void aPauseMayNameItsEnd();
    void anAdminClosesAnOpenCircuit();
    void previewShowsTheEffect();
    void previewByFilter();
    void previewRefusesOversizedSelections();
    void previewWithNothingReplayable();
    void largestSelectionRoundTrips();
    void lowRiskReplayRunsImmediately();
    void highRiskReplayWaitsForApproval();
    void requestRefusesStaleOrUnknownSelections();
    void requestRefusesOverlappingReplays();
    void cancel();
    void replayReads();
    void badInputWritesNothing_data();
    void badInputWritesNothing();
    void faultBeforeCommitLeavesNothing_data();
    void faultBeforeCommitLeavesNothing();

private:
    std::unique_ptr<AdminFixture> f;
    QString support, support2, operator1, operator2, auditor, admin;
};

void TstAdminWrites::initTestCase()
{
    QString error;
    f = AdminFixture::create(&error);
    QVERIFY2(f, qPrintable(error));
    f->config.destinations[1].circuit = CircuitConfig { 5, 60'000, 30'000 }; // crm has a breaker
    QVERIFY2(f->startApi(&error), qPrintable(error));
    support = f->token(QStringLiteral("sue"), Role::Support);
    support2 = f->token(QStringLiteral("sid"), Role::Support);
    operator1 = f->token(QStringLiteral("otto"), Role::Operator);
    operator2 = f->token(QStringLiteral("olga"), Role::Operator);
    auditor = f->token(QStringLiteral("ada"), Role::Auditor);
    admin = f->token(QStringLiteral("root"), Role::Admin);
}

void TstAdminWrites::cleanupTestCase()
{
    f.reset();
}

void TstAdminWrites::notes()
{
    const qint64 event = f->insertEvent();
    const qint64 audits = f->count(QStringLiteral("audit_log"));
    const auto r = f->call("POST", "events/" + QByteArray::number(event) + "/notes", support,
        QJsonObject {
            { QStringLiteral("body"), QStringLiteral("  retried after the outage\nsee INC-42  ") } });
    QCOMPARE(r.status, 201);
    QCOMPARE(r.json.value(QLatin1String("body")).toString(),
        QStringLiteral("retried after the outage\nsee INC-42"));
    QCOMPARE(r.json.value(QLatin1String("author")).toString(), QStringLiteral("sue"));
    QCOMPARE(f->count(QStringLiteral("notes"), QStringLiteral("event_id = %1").arg(event)), 1);
    QCOMPARE(f->count(QStringLiteral("audit_log")), audits + 1);
    QCOMPARE(
        f->count(QStringLiteral("audit_log"),
            QStringLiteral("action = 'note_added' AND target = 'event:%1' AND actor = 'sue'").arg(event)),
        1);
}

void TstAdminWrites::pauseAndResumeDestinations()
{
    const auto paused = f->call("POST", "destinations/billing/pause", admin,
        QJsonObject { { QStringLiteral("reason"), QStringLiteral("billing migration") } });
    QCOMPARE(paused.status, 200);
    QCOMPARE(paused.json.value(QLatin1String("paused")).toBool(), true);
    QCOMPARE(f->count(QStringLiteral("destination_state"),
                 QStringLiteral("name = 'billing' AND paused = 1 AND changed_by = 'root'")),
        1);
    QCOMPARE(lastAuditAction(*f), QStringLiteral("destination_paused"));
    const auto list = f->call("GET", "destinations", support);
    QCOMPARE(list.status, 200);
    bool seen = false;
    for (const QJsonValue &v : list.json.value(QLatin1String("items")).toArray()) {
        const QJsonObject d = v.toObject();
        if (d.value(QLatin1String("name")).toString() == u"billing") {
            seen = true;
            QCOMPARE(d.value(QLatin1String("paused")).toBool(), true);
            QCOMPARE(d.value(QLatin1String("reason")).toString(), QStringLiteral("billing migration"));
        }
    }
    QVERIFY(seen);
    QCOMPARE(f->call("POST", "destinations/billing/resume", admin,
                  QJsonObject { { QStringLiteral("reason"), QStringLiteral("done") } })
                 .status,
        200);
    QCOMPARE(
        f->count(QStringLiteral("destination_state"), QStringLiteral("name = 'billing' AND paused = 0")), 1);
    QCOMPARE(lastAuditAction(*f), QStringLiteral("destination_resumed"));
}

void TstAdminWrites::aPauseMayNameItsEnd()
{
    const auto pause = [&](const QJsonValue &until) {
        return f->call("POST", "destinations/billing/pause", admin,
            QJsonObject { { QStringLiteral("reason"), QStringLiteral("provider maintenance") },
                { QStringLiteral("until"), until } });
    };
    const qint64 now = f->clock.nowMs();
    const qint64 audited = f->count(QStringLiteral("audit_log"));
    // Refused, with the field named and nothing recorded: no zone, not a time, past, too far, a number.
    for (const QJsonValue &bad : { QJsonValue(QStringLiteral("2026-12-03T06:00:00")),
             QJsonValue(QStringLiteral("tomorrow")), QJsonValue(isoUtc(now - 1000)), QJsonValue(isoUtc(now)),
             QJsonValue(isoUtc(now + 32LL * 86'400'000)), QJsonValue(double(now + 60'000)) }) {
        const auto r = pause(bad);
        QCOMPARE(r.status, 400);
        QCOMPARE(r.json.value(QLatin1String("field")).toString(), QStringLiteral("until"));
    }
    QCOMPARE(
        f->count(QStringLiteral("destination_state"), QStringLiteral("name = 'billing' AND paused = 1")), 0);
    QCOMPARE(f->count(QStringLiteral("audit_log")), audited);
    // A resume has no end to name.
    const auto resumeUntil = f->call("POST", "destinations/billing/resume", admin,
        QJsonObject { { QStringLiteral("reason"), QStringLiteral("x") },
            { QStringLiteral("until"), isoUtc(now + 60'000) } });
    QCOMPARE(resumeUntil.status, 400);

    const qint64 until = now + 3'600'000;
    const auto paused = pause(isoUtc(until));
    QCOMPARE(paused.status, 200);
    QCOMPARE(paused.json.value(QLatin1String("paused_until")).toString(), isoUtc(until));
    QCOMPARE(f->count(QStringLiteral("destination_state"),
                 QStringLiteral("name = 'billing' AND paused = 1 AND paused_until = %1").arg(until)),
        1);
    QCOMPARE(f->count(QStringLiteral("audit_log"),
                 QStringLiteral("action = 'destination_paused' AND details LIKE '%\"until\":\"%1\"%'")
                     .arg(isoUtc(until))),
        1);
    // GET destinations says until when.
    bool seen = false;
    for (const QJsonValue &v :
        f->call("GET", "destinations", support).json.value(QLatin1String("items")).toArray()) {
        const QJsonObject d = v.toObject();
        if (d.value(QLatin1String("name")).toString() == u"billing") {
            seen = true;
            QCOMPARE(d.value(QLatin1String("paused_until")).toString(), isoUtc(until));
        } else {
            QVERIFY(d.value(QLatin1String("paused_until")).isNull());
        }
    }
    QVERIFY(seen);
    // Resumed by hand before its end: the end is forgotten.
    QCOMPARE(f->call("POST", "destinations/billing/resume", admin,
                  QJsonObject { { QStringLiteral("reason"), QStringLiteral("provider back early") } })
                 .status,
        200);
    QCOMPARE(f->count(QStringLiteral("destination_state"),
                 QStringLiteral("name = 'billing' AND paused = 0 AND paused_until IS NULL")),
        1);
}

void TstAdminWrites::anAdminClosesAnOpenCircuit()
{
    const auto close = [&](const QByteArray &name, const QString &token, const QJsonObject &body) {
        return f->call("POST", "destinations/" + name + "/circuit/close", token, body);
    };
    const QJsonObject reason { { QStringLiteral("reason"), QStringLiteral("crm confirmed the fix") } };
    const auto circuitOf = [&](const QString &name) {
        for (const QJsonValue &v :
            f->call("GET", "destinations", support).json.value(QLatin1String("items")).toArray()) {
            if (v.toObject().value(QLatin1String("name")).toString() == name)
                return v.toObject().value(QLatin1String("circuit"));
        }
        return QJsonValue(QJsonValue::Undefined);
    };
    // A destination without a breaker says so; one with a breaker that never opened is closed.
    QVERIFY(circuitOf(QStringLiteral("billing")).isNull());
    QJsonObject crm = circuitOf(QStringLiteral("crm")).toObject();
    QCOMPARE(crm.value(QLatin1String("state")).toString(), QStringLiteral("closed"));
    QVERIFY(crm.value(QLatin1String("since")).isNull());
    QCOMPARE(crm.value(QLatin1String("failures")).toInt(), 5);
    QCOMPARE(crm.value(QLatin1String("probe_every_seconds")).toDouble(), 30.0);
    QCOMPARE(close("crm", admin, reason).status, 409); // not open
    QCOMPARE(close("crm", admin, reason).json.value(QLatin1String("error")).toString(),
        QStringLiteral("circuit_not_open"));

    // Opened, as the delivery engine opens it.
    const qint64 now = f->clock.nowMs();
    QVERIFY(markCircuitOpen(
        f->db(), QStringLiteral("crm"), QStringLiteral("5 retryable failures"), now, now + 30'000)
                .value_or(false));
    crm = circuitOf(QStringLiteral("crm")).toObject();
    QCOMPARE(crm.value(QLatin1String("state")).toString(), QStringLiteral("open"));
    QCOMPARE(crm.value(QLatin1String("since")).toString(), isoUtc(now));
    QCOMPARE(crm.value(QLatin1String("reason")).toString(), QStringLiteral("5 retryable failures"));
    QCOMPARE(crm.value(QLatin1String("next_probe_at")).toString(), isoUtc(now + 30'000));

    const qint64 audited = f->count(QStringLiteral("audit_log"));
    // Refused, nothing recorded: no reason, an unknown key, no breaker, no such destination, roles
    // without manage_destinations.
    QCOMPARE(close("crm", admin, {}).status, 400);
    QCOMPARE(close("crm", admin,
                 QJsonObject { { QStringLiteral("reason"), QStringLiteral("x") },
                     { QStringLiteral("until"), QStringLiteral("soon") } })
                 .status,
        400);
    const auto noBreaker = close("billing", admin, reason);
    QCOMPARE(noBreaker.status, 409);
    QCOMPARE(noBreaker.json.value(QLatin1String("error")).toString(), QStringLiteral("no_circuit"));
    QCOMPARE(close("nowhere", admin, reason).status, 404);
    for (const QString &token : { support, operator1, auditor })
        QCOMPARE(close("crm", token, reason).status, 403);
    QCOMPARE(f->call("GET", "destinations/crm/circuit/close", admin).status, 405);
    QCOMPARE(
        f->count(QStringLiteral("destination_state"), QStringLiteral("name = 'crm' AND circuit_open = 1")),
        1);
    QCOMPARE(f->count(QStringLiteral("audit_log"), QStringLiteral("action = 'circuit_closed'")), 0);
    const qint64 deniedEntries = f->count(QStringLiteral("audit_log")) - audited;

    const auto closed = close("crm", admin, reason);
    QCOMPARE(closed.status, 200);
    QCOMPARE(closed.json.value(QLatin1String("circuit")).toObject().value(QLatin1String("state")).toString(),
        QStringLiteral("closed"));
    QCOMPARE(f->count(QStringLiteral("destination_state"),
                 QStringLiteral("name = 'crm' AND circuit_open = 0 AND circuit_next_probe_at IS NULL AND "
                                "circuit_reason = 'crm confirmed the fix'")),
        1);
    QCOMPARE(f->count(QStringLiteral("audit_log"),
                 QStringLiteral("action = 'circuit_closed' AND actor = 'root' AND role = 'admin' AND "
                                "target = 'destination:crm' AND reason = 'crm confirmed the fix'")),
        1);
    QCOMPARE(f->count(QStringLiteral("audit_log")), audited + deniedEntries + 1);
    crm = circuitOf(QStringLiteral("crm")).toObject();
    QCOMPARE(crm.value(QLatin1String("state")).toString(), QStringLiteral("closed"));
    QVERIFY(crm.value(QLatin1String("next_probe_at")).isNull());
    // Closing twice is a conflict, not a second entry.
    QCOMPARE(close("crm", admin, reason).status, 409);
    QCOMPARE(f->count(QStringLiteral("audit_log"), QStringLiteral("action = 'circuit_closed'")), 1);
}

void TstAdminWrites::previewShowsTheEffect()
{
    const qint64 dead = f->seedDelivery(QStringLiteral("crm"), DeliveryStatus::Dead);
    const qint64 done = f->seedDelivery(QStringLiteral("fulfillment"), DeliveryStatus::Succeeded, true);
    const qint64 flying = f->seedDelivery(QStringLiteral("crm"), DeliveryStatus::InFlight);
    const qint64 pending = f->seedDelivery(QStringLiteral("crm"), DeliveryStatus::Pending);
    const auto r = f->call("POST", "replays/preview", support,
        QJsonObject { { QStringLiteral("delivery_ids"), ids({ dead, done, flying, pending }) } });
    QCOMPARE(r.status, 200);
    const QJsonObject &p = r.json;
    QCOMPARE(p.value(QLatin1String("count")).toInt(), 2);
    QCOMPARE(p.value(QLatin1String("already_succeeded")).toInt(), 1);
    QCOMPARE(p.value(QLatin1String("outcome_unknown")).toInt(), 1);
    QCOMPARE(p.value(QLatin1String("requires_approval")).toBool(), true);
    const QString hash = p.value(QLatin1String("selection_hash")).toString();
    QCOMPARE(hash.size(), 64);
    const QJsonArray dests = p.value(QLatin1String("destinations")).toArray();
    QCOMPARE(dests.size(), 2);
    QSet<QString> names;
    for (const QJsonValue &v : dests) {
        const QJsonObject d = v.toObject();
        names.insert(d.value(QLatin1String("name")).toString() + u'/'
            + d.value(QLatin1String("risk")).toString() + u'/'
            + QString::number(d.value(QLatin1String("count")).toInt()));
    }
    QCOMPARE(names, (QSet<QString> { QStringLiteral("crm/low/1"), QStringLiteral("fulfillment/high/1") }));
    QCOMPARE(p.value(QLatin1String("effect")).toString(),
        QStringLiteral(
            "2 deliveries will be sent again with their original idempotency keys: 1 to crm (low risk) and "
            "1 to fulfillment (high risk); 1 of them already succeeded downstream and 1 of them may already "
            "have reached the destination (outcome unknown). It needs approval by an operator other than the requester."));
    QCOMPARE(p.value(QLatin1String("delivery_ids")).toArray(), ids({ dead, done }));
    const QJsonArray excluded = p.value(QLatin1String("excluded")).toArray();
    QCOMPARE(excluded.size(), 2);
    QCOMPARE(excluded[0].toObject().value(QLatin1String("delivery_id")).toInteger(), flying);
    QCOMPARE(excluded[0].toObject().value(QLatin1String("reason")).toString(), QStringLiteral("in_flight"));
    QCOMPARE(
        excluded[1].toObject().value(QLatin1String("reason")).toString(), QStringLiteral("already_pending"));
    QCOMPARE(f->count(QStringLiteral("selections"), QStringLiteral("hash = '%1'").arg(hash)), 1);
    // The same deliveries in the same state freeze to the same hash.
    const auto again = f->call("POST", "replays/preview", support,
        QJsonObject { { QStringLiteral("delivery_ids"), ids({ done, dead }) } });
    QCOMPARE(again.json.value(QLatin1String("selection_hash")).toString(), hash);
}

void TstAdminWrites::previewByFilter()
{
    QList<qint64> dead;
    for (int i = 0; i < 3; ++i)
        dead.append(f->insertDelivery(
            f->insertEvent(QStringLiteral("flt")), QStringLiteral("crm"), DeliveryStatus::Dead));
    const qint64 mixed = f->insertEvent(QStringLiteral("flt"));
    f->insertDelivery(mixed, QStringLiteral("crm"), DeliveryStatus::Succeeded);
    dead.append(f->insertDelivery(mixed, QStringLiteral("billing"), DeliveryStatus::Dead));
    const auto r = f->call("POST", "replays/preview", support,
        QJsonObject { { QStringLiteral("filter"),
            QJsonObject { { QStringLiteral("source"), QStringLiteral("flt") },
                { QStringLiteral("status"), QJsonArray { QStringLiteral("dead") } } } } });
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(QLatin1String("count")).toInt(), 4);
    QCOMPARE(
        r.json.value(QLatin1String("already_succeeded")).toInt(), 0); // the succeeded sibling is not taken
    QCOMPARE(r.json.value(QLatin1String("requires_approval")).toBool(), false);
    const auto narrowed = f->call("POST", "replays/preview", support,
        QJsonObject { { QStringLiteral("filter"),
            QJsonObject { { QStringLiteral("source"), QStringLiteral("flt") },
                { QStringLiteral("destination"), QStringLiteral("billing") } } } });
    QCOMPARE(narrowed.status, 200);
    QCOMPARE(narrowed.json.value(QLatin1String("delivery_ids")).toArray(), ids({ dead.last() }));
}

void TstAdminWrites::previewRefusesOversizedSelections()
{
    QString error;
    auto small = AdminFixture::create(&error, [](Config &c) { c.admin.maxSelection = 3; });
    QVERIFY2(small, qPrintable(error));
    QVERIFY2(small->startApi(&error), qPrintable(error));
    const QString token = small->token(QStringLiteral("sue"), Role::Support);
    QList<qint64> all;
    for (int i = 0; i < 4; ++i)
        all.append(small->insertDelivery(
            small->insertEvent(QStringLiteral("big")), QStringLiteral("crm"), DeliveryStatus::Dead));
    const auto byIds = small->call("POST", "replays/preview", token,
        QJsonObject { { QStringLiteral("delivery_ids"), ids({ all[0], all[1], all[2], all[3] }) } });
    QCOMPARE(byIds.status, 422);
    QCOMPARE(byIds.error(), QStringLiteral("selection_too_large"));
    QCOMPARE(byIds.field(), QStringLiteral("delivery_ids"));
    const auto byFilter = small->call("POST", "replays/preview", token,
        QJsonObject { { QStringLiteral("filter"),
            QJsonObject { { QStringLiteral("source"), QStringLiteral("big") } } } });
    QCOMPARE(byFilter.status, 422);
    QCOMPARE(byFilter.field(), QStringLiteral("filter"));
    QVERIFY2(byFilter.json.value(QLatin1String("message")).toString().contains(QLatin1String("narrow")),
        byFilter.body.constData());
    QCOMPARE(small->count(QStringLiteral("selections")), 0);
}

void TstAdminWrites::previewWithNothingReplayable()
{
    const qint64 flying = f->seedDelivery(QStringLiteral("crm"), DeliveryStatus::InFlight);
    const auto r = f->call("POST", "replays/preview", support,
        QJsonObject { { QStringLiteral("delivery_ids"), ids({ flying }) } });
    QCOMPARE(r.status, 422);
    QCOMPARE(r.error(), QStringLiteral("nothing_to_replay"));
    QVERIFY(r.json.value(QLatin1String("message")).toString().contains(QLatin1String("in flight")));
}

void TstAdminWrites::largestSelectionRoundTrips()
{
    // admin.max_selection (10,000 by default) deliveries: preview, request, approve, in bounded time.
    const int max = f->config.admin.maxSelection;
    f->seedBulk(QStringLiteral("bulk"), QStringLiteral("fulfillment"), DeliveryStatus::Dead, max);
    QElapsedTimer timer;
    timer.start();
    const auto p = f->call("POST", "replays/preview", support,
        QJsonObject { { QStringLiteral("filter"),
            QJsonObject { { QStringLiteral("source"), QStringLiteral("bulk") } } } });
    QCOMPARE(p.status, 200);
    QCOMPARE(p.json.value(QLatin1String("count")).toInt(), max);
    const qint64 previewMs = timer.restart();
    const auto r = f->call("POST", "replays", support,
        QJsonObject { { QStringLiteral("selection_hash"), p.json.value(QLatin1String("selection_hash")) },
            { QStringLiteral("reason"), QStringLiteral("bulk") } });
    QCOMPARE(r.status, 201);
    const qint64 requestMs = timer.restart();
    const qint64 id = r.json.value(QLatin1String("id")).toInteger();
    const auto a = f->call("POST", "replays/" + QByteArray::number(id) + "/approve", operator1,
        QJsonObject { { QStringLiteral("selection_hash"), p.json.value(QLatin1String("selection_hash")) },
            { QStringLiteral("reason"), QStringLiteral("ok") } });
    QCOMPARE(a.status, 200);
    const qint64 approveMs = timer.elapsed();
    QCOMPARE(f->count(QStringLiteral("replay_items"), QStringLiteral("replay_id = %1").arg(id)), max);
    qInfo("%d deliveries: preview %lld ms, request %lld ms, approve %lld ms", max, previewMs, requestMs,
        approveMs);
    // One more delivery and the same filter is refused with a hint.
    f->insertDelivery(f->insertEvent(QStringLiteral("bulk")), QStringLiteral("crm"), DeliveryStatus::Dead);
    const auto tooMany = f->call("POST", "replays/preview", support,
        QJsonObject { { QStringLiteral("filter"),
            QJsonObject { { QStringLiteral("source"), QStringLiteral("bulk") } } } });
    QCOMPARE(tooMany.status, 422);
}

void TstAdminWrites::lowRiskReplayRunsImmediately()
{
    const qint64 a = f->seedDelivery(QStringLiteral("crm"), DeliveryStatus::Dead);
    const qint64 b = f->seedDelivery(QStringLiteral("billing"), DeliveryStatus::Retrying);
    AdminFixture::Reply r;
    const qint64 id = f->requestReplay(support, { a, b }, QStringLiteral("downstream fixed"), &r);
    QVERIFY2(id > 0, r.body.constData());
    QCOMPARE(r.status, 201);
    for (const char *key : { "id", "status", "requested_by", "approved_by", "reason", "count", "created_at" })
        QVERIFY2(r.json.contains(QLatin1String(key)), key);
    QCOMPARE(r.json.value(QLatin1String("status")).toString(), QStringLiteral("approved"));
    QCOMPARE(r.json.value(QLatin1String("requires_approval")).toBool(), false);
    QCOMPARE(r.json.value(QLatin1String("requested_by")).toString(), QStringLiteral("sue"));
    QVERIFY(r.json.value(QLatin1String("approved_by")).isNull());
    QCOMPARE(r.json.value(QLatin1String("count")).toInt(), 2);
    QCOMPARE(f->count(QStringLiteral("replay_items"),
                 QStringLiteral("replay_id = %1 AND state = 'waiting'").arg(id)),
        2);
    QCOMPARE(f->count(QStringLiteral("audit_log"),
                 QStringLiteral(
                     "action = 'replay_requested' AND target = 'replay:%1' AND reason = 'downstream fixed'")
                     .arg(id)),
        1);
}

void TstAdminWrites::highRiskReplayWaitsForApproval()
{
    const qint64 a = f->seedDelivery(QStringLiteral("fulfillment"), DeliveryStatus::Dead);
    AdminFixture::Reply r;
    const qint64 id = f->requestReplay(operator1, { a }, QStringLiteral("order stuck"), &r);
    QVERIFY2(id > 0, r.body.constData());
    QCOMPARE(r.json.value(QLatin1String("status")).toString(), QStringLiteral("pending_approval"));
    QCOMPARE(r.json.value(QLatin1String("requires_approval")).toBool(), true);
    QCOMPARE(r.json.value(QLatin1String("approval_reasons")).toArray(),
        QJsonArray { QStringLiteral("high_risk_destination") });
    QVERIFY(!r.json.value(QLatin1String("approval_expires_at")).isNull());
}

void TstAdminWrites::requestRefusesStaleOrUnknownSelections()
{
    const qint64 a = f->seedDelivery(QStringLiteral("crm"), DeliveryStatus::Dead);
    const auto p = f->call(
        "POST", "replays/preview", support, QJsonObject { { QStringLiteral("delivery_ids"), ids({ a }) } });
    QCOMPARE(p.status, 200);
    const QString hash = p.json.value(QLatin1String("selection_hash")).toString();
    const auto before = f->rowCounts();

    const auto unknown = f->call("POST", "replays", support,
        QJsonObject { { QStringLiteral("selection_hash"), QString(64, u'0') },
            { QStringLiteral("reason"), QStringLiteral("x") } });
    QCOMPARE(unknown.status, 409);
    QCOMPARE(unknown.field(), QStringLiteral("selection_hash"));

    f->setDeliveryStatus(a, DeliveryStatus::Succeeded);
    const auto changed = f->call("POST", "replays", support,
        QJsonObject {
            { QStringLiteral("selection_hash"), hash }, { QStringLiteral("reason"), QStringLiteral("x") } });
    QCOMPARE(changed.status, 409);
    QCOMPARE(changed.error(), QStringLiteral("selection_changed"));
    f->setDeliveryStatus(a, DeliveryStatus::Dead);

    f->clock.advanceMs(f->config.admin.selectionTtlMs + 1);
    const auto expired = f->call("POST", "replays", support,
        QJsonObject {
            { QStringLiteral("selection_hash"), hash }, { QStringLiteral("reason"), QStringLiteral("x") } });
    QCOMPARE(expired.status, 409);
    QCOMPARE(expired.error(), QStringLiteral("selection_expired"));
    QCOMPARE(f->rowCounts(), before);
}

void TstAdminWrites::requestRefusesOverlappingReplays()
{
    const qint64 a = f->seedDelivery(QStringLiteral("crm"), DeliveryStatus::Dead);
    QVERIFY(f->requestReplay(support, { a }) > 0);
    AdminFixture::Reply r;
    QCOMPARE(f->requestReplay(support2, { a }, QStringLiteral("again"), &r), 0);
    QCOMPARE(r.status, 409);
    QCOMPARE(r.error(), QStringLiteral("already_in_replay"));
}

void TstAdminWrites::cancel()
{
    const qint64 mine
        = f->requestReplay(support, { f->seedDelivery(QStringLiteral("fulfillment"), DeliveryStatus::Dead) });
    const qint64 theirs = f->requestReplay(
        support2, { f->seedDelivery(QStringLiteral("fulfillment"), DeliveryStatus::Dead) });
    QVERIFY(mine > 0 && theirs > 0);
    const QJsonObject why { { QStringLiteral("reason"), QStringLiteral("wrong selection") } };
    const auto own = f->call("POST", "replays/" + QByteArray::number(mine) + "/cancel", support, why);
    QCOMPARE(own.status, 200);
    QCOMPARE(own.json.value(QLatin1String("status")).toString(), QStringLiteral("cancelled"));
    QCOMPARE(lastAuditAction(*f), QStringLiteral("replay_cancelled"));
    const auto other = f->call("POST", "replays/" + QByteArray::number(theirs) + "/cancel", support, why);
    QCOMPARE(other.status, 403);
    QCOMPARE(lastAuditAction(*f), QStringLiteral("permission_denied"));
    QCOMPARE(f->replayStatus(theirs), QStringLiteral("pending_approval"));
    QCOMPARE(f->call("POST", "replays/" + QByteArray::number(theirs) + "/cancel", admin, why).status, 200);
    const auto twice = f->call("POST", "replays/" + QByteArray::number(mine) + "/cancel", support, why);
    QCOMPARE(twice.status, 409);
}

void TstAdminWrites::replayReads()
{
    const qint64 d1 = f->seedDelivery(QStringLiteral("crm"), DeliveryStatus::Dead);
    const qint64 d2 = f->seedDelivery(QStringLiteral("crm"), DeliveryStatus::Dead);
    const qint64 id = f->requestReplay(support, { d1, d2 }, QStringLiteral("read me"));
    QVERIFY(id > 0);
    const auto list = f->call("GET", "replays?status=approved&requested_by=sue&limit=1", auditor);
    QCOMPARE(list.status, 200);
    QCOMPARE(list.json.value(QLatin1String("items")).toArray().size(), 1);
    QCOMPARE(list.json.value(QLatin1String("items"))
                 .toArray()[0]
                 .toObject()
                 .value(QLatin1String("id"))
                 .toInteger(),
        id);
    QVERIFY(list.json.value(QLatin1String("next_cursor")).isString());
    const auto detail = f->call("GET", "replays/" + QByteArray::number(id) + "?items_limit=1", auditor);
    QCOMPARE(detail.status, 200);
    const QJsonArray items = detail.json.value(QLatin1String("items")).toArray();
    QCOMPARE(items.size(), 1);
    QCOMPARE(items[0].toObject().value(QLatin1String("delivery_id")).toInteger(), d1);
    QCOMPARE(items[0].toObject().value(QLatin1String("frozen_status")).toString(), QStringLiteral("dead"));
    QCOMPARE(detail.json.value(QLatin1String("items_next_after")).toInteger(), d1);
    const auto page2 = f->call("GET",
        "replays/" + QByteArray::number(id) + "?items_limit=1&items_after=" + QByteArray::number(d1),
        auditor);
    QCOMPARE(page2.json.value(QLatin1String("items"))
                 .toArray()[0]
                 .toObject()
                 .value(QLatin1String("delivery_id"))
                 .toInteger(),
        d2);
    const QJsonArray trail = detail.json.value(QLatin1String("audit")).toArray();
    QCOMPARE(trail.size(), 1);
    QCOMPARE(
        trail[0].toObject().value(QLatin1String("action")).toString(), QStringLiteral("replay_requested"));
}

void TstAdminWrites::badInputWritesNothing_data()
{
    QTest::addColumn<QByteArray>("method");
    QTest::addColumn<QByteArray>("target");
    QTest::addColumn<QString>("who");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("field");
    const QByteArray p = "replays/preview";
    const QString hex(64, u'a');
    auto reason = [&](const QJsonValue &r) {
        return json(
            QJsonObject { { QStringLiteral("selection_hash"), hex }, { QStringLiteral("reason"), r } });
    };
    QTest::newRow("truncated JSON") << QByteArray("POST") << p << "support"
                                    << QByteArray("{\"delivery_ids\": [1") << 400 << "";
    QTest::newRow("not JSON") << QByteArray("POST") << p << "support" << QByteArray("delivery_ids=1") << 400
                              << "";
    QTest::newRow("array body") << QByteArray("POST") << p << "support" << QByteArray("[1, 2]") << 400 << "";
    QTest::newRow("empty body") << QByteArray("POST") << p << "support" << QByteArray() << 400 << "";
    QTest::newRow("ids not an array") << QByteArray("POST") << p << "support"
                                      << QByteArray("{\"delivery_ids\": \"1\"}") << 400 << "delivery_ids";
    QTest::newRow("no ids") << QByteArray("POST") << p << "support" << QByteArray("{\"delivery_ids\": []}")
                            << 400 << "delivery_ids";
    QTest::newRow("fractional id") << QByteArray("POST") << p << "support"
                                   << QByteArray("{\"delivery_ids\": [1.5]}") << 400 << "delivery_ids[0]";
    QTest::newRow("negative id") << QByteArray("POST") << p << "support"
                                 << QByteArray("{\"delivery_ids\": [-3]}") << 400 << "delivery_ids[0]";
    QTest::newRow("string id") << QByteArray("POST") << p << "support"
                               << QByteArray("{\"delivery_ids\": [\"7\"]}") << 400 << "delivery_ids[0]";
    QTest::newRow("duplicate id") << QByteArray("POST") << p << "support"
                                  << QByteArray("{\"delivery_ids\": [{d}, {d}]}") << 400 << "delivery_ids[1]";
    QTest::newRow("unknown delivery")
        << QByteArray("POST") << p << "support" << QByteArray("{\"delivery_ids\": [987654321]}") << 404
        << "delivery_ids";
    QTest::newRow("ids and filter") << QByteArray(
        "POST") << p << "support" << QByteArray("{\"delivery_ids\": [{d}], \"filter\": {\"source\": \"x\"}}")
                                    << 400 << "filter";
    QTest::newRow("neither") << QByteArray("POST") << p << "support" << QByteArray("{}") << 400
                             << "delivery_ids";
    QTest::newRow("unknown field") << QByteArray("POST") << p << "support"
                                   << QByteArray("{\"delivery_ids\": [{d}], \"force\": true}") << 400
                                   << "force";
    // A repeated name is refused, not read as its last value: another reader of the same body
    // (a proxy, a log, a script's own parser) may take the first.
    QTest::newRow("repeated field") << QByteArray("POST") << QByteArray("events/{e}/notes") << "support"
                                    << QByteArray("{\"body\": \"checked\", \"body\": \"not checked\"}") << 400
                                    << "body";
    QTest::newRow("repeated field spelled with an escape")
        << QByteArray("POST") << QByteArray("destinations/crm/pause") << "admin"
        << QByteArray("{\"reason\": \"x\", \"re\\u0061son\": \"y\"}") << 400 << "reason";
    QTest::newRow("repeated hash on approve")
        << QByteArray("POST") << QByteArray("replays/{r}/approve") << "operator"
        << QByteArray("{\"reason\": \"ok\", \"selection_hash\": \"" + hex.toLatin1()
               + "\", \"selection_hash\": \"" + hex.toLatin1() + "\"}")
        << 400 << "selection_hash";
    QTest::newRow("repeated filter key")
        << QByteArray("POST") << p << "support"
        << QByteArray("{\"filter\": {\"source\": \"github\", \"destination\": \"crm\", \"source\": \"x\"}}")
        << 400 << "filter.source";
    QTest::newRow("same name in two objects is no repetition")
        << QByteArray("POST") << p << "support"
        << QByteArray("{\"filter\": {\"source\": \"nowhere\", \"q\": \"filter\"}}") << 422 << "filter";
    QTest::newRow("empty filter") << QByteArray("POST") << p << "support" << QByteArray("{\"filter\": {}}")
                                  << 400 << "filter";
    QTest::newRow("filter not an object") << QByteArray("POST") << p << "support"
                                          << QByteArray("{\"filter\": \"status=dead\"}") << 400 << "filter";
    QTest::newRow("bad filter status")
        << QByteArray("POST") << p << "support" << QByteArray("{\"filter\": {\"status\": \"lost\"}}") << 400
        << "filter.status";
    QTest::newRow("unknown filter key")
        << QByteArray("POST") << p << "support" << QByteArray("{\"filter\": {\"colour\": \"red\"}}") << 400
        << "filter.colour";
    QTest::newRow("filter value type")
        << QByteArray("POST") << p << "support" << QByteArray("{\"filter\": {\"source\": 5}}") << 400
        << "filter.source";
    QByteArray huge = "{\"delivery_ids\": [";
    for (int i = 1; i <= 10'001; ++i)
        huge += QByteArray::number(i) + (i < 10'001 ? "," : "]}");
    QTest::newRow("huge array") << QByteArray("POST") << p << "support" << huge << 422 << "delivery_ids";
    QTest::newRow("deeply nested") << QByteArray("POST") << p << "support"
                                   << (QByteArray(5000, '[') + QByteArray(5000, ']')) << 400 << "";

    QTest::newRow("no selection hash")
        << QByteArray("POST") << QByteArray("replays") << "support"
        << json({ { QStringLiteral("reason"), QStringLiteral("x") } }) << 400 << "selection_hash";
    QTest::newRow("short selection hash")
        << QByteArray("POST") << QByteArray("replays") << "support"
        << json({ { QStringLiteral("selection_hash"), QStringLiteral("abc") },
               { QStringLiteral("reason"), QStringLiteral("x") } })
        << 400 << "selection_hash";
    QTest::newRow("unknown selection") << QByteArray("POST") << QByteArray("replays") << "support"
                                       << reason(QStringLiteral("x")) << 409 << "selection_hash";
    QTest::newRow("blank reason") << QByteArray("POST") << QByteArray("replays") << "support"
                                  << reason(QStringLiteral("   ")) << 400 << "reason";
    QTest::newRow("reason too long") << QByteArray("POST") << QByteArray("replays") << "support"
                                     << reason(QString(1001, u'r')) << 400 << "reason";
    QTest::newRow("reason with NUL") << QByteArray("POST") << QByteArray("replays") << "support"
                                     << reason(QString(QStringLiteral("a") + QChar(0) + QStringLiteral("b")))
                                     << 400 << "reason";
    QTest::newRow("reason not a string")
        << QByteArray("POST") << QByteArray("replays") << "support" << reason(42) << 400 << "reason";
    QTest::newRow("lone surrogate") << QByteArray("POST") << QByteArray("replays") << "support"
                                    << QByteArray("{\"selection_hash\": \"" + hex.toLatin1()
                                           + "\", \"reason\": \"\\ud800\"}")
                                    << 400 << "reason";
    QTest::newRow("ticket too long") << QByteArray("POST") << QByteArray("replays") << "support"
                                     << json({ { QStringLiteral("selection_hash"), hex },
                                            { QStringLiteral("reason"), QStringLiteral("x") },
                                            { QStringLiteral("ticket"), QString(201, u't') } })
                                     << 400 << "ticket";

    QTest::newRow("approve with a malformed hash")
        << QByteArray("POST") << QByteArray("replays/{r}/approve") << "operator"
        << json({ { QStringLiteral("reason"), QStringLiteral("ok") },
               { QStringLiteral("selection_hash"), QStringLiteral("abc") } })
        << 400 << "selection_hash";
    QTest::newRow("reject with a hash of the wrong type")
        << QByteArray("POST") << QByteArray("replays/{r}/reject") << "operator"
        << json({ { QStringLiteral("reason"), QStringLiteral("no") },
               { QStringLiteral("selection_hash"), 5 } })
        << 400 << "selection_hash";
    QTest::newRow("approve extra field")
        << QByteArray("POST") << QByteArray("replays/{r}/approve") << "operator"
        << json({ { QStringLiteral("reason"), QStringLiteral("ok") },
               { QStringLiteral("selection_hash"), hex }, { QStringLiteral("force"), true } })
        << 400 << "force";
    QTest::newRow("approve unknown replay")
        << QByteArray("POST") << QByteArray("replays/987654/approve") << "operator"
        << json({ { QStringLiteral("reason"), QStringLiteral("ok") },
               { QStringLiteral("selection_hash"), hex } })
        << 404 << "id";
    QTest::newRow("approve bad id") << QByteArray("POST") << QByteArray("replays/x/approve") << "operator"
                                    << json({ { QStringLiteral("reason"), QStringLiteral("ok") } }) << 400
                                    << "id";
    QTest::newRow("reject without reason") << QByteArray("POST") << QByteArray("replays/{r}/reject")
                                           << "operator" << QByteArray("{}") << 400 << "reason";
    QTest::newRow("cancel without body")
        << QByteArray("POST") << QByteArray("replays/{r}/cancel") << "support" << QByteArray() << 400 << "";

    QTest::newRow("note without body") << QByteArray("POST") << QByteArray("events/{e}/notes") << "support"
                                       << QByteArray("{}") << 400 << "body";
    QTest::newRow("note body number") << QByteArray("POST") << QByteArray("events/{e}/notes") << "support"
                                      << QByteArray("{\"body\": 5}") << 400 << "body";
    QTest::newRow("note too long") << QByteArray("POST") << QByteArray("events/{e}/notes") << "support"
                                   << json({ { QStringLiteral("body"), QString(4001, u'n') } }) << 400
                                   << "body";
    QTest::newRow("note on unknown event")
        << QByteArray("POST") << QByteArray("events/987654/notes") << "support"
        << json({ { QStringLiteral("body"), QStringLiteral("hi") } }) << 404 << "id";
    QTest::newRow("pause unknown destination")
        << QByteArray("POST") << QByteArray("destinations/nowhere/pause") << "admin"
        << json({ { QStringLiteral("reason"), QStringLiteral("x") } }) << 404 << "name";
    QTest::newRow("pause without reason") << QByteArray("POST") << QByteArray("destinations/crm/pause")
                                          << "admin" << QByteArray("{}") << 400 << "reason";
    QTest::newRow("bad replay status filter") << QByteArray("GET") << QByteArray("replays?status=done")
                                              << "auditor" << QByteArray() << 400 << "status";
    QTest::newRow("bad replay cursor") << QByteArray("GET") << QByteArray("replays?cursor=nope") << "auditor"
                                       << QByteArray() << 400 << "cursor";
    QTest::newRow("bad items limit") << QByteArray("GET") << QByteArray("replays/{r}?items_limit=0")
                                     << "auditor" << QByteArray() << 400 << "items_limit";
}

void TstAdminWrites::badInputWritesNothing()
{
    QFETCH(QByteArray, method);
    QFETCH(QByteArray, target);
    QFETCH(QString, who);
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    QFETCH(QString, field);
    const qint64 delivery = f->seedDelivery(QStringLiteral("fulfillment"), DeliveryStatus::Dead);
    const qint64 replay = f->requestReplay(support2, { delivery });
    QVERIFY(replay > 0);
    const qint64 other = f->seedDelivery(QStringLiteral("crm"), DeliveryStatus::Dead);
    target.replace("{r}", QByteArray::number(replay)).replace("{e}", QByteArray::number(f->insertEvent()));
    body.replace("{d}", QByteArray::number(other));
    const QHash<QString, QString> tokens { { QStringLiteral("support"), support },
        { QStringLiteral("operator"), operator1 }, { QStringLiteral("auditor"), auditor },
        { QStringLiteral("admin"), admin } };
    const auto before = f->rowCounts();
    const auto r = f->call(method, target, tokens.value(who), body);
    QCOMPARE(r.status, status);
    QCOMPARE(r.field(), field);
    QVERIFY(!r.error().isEmpty());
    const QString message = r.json.value(QLatin1String("message")).toString();
    QVERIFY(!message.isEmpty());
    QVERIFY2(message.size() < 500 && !message.contains(QLatin1String("SELECT"))
            && !message.contains(QLatin1String("::")),
        qPrintable(message));
    QCOMPARE(f->rowCounts(), before);
    QCOMPARE(f->replayStatus(replay), QStringLiteral("pending_approval"));
}

void TstAdminWrites::faultBeforeCommitLeavesNothing_data()
{
    QTest::addColumn<QString>("action");
    QTest::addColumn<bool>("throws");
    for (const char *a : { "note_added", "destination_paused", "replay_requested", "replay_approved",
             "replay_rejected", "replay_cancelled" }) {
        QTest::addRow("%s, commit fails", a) << QString::fromLatin1(a) << false;
        QTest::addRow("%s, exception", a) << QString::fromLatin1(a) << true;
    }
}

void TstAdminWrites::faultBeforeCommitLeavesNothing()
{
    QFETCH(QString, action);
    QFETCH(bool, throws);
    const qint64 event = f->insertEvent();
    const qint64 delivery = f->seedDelivery(QStringLiteral("fulfillment"), DeliveryStatus::Dead);
    qint64 replay = 0;
    QString hash;
    if (action != u"replay_requested") {
        replay = f->requestReplay(support, { delivery });
        QVERIFY(replay > 0);
        hash = f->call("GET", "replays/" + QByteArray::number(replay), support)
                   .json.value(QLatin1String("selection_hash"))
                   .toString();
    } else {
        const auto p = f->call("POST", "replays/preview", support,
            QJsonObject { { QStringLiteral("delivery_ids"), ids({ delivery }) } });
        QCOMPARE(p.status, 200);
        hash = p.json.value(QLatin1String("selection_hash")).toString();
    }
    QByteArray target;
    QString token;
    const QString reason = QStringLiteral("fault injection: ") + QLatin1String(QTest::currentDataTag());
    QJsonObject body { { QStringLiteral("reason"), reason } };
    if (action == u"note_added") {
        target = "events/" + QByteArray::number(event) + "/notes";
        token = support;
        body = { { QStringLiteral("body"), QStringLiteral("never stored") } };
    } else if (action == u"destination_paused") {
        target = "destinations/crm/pause";
        token = admin;
    } else if (action == u"replay_requested") {
        target = "replays";
        token = support;
        body.insert(QStringLiteral("selection_hash"), hash);
    } else if (action == u"replay_approved") {
        target = "replays/" + QByteArray::number(replay) + "/approve";
        token = operator1;
        body.insert(QStringLiteral("selection_hash"), hash);
    } else if (action == u"replay_rejected") {
        target = "replays/" + QByteArray::number(replay) + "/reject";
        token = operator1;
    } else {
        target = "replays/" + QByteArray::number(replay) + "/cancel";
        token = support;
    }

    const auto before = f->rowCounts();
    const QString statusBefore = replay ? f->replayStatus(replay) : QString();
    f->api->setBeforeCommitHook([action, throws](const QString &a) {
        if (a != action)
            return true;
        if (throws)
            throw std::runtime_error("injected fault");
        return false;
    });
    const auto failed = f->call("POST", target, token, body);
    f->api->setBeforeCommitHook({});
    QCOMPARE(failed.status, 500);
    QCOMPARE(failed.error(), QStringLiteral("internal"));
    QVERIFY(!failed.body.contains("injected"));
    QCOMPARE(f->rowCounts(), before);
    if (replay)
        QCOMPARE(f->replayStatus(replay), statusBefore);
    QSqlQuery state(f->db().handle());
    state.prepare(QStringLiteral("SELECT COUNT(*) FROM destination_state WHERE reason = ?"));
    state.addBindValue(reason);
    QVERIFY(state.exec() && state.next());
    QCOMPARE(state.value(0).toInt(), 0);
    state.finish(); // an open SQLite statement would pin its read snapshot

    // Without the fault the same request goes through, with exactly one audit entry.
    const qint64 audits = f->count(QStringLiteral("audit_log"));
    const auto ok = f->call("POST", target, token, body);
    QVERIFY2(ok.status == 200 || ok.status == 201, ok.body.constData());
    QCOMPARE(f->count(QStringLiteral("audit_log")), audits + 1);
    QCOMPARE(lastAuditAction(*f), action);
}

QTEST_GUILESS_MAIN(TstAdminWrites)
#include "tst_adminwrites.moc"
