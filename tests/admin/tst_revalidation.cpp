// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Quarantined events through the admin API on SQLite and PostgreSQL: GET events/{id} shows their
// schema errors; POST events/{id}/revalidate and POST events/revalidate check them again against
// the schemas now configured, and those that pass get their deliveries as ingest would have
// created them; audited event_revalidated.

#include "adminfixture.h"
#include "storage/eventvalidation.h"
#include "storage/ingeststore.h"
#include "validation/schemavalidator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QTest>

using namespace redrive;
using namespace redrive::test;

namespace {

// The fixture's events carry {"hello":"world"}: the first schema refuses it, the second takes it.
const QByteArray kBroken = R"({"type":"object","required":["id"]})";
const QByteArray kFixed = R"({"type":"object","required":["hello"]})";

std::shared_ptr<const validation::CompiledSchema> schemaOf(const QByteArray &json)
{
    QString error;
    auto s = validation::CompiledSchema::compile(QJsonDocument::fromJson(json).object(), QString(), &error);
    if (!s)
        qFatal("schema: %s", qPrintable(error));
    return s;
}

void useSchema(Config &c, const QByteArray &json)
{
    SourceConfig source;
    source.name = QStringLiteral("github");
    SchemaRule rule;
    rule.eventTypes = { QStringLiteral("push") };
    rule.path = QStringLiteral("/etc/redrive/schemas/push.json");
    rule.schema = schemaOf(json);
    source.schemas = { rule };
    c.sources = { source };
    c.routes = { RouteConfig { QStringLiteral("github"), {}, { QStringLiteral("crm") } } };
}

} // namespace

class TstRevalidation final : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<AdminFixture> f;
    QString support;

    // An event as ingest quarantines it: status invalid, its errors stored, no deliveries.
    qint64 quarantined()
    {
        const qint64 id = f->insertEvent();
        QSqlQuery q(f->db().handle());
        q.prepare(QStringLiteral("UPDATE event_status SET status = 'invalid' WHERE event_id = ?"));
        q.addBindValue(id);
        if (!q.exec())
            qFatal("quarantine: %s", qPrintable(sqlErrorText(q)));
        const auto stored = storeValidationErrors(f->db(), id,
            validation::validationErrorsJson(schemaOf(kBroken)->validateBody("{\"hello\":\"world\"}")),
            f->clock.nowMs());
        if (!stored)
            qFatal("errors: %s", qPrintable(stored.error()));
        return id;
    }
    QString statusOf(qint64 id)
    {
        QSqlQuery q(f->db().handle());
        q.prepare(QStringLiteral("SELECT status FROM event_status WHERE event_id = ?"));
        q.addBindValue(id);
        return q.exec() && q.next() ? q.value(0).toString() : QString();
    }
    qint64 deliveriesOf(qint64 id)
    {
        return f->count(QStringLiteral("deliveries"), QStringLiteral("event_id = %1").arg(id));
    }
    void restartWith(const QByteArray &schema)
    {
        f->stopApi();
        useSchema(f->config, schema);
        QString error;
        QVERIFY2(f->startApi(&error), qPrintable(error));
    }
    QJsonObject lastAudit()
    {
        QSqlQuery q(f->db().handle());
        if (!q.exec(QStringLiteral(
                "SELECT action, target, actor, details FROM audit_log ORDER BY seq DESC LIMIT 1"))
            || !q.next())
            return {};
        return QJsonObject { { QStringLiteral("action"), q.value(0).toString() },
            { QStringLiteral("target"), q.value(1).toString() },
            { QStringLiteral("actor"), q.value(2).toString() },
            { QStringLiteral("details"), QJsonDocument::fromJson(q.value(3).toString().toUtf8()).object() } };
    }

