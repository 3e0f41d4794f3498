// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Business keys through the admin API on both engines: `key=` and `q=` on GET events (newest
// first, keyset paging), the keys on GET events/{id}, and a replay selection by key.
#include "adminfixture.h"

#include <QJsonArray>
#include <QSqlQuery>
#include <QTest>
#include <QUrl>

#include <algorithm>

using namespace redrive;
using namespace redrive::test;

class TstAdminKeys final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void keyFilterFindsNewestFirstWithPaging();
    void searchMatchesAnyKeysValue();
    void badKeyFilterNamesTheField();
    void keyFilterAsDocumented();
    void eventDetailListsItsKeys();
    void replaySelectionByKey();
    void keysGoWithTheirEvent();

private:
    void addKey(qint64 eventId, const QString &name, const QString &value);
    QList<qint64> ids(const QByteArray &target, QJsonValue *next = nullptr);

    std::unique_ptr<AdminFixture> f;
    QString m_token;
};

void TstAdminKeys::init()
{
    QString error;
    f = AdminFixture::create(&error);
    QVERIFY2(f, qPrintable(error));
    QVERIFY2(f->startApi(&error), qPrintable(error));
    m_token = f->token(QStringLiteral("sam"), Role::Support);
}

void TstAdminKeys::cleanup()
{
    f.reset();
}

void TstAdminKeys::addKey(qint64 eventId, const QString &name, const QString &value)
{
    QSqlQuery q(f->db().handle());
    q.prepare(QStringLiteral("INSERT INTO event_keys (event_id, name, value) VALUES (?, ?, ?)"));
    q.addBindValue(eventId);
    q.addBindValue(name);
    q.addBindValue(value);
    QVERIFY2(q.exec(), qPrintable(sqlErrorText(q)));
}

QList<qint64> TstAdminKeys::ids(const QByteArray &target, QJsonValue *next)
{
    const auto r = f->call("GET", target, m_token);
    if (r.status != 200) {
        qWarning("%s: %d %s", target.constData(), r.status, r.body.constData());
        return { -1 };
    }
    QList<qint64> out;
    for (const QJsonValue &v : r.json.value(QLatin1String("items")).toArray())
        out.append(v.toObject().value(QLatin1String("id")).toInteger());
    if (next)
        *next = r.json.value(QLatin1String("next_cursor"));
    return out;
}

void TstAdminKeys::keyFilterFindsNewestFirstWithPaging()
{
    QList<qint64> orders;
    for (int i = 0; i < 5; ++i) {
        const qint64 id
            = f->insertEvent(QStringLiteral("stripe"), QStringLiteral("payment_intent.succeeded"));
        addKey(id, QStringLiteral("order"), i % 2 == 0 ? QStringLiteral("1042") : QStringLiteral("1043"));
        addKey(id, QStringLiteral("customer"), QStringLiteral("cus_%1").arg(i));
        if (i % 2 == 0)
            orders.prepend(id); // newest first
    }
    // Another key holding the same value is not the order.
    addKey(f->insertEvent(QStringLiteral("shopify")), QStringLiteral("sku"), QStringLiteral("1042"));

    QCOMPARE(ids("events?key=order:1042"), orders);
    QJsonValue next;
    QCOMPARE(ids("events?key=order:1042&limit=2", &next), orders.mid(0, 2));
    QVERIFY(next.isString());
    QCOMPARE(ids("events?key=order:1042&limit=2&cursor=" + QUrl::toPercentEncoding(next.toString()), &next),
        orders.mid(2, 1));
    QVERIFY(next.isNull());
    // With other filters: AND.
    QCOMPARE(ids("events?key=order:1042&source=shopify"), QList<qint64>());
    QCOMPARE(ids("events?key=order:9999"), QList<qint64>());
}

void TstAdminKeys::searchMatchesAnyKeysValue()
{
    const qint64 stripe = f->insertEvent(QStringLiteral("stripe"));
    addKey(stripe, QStringLiteral("order"), QStringLiteral("1042"));
    const qint64 shopify = f->insertEvent(QStringLiteral("shopify"));
    addKey(shopify, QStringLiteral("order_number"), QStringLiteral("1042"));
    const qint64 other = f->insertEvent(QStringLiteral("shopify"));
    addKey(other, QStringLiteral("order_number"), QStringLiteral("1043"));

    QCOMPARE(ids("events?q=1042"), (QList<qint64> { shopify, stripe }));
    QCOMPARE(ids("events?q=order:1042"), (QList<qint64> { stripe }));
    QCOMPARE(ids("events?q=" + QUrl::toPercentEncoding(QStringLiteral("order_number:1043"))),
        (QList<qint64> { other }));
}

void TstAdminKeys::badKeyFilterNamesTheField()
{
    const auto r = f->call("GET", "events?key=1042", m_token);
    QCOMPARE(r.status, 400);
    QCOMPARE(r.field(), QStringLiteral("key"));
}

