// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Incidents on both engines: the receiver's check opens one per dead-letter group that appears,
// follows its size without opening another, opens a new one when an acknowledged group grows by
// the threshold, and closes it when the group empties; the admin API lists them and records an
// acknowledgement (who, when, note) in the audit chain, once. Retention removes incidents closed
// before its cutoff, in bounded batches, and keeps open ones and the audit entries about them.
#include "adminfixture.h"
#include "storage/incidentcheck.h"

#include <QJsonArray>
#include <QSqlQuery>
#include <QTest>

using namespace redrive;
using namespace redrive::test;

class TstIncidents : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void aNewGroupOpensOneIncident();
    void acknowledgeIsAuditedOnce();
    void acknowledgeRefusesBadInput();
    void growthAfterAcknowledgementOpensANewIncident();
    void anEmptiedGroupClosesItsIncident();
    void auditorsReadButCannotAcknowledge();
    void retentionPurgesOnlyOldClosedIncidents();

private:
    qint64 deadLetter(const QString &destination, const QString &category);
    IncidentCheckResult check();
    int purge(qint64 cutoffMs, int batch);
    QJsonArray openIncidents();

    std::unique_ptr<AdminFixture> f;
    QString support;
};

void TstIncidents::init()
{
    QString error;
    f = AdminFixture::create(&error, [](Config &c) { c.incidents.growThreshold = 3; });
    QVERIFY2(f, qPrintable(error));
    QVERIFY2(f->startApi(&error), qPrintable(error));
    support = f->token(QStringLiteral("sam"), Role::Support);
}

void TstIncidents::cleanup()
{
    f.reset();
}

qint64 TstIncidents::deadLetter(const QString &destination, const QString &category)
{
    const qint64 id = f->seedDelivery(destination, DeliveryStatus::Dead);
    QSqlQuery q(f->db().handle());
    q.prepare(QStringLiteral("UPDATE deliveries SET last_category = ?, dead_at = ? WHERE id = ?"));
    q.addBindValue(category);
    q.addBindValue(f->clock.nowMs());
    q.addBindValue(id);
    if (!q.exec())
        qFatal("deadLetter: %s", qPrintable(sqlErrorText(q)));
    return id;
}

IncidentCheckResult TstIncidents::check()
{
    const auto r = checkIncidents(f->db(), f->clock.nowMs(), f->config.incidents.growThreshold);
    if (!r)
        qFatal("checkIncidents: %s", qPrintable(r.error()));
    return *r;
}

int TstIncidents::purge(qint64 cutoffMs, int batch)
{
    const auto r = purgeClosedIncidents(f->db(), cutoffMs, batch);
    if (!r)
        qFatal("purgeClosedIncidents: %s", qPrintable(r.error()));
    return *r;
}

QJsonArray TstIncidents::openIncidents()
{
    const auto r = f->call("GET", "incidents", support);
    if (r.status != 200)
        qFatal("GET incidents: %d %s", r.status, r.body.constData());
    return r.json.value(QLatin1String("items")).toArray();
}

void TstIncidents::aNewGroupOpensOneIncident()
{
    QCOMPARE(check().opened.size(), 0); // nothing dead: nothing to hear about
    deadLetter(QStringLiteral("crm"), QStringLiteral("permanent"));
    deadLetter(QStringLiteral("crm"), QStringLiteral("permanent"));
    const auto first = check();
    QCOMPARE(first.opened.size(), 1);
    QCOMPARE(first.opened.first().destination, QStringLiteral("crm"));
    QCOMPARE(first.opened.first().category, QStringLiteral("permanent"));
    QCOMPARE(first.opened.first().count, 2);
    QCOMPARE(first.open, 1);

    // The group grows: the same incident follows it, no new one (one notice per incident).
    deadLetter(QStringLiteral("crm"), QStringLiteral("permanent"));
    f->clock.advanceMs(1000);
    const auto second = check();
    QCOMPARE(second.opened.size(), 0);
    QCOMPARE(second.open, 1);
    const QJsonArray items = openIncidents();
    QCOMPARE(items.size(), 1);
    const QJsonObject i = items.first().toObject();
    QCOMPARE(i.value(QLatin1String("id")).toInteger(), first.opened.first().id);
    QCOMPARE(i.value(QLatin1String("count_at_open")).toInt(), 2);
    QCOMPARE(i.value(QLatin1String("count")).toInt(), 3);
    QVERIFY(i.value(QLatin1String("acknowledged_by")).isNull());
    QVERIFY(i.value(QLatin1String("closed_at")).isNull());

    // Another category at the same destination is another group.
    deadLetter(QStringLiteral("crm"), QStringLiteral("retryable"));
    QCOMPARE(check().opened.size(), 1);
    QCOMPARE(openIncidents().size(), 2);
}

