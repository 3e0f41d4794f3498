#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: Redrive authors
# The README's demo, end to end on the binaries of one build, as a new user meets it: three runs
# over one data directory (first run, a second run that picks the data up again, --fresh).
# Each run itself waits (bounded) until events of every scheme arrived and deliveries succeeded,
# were retried and dead-lettered, requests were rejected and duplicates answered, the events
# whose webhooks were lost were recovered by a reconciliation run, and until the console
# connected (demo.sh --smoke). This script adds what a run cannot see about itself:
# every process it started has stopped, and the data is kept, or not, as promised.
#   tests/demo/demo-smoke.sh BUILD_DIR
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=$(realpath "$1")
work=$(mktemp -d /tmp/redrive-demo-smoke.XXXXXX)
export XDG_DATA_HOME=$work/data
demo=$XDG_DATA_HOME/redrive-demo
finish() {
  timeout 10 secret-tool clear application redrive-demo directory "$demo" 2>/dev/null || true
  rm -rf "$work"
}
trap finish EXIT

fail() { echo "demo-smoke: FAIL: $*" >&2; exit 1; }
q() { sqlite3 "$demo/redrive.db" "$1"; }

# Processes carry their environment to their children, daemons included, so a mark in the demo's
# environment finds everything the run started.
leftovers() {
  local mark=$1 f
  for f in /proc/[0-9]*/environ; do
    { tr '\0' '\n' <"$f"; } 2>/dev/null | grep -qx "REDRIVE_DEMO_SMOKE_RUN=$mark" &&
      echo "$(basename "$(dirname "$f")") $({ tr '\0' ' ' <"$(dirname "$f")/cmdline"; } 2>/dev/null)"
  done
  return 0
}

run() {
  local name=$1; shift
  local mark="$name-$$-$RANDOM" rc=0
  echo "demo-smoke: run \"$name\": demo.sh --smoke $*"
  REDRIVE_DEMO_SMOKE_RUN=$mark bash "$root/scripts/demo.sh" --smoke --no-build --build-dir "$build_dir" "$@" \
    >"$work/$name.log" 2>&1 || rc=$?
  sed 's/^/    /' "$work/$name.log"
  ((rc == 0)) || fail "run \"$name\" exited with $rc"
  grep -q '^demo.sh --smoke: ok' "$work/$name.log" || fail "run \"$name\" did not report ok"
  # Every process the demo started has stopped (a moment's grace for the last exits).
  local left=""
  for _ in $(seq 1 50); do
    left=$(leftovers "$mark")
    [[ -z $left ]] && break
    sleep 0.1
  done
  [[ -z $left ]] || fail "run \"$name\" left processes running:"$'\n'"$left"
}

key_digest() { sha256sum "$demo/audit-ed25519.pem" | cut -d' ' -f1; }

# 1. First run: everything is created in the user's data directory.
run first
[[ -f $demo/redrive.db && -f $demo/audit-ed25519.pem ]] || fail "the first run kept nothing in $demo"
key1=$(key_digest)
events1=$(q "SELECT COUNT(*) FROM events")
first_id1=$(q "SELECT MIN(id) FROM events")
tokens1=$(q "SELECT group_concat(id) FROM (SELECT id FROM api_tokens WHERE revoked_at IS NULL ORDER BY id)")
[[ $(q "SELECT COUNT(*) FROM api_tokens WHERE revoked_at IS NULL") -eq 3 ]] || fail "expected three demo tokens"
# A newcomer can search an order number: Stripe payments and Shopify orders share them as keys.
[[ $(q "SELECT COUNT(DISTINCT e.source) FROM event_keys k JOIN events e ON e.id = k.event_id WHERE k.name = 'order'") -eq 2 ]] ||
  fail "the demo's Stripe and Shopify events carry no order keys"
# The events the demo's Stripe never sent as webhooks were recovered by reconciliation on the
# first run: each stored once (origin reconciled), routed to both Stripe destinations.
lost1=$(q "SELECT COUNT(*) FROM events WHERE source = 'stripe' AND origin = 'reconciled' AND provider_event_id LIKE 'evt_lost_%'")
((lost1 >= 4)) || fail "the first run recovered $lost1 lost Stripe events by reconciliation, not 4"
[[ $(q "SELECT COUNT(*) FROM events WHERE origin = 'reconciled' AND seen_count <> 1") -eq 0 ]] ||
  fail "a recovered event was recorded more than once"
[[ $(q "SELECT COUNT(*) FROM deliveries d JOIN events e ON e.id = d.event_id WHERE e.origin = 'reconciled'") -eq $((2 * lost1)) ]] ||
  fail "recovered events were not routed to fulfillment and crm"
[[ $(q "SELECT COUNT(*) FROM reconcile_runs WHERE source = 'stripe' AND status = 'ok' AND recovered >= 4") -ge 1 ]] ||
  fail "no reconciliation run of stripe says it recovered them"

# 2. Second run: the same database (grown), the same audit key, and the same tokens when a
#    keychain kept them; without one, the old tokens are revoked and new ones minted.
run again
[[ $(key_digest) == "$key1" ]] || fail "the second run replaced the audit key"
[[ $(q "SELECT MIN(id) FROM events") == "$first_id1" ]] || fail "the second run started a new database"
events2=$(q "SELECT COUNT(*) FROM events")
((events2 > events1)) || fail "the second run added no events ($events1 → $events2)"
tokens2=$(q "SELECT group_concat(id) FROM (SELECT id FROM api_tokens WHERE revoked_at IS NULL ORDER BY id)")
[[ $(q "SELECT COUNT(*) FROM api_tokens WHERE revoked_at IS NULL") -eq 3 ]] || fail "expected three live demo tokens"
if grep -q 'keychain yes' "$work/again.log"; then
  grep -q 'tokens reused' "$work/again.log" || fail "a keychain was there, but the tokens were not reused"
  [[ $tokens2 == "$tokens1" ]] || fail "a keychain was there, but the tokens changed ($tokens1 → $tokens2)"
else
  grep -q 'No keychain answered' "$work/again.log" || fail "without a keychain the demo did not say how to get one"
  [[ $tokens2 != "$tokens1" ]] || fail "without a keychain the tokens should have been minted anew"
fi

# 3. --fresh: a new database and a new audit key; nothing from before.
fresh_started=$(date +%s%3N)
run fresh --fresh
[[ $(key_digest) != "$key1" ]] || fail "--fresh kept the old audit key"
(($(q "SELECT MIN(received_at) FROM events") >= fresh_started)) || fail "--fresh kept events from before"
echo "demo-smoke: ok (3 runs; events $events1 → $events2; tokens $([[ $tokens1 == "$tokens2" ]] && echo reused || echo re-minted))"