// The edges docs/admin-api.md states for key=: split at the first colon, surrounding spaces
// dropped, a name no event has finds nothing (no error), the length limits name the field.
void TstAdminKeys::keyFilterAsDocumented()
{
    const qint64 urn = f->insertEvent(QStringLiteral("stripe"));
    addKey(urn, QStringLiteral("ref"), QStringLiteral("urn:order:7"));
    QCOMPARE(ids("events?key=" + QUrl::toPercentEncoding(QStringLiteral("ref:urn:order:7"))),
        (QList<qint64> { urn }));
    QCOMPARE(ids("events?key=" + QUrl::toPercentEncoding(QStringLiteral("  ref:urn:order:7 "))),
        (QList<qint64> { urn }));
    QCOMPARE(ids("events?key=nosuchkey:7"), QList<qint64>());
    for (const QString &bad : QStringList { QStringLiteral(":7"), QStringLiteral("ref:"),
             QString(65, u'n') + QStringLiteral(":7"), QStringLiteral("ref:") + QString(513, u'v') }) {
        const auto r = f->call("GET", "events?key=" + QUrl::toPercentEncoding(bad), m_token);
        QCOMPARE(r.status, 400);
        QCOMPARE(r.field(), QStringLiteral("key"));
    }
}

void TstAdminKeys::eventDetailListsItsKeys()
{
    const qint64 id = f->insertEvent(QStringLiteral("stripe"));
    addKey(id, QStringLiteral("order"), QStringLiteral("1042"));
    addKey(id, QStringLiteral("email"), QStringLiteral("jenny.rosen@example.com"));
    const auto r = f->call("GET", "events/" + QByteArray::number(id), m_token);
    QVERIFY2(r.status == 200, r.body.constData());
    const QJsonObject keys = r.json.value(QLatin1String("keys")).toObject();
    QCOMPARE(keys.size(), 2);
    QCOMPARE(keys.value(QLatin1String("order")).toString(), QStringLiteral("1042"));
    QCOMPARE(keys.value(QLatin1String("email")).toString(), QStringLiteral("jenny.rosen@example.com"));
    const qint64 bare = f->insertEvent(QStringLiteral("stripe"));
    const auto none = f->call("GET", "events/" + QByteArray::number(bare), m_token);
    QVERIFY(none.json.value(QLatin1String("keys")).toObject().isEmpty());
}

void TstAdminKeys::replaySelectionByKey()
{
    const qint64 e1 = f->insertEvent(QStringLiteral("stripe"));
    addKey(e1, QStringLiteral("order"), QStringLiteral("1042"));
    const qint64 d1 = f->insertDelivery(e1, QStringLiteral("crm"), DeliveryStatus::Dead);
    const qint64 e2 = f->insertEvent(QStringLiteral("stripe"));
    addKey(e2, QStringLiteral("order"), QStringLiteral("1043"));
    f->insertDelivery(e2, QStringLiteral("crm"), DeliveryStatus::Dead);
    const qint64 e3 = f->insertEvent(QStringLiteral("shopify"));
    addKey(e3, QStringLiteral("order"), QStringLiteral("1042"));
    const qint64 d3 = f->insertDelivery(e3, QStringLiteral("crm"), DeliveryStatus::Dead);

    const auto r = f->call("POST", "replays/preview", m_token,
        QJsonObject { { QStringLiteral("filter"),
            QJsonObject { { QStringLiteral("key"), QStringLiteral("order:1042") },
                { QStringLiteral("delivery_status"), QStringLiteral("dead") } } } });
    QVERIFY2(r.status == 200, r.body.constData());
    QList<qint64> selected;
    for (const QJsonValue &v : r.json.value(QLatin1String("delivery_ids")).toArray())
        selected.append(v.toInteger());
    std::sort(selected.begin(), selected.end());
    QCOMPARE(selected, (QList<qint64> { d1, d3 }));

    const auto bad = f->call("POST", "replays/preview", m_token,
        QJsonObject { { QStringLiteral("filter"),
            QJsonObject { { QStringLiteral("key"), QStringLiteral("order") } } } });
    QCOMPARE(bad.status, 400);
    QCOMPARE(bad.field(), QStringLiteral("filter.key"));
}

void TstAdminKeys::keysGoWithTheirEvent()
{
    const qint64 gone = f->insertEvent(QStringLiteral("stripe"));
    addKey(gone, QStringLiteral("order"), QStringLiteral("1042"));
    const qint64 kept = f->insertEvent(QStringLiteral("stripe"));
    addKey(kept, QStringLiteral("order"), QStringLiteral("1042"));
    QSqlQuery q(f->db().handle());
    q.prepare(QStringLiteral("DELETE FROM events WHERE id = ?")); // what retention does
    q.addBindValue(gone);
    QVERIFY2(q.exec(), qPrintable(sqlErrorText(q)));
    QCOMPARE(f->count(QStringLiteral("event_keys")), 1);
    QCOMPARE(ids("events?key=order:1042"), (QList<qint64> { kept }));
}

QTEST_GUILESS_MAIN(TstAdminKeys)
#include "tst_adminkeys.moc"
