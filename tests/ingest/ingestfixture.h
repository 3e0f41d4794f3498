// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Kept out of the test sources: moc 6.4 does not tokenise raw string literals.
#pragma once

#include "crypto/crypto.h"
#include "storage/ingeststore.h"

#include <QByteArray>
#include <QString>

namespace redrive::test {

// A verified GitHub-style event as the writer receives it, with a JSON body naming its id.
inline IncomingEvent makeIncomingEvent(const QString &id, const QString &source = QStringLiteral("gh"))
{
    IncomingEvent e;
    e.source = source;
    e.providerEventId = id;
    e.eventType = QStringLiteral("push");
    e.receivedAtMs = 1'700'000'000'000;
    e.contentType = QStringLiteral("application/json");
    e.body = "{\"id\":\"" + id.toUtf8() + "\",\"customer\":{\"id\":7}}";
    e.bodySha256Hex = crypto::sha256Hex(e.body);
    e.headersJson = "[]";
    e.verifiedBy = QStringLiteral("sources[0].secrets[0]");
    e.remoteAddress = QStringLiteral("127.0.0.1");
    return e;
}

// Secrets of the ingest fixture (test values, not real ones).
inline const QByteArray kGitHubSecret = "It is a Secret to Everybody";
inline const QByteArray kGitHubOldSecret = "the-rotated-out-secret";
inline const QByteArray kStandardSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"; // key = base64 part
inline const QByteArray kStripeSecret = "whsec_stripe_fixture_secret";
inline const QByteArray kShopifySecret = "shopify-fixture-secret";
inline const QByteArray kGenericSecret = "generic-fixture-secret";

// Sources: gh (github, two secrets: rotation), sw (standard-webhooks), st (stripe), sh (shopify),
// gen (hmac-sha256 with X-Event-Id and a JSON type), weak (hmac-sha256 without id: digest id).
// Routes: gh → crm + erp, sw → crm for invoice.*, sh → erp, gen → crm; st and weak have none.
inline QByteArray ingestConfigToml(const QString &storageUrl, int queueCapacity = 10'000,
    int rejectionsKeep = 10'000, qint64 maxBody = 65'536)
{
    return QByteArray(R"(
[server]
listen = "127.0.0.1:0"
max_body_bytes = )")
        + QByteArray::number(maxBody) + R"(
write_queue_capacity = )"
        + QByteArray::number(queueCapacity) + R"(
read_timeout = "5s"

[storage]
url = ")"
        + storageUrl.toUtf8() + R"("
batch_max = 64
rejections_keep = )"
        + QByteArray::number(rejectionsKeep) + R"(

[[sources]]
name = "gh"
scheme = "github"
secrets = ["the-rotated-out-secret", "It is a Secret to Everybody"]

[[sources]]
name = "sw"
scheme = "standard-webhooks"
secrets = ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"]

[[sources]]
name = "st"
scheme = "stripe"
secrets = ["whsec_stripe_fixture_secret"]

[[sources]]
name = "sh"
scheme = "shopify"
secrets = ["shopify-fixture-secret"]

[[sources]]
name = "gen"
scheme = "hmac-sha256"
secrets = ["generic-fixture-secret"]
signature_header = "X-Signature"
signature_prefix = "sha256="
id_header = "X-Event-Id"
type_json_pointer = "/kind"

[[sources]]
name = "weak"
scheme = "hmac-sha256"
secrets = ["generic-fixture-secret"]
signature_header = "X-Signature"
signature_prefix = "sha256="

[[destinations]]
name = "crm"
url = "http://127.0.0.1:9/crm"
allow_private = true
ordering_key = "json:/customer/id"

[[destinations]]
name = "erp"
url = "http://127.0.0.1:9/erp"
allow_private = true

[[routes]]
source = "gh"
destinations = ["crm", "erp"]

[[routes]]
source = "sw"
event_types = ["invoice.*"]
destinations = ["crm"]

[[routes]]
source = "sh"
destinations = ["erp"]

[[routes]]
source = "gen"
destinations = ["crm"]
)";
}

} // namespace redrive::test
