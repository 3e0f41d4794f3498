// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
// Provider payloads as the providers document them, for business-key extraction. Kept out of the
// test source: moc 6.4 does not tokenise raw string literals.
#pragma once

#include <QByteArray>

namespace keytest {

// GitHub's pull_request "opened" example (octokit/webhooks examples, trimmed to the fields kept).
inline const QByteArray kGitHubPullRequest = R"({
  "action": "opened",
  "number": 2,
  "pull_request": {
    "url": "https://api.github.com/repos/Codertocat/Hello-World/pulls/2",
    "id": 279147437,
    "node_id": "MDExOlB1bGxSZXF1ZXN0Mjc5MTQ3NDM3",
    "number": 2,
    "state": "open",
    "locked": false,
    "title": "Update the README with new information.",
    "user": { "login": "Codertocat", "id": 21031067, "type": "User", "site_admin": false },
    "body": "This is a pretty simple change that we need to pull into master.",
    "labels": [],
    "head": { "label": "Codertocat:changes", "ref": "changes", "sha": "ec26c3e57ca3a959ca5aad62de7213c562f8c821" },
    "base": { "label": "Codertocat:master", "ref": "master", "sha": "f95f852bd8fca8fcc58a9a2d6c842781e32a215e" },
    "merged": false,
    "mergeable": null
  },
  "repository": {
    "id": 186853002,
    "node_id": "MDEwOlJlcG9zaXRvcnkxODY4NTMwMDI=",
    "name": "Hello-World",
    "full_name": "Codertocat/Hello-World",
    "private": false,
    "owner": { "login": "Codertocat", "id": 21031067 }
  },
  "sender": { "login": "Codertocat", "id": 21031067, "type": "User" }
})";

// Stripe's payment_intent.succeeded event, as the API reference shows it, with the metadata a
// shop puts on the intent.
inline const QByteArray kStripePaymentIntent = R"({
  "id": "evt_3MtwBwLkdIwHu7ix28a3tqPa",
  "object": "event",
  "api_version": "2022-11-15",
  "created": 1680064028,
  "data": {
    "object": {
      "id": "pi_3MtwBwLkdIwHu7ix28a3tqPa",
      "object": "payment_intent",
      "amount": 2000,
      "amount_received": 2000,
      "currency": "usd",
      "customer": "cus_NffrFeUfNV2Hib",
      "description": null,
      "metadata": { "order_id": "6735" },
      "receipt_email": "jenny.rosen@example.com",
      "status": "succeeded"
    }
  },
  "livemode": false,
  "pending_webhooks": 1,
  "request": { "id": null, "idempotency_key": null },
  "type": "payment_intent.succeeded"
})";

// Shopify's orders/create test notification (the admin's "Send test notification"), trimmed.
// The order id needs all 64 bits: a double would round it.
inline const QByteArray kShopifyOrder = R"({
  "id": 820982911946154508,
  "admin_graphql_api_id": "gid://shopify/Order/820982911946154508",
  "email": "jon@example.com",
  "name": "#9999",
  "number": 234,
  "order_number": 1234,
  "total_price": "403.00",
  "currency": "USD",
  "financial_status": "voided",
  "customer": { "id": 115310627314723954, "email": "john@example.com", "first_name": "John" },
  "line_items": [ { "id": 866550311766439020, "sku": "IPOD2008PINK", "quantity": 1, "price": "199.00" } ]
})";

} // namespace keytest
