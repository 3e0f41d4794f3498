// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include "config/config.h"
#include "util/headers.h"

#include <QByteArray>
#include <QByteArrayView>

#include <optional>

namespace redrive::delivery {

// What one attempt sends besides the body (docs/operations.md, "Configuration reference" ›
// `[[destinations]]`).
struct OutgoingMessage {
    QByteArray idempotencyKey; // deliveries.idempotency_key: identical on every attempt and replay
    QByteArray contentType; // events.content_type, as received; omitted when empty
    QByteArrayView body; // the stored body, byte-exact
    qint64 timestampSeconds = 0;
    std::optional<Secret> signingSecret; // the destination's Standard Webhooks key
    qint64 deliveryId = 0;
    int attemptNumber = 0;
};

// Content-Type, Idempotency-Key, webhook-id, webhook-timestamp, webhook-signature (only with a
// signing secret), User-Agent and X-Redrive-Delivery/-Attempt, in that order. A stored value
// with control characters is never sent as is (no header injection): such a Content-Type is
// left out and such a key is percent-encoded (and signed in that form). Host,
// Content-Length and Connection belong to the HTTP client.
Headers composeOutgoingHeaders(const OutgoingMessage &message);

} // namespace redrive::delivery
