// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Resolving dead letters without a replay, on both engines: by ids and by filter, a dry run that
// changes nothing, the resolved deliveries leaving the dead letters (their incident closing when
// the group empties), shown with who, how and why, audited, and never picked by a replay again.
// Bad input and roles without the permission change nothing.
#include "adminfixture.h"
#include "storage/incidentcheck.h"

#include <QJsonArray>
#include <QSqlQuery>
#include <QTest>

using namespace redrive;
using namespace redrive::test;

class TstResolve : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void byIdsResolvesTheDeadOnesAndClosesTheIncident();
    void byFilterWithADryRunFirst();
    void aReplayNeverTakesAResolvedDelivery();
    void badInputChangesNothing_data();
    void badInputChangesNothing();
    void onlyThoseWhoTriageMayResolve();

private:
    qint64 deadLetter(const QString &destination, const QString &category);
    QString deliveryStatus(qint64 id);
    QString eventStatusOf(qint64 deliveryId);
    QJsonArray openIncidents();
    QJsonObject resolveBody(
        const QJsonObject &selection, const QString &resolution = QStringLiteral("handled_manually"));

    std::unique_ptr<AdminFixture> f;
    QString support;
};

void TstResolve::init()
{
    QString error;
    f = AdminFixture::create(&error);
    QVERIFY2(f, qPrintable(error));
    QVERIFY2(f->startApi(&error), qPrintable(error));
    support = f->token(QStringLiteral("sam"), Role::Support);
}

void TstResolve::cleanup()
{
    f.reset();
}

qint64 TstResolve::deadLetter(const QString &destination, const QString &category)
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

QString TstResolve::deliveryStatus(qint64 id)
{
    const auto r = f->call("GET", "deliveries/" + QByteArray::number(id), support);
    if (r.status != 200)
        qFatal("GET deliveries/%lld: %d", id, r.status);
    return r.json.value(QLatin1String("status")).toString();
}

QString TstResolve::eventStatusOf(qint64 deliveryId)
{
    QSqlQuery q(f->db().handle());
    q.prepare(QStringLiteral(
        "SELECT s.status FROM event_status s JOIN deliveries d ON d.event_id = s.event_id WHERE d.id = ?"));
    q.addBindValue(deliveryId);
    if (!q.exec() || !q.next())
        qFatal("event status of delivery %lld: %s", deliveryId, qPrintable(sqlErrorText(q)));
    return q.value(0).toString();
}

QJsonArray TstResolve::openIncidents()
{
    const auto r = f->call("GET", "incidents", support);
    if (r.status != 200)
        qFatal("GET incidents: %d %s", r.status, r.body.constData());
    return r.json.value(QLatin1String("items")).toArray();
}

QJsonObject TstResolve::resolveBody(const QJsonObject &selection, const QString &resolution)
{
    QJsonObject body = selection;
    body.insert(QStringLiteral("resolution"), resolution);
    body.insert(QStringLiteral("reason"), QStringLiteral("customer refunded by hand in the payment console"));
    return body;
}

