#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: Redrive authors
"""redrive-demo-stripe-api: a loopback stand-in of Stripe's `GET /v1/events` for the console demo.

It lists, newest first and in Stripe's shape ({"object":"list","url","has_more","data":[…]},
`limit`, `starting_after`, `created[gte]`), what the demo's "Stripe" sent: the Stripe webhooks
the receiver stored (read from its database, read-only) plus a few events whose webhooks were
"lost" — never sent at all, as when a provider gives up during an outage. A reconciliation run
of the demo's stripe source finds those missing and recovers them (origin "reconciled").

Its key comes from the environment (DEMO_STRIPE_API_KEY), as the receiver's credential does;
a request without it is answered 401 like Stripe's. Loopback only.
  stripe-api.py --port N --database PATH [--lost 4]
"""
import argparse
import json
import os
import random
import sqlite3
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

CUSTOMERS = ["cus_Q1ana", "cus_Q2ben", "cus_Q3chen", "cus_Q4dara", "cus_Q5eli"]


def lost_events(count, started):
    """Events "Stripe" never sent as webhooks: new ids each demo run, created a few minutes ago."""
    rng = random.Random(started)
    events = []
    for i in range(count):
        created = started - 600 + i * 60
        amount = 1200 + rng.randrange(40000)
        event_id = "evt_lost_%d_%d" % (started, i + 1)
        events.append({
            "id": event_id, "object": "event", "api_version": "2024-06-20", "created": created,
            "type": "payment_intent.succeeded", "livemode": False, "pending_webhooks": 0,
            "data": {"object": {
                "id": "pi_lost_%d_%d" % (started, i + 1), "object": "payment_intent", "amount": amount,
                "currency": "eur", "customer": CUSTOMERS[i % len(CUSTOMERS)], "status": "succeeded",
                "metadata": {"order_id": str(1000 + amount % 100)}}},
        })
    return events


def stored_webhooks(database, since):
    """The Stripe events the receiver stored from webhooks: what Stripe would list as sent."""
    try:
        db = sqlite3.connect("file:%s?mode=ro" % database, uri=True, timeout=5)
        try:
            rows = db.execute(
                "SELECT body FROM events WHERE source = 'stripe' AND origin = 'webhook' "
                "ORDER BY id DESC LIMIT 500").fetchall()
        finally:
            db.close()
    except sqlite3.Error as e:
        print("stripe-api: reading %s: %s" % (database, e), file=sys.stderr)
        return []
    events = []
    for (body,) in rows:
        try:
            event = json.loads(bytes(body))
        except ValueError:
            continue
        if isinstance(event, dict) and isinstance(event.get("created"), int) and event["created"] >= since:
            events.append(event)
    return events


def make_handler(key, database, lost):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, fmt, *args):
            print("stripe-api: " + fmt % args, file=sys.stderr)

        def answer(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Request-Id", "req_demo_%d" % random.randrange(10**9))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            url = urlparse(self.path)
            if self.headers.get("Authorization") != "Bearer " + key:
                return self.answer(401, {"error": {"type": "invalid_request_error",
                                                   "message": "Invalid API Key provided."}})
            if url.path != "/v1/events":
                return self.answer(404, {"error": {"type": "invalid_request_error",
                                                   "message": "Unrecognized request URL (GET: %s)." % url.path}})
            query = parse_qs(url.query)
            try:
                since = int(query.get("created[gte]", ["0"])[0])
                limit = max(1, min(100, int(query.get("limit", ["10"])[0])))
            except ValueError:
                return self.answer(400, {"error": {"type": "invalid_request_error", "message": "Invalid integer."}})
            after = query.get("starting_after", [None])[0]
            events = [e for e in lost if e["created"] >= since] + stored_webhooks(database, since)
            events.sort(key=lambda e: (e["created"], e["id"]), reverse=True)
            if after is not None:
                ids = [e["id"] for e in events]
                if after not in ids:
                    return self.answer(400, {"error": {"type": "invalid_request_error",
                                                       "message": "No such event: '%s'" % after}})
                events = events[ids.index(after) + 1:]
            page = events[:limit]
            self.answer(200, {"object": "list", "url": "/v1/events", "has_more": len(events) > limit,
                              "data": page})

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--lost", type=int, default=4)
    args = parser.parse_args()
    key = os.environ.get("DEMO_STRIPE_API_KEY", "")
    if not key:
        sys.exit("stripe-api: DEMO_STRIPE_API_KEY is not set")
    lost = lost_events(args.lost, int(time.time()))
    print("stripe-api: listing %d lost events: %s" % (len(lost), ", ".join(e["id"] for e in lost)), file=sys.stderr)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(key, args.database, lost))
    server.serve_forever()


if __name__ == "__main__":
    main()