void TstIncidents::acknowledgeIsAuditedOnce()
{
    deadLetter(QStringLiteral("fulfillment"), QStringLiteral("timeout"));
    const qint64 id = check().opened.value(0).id;
    QVERIFY(id > 0);
    const QByteArray path = "incidents/" + QByteArray::number(id) + "/acknowledge";
    const qint64 audits = f->count(QStringLiteral("audit_log"));
    const auto r = f->call("POST", path, support,
        QJsonObject {
            { QStringLiteral("note"), QStringLiteral("fulfillment is down, paged their on-call") } });
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(QLatin1String("acknowledged_by")).toString(), QStringLiteral("sam"));
    QVERIFY(!r.json.value(QLatin1String("acknowledged_at")).toString().isEmpty());

    // The next person sees who is on it.
    const QJsonObject listed = openIncidents().first().toObject();
    QCOMPARE(listed.value(QLatin1String("acknowledged_by")).toString(), QStringLiteral("sam"));
    QCOMPARE(listed.value(QLatin1String("note")).toString(),
        QStringLiteral("fulfillment is down, paged their on-call"));

    // One audit entry naming who, the incident and the note, in an intact chain.
    QCOMPARE(f->count(QStringLiteral("audit_log")), audits + 1);
    QSqlQuery q(f->db().handle());
    QVERIFY(q.exec(
        QStringLiteral("SELECT actor, action, target, reason FROM audit_log ORDER BY seq DESC LIMIT 1")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("sam"));
    QCOMPARE(q.value(1).toString(), QStringLiteral("incident_acknowledged"));
    QCOMPARE(q.value(2).toString(), QStringLiteral("incident:%1").arg(id));
    QCOMPARE(q.value(3).toString(), QStringLiteral("fulfillment is down, paged their on-call"));
    q.finish(); // no read transaction left open on the fixture's connection
    const QString auditor = f->token(QStringLiteral("ada"), Role::Auditor);
    const auto verify = f->call("GET", "audit/verify", auditor);
    QCOMPARE(verify.status, 200);
    QVERIFY(verify.json.value(QLatin1String("ok")).toBool());

    // A second acknowledgement is a conflict and changes nothing.
    const QString other = f->token(QStringLiteral("olga"), Role::Operator);
    const auto again
        = f->call("POST", path, other, QJsonObject { { QStringLiteral("note"), QStringLiteral("me too") } });
    QCOMPARE(again.status, 409);
    QCOMPARE(again.error(), QStringLiteral("conflict"));
    QCOMPARE(f->count(QStringLiteral("audit_log")), audits + 1);
    QCOMPARE(openIncidents().first().toObject().value(QLatin1String("acknowledged_by")).toString(),
        QStringLiteral("sam"));
}

void TstIncidents::acknowledgeRefusesBadInput()
{
    deadLetter(QStringLiteral("crm"), QStringLiteral("permanent"));
    const qint64 id = check().opened.value(0).id;
    const QByteArray path = "incidents/" + QByteArray::number(id) + "/acknowledge";
    const qint64 audits = f->count(QStringLiteral("audit_log"));

    auto r = f->call("POST", path, support, QJsonObject {});
    QCOMPARE(r.status, 400);
    QCOMPARE(r.field(), QStringLiteral("note"));
    r = f->call("POST", path, support, QJsonObject { { QStringLiteral("note"), QStringLiteral("   ") } });
    QCOMPARE(r.status, 400);
    QCOMPARE(r.field(), QStringLiteral("note"));
    r = f->call("POST", path, support, QJsonObject { { QStringLiteral("note"), 42 } });
    QCOMPARE(r.status, 400);
    QCOMPARE(r.field(), QStringLiteral("note"));
    r = f->call("POST", path, support, QJsonObject { { QStringLiteral("note"), QString(1001, u'x') } });
    QCOMPARE(r.status, 400);
    QCOMPARE(r.field(), QStringLiteral("note"));
    r = f->call("POST", path, support,
        QJsonObject { { QStringLiteral("note"), QStringLiteral("ok") }, { QStringLiteral("who"), 1 } });
    QCOMPARE(r.status, 400);
    QCOMPARE(r.field(), QStringLiteral("who"));
    r = f->call("POST", path, support, QByteArray("{not json"));
    QCOMPARE(r.status, 400);
    r = f->call("POST", "incidents/abc/acknowledge", support,
        QJsonObject { { QStringLiteral("note"), QStringLiteral("ok") } });
    QCOMPARE(r.status, 400);
    QCOMPARE(r.field(), QStringLiteral("id"));
    r = f->call("POST", "incidents/999999/acknowledge", support,
        QJsonObject { { QStringLiteral("note"), QStringLiteral("ok") } });
    QCOMPARE(r.status, 404);
    r = f->call("GET", "incidents?status=open", support);
    QCOMPARE(r.status, 400);
    QCOMPARE(r.field(), QStringLiteral("status"));

    // Nothing was acknowledged and nothing audited.
    QVERIFY(openIncidents().first().toObject().value(QLatin1String("acknowledged_by")).isNull());
    QCOMPARE(f->count(QStringLiteral("audit_log")), audits);
}