void TstResolve::byIdsResolvesTheDeadOnesAndClosesTheIncident()
{
    const qint64 a = deadLetter(QStringLiteral("crm"), QStringLiteral("timeout"));
    const qint64 b = deadLetter(QStringLiteral("crm"), QStringLiteral("timeout"));
    const qint64 c = deadLetter(QStringLiteral("crm"), QStringLiteral("timeout"));
    const qint64 delivered = f->seedDelivery(QStringLiteral("crm"), DeliveryStatus::Succeeded);
    const auto checked = checkIncidents(f->db(), f->clock.nowMs(), f->config.incidents.growThreshold);
    QVERIFY(checked);
    QCOMPARE(checked->opened.size(), 1);
    QCOMPARE(openIncidents().size(), 1);
    const qint64 audits = f->count(QStringLiteral("audit_log"));

    QJsonObject body
        = resolveBody(QJsonObject { { QStringLiteral("delivery_ids"), QJsonArray { b, delivered, a } } });
    body.insert(QStringLiteral("ticket"), QStringLiteral("SUP-4411"));
    auto r = f->call("POST", "deliveries/resolve", support, body);
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(QLatin1String("resolved")).toInt(), 2);
    QCOMPARE(r.json.value(QLatin1String("delivery_ids")).toArray(), (QJsonArray { a, b }));
    QCOMPARE(r.json.value(QLatin1String("skipped_count")).toInt(), 1);
    const QJsonObject skipped = r.json.value(QLatin1String("skipped")).toArray().first().toObject();
    QCOMPARE(skipped.value(QLatin1String("delivery_id")).toInteger(), delivered);
    QCOMPARE(skipped.value(QLatin1String("reason")).toString(), QStringLiteral("not_dead"));
    QCOMPARE(r.json.value(QLatin1String("incidents_closed")).toInt(), 0); // c is still dead

    // Shown as resolved, with who, how, why and the ticket; the event says so too.
    const auto shown = f->call("GET", "deliveries/" + QByteArray::number(a), support);
    QCOMPARE(shown.json.value(QLatin1String("status")).toString(), QStringLiteral("resolved"));
    const QJsonObject how = shown.json.value(QLatin1String("resolution")).toObject();
    QCOMPARE(how.value(QLatin1String("resolution")).toString(), QStringLiteral("handled_manually"));
    QCOMPARE(how.value(QLatin1String("by")).toString(), QStringLiteral("sam"));
    QCOMPARE(how.value(QLatin1String("role")).toString(), QStringLiteral("support"));
    QCOMPARE(how.value(QLatin1String("ticket")).toString(), QStringLiteral("SUP-4411"));
    QCOMPARE(how.value(QLatin1String("reason")).toString(),
        QStringLiteral("customer refunded by hand in the payment console"));
    QVERIFY(f->call("GET", "deliveries/" + QByteArray::number(c), support)
                .json.value(QLatin1String("resolution"))
                .isNull());
    QCOMPARE(eventStatusOf(a), QStringLiteral("resolved"));
    QCOMPARE(deliveryStatus(delivered), QStringLiteral("succeeded"));
    QCOMPARE(deliveryStatus(c), QStringLiteral("dead"));

    // One audit entry for the request, naming the count and the ids.
    QCOMPARE(f->count(QStringLiteral("audit_log")), audits + 1);
    QCOMPARE(f->count(QStringLiteral("audit_log"),
                 QStringLiteral("action = 'deliveries_resolved' AND actor = 'sam' AND target = 'deliveries' "
                                "AND details LIKE '%\"count\":2%' AND details LIKE '%SUP-4411%'")),
        1);
    QCOMPARE(openIncidents().size(), 1);

    // The last dead letter of the group: its incident closes in the same request.
    r = f->call("POST", "deliveries/resolve", support,
        resolveBody(QJsonObject { { QStringLiteral("delivery_ids"), QJsonArray { c } } },
            QStringLiteral("not_needed")));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(QLatin1String("incidents_closed")).toInt(), 1);
    QCOMPARE(openIncidents().size(), 0);
    QCOMPARE(f->count(QStringLiteral("audit_log"),
                 QStringLiteral("action = 'deliveries_resolved' AND target = 'delivery:%1'").arg(c)),
        1);
    QCOMPARE(f->count(QStringLiteral("deliveries"), QStringLiteral("status = 'dead'")), 0);

    // Again: nothing is dead any more, and it says so instead of pretending.
    r = f->call("POST", "deliveries/resolve", support,
        resolveBody(QJsonObject { { QStringLiteral("delivery_ids"), QJsonArray { c } } }));
    QCOMPARE(r.status, 422);
    QCOMPARE(r.error(), QStringLiteral("nothing_to_resolve"));
    QVERIFY2(r.body.contains("not dead"), r.body.constData());

    const QString auditor = f->token(QStringLiteral("ada"), Role::Auditor);
    const auto verify = f->call("GET", "audit/verify", auditor);
    QVERIFY(verify.json.value(QLatin1String("ok")).toBool());
}

