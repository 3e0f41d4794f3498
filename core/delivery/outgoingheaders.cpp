// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "outgoingheaders.h"

#include "signatures/verifier.h"

namespace redrive::delivery {

Headers composeOutgoingHeaders(const OutgoingMessage &m)
{
    Headers h;
    if (!m.contentType.isEmpty())
        h.add(QByteArrayLiteral("Content-Type"), m.contentType);
    h.add(QByteArrayLiteral("Idempotency-Key"), m.idempotencyKey);
    h.add(QByteArrayLiteral("webhook-id"), m.idempotencyKey);
    h.add(QByteArrayLiteral("webhook-timestamp"), QByteArray::number(m.timestampSeconds));
    if (m.signingSecret)
        h.add(QByteArrayLiteral("webhook-signature"),
              signatures::signStandardWebhooks(m.signingSecret->key, m.idempotencyKey, m.timestampSeconds, m.body));
    h.add(QByteArrayLiteral("User-Agent"), QByteArrayLiteral("Redrive/" REDRIVE_VERSION));
    h.add(QByteArrayLiteral("X-Redrive-Delivery"), QByteArray::number(m.deliveryId));
    h.add(QByteArrayLiteral("X-Redrive-Attempt"), QByteArray::number(m.attemptNumber));
    return h;
}

} // namespace redrive::delivery