void TstIncidents::growthAfterAcknowledgementOpensANewIncident()
{
    for (int i = 0; i < 2; ++i)
        deadLetter(QStringLiteral("crm"), QStringLiteral("permanent"));
    const qint64 first = check().opened.value(0).id;
    QVERIFY(first > 0);
    QCOMPARE(f->call("POST", "incidents/" + QByteArray::number(first) + "/acknowledge", support,
                  QJsonObject { { QStringLiteral("note"), QStringLiteral("looking") } })
                 .status,
        200);
    // Growth below the threshold (3) after the acknowledgement: still the acknowledged one.
    deadLetter(QStringLiteral("crm"), QStringLiteral("permanent"));
    deadLetter(QStringLiteral("crm"), QStringLiteral("permanent"));
    QCOMPARE(check().opened.size(), 0);
    QCOMPARE(openIncidents().first().toObject().value(QLatin1String("id")).toInteger(), first);
    // The third since the acknowledgement: it got worse while someone was on it.
    deadLetter(QStringLiteral("crm"), QStringLiteral("permanent"));
    const auto grown = check();
    QCOMPARE(grown.opened.size(), 1);
    QCOMPARE(grown.opened.first().count, 5);
    QCOMPARE(grown.closed, 1);
    const QJsonArray items = openIncidents();
    QCOMPARE(items.size(), 1);
    QVERIFY(items.first().toObject().value(QLatin1String("id")).toInteger() != first);
    QVERIFY(items.first().toObject().value(QLatin1String("acknowledged_by")).isNull());
    // The old one is closed: acknowledging it is a conflict.
    const auto r = f->call("POST", "incidents/" + QByteArray::number(first) + "/acknowledge", support,
        QJsonObject { { QStringLiteral("note"), QStringLiteral("again") } });
    QCOMPARE(r.status, 409);
}

void TstIncidents::anEmptiedGroupClosesItsIncident()
{
    const qint64 a = deadLetter(QStringLiteral("billing"), QStringLiteral("permanent"));
    const qint64 b = deadLetter(QStringLiteral("billing"), QStringLiteral("permanent"));
    QCOMPARE(check().opened.size(), 1);
    f->setDeliveryStatus(a, DeliveryStatus::Succeeded); // replayed and delivered
    QCOMPARE(check().closed, 0);
    f->setDeliveryStatus(b, DeliveryStatus::Succeeded);
    const auto r = check();
    QCOMPARE(r.closed, 1);
    QCOMPARE(r.open, 0);
    QCOMPARE(openIncidents().size(), 0);
    // It fails again later: a new incident, so people hear about it again.
    deadLetter(QStringLiteral("billing"), QStringLiteral("permanent"));
    QCOMPARE(check().opened.size(), 1);
}

void TstIncidents::auditorsReadButCannotAcknowledge()
{
    deadLetter(QStringLiteral("crm"), QStringLiteral("permanent"));
    const qint64 id = check().opened.value(0).id;
    const QString auditor = f->token(QStringLiteral("ada"), Role::Auditor);
    QCOMPARE(f->call("GET", "incidents", auditor).status, 200);
    const auto r = f->call("POST", "incidents/" + QByteArray::number(id) + "/acknowledge", auditor,
        QJsonObject { { QStringLiteral("note"), QStringLiteral("no") } });
    QCOMPARE(r.status, 403);
    QVERIFY(openIncidents().first().toObject().value(QLatin1String("acknowledged_by")).isNull());
}