void TstResolve::byFilterWithADryRunFirst()
{
    QList<qint64> billing;
    for (int i = 0; i < 5; ++i)
        billing.append(deadLetter(QStringLiteral("billing"), QStringLiteral("http_permanent")));
    const qint64 crmA = deadLetter(QStringLiteral("crm"), QStringLiteral("http_permanent"));
    const qint64 crmB = deadLetter(QStringLiteral("crm"), QStringLiteral("http_permanent"));
    const QJsonObject group { { QStringLiteral("filter"),
        QJsonObject { { QStringLiteral("destination"), QStringLiteral("billing") },
            { QStringLiteral("category"), QStringLiteral("http_permanent") },
            { QStringLiteral("delivery_status"), QStringLiteral("dead") } } } };

    const auto before = f->rowCounts();
    QJsonObject dry = group;
    dry.insert(QStringLiteral("dry_run"), true);
    auto r = f->call("POST", "deliveries/resolve", support, dry);
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(QLatin1String("count")).toInt(), 5);
    QJsonArray expected;
    for (qint64 id : billing)
        expected.append(id);
    QCOMPARE(r.json.value(QLatin1String("delivery_ids")).toArray(), expected);
    QCOMPARE(f->rowCounts(), before); // a dry run writes nothing, not even an audit entry

    r = f->call("POST", "deliveries/resolve", support, resolveBody(group, QStringLiteral("not_needed")));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(QLatin1String("resolved")).toInt(), 5);
    for (qint64 id : billing)
        QCOMPARE(deliveryStatus(id), QStringLiteral("resolved"));
    QCOMPARE(deliveryStatus(crmA), QStringLiteral("dead"));
    QCOMPARE(deliveryStatus(crmB), QStringLiteral("dead"));
    QCOMPARE(
        f->count(QStringLiteral("delivery_resolutions"), QStringLiteral("resolution = 'not_needed'")), 5);
    QCOMPARE(f->count(QStringLiteral("audit_log"),
                 QStringLiteral("action = 'deliveries_resolved' AND details LIKE '%destination=billing%'")),
        1);

    // The same filter again finds no dead letter.
    r = f->call("POST", "deliveries/resolve", support, resolveBody(group));
    QCOMPARE(r.status, 422);
    QCOMPARE(r.error(), QStringLiteral("nothing_to_resolve"));

    // A list of dead deliveries by status shows the resolved ones under their own status.
    const auto listed = f->call("GET", "deliveries?status=resolved", support);
    QCOMPARE(listed.status, 200);
    QCOMPARE(listed.json.value(QLatin1String("items")).toArray().size(), 5);
}

void TstResolve::aReplayNeverTakesAResolvedDelivery()
{
    const qint64 resolved = deadLetter(QStringLiteral("crm"), QStringLiteral("timeout"));
    const qint64 dead = deadLetter(QStringLiteral("crm"), QStringLiteral("timeout"));
    QCOMPARE(f->call("POST", "deliveries/resolve", support,
                  resolveBody(QJsonObject { { QStringLiteral("delivery_ids"), QJsonArray { resolved } } }))
                 .status,
        200);

    // A dead-letter group's preview: the dead one only.
    auto r = f->call("POST", "replays/preview", support,
        QJsonObject { { QStringLiteral("filter"),
            QJsonObject { { QStringLiteral("destination"), QStringLiteral("crm") },
                { QStringLiteral("delivery_status"), QStringLiteral("dead") } } } });
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(QLatin1String("delivery_ids")).toArray(), (QJsonArray { dead }));

    // Named explicitly, it is left out and the preview says why.
    r = f->call("POST", "replays/preview", support,
        QJsonObject { { QStringLiteral("delivery_ids"), QJsonArray { resolved, dead } } });
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(QLatin1String("delivery_ids")).toArray(), (QJsonArray { dead }));
    const QJsonObject excluded = r.json.value(QLatin1String("excluded")).toArray().first().toObject();
    QCOMPARE(excluded.value(QLatin1String("delivery_id")).toInteger(), resolved);
    QCOMPARE(excluded.value(QLatin1String("reason")).toString(), QStringLiteral("resolved"));

    r = f->call("POST", "replays/preview", support,
        QJsonObject { { QStringLiteral("delivery_ids"), QJsonArray { resolved } } });
    QCOMPARE(r.status, 422);
    QCOMPARE(r.error(), QStringLiteral("nothing_to_replay"));
}

