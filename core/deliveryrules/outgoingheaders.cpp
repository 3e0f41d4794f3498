// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "outgoingheaders.h"

#include "signatures/verifier.h"

namespace redrive::delivery {
namespace {

// Stored values come from other systems (the provider's Content-Type); a control character
// would let them forge extra header lines, so such a value is not sent at all.
bool isSafeFieldValue(QByteArrayView value)
{
    for (char c : value) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\t') || u == 0x7f)
            return false;
    }
    return true;
}

} // namespace

Headers composeOutgoingHeaders(const OutgoingMessage &m)
{
    Headers h;
    if (!m.contentType.isEmpty() && isSafeFieldValue(m.contentType))
        h.add(QByteArrayLiteral("Content-Type"), m.contentType);
    const QByteArray key
        = isSafeFieldValue(m.idempotencyKey) ? m.idempotencyKey : m.idempotencyKey.toPercentEncoding();
    h.add(QByteArrayLiteral("Idempotency-Key"), key);
    h.add(QByteArrayLiteral("webhook-id"), key);
    h.add(QByteArrayLiteral("webhook-timestamp"), QByteArray::number(m.timestampSeconds));
    if (m.signingSecret)
        h.add(QByteArrayLiteral("webhook-signature"),
            signatures::signStandardWebhooks(m.signingSecret->key, key, m.timestampSeconds, m.body));
    h.add(QByteArrayLiteral("User-Agent"), QByteArrayLiteral("Redrive/" REDRIVE_VERSION));
    h.add(QByteArrayLiteral("X-Redrive-Delivery"), QByteArray::number(m.deliveryId));
    h.add(QByteArrayLiteral("X-Redrive-Attempt"), QByteArray::number(m.attemptNumber));
    return h;
}

} // namespace redrive::delivery
