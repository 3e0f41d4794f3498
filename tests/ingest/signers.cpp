// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "signers.h"

#include "crypto/crypto.h"

namespace redrive::test {

HeaderList signGitHub(
    const QByteArray &secret, const QByteArray &body, const QByteArray &deliveryId, const QByteArray &event)
{
    return { { "X-Hub-Signature-256", "sha256=" + crypto::hmacSha256(secret, body).toHex() },
        { "X-GitHub-Delivery", deliveryId }, { "X-GitHub-Event", event } };
}

HeaderList signStandardWebhooks(
    const QByteArray &key, const QByteArray &id, qint64 timestamp, const QByteArray &body)
{
    const QByteArray ts = QByteArray::number(timestamp);
    const QByteArray mac = crypto::hmacSha256(key, { id, ".", ts, ".", body });
    return { { "webhook-id", id }, { "webhook-timestamp", ts },
        { "webhook-signature", "v1," + mac.toBase64() } };
}

HeaderList signStripe(const QByteArray &secret, qint64 timestamp, const QByteArray &body)
{
    const QByteArray ts = QByteArray::number(timestamp);
    const QByteArray mac = crypto::hmacSha256(secret, { ts, ".", body });
    return { { "Stripe-Signature", "t=" + ts + ",v1=" + mac.toHex() } };
}

HeaderList signShopify(
    const QByteArray &secret, const QByteArray &body, const QByteArray &id, const QByteArray &topic)
{
    return { { "X-Shopify-Hmac-Sha256", crypto::hmacSha256(secret, body).toBase64() },
        { "X-Shopify-Webhook-Id", id }, { "X-Shopify-Topic", topic },
        { "X-Shopify-Triggered-At", "2026-01-02T03:04:05.678Z" } };
}

HeaderList signGeneric(const QByteArray &secret, const QByteArray &body, const QByteArray &id)
{
    HeaderList h { { "X-Signature", "sha256=" + crypto::hmacSha256(secret, body).toHex() } };
    if (!id.isEmpty())
        h.append({ "X-Event-Id", id });
    return h;
}

} // namespace redrive::test
