// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// What the console's replay flows rely on in the admin API: a dead-letter group as a preview
// filter (destination + category + delivery_status), and a request's frozen items with their
// event and outcome-unknown flag for the approvals inbox.
#include "adminfixture.h"

#include <QJsonArray>
#include <QSqlQuery>
#include <QTest>

using namespace redrive;
using namespace redrive::test;

class TstReplaySelection : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void deadLetterGroupFilterTakesOnlyItsDeadDeliveries();
    void unknownDeliveryStatusInAFilterIsRefused();
    void replayItemsCarryEventAndOutcomeUnknown();

private:
    void setCategory(qint64 deliveryId, const QString &category);
    std::unique_ptr<AdminFixture> f;
};

void TstReplaySelection::init()
{
    QString error;
    f = AdminFixture::create(&error);
    QVERIFY2(f, qPrintable(error));
    QVERIFY2(f->startApi(&error), qPrintable(error));
}

void TstReplaySelection::cleanup()
{
    f.reset();
}

void TstReplaySelection::setCategory(qint64 deliveryId, const QString &category)
{
    QSqlQuery q(f->db().handle());
    q.prepare(QStringLiteral("UPDATE deliveries SET last_category = ? WHERE id = ?"));
    q.addBindValue(category);
    q.addBindValue(deliveryId);
    QVERIFY2(q.exec(), qPrintable(sqlErrorText(q)));
}

void TstReplaySelection::deadLetterGroupFilterTakesOnlyItsDeadDeliveries()
{
    const QString token = f->token(QStringLiteral("sam"), Role::Support);
    // The group: fulfillment × http_permanent, dead.
    const qint64 e1 = f->insertEvent();
    const qint64 inGroup = f->insertDelivery(e1, QStringLiteral("fulfillment"), DeliveryStatus::Dead);
    const qint64 sameEventCrm = f->insertDelivery(e1, QStringLiteral("crm"), DeliveryStatus::Dead);
    const qint64 e2 = f->insertEvent();
    const qint64 otherCategory = f->insertDelivery(e2, QStringLiteral("fulfillment"), DeliveryStatus::Dead);
    const qint64 e3 = f->insertEvent();
    const qint64 retrying = f->insertDelivery(e3, QStringLiteral("fulfillment"), DeliveryStatus::Retrying);
    const qint64 e4 = f->insertEvent();
    // An event whose summary status is not dead (its other delivery is retrying) still belongs
    // to the group through its dead fulfillment delivery.
    const qint64 mixed = f->insertDelivery(e4, QStringLiteral("fulfillment"), DeliveryStatus::Dead);
    const qint64 mixedCrm = f->insertDelivery(e4, QStringLiteral("crm"), DeliveryStatus::Retrying);
    setCategory(inGroup, QStringLiteral("http_permanent"));
    setCategory(sameEventCrm, QStringLiteral("http_permanent"));
    setCategory(otherCategory, QStringLiteral("timeout"));
    setCategory(retrying, QStringLiteral("http_permanent"));
    setCategory(mixed, QStringLiteral("http_permanent"));
    setCategory(mixedCrm, QStringLiteral("http_permanent"));

    const QJsonObject filter { { QStringLiteral("destination"), QStringLiteral("fulfillment") },
        { QStringLiteral("category"), QStringLiteral("http_permanent") },
        { QStringLiteral("delivery_status"), QStringLiteral("dead") } };
    const auto r
        = f->call("POST", "replays/preview", token, QJsonObject { { QStringLiteral("filter"), filter } });
    QVERIFY2(r.status == 200, r.body.constData());
    QList<qint64> ids;
    for (const QJsonValue &v : r.json.value(QLatin1String("delivery_ids")).toArray())
        ids.append(v.toInteger());
    QCOMPARE(ids, (QList<qint64> { inGroup, mixed }));
    QCOMPARE(r.json.value(QLatin1String("count")).toInt(), 2);
    QVERIFY(r.json.value(QLatin1String("requires_approval")).toBool()); // fulfillment is high risk
}

void TstReplaySelection::unknownDeliveryStatusInAFilterIsRefused()
{
    const QString token = f->token(QStringLiteral("sam"), Role::Support);
    f->seedDelivery(QStringLiteral("crm"), DeliveryStatus::Dead);
    const auto r = f->call("POST", "replays/preview", token,
        QJsonObject { { QStringLiteral("filter"),
            QJsonObject { { QStringLiteral("delivery_status"), QStringLiteral("deceased") } } } });
    QCOMPARE(r.status, 400);
    QCOMPARE(r.field(), QStringLiteral("filter.delivery_status"));
    QCOMPARE(f->count(QStringLiteral("selections")), 0);
}

void TstReplaySelection::replayItemsCarryEventAndOutcomeUnknown()
{
    const QString support = f->token(QStringLiteral("sam"), Role::Support);
    const QString operatorToken = f->token(QStringLiteral("ana"), Role::Operator);
    const qint64 event = f->insertEvent();
    const qint64 unknown = f->insertDelivery(event, QStringLiteral("crm"), DeliveryStatus::Retrying, true);
    const qint64 dead = f->insertDelivery(event, QStringLiteral("billing"), DeliveryStatus::Dead);
    AdminFixture::Reply reply;
    const qint64 replay = f->requestReplay(support, { unknown, dead }, QStringLiteral("check"), &reply);
    QVERIFY2(replay > 0, reply.body.constData());
    QCOMPARE(f->replayStatus(replay), QStringLiteral("pending_approval")); // outcome unknown

    auto r = f->call("GET", "replays/" + QByteArray::number(replay), operatorToken);
    QCOMPARE(r.status, 200);
    QJsonArray items = r.json.value(QLatin1String("items")).toArray();
    QCOMPARE(items.size(), 2);
    QJsonObject first = items[0].toObject();
    QCOMPARE(first.value(QLatin1String("delivery_id")).toInteger(), unknown);
    QCOMPARE(first.value(QLatin1String("event_id")).toInteger(), event);
    QCOMPARE(first.value(QLatin1String("destination")).toString(), QStringLiteral("crm"));
    QCOMPARE(first.value(QLatin1String("frozen_status")).toString(), QStringLiteral("retrying"));
    QCOMPARE(first.value(QLatin1String("outcome_unknown")), QJsonValue(true));
    QCOMPARE(first.value(QLatin1String("frozen_outcome_unknown")), QJsonValue(true));
    QCOMPARE(items[1].toObject().value(QLatin1String("outcome_unknown")), QJsonValue(false));
    QCOMPARE(items[1].toObject().value(QLatin1String("frozen_outcome_unknown")), QJsonValue(false));

    // The frozen flag lives with the item (schema 4), so it outlives the stored selection.
    QSqlQuery q(f->db().handle());
    QVERIFY(q.exec(QStringLiteral("DELETE FROM selections")));
    r = f->call("GET", "replays/" + QByteArray::number(replay), operatorToken);
    QCOMPARE(r.status, 200);
    first = r.json.value(QLatin1String("items")).toArray()[0].toObject();
    QCOMPARE(first.value(QLatin1String("frozen_outcome_unknown")), QJsonValue(true));
    QCOMPARE(first.value(QLatin1String("outcome_unknown")), QJsonValue(true));
}

QTEST_GUILESS_MAIN(TstReplaySelection)
#include "tst_replayselection.moc"
