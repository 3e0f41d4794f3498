// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "payloads.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUuid>

namespace redrive::demo {
namespace {

QByteArray hexId(QRandomGenerator &rng, int bytes)
{
    QByteArray raw(bytes, Qt::Uninitialized);
    for (char &c : raw)
        c = static_cast<char>(rng.bounded(256));
    return raw.toHex();
}

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

const char *const kRepos[] = { "acme/storefront", "acme/fulfillment-api", "acme/billing", "acme/docs" };
const char *const kUsers[] = { "mona", "hubot", "octocat", "dependabot[bot]", "ana-ops" };
const char *const kCustomers[]
    = { "cus_Q1a8ZtK", "cus_R7bPq2M", "cus_T9xLk0W", "cus_U3nHd5S", "cus_V6mGf1A" };

DemoEvent github(QRandomGenerator &rng, qint64 now)
{
    DemoEvent e;
    e.source = QStringLiteral("github");
    e.scheme = QStringLiteral("github");
    e.id = QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
    const QString repo = QString::fromLatin1(kRepos[rng.bounded(4)]);
    const QString user = QString::fromLatin1(kUsers[rng.bounded(5)]);
    QJsonObject repository { { QStringLiteral("id"), static_cast<int>(1296269 + rng.bounded(50)) },
        { QStringLiteral("full_name"), repo }, { QStringLiteral("private"), true },
        { QStringLiteral("default_branch"), QStringLiteral("main") } };
    QJsonObject sender { { QStringLiteral("login"), user },
        { QStringLiteral("id"), static_cast<int>(583231 + rng.bounded(1000)) } };
    QByteArray event;
    QJsonObject body;
    const int pick = rng.bounded(10);
    if (pick < 5) {
        event = "push";
        const QString after = QString::fromLatin1(hexId(rng, 20));
        body = { { QStringLiteral("ref"), QStringLiteral("refs/heads/main") },
            { QStringLiteral("before"), QString::fromLatin1(hexId(rng, 20)) },
            { QStringLiteral("after"), after },
            { QStringLiteral("commits"),
                QJsonArray { QJsonObject { { QStringLiteral("id"), after },
                    { QStringLiteral("message"), QStringLiteral("Fix rounding in invoice totals") },
                    { QStringLiteral("timestamp"),
                        QDateTime::fromSecsSinceEpoch(now, Qt::UTC).toString(Qt::ISODate) } } } },
            { QStringLiteral("repository"), repository }, { QStringLiteral("sender"), sender } };
    } else if (pick < 8) {
        event = "pull_request";
        const char *actions[] = { "opened", "closed", "synchronize", "reopened" };
        const int number = static_cast<int>(100 + rng.bounded(900));
        body = { { QStringLiteral("action"), QString::fromLatin1(actions[rng.bounded(4)]) },
            { QStringLiteral("number"), number },
            { QStringLiteral("pull_request"),
                QJsonObject { { QStringLiteral("number"), number },
                    { QStringLiteral("title"), QStringLiteral("Retry fulfillment on 503") },
                    { QStringLiteral("state"), QStringLiteral("open") },
                    { QStringLiteral("user"), sender } } },
            { QStringLiteral("repository"), repository }, { QStringLiteral("sender"), sender } };
    } else {
        event = "issues";
        body = { { QStringLiteral("action"), QStringLiteral("opened") },
            { QStringLiteral("issue"),
                QJsonObject { { QStringLiteral("number"), static_cast<int>(1 + rng.bounded(500)) },
                    { QStringLiteral("title"), QStringLiteral("Order confirmation emails sent twice") } } },
            { QStringLiteral("repository"), repository }, { QStringLiteral("sender"), sender } };
    }
    e.body = compact(body);
    e.type = event;
    e.headers
        = { { "X-GitHub-Event", event }, { "X-GitHub-Delivery", e.id }, { "X-GitHub-Hook-ID", "418221094" },
              { "User-Agent", "GitHub-Hookshot/5f8a3e1" }, { "Content-Type", "application/json" } };
    return e;
}

DemoEvent stripe(QRandomGenerator &rng, qint64 now)
{
    DemoEvent e;
    e.source = QStringLiteral("stripe");
    e.scheme = QStringLiteral("stripe");
    e.id = "evt_" + hexId(rng, 12);
    const char *types[] = { "payment_intent.succeeded", "invoice.paid", "charge.refunded",
        "customer.subscription.updated", "payment_intent.payment_failed" };
    e.type = types[rng.bounded(5)];
    const QString customer = QString::fromLatin1(kCustomers[rng.bounded(5)]);
    const int amount = static_cast<int>(500 + rng.bounded(50000));
    // The shop's order number, in the same small range as the Shopify orders (search "1042").
    const QString orderId = QString::number(1000 + amount % 100);
    QJsonObject object { { QStringLiteral("id"),
                             QString(QStringLiteral("pi_") + QString::fromLatin1(hexId(rng, 12))) },
        { QStringLiteral("object"), QStringLiteral("payment_intent") }, { QStringLiteral("amount"), amount },
        { QStringLiteral("currency"), QStringLiteral("eur") }, { QStringLiteral("customer"), customer },
        { QStringLiteral("status"), QStringLiteral("succeeded") },
        { QStringLiteral("metadata"), QJsonObject { { QStringLiteral("order_id"), orderId } } } };
    QJsonObject body { { QStringLiteral("id"), QString::fromLatin1(e.id) },
        { QStringLiteral("object"), QStringLiteral("event") },
        { QStringLiteral("api_version"), QStringLiteral("2024-06-20") }, { QStringLiteral("created"), now },
        { QStringLiteral("type"), QString::fromLatin1(e.type) }, { QStringLiteral("livemode"), false },
        { QStringLiteral("pending_webhooks"), 2 },
        { QStringLiteral("data"), QJsonObject { { QStringLiteral("object"), object } } },
        { QStringLiteral("customer"), QJsonObject { { QStringLiteral("id"), customer } } } };
    e.body = compact(body);
    e.headers = { { "User-Agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)" },
        { "Content-Type", "application/json; charset=utf-8" } };
    return e;
}

DemoEvent shopify(QRandomGenerator &rng, qint64 now)
{
    DemoEvent e;
    e.source = QStringLiteral("shopify");
    e.scheme = QStringLiteral("shopify");
    e.id = QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
    const char *topics[] = { "orders/create", "orders/paid", "orders/fulfilled", "refunds/create" };
    e.type = topics[rng.bounded(4)];
    const qint64 order = 820982911946154508LL + rng.bounded(100000);
    const int orderNumber = static_cast<int>(1000 + rng.bounded(100)); // few, so a search finds several
    QJsonObject body { { QStringLiteral("id"), QString::number(order) },
        { QStringLiteral("name"), QStringLiteral("#%1").arg(orderNumber) },
        { QStringLiteral("order_number"), orderNumber },
        { QStringLiteral("total_price"),
            QString(QString::number(10 + rng.bounded(400)) + QStringLiteral(".00")) },
        { QStringLiteral("currency"), QStringLiteral("EUR") },
        { QStringLiteral("email"), QStringLiteral("customer%1@example.com").arg(rng.bounded(100)) },
        { QStringLiteral("customer"),
            QJsonObject { { QStringLiteral("id"), QString::fromLatin1(kCustomers[rng.bounded(5)]) } } },
        // Personal data the demo's shopify source redacts (scripts/demo.sh: redact).
        { QStringLiteral("shipping_address"),
            QJsonObject { { QStringLiteral("name"), QStringLiteral("Ana Lima") },
                { QStringLiteral("address1"),
                    QStringLiteral("%1 Rue de la République").arg(1 + rng.bounded(90)) },
                { QStringLiteral("city"), QStringLiteral("Lyon") },
                { QStringLiteral("zip"), QStringLiteral("69002") },
                { QStringLiteral("phone"), QStringLiteral("+33 6 12 34 %1").arg(10 + rng.bounded(89)) } } },
        { QStringLiteral("created_at"), QDateTime::fromSecsSinceEpoch(now, Qt::UTC).toString(Qt::ISODate) } };
    e.body = compact(body);
    e.headers = { { "X-Shopify-Topic", e.type }, { "X-Shopify-Webhook-Id", e.id },
        { "X-Shopify-Shop-Domain", "acme-demo.myshopify.com" },
        { "X-Shopify-Triggered-At",
            QDateTime::fromSecsSinceEpoch(now, Qt::UTC).toString(Qt::ISODate).toLatin1() },
        { "Content-Type", "application/json" } };
    return e;
}

DemoEvent accounts(QRandomGenerator &rng, qint64 now)
{
    DemoEvent e;
    e.source = QStringLiteral("accounts");
    e.scheme = QStringLiteral("standard-webhooks");
    e.id = "msg_" + hexId(rng, 12);
    const char *types[] = { "user.created", "user.deleted", "subscription.renewed" };
    e.type = types[rng.bounded(3)];
    QJsonObject body { { QStringLiteral("type"), QString::fromLatin1(e.type) },
        { QStringLiteral("timestamp"), QDateTime::fromSecsSinceEpoch(now, Qt::UTC).toString(Qt::ISODate) },
        { QStringLiteral("data"),
            QJsonObject { { QStringLiteral("user_id"),
                              QString(QStringLiteral("usr_") + QString::fromLatin1(hexId(rng, 6))) },
                { QStringLiteral("plan"), QStringLiteral("team") },
                { QStringLiteral("customer"),
                    QJsonObject {
                        { QStringLiteral("id"), QString::fromLatin1(kCustomers[rng.bounded(5)]) } } } } } };
    e.body = compact(body);
    e.headers = { { "Content-Type", "application/json" } };
    return e;
}

} // namespace

DemoEvent makeEvent(QRandomGenerator &rng, qint64 nowSeconds)
{
    switch (rng.bounded(4)) {
    case 0:
        return github(rng, nowSeconds);
    case 1:
        return stripe(rng, nowSeconds);
    case 2:
        return shopify(rng, nowSeconds);
    default:
        return accounts(rng, nowSeconds);
    }
}

} // namespace redrive::demo