private Q_SLOTS:
    void init()
    {
        QString error;
        f = AdminFixture::create(&error, [](Config &c) { useSchema(c, kBroken); });
        QVERIFY2(f, qPrintable(error));
        QVERIFY2(f->startApi(&error), qPrintable(error));
        support = f->token(QStringLiteral("sam"), Role::Support);
    }
    void cleanup() { f.reset(); }

    void eventDetailShowsValidationErrors()
    {
        const qint64 bad = quarantined();
        const auto r = f->call("GET", "events/" + QByteArray::number(bad), support);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value(QLatin1String("status")).toString(), QStringLiteral("invalid"));
        const QJsonArray errors = r.json.value(QLatin1String("validation_errors")).toArray();
        QVERIFY(!errors.isEmpty());
        const QJsonObject first = errors.first().toObject();
        QVERIFY(first.contains(QLatin1String("pointer")));
        QVERIFY2(first.value(QLatin1String("message")).toString().contains(QLatin1String("id")),
            qPrintable(QString::fromUtf8(r.body)));
        const auto good = f->call("GET", "events/" + QByteArray::number(f->insertEvent()), support);
        QCOMPARE(good.status, 200);
        QVERIFY(good.json.value(QLatin1String("validation_errors")).isArray());
        QVERIFY(good.json.value(QLatin1String("validation_errors")).toArray().isEmpty());
    }

    void revalidateOneAfterTheSchemaIsFixed()
    {
        const qint64 id = quarantined();
        const QByteArray target = "events/" + QByteArray::number(id) + "/revalidate";
        // Still the broken schema: still invalid, errors refreshed, nothing to deliver.
        f->clock.advanceMs(60'000);
        auto r = f->call("POST", target, support);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value(QLatin1String("valid")).toBool(true), false);
        QCOMPARE(r.json.value(QLatin1String("status")).toString(), QStringLiteral("invalid"));
        QVERIFY(!r.json.value(QLatin1String("validation_errors")).toArray().isEmpty());
        QCOMPARE(statusOf(id), QStringLiteral("invalid"));
        QCOMPARE(deliveriesOf(id), 0);
        QCOMPARE(f->count(QStringLiteral("event_validation"),
                     QStringLiteral("event_id = %1 AND checked_at = %2").arg(id).arg(f->clock.nowMs())),
            1);
        QCOMPARE(lastAudit().value(QLatin1String("action")).toString(), QStringLiteral("event_revalidated"));

        restartWith(kFixed);
        r = f->call("POST", target, support,
            QJsonObject { { QStringLiteral("reason"), QStringLiteral("schema v2 accepts it") } });
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value(QLatin1String("valid")).toBool(), true);
        QCOMPARE(r.json.value(QLatin1String("deliveries_created")).toInt(), 1);
        QCOMPARE(r.json.value(QLatin1String("status")).toString(), QStringLiteral("pending"));
        QVERIFY(r.json.value(QLatin1String("validation_errors")).toArray().isEmpty());
        QCOMPARE(statusOf(id), QStringLiteral("pending"));
        QCOMPARE(f->count(QStringLiteral("event_validation"), QStringLiteral("event_id = %1").arg(id)), 0);
        // The delivery ingest would have made: same destination, same idempotency key.
        QSqlQuery q(f->db().handle());
        q.prepare(
            QStringLiteral("SELECT destination, status, idempotency_key FROM deliveries WHERE event_id = ?"));
        q.addBindValue(id);
        QVERIFY(q.exec() && q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("crm"));
        QCOMPARE(q.value(1).toString(), QStringLiteral("pending"));
        QSqlQuery p(f->db().handle());
        p.prepare(QStringLiteral("SELECT provider_event_id FROM events WHERE id = ?"));
        p.addBindValue(id);
        QVERIFY(p.exec() && p.next());
        QCOMPARE(q.value(2).toString(), deliveryIdempotencyKey(u"github", p.value(0).toString(), u"crm"));
        const QJsonObject audit = lastAudit();
        QCOMPARE(audit.value(QLatin1String("action")).toString(), QStringLiteral("event_revalidated"));
        QCOMPARE(audit.value(QLatin1String("target")).toString(), QStringLiteral("event:%1").arg(id));
        QCOMPARE(audit.value(QLatin1String("actor")).toString(), QStringLiteral("sam"));
        QCOMPARE(
            audit.value(QLatin1String("details")).toObject().value(QLatin1String("valid")).toBool(), true);

        // It left quarantine: a second revalidation has nothing to do and says so.
        r = f->call("POST", target, support);
        QCOMPARE(r.status, 409);
        QCOMPARE(r.error(), QStringLiteral("not_invalid"));
        QCOMPARE(deliveriesOf(id), 1);
        QCOMPARE(f->call("POST", "events/999999/revalidate", support).status, 404);
    }

    void revalidateByFilterInPages()
    {
        const qint64 a = quarantined(), b = quarantined(), c = quarantined();
        const qint64 delivered = f->insertEvent();
        f->insertDelivery(delivered, QStringLiteral("crm"), DeliveryStatus::Succeeded);
        restartWith(kFixed);
        const QJsonObject filter { { QStringLiteral("source"), QStringLiteral("github") } };
        auto r = f->call("POST", "events/revalidate", support,
            QJsonObject { { QStringLiteral("filter"), filter }, { QStringLiteral("limit"), 2 } });
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value(QLatin1String("checked")).toInt(), 2);
        QCOMPARE(r.json.value(QLatin1String("valid")).toInt(), 2);
        QCOMPARE(r.json.value(QLatin1String("still_invalid")).toInt(), 0);
        QCOMPARE(r.json.value(QLatin1String("deliveries_created")).toInt(), 2);
        const QJsonValue cursor = r.json.value(QLatin1String("next_cursor"));
        QVERIFY(cursor.isString());
        const QJsonObject audit = lastAudit();
        QCOMPARE(audit.value(QLatin1String("action")).toString(), QStringLiteral("event_revalidated"));
        QCOMPARE(audit.value(QLatin1String("target")).toString(), QStringLiteral("events"));
        QCOMPARE(audit.value(QLatin1String("details")).toObject().value(QLatin1String("checked")).toInt(), 2);
        QCOMPARE(audit.value(QLatin1String("details")).toObject().value(QLatin1String("filter")).toObject(),
            filter);

        r = f->call("POST", "events/revalidate", support,
            QJsonObject { { QStringLiteral("filter"), filter }, { QStringLiteral("cursor"), cursor } });
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value(QLatin1String("checked")).toInt(), 1);
        QVERIFY(r.json.value(QLatin1String("next_cursor")).isNull());
        for (const qint64 id : { a, b, c }) {
            QCOMPARE(statusOf(id), QStringLiteral("pending"));
            QCOMPARE(deliveriesOf(id), 1);
        }
        // A delivered event is never touched by a revalidation.
        QCOMPARE(statusOf(delivered), QStringLiteral("succeeded"));
        QCOMPARE(deliveriesOf(delivered), 1);
    }

    void stillInvalidByFilterKeepsNewErrors()
    {
        const qint64 id = quarantined();
        const auto r = f->call("POST", "events/revalidate", support,
            QJsonObject { { QStringLiteral("filter"),
                QJsonObject { { QStringLiteral("status"), QStringLiteral("invalid") } } } });
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json.value(QLatin1String("checked")).toInt(), 1);
        QCOMPARE(r.json.value(QLatin1String("still_invalid")).toInt(), 1);
        QCOMPARE(r.json.value(QLatin1String("deliveries_created")).toInt(), 0);
        QCOMPARE(statusOf(id), QStringLiteral("invalid"));
        QCOMPARE(deliveriesOf(id), 0);
    }

    void badRequestsNameTheField_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("field");
        QTest::newRow("no filter") << QByteArray("{}") << QStringLiteral("filter");
        QTest::newRow("empty filter") << QByteArray(R"({"filter":{}})") << QStringLiteral("filter");
        QTest::newRow("unknown filter key")
            << QByteArray(R"({"filter":{"colour":"red"}})") << QStringLiteral("filter.colour");
        QTest::newRow("limit 0") << QByteArray(R"({"filter":{"source":"github"},"limit":0})")
                                 << QStringLiteral("limit");
        QTest::newRow("limit too big")
            << QByteArray(R"({"filter":{"source":"github"},"limit":5000})") << QStringLiteral("limit");
        QTest::newRow("bad cursor") << QByteArray(R"({"filter":{"source":"github"},"cursor":"nope"})")
                                    << QStringLiteral("cursor");
        QTest::newRow("unknown key") << QByteArray(R"({"filter":{"source":"github"},"all":true})")
                                     << QString();
    }
    void badRequestsNameTheField()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, field);
        const qint64 audits = f->count(QStringLiteral("audit_log"));
        const auto r = f->call("POST", "events/revalidate", support, body);
        QCOMPARE(r.status, 400);
        if (!field.isEmpty())
            QCOMPARE(r.field(), field);
        QCOMPARE(f->count(QStringLiteral("audit_log")), audits);
    }
};

QTEST_GUILESS_MAIN(TstRevalidation)
#include "tst_revalidation.moc"