void TstResolve::badInputChangesNothing_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("field");
    const QByteArray reason = R"("reason":"done by hand")";
    const QByteArray how = R"("resolution":"handled_manually")";
    QTest::newRow("no body") << QByteArray() << 400 << QString();
    QTest::newRow("not json") << QByteArray("{nope") << 400 << QString();
    QTest::newRow("neither ids nor filter") << "{" + how + "," + reason + "}" << 400 << "delivery_ids";
    QTest::newRow("both") << R"({"delivery_ids":[1],"filter":{"destination":"crm"},)" + how + "," + reason
            + "}" << 400 << "filter";
    QTest::newRow("empty ids") << R"({"delivery_ids":[],)" + how + "," + reason + "}" << 400
                               << "delivery_ids";
    QTest::newRow("id twice") << R"({"delivery_ids":[1,1],)" + how + "," + reason + "}" << 400
                              << "delivery_ids[1]";
    QTest::newRow("id not a number") << R"({"delivery_ids":["1"],)" + how + "," + reason + "}" << 400
                                     << "delivery_ids[0]";
    QTest::newRow("unknown id") << R"({"delivery_ids":[999999],)" + how + "," + reason + "}" << 404
                                << "delivery_ids";
    QTest::newRow("empty filter") << R"({"filter":{},)" + how + "," + reason + "}" << 400 << "filter";
    QTest::newRow("bad filter key") << R"({"filter":{"destinaton":"crm"},)" + how + "," + reason + "}" << 400
                                    << QString();
    QTest::newRow("no resolution") << R"({"delivery_ids":[1],)" + reason + "}" << 400 << "resolution";
    QTest::newRow("unknown resolution")
        << R"({"delivery_ids":[1],"resolution":"fixed",)" + reason + "}" << 400 << "resolution";
    QTest::newRow("resolution not text")
        << R"({"delivery_ids":[1],"resolution":1,)" + reason + "}" << 400 << "resolution";
    QTest::newRow("no reason") << R"({"delivery_ids":[1],)" + how + "}" << 400 << "reason";
    QTest::newRow("blank reason") << R"({"delivery_ids":[1],)" + how + R"(,"reason":"   "})" << 400
                                  << "reason";
    QTest::newRow("reason too long") << R"({"delivery_ids":[1],)" + how + R"(,"reason":")"
            + QByteArray(1001, 'x')
            + R"("})" << 400 << "reason";
    QTest::newRow("ticket on two lines")
        << R"({"delivery_ids":[1],)" + how + "," + reason + R"(,"ticket":"SUP-1\nSUP-2"})" << 400 << "ticket";
    QTest::newRow("dry_run not a flag")
        << QByteArray(R"({"delivery_ids":[1],"dry_run":"yes"})") << 400 << "dry_run";
    QTest::newRow("unknown field") << R"({"delivery_ids":[1],)" + how + "," + reason + R"(,"force":true})"
                                   << 400 << "force";
    QTest::newRow("nothing dead") << R"({"delivery_ids":[2],)" + how + "," + reason + "}" << 422
                                  << "delivery_ids";
}

void TstResolve::badInputChangesNothing()
{
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    QFETCH(QString, field);
    QCOMPARE(deadLetter(QStringLiteral("crm"), QStringLiteral("timeout")), 1);
    QCOMPARE(f->seedDelivery(QStringLiteral("crm"), DeliveryStatus::Succeeded), 2);
    const auto before = f->rowCounts();
    const auto r = f->call("POST", "deliveries/resolve", support, body);
    QCOMPARE(r.status, status);
    if (!field.isEmpty())
        QCOMPARE(r.field(), field);
    QVERIFY2(!r.json.value(QLatin1String("message")).toString().isEmpty(), r.body.constData());
    QCOMPARE(f->rowCounts(), before);
    QCOMPARE(deliveryStatus(1), QStringLiteral("dead"));
    QCOMPARE(f->call("GET", "deliveries/resolve", support).status, 405);
}

void TstResolve::onlyThoseWhoTriageMayResolve()
{
    const qint64 id = deadLetter(QStringLiteral("crm"), QStringLiteral("timeout"));
    const QJsonObject body
        = resolveBody(QJsonObject { { QStringLiteral("delivery_ids"), QJsonArray { id } } });
    for (const Role role : { Role::Auditor, Role::Admin }) {
        const QString token = f->token(QStringLiteral("no-%1").arg(toString(role)), role);
        const auto r = f->call("POST", "deliveries/resolve", token, body);
        QCOMPARE(r.status, 403);
        QCOMPARE(deliveryStatus(id), QStringLiteral("dead"));
    }
    const QString operatorToken = f->token(QStringLiteral("olga"), Role::Operator);
    const auto r = f->call("POST", "deliveries/resolve", operatorToken, body);
    QCOMPARE(r.status, 200);
    QCOMPARE(deliveryStatus(id), QStringLiteral("resolved"));
}

QTEST_GUILESS_MAIN(TstResolve)
#include "tst_resolve.moc"
