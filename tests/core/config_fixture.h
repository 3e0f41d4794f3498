// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Kept out of the test source: moc 6.4 does not tokenise raw string literals.
#pragma once

#include <QByteArray>

namespace {
const QByteArray kValid = R"(
[server]
listen = "127.0.0.1:8080"
admin_listen = "127.0.0.1:8081"
max_body_bytes = 1048576

[storage]
url = "sqlite:///tmp/redrive.db"

[[sources]]
name = "github"
scheme = "github"
secrets = ["It is a Secret to Everybody", "env:REDRIVE_TEST_SECRET"]
keys = { pr = "json:/pull_request/number", odd = "json:/a~1b/~0c", delivery = "header:X-GitHub-Delivery" }

[[sources]]
name = "sw"
scheme = "standard-webhooks"
secrets = ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"]

[[destinations]]
name = "fulfillment"
url = "https://fulfillment.internal/hooks"
risk = "high"
retry_schedule = ["5s", "5m", "30m"]
success_ref = "json:/id"
signing_secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
ordering_key = "json:/customer/id"

[[destinations]]
name = "crm"
url = "http://127.0.0.1:9000/in"
allow_private = true

[[routes]]
source = "github"
event_types = ["push", "pull_request.*"]
destinations = ["fulfillment"]

[[routes]]
source = "github"
destinations = ["crm", "fulfillment"]
)";
} // namespace