void TstIncidents::retentionPurgesOnlyOldClosedIncidents()
{
    constexpr qint64 day = 86'400'000;
    // Day 0: one incident stays open (its dead letter stays), two are acknowledged (audited)
    // and close when their groups empty.
    deadLetter(QStringLiteral("crm"), QStringLiteral("permanent"));
    const qint64 stillOpen = check().opened.value(0).id;
    const qint64 a = deadLetter(QStringLiteral("billing"), QStringLiteral("permanent"));
    const qint64 b = deadLetter(QStringLiteral("billing"), QStringLiteral("timeout"));
    const auto opened = check().opened;
    QCOMPARE(opened.size(), 2);
    for (const OpenedIncident &i : opened)
        QCOMPARE(f->call("POST", "incidents/" + QByteArray::number(i.id) + "/acknowledge", support,
                      QJsonObject { { QStringLiteral("note"), QStringLiteral("replaying") } })
                     .status,
            200);
    const qint64 audits = f->count(QStringLiteral("audit_log"));
    f->setDeliveryStatus(a, DeliveryStatus::Succeeded);
    f->setDeliveryStatus(b, DeliveryStatus::Succeeded);
    QCOMPARE(check().closed, 2);

    // Day 40: another incident opens and closes at once.
    f->clock.advanceMs(40 * day);
    const qint64 c = deadLetter(QStringLiteral("billing"), QStringLiteral("permanent"));
    const qint64 recent = check().opened.value(0).id;
    QVERIFY(recent > 0);
    f->setDeliveryStatus(c, DeliveryStatus::Succeeded);
    QCOMPARE(check().closed, 1);
    QCOMPARE(f->count(QStringLiteral("incidents")), 4);

    // A 30-day cutoff: the two closed 40 days ago go, one batch at a time; the open one opened
    // 40 days ago and the one closed today stay.
    const qint64 cutoff = f->clock.nowMs() - 30 * day;
    QCOMPARE(purge(cutoff, 1), 1); // bounded batch
    QCOMPARE(purge(cutoff, 100), 1);
    QCOMPARE(purge(cutoff, 100), 0);
    QCOMPARE(f->count(QStringLiteral("incidents")), 2);
    QCOMPARE(f->count(QStringLiteral("incidents"), QStringLiteral("id = %1").arg(stillOpen)), 1);
    QCOMPARE(f->count(QStringLiteral("incidents"), QStringLiteral("id = %1").arg(recent)), 1);
    for (const OpenedIncident &i : opened)
        QCOMPARE(f->count(QStringLiteral("incidents"), QStringLiteral("id = %1").arg(i.id)), 0);

    // The audit entries about the purged incidents stay, in an intact chain.
    QCOMPARE(f->count(QStringLiteral("audit_log")), audits);
    QCOMPARE(f->count(QStringLiteral("audit_log"), QStringLiteral("action = 'incident_acknowledged'")), 2);
    const auto verify = f->call("GET", "audit/verify", f->token(QStringLiteral("ada"), Role::Auditor));
    QCOMPARE(verify.status, 200);
    QVERIFY(verify.json.value(QLatin1String("ok")).toBool());

    // The admin API still lists the open one, and a purged one is gone, not closed.
    const QJsonArray items = openIncidents();
    QCOMPARE(items.size(), 1);
    QCOMPARE(items.first().toObject().value(QLatin1String("id")).toInteger(), stillOpen);
    const auto gone = f->call("POST", "incidents/" + QByteArray::number(opened.first().id) + "/acknowledge",
        support, QJsonObject { { QStringLiteral("note"), QStringLiteral("late") } });
    QCOMPARE(gone.status, 404);

    // Later the newest incident is purged too; the next one still gets a larger id (the console
    // remembers the highest id it announced).
    f->clock.advanceMs(31 * day);
    QCOMPARE(purge(f->clock.nowMs() - 30 * day, 100), 1);
    deadLetter(QStringLiteral("billing"), QStringLiteral("permanent"));
    QVERIFY(check().opened.value(0).id > recent);
    QCOMPARE(f->count(QStringLiteral("incidents"), QStringLiteral("id = %1").arg(stillOpen)), 1);
}

QTEST_GUILESS_MAIN(TstIncidents)
#include "tst_incidents.moc"
