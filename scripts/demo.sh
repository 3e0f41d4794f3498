#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sets up and runs the Redrive console demo on Debian 12:
#   - installs packages and builds redrived, the console and the demo tools (build/dev);
#   - starts a real redrived on embedded SQLite (ingest + delivery + admin API on loopback);
#   - starts flaky destinations (timeouts, 5xx, 429 with Retry-After, a retired 410 endpoint);
#   - streams realistic, signed GitHub / Stripe / Shopify / Standard Webhooks traffic at it,
#     with redeliveries, late deliveries and requests signed with a rotated-out secret;
#   - starts a loopback stand-in of Stripe's events API (tools/demo/stripe-api.py) that also lists
#     a few events whose webhooks were "lost"; the stripe source reconciles with it every minute,
#     so the first run recovers them (Reconciliation page, Ctrl+9; "reconciled" on Events);
#   - opens the console as support ("demo-support"); "demo-operator" approves what support
#     requested, "demo-auditor" reads the audit log (README: "Trying the demo").
# The demo keeps its database, audit key and console profiles in ${XDG_DATA_HOME:-~/.local/share}/
# redrive-demo (its tokens in the keychain) and picks them up again on the next run. Closing the
# console stops everything. Options:
#   --fresh          start over: delete the demo's data (and its tokens in the keychain) first
#   --smoke          no window: run the stack, check that events are stored, delivered, retried,
#                    dead-lettered, rejected, deduplicated and recovered by reconciliation and
#                    visible through the admin API,
#                    take a screenshot under Xvfb, then exit
#   --screenshots DIR  like --smoke, then support requests a high-risk replay and the console's
#                    pages (events with detail, the replay dialog, replays, approvals, audit, …)
#                    are captured under Xvfb into DIR as PNG files (scripts/screenshots.sh)
#   --as ROLE        open the console as support (default), operator or auditor
#   --no-build       use binaries already built in --build-dir
#   --build-dir DIR  where the binaries are (default build/dev)
# Without a keychain (no Secret Service) the demo says how to get one and still opens the
# console, with tokens minted for that run and held in memory only.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

smoke=0; build=1; build_dir="$root/build/dev"; shots=""; fresh=0; as=support
while (($#)); do
  case $1 in
    --as) as=$2; shift
          [[ $as =~ ^(support|operator|auditor)$ ]] || { echo "demo.sh: --as takes support, operator or auditor" >&2; exit 2; } ;;
    --fresh) fresh=1 ;;
    --smoke) smoke=1 ;;
    --screenshots) smoke=1; shots=$(realpath -m "$2"); shift ;;
    --no-build) build=0 ;;
    --build-dir) build_dir=$(realpath -m "$2"); shift ;;
    -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
    *) echo "demo.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

if [[ $build -eq 1 ]]; then
  bash scripts/install-deps.sh
  cmake --preset dev >/dev/null
  cmake --build "$build_dir" --parallel "$(nproc)" --target redrived redrive redrive-demo-traffic redrive-demo-sink
fi
redrived=$build_dir/app/redrived/redrived
console=$build_dir/app/redrive/redrive
traffic=$build_dir/tools/demo/redrive-demo-traffic
sink=$build_dir/tools/demo/redrive-demo-sink
for b in "$redrived" "$console" "$traffic" "$sink"; do
  [[ -x $b ]] || { echo "demo.sh: $b is not built (drop --no-build)" >&2; exit 1; }
done

# The demo's own data directory: the database, the audit key, the config and the console's
# settings. Nothing secret is in it except the audit key (as on a real receiver).
demo=${XDG_DATA_HOME:-$HOME/.local/share}/redrive-demo
# Without a session bus there is no keychain; a dead address stops D-Bus clients from
# autolaunching a bus of their own that would outlive the demo.
if [[ -z ${DBUS_SESSION_BUS_ADDRESS:-} ]]; then
  export DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/redrive-demo-no-session-bus
fi
keychain() { timeout 10 secret-tool "$@" 2>/dev/null; }
if [[ $fresh -eq 1 && -d $demo ]]; then
  echo "demo.sh: --fresh: deleting $demo"
  keychain clear application redrive-demo directory "$demo" || true
  rm -rf -- "$demo"
fi
mkdir -p "$demo"
chmod 700 "$demo"
rm -f "$demo"/*.log
[[ -f $demo/redrive.db ]] && reusing=1 || reusing=0
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ingest_port=$(free_port); admin_port=$(free_port); sink_port=$(free_port); stripe_api_port=$(free_port)

# Secrets shared by the "providers" (the traffic generator) and the receiver, through the
# environment only: nothing secret is written to the config file.
rand() { head -c "$1" /dev/urandom | base64 | tr -d '\n'; }
export DEMO_GITHUB_SECRET="gh-$(rand 18)"
export DEMO_STRIPE_SECRET="whsec_$(rand 24 | tr '+/' 'xy')"
export DEMO_SHOPIFY_SECRET="shp-$(rand 18)"
export DEMO_ACCOUNTS_SECRET="whsec_$(rand 24)"
export DEMO_FULFILLMENT_SIGNING="whsec_$(rand 32)"
# The key the receiver lists Stripe's events with (its stand-in checks it), never written down.
export DEMO_STRIPE_API_KEY="sk_test_$(rand 24 | tr '+/=' 'xyz')"

cat > "$demo/redrived.toml" <<TOML
# Redrive console demo: everything on loopback, SQLite with synchronous=FULL.
[server]
listen = "127.0.0.1:$ingest_port"
admin_listen = "127.0.0.1:$admin_port"

[storage]
url = "sqlite://$demo/redrive.db"
retention_days = 30

[delivery]
poll_interval = "200ms"

[admin]
audit_key_file = "$demo/audit-ed25519.pem"
replay_rate_per_second = 10

[[sources]]
name = "github"
scheme = "github"
secrets = ["env:DEMO_GITHUB_SECRET"]
keys = { pr = "json:/pull_request/number", repo = "json:/repository/full_name" }

[[sources]]
name = "stripe"
scheme = "stripe"
secrets = ["env:DEMO_STRIPE_SECRET"]
keys = { order = "json:/data/object/metadata/order_id", customer = "json:/data/object/customer" }
# Stripe's API lists what it sent; events the receiver never stored are recorded and delivered.
[sources.reconcile]
provider = "stripe"
api_url = "http://127.0.0.1:$stripe_api_port"
credential = "env:DEMO_STRIPE_API_KEY"
every = "1m"
lookback = "72h"

[[sources]]
name = "shopify"
scheme = "shopify"
secrets = ["env:DEMO_SHOPIFY_SECRET"]
keys = { order = "json:/order_number", email = "json:/email", shop = "header:X-Shopify-Shop-Domain" }
# Support sees "[redacted]" for the customer's email and address; operators reveal with a reason.
redact = ["/email", "/shipping_address"]

[[sources]]
name = "accounts"
scheme = "standard-webhooks"
secrets = ["env:DEMO_ACCOUNTS_SECRET"]

[[destinations]]
name = "fulfillment"
url = "http://127.0.0.1:$sink_port/fulfillment"
risk = "high"
timeout_ms = 4000
max_attempts = 5
retry_schedule = ["10s", "30s", "1m", "2m"]
concurrency = 4
signing_secret = "env:DEMO_FULFILLMENT_SIGNING"
success_ref = "json:/id"
ordering_key = "json:/customer/id"
allow_private = true

[[destinations]]
name = "crm"
url = "http://127.0.0.1:$sink_port/crm"
success_ref = "header:X-CRM-Ref"
retry_schedule = ["5s", "20s", "1m"]
max_attempts = 4
allow_private = true

[[destinations]]
name = "email"
url = "http://127.0.0.1:$sink_port/email"
allow_private = true

# Down for maintenance all along: after three failures its circuit opens, its deliveries are
# held (no dead letters), and one probe goes out every 30 seconds.
[[destinations]]
name = "warehouse"
url = "http://127.0.0.1:$sink_port/warehouse"
allow_private = true
retry_schedule = ["5s", "20s", "1m"]
circuit = { failures = 3, within = "1m", probe_every = "30s" }

# The team's chat channel hears about incidents, circuits and replays waiting for approval.
[[notifications]]
name = "ops-chat"
url = "http://127.0.0.1:$sink_port/chat"
format = "slack"
kinds = ["incident.opened", "incident.grew", "replay.pending_approval", "replay.halted", "circuit.opened",
         "circuit.closed", "reconcile.missing", "audit.chain_broken"]
allow_private = true

[[destinations]]
name = "legacy-erp"
url = "http://127.0.0.1:$sink_port/legacy"
allow_private = true

[[routes]]
source = "stripe"
event_types = ["payment_intent.*", "invoice.*", "charge.*"]
destinations = ["fulfillment", "crm"]

[[routes]]
source = "shopify"
event_types = ["orders/*"]
destinations = ["fulfillment", "email"]

[[routes]]
source = "github"
event_types = ["push", "pull_request.*"]
destinations = ["crm"]

[[routes]]
source = "accounts"
destinations = ["crm"]

[[routes]]
source = "shopify"
event_types = ["orders/*"]
destinations = ["warehouse"]

[[routes]]
source = "accounts"
event_types = ["user.deleted"]
destinations = ["legacy-erp"]
TOML
chmod 600 "$demo/redrived.toml" # redrived refuses a config other users can read

"$redrived" --config "$demo/redrived.toml" migrate >/dev/null
run_started_ms=$(date +%s%3N)

pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

"$sink" --port "$sink_port" 2>"$demo/sink.log" & pids+=($!)
python3 "$root/tools/demo/stripe-api.py" --port "$stripe_api_port" --database "$demo/redrive.db" \
  2>"$demo/stripe-api.log" & pids+=($!)
# Listening before redrived starts: its first reconciliation runs at once.
for _ in $(seq 1 100); do
  curl -s -o /dev/null "http://127.0.0.1:$stripe_api_port/v1/events" && break
  sleep 0.1
done
"$redrived" --config "$demo/redrived.toml" 2>"$demo/redrived.log" & pids+=($!)
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$ingest_port/readyz" >/dev/null 2>&1 && break
  sleep 0.1
done
curl -fsS "http://127.0.0.1:$ingest_port/readyz" >/dev/null || { echo "demo.sh: redrived did not start, see $demo/redrived.log" >&2; exit 1; }
api=http://127.0.0.1:$admin_port/admin/v1

# One token per demo profile. They are kept in the keychain between runs (the receiver stores
# only their hashes); a token that is missing or no longer accepted is replaced. Without a
# keychain, this run mints new ones and keeps them in memory only.
roles=(support operator auditor)
declare -A user=([support]=sam-support [operator]=ana-operator [auditor]=kai-auditor)
declare -A token=()
kept=1 minted=0
for role in "${roles[@]}"; do
  t=$(keychain lookup application redrive-demo directory "$demo" role "$role" || true)
  if [[ -n $t ]] && curl -fsS -o /dev/null -H "Authorization: Bearer $t" "$api/whoami" 2>/dev/null; then
    token[$role]=$t
    continue
  fi
  "$redrived" --config "$demo/redrived.toml" token revoke --name "${user[$role]}" >/dev/null 2>&1 || true
  t=$("$redrived" --config "$demo/redrived.toml" token create --name "${user[$role]}" --owner "${user[$role]%%-*}" --role "$role" --expires 90d |
      grep -o 'rdt_[A-Za-z0-9_-]*')
  token[$role]=$t
  minted=$((minted + 1))
  printf '%s' "$t" | keychain store --label "Redrive demo token: ${user[$role]} ($role)" \
    application redrive-demo directory "$demo" role "$role" || kept=0
done

# A burst of history first, so the console opens on something to triage; then a live stream.
# The first run's burst is always the same (seed 7); later runs add new events.
seed=7; [[ $reusing -eq 1 ]] && seed=0
"$traffic" --url "http://127.0.0.1:$ingest_port" --rate 60 --count 400 --seed "$seed" 2>>"$demo/traffic.log"
"$traffic" --url "http://127.0.0.1:$ingest_port" --rate 3 2>>"$demo/traffic.log" & pids+=($!)

# Console profiles live in the demo directory, not in the user's own settings. They are
# imported on every run because the receiver's ports change; tokens go to the keychain only.
export XDG_CONFIG_HOME="$demo/config"
declare -A colour=([support]="#6a1b9a" [operator]="#2e7d32" [auditor]="#1565c0")
for role in "${roles[@]}"; do
  cat > "$demo/profile-$role.json" <<JSON
{"name": "demo-$role", "environment": "demo", "colour": "${colour[$role]}", "sqlite": "$demo/redrive.db",
 "admin_url": "$api", "receiver_config": "$demo/redrived.toml"}
JSON
  if [[ $kept -eq 1 ]]; then
    printf '%s\n' "${token[$role]}" | "$console" --import-profile "$demo/profile-$role.json" --token-stdin >/dev/null ||
      kept=0 # the console could not use the keychain after all: hand tokens over in memory
  else
    "$console" --import-profile "$demo/profile-$role.json" >/dev/null
  fi
done

# Starts the console on a profile: its token comes from the keychain, or (no keychain) from
# standard input, for this run only.
run_console() {
  local role=$1; shift
  if [[ $kept -eq 1 ]]; then
    "$@" --profile "demo-$role" </dev/null
  else
    printf '%s\n' "${token[$role]}" | "$@" --profile "demo-$role" --token-stdin
  fi
}

cat <<INFO

Redrive demo is running (data in $demo$([[ $reusing -eq 1 ]] && echo ", from an earlier run; --fresh starts over")):
  ingest     http://127.0.0.1:$ingest_port/hooks/{github,stripe,shopify,accounts}
  admin API  $api   metrics: http://127.0.0.1:$admin_port/metrics
  Stripe API http://127.0.0.1:$stripe_api_port/v1/events (stand-in; lists a few events whose webhooks were lost)
  console    opens as "demo-$as" (${user[$as]}); "demo-operator" (ana-operator) approves what support
             requests, "demo-auditor" (kai-auditor) reads the audit log: Connection → Connect…
Try: Dead letters → a group → an event → Replay; approve the high-risk request as demo-operator.
     A customer quotes order 1042? Ctrl+F, type 1042 (or order:1042): the Stripe payment and the
     Shopify order that carry it; the event's keys link to the same search.
     Reconciliation (Ctrl+9): the stripe source's run found the events Stripe sent but Redrive never
     received and recovered them ("stripe · reconciled" on Events); as demo-operator, Run now.
INFO
if [[ $kept -eq 0 ]]; then
  cat >&2 <<'INFO'

No keychain answered (no Secret Service on the session bus), so the demo's tokens cannot be kept:
this run minted new ones and hands the console its token in memory; no token was written to disk.
To be another role, close the console and run the demo again with --as operator (or auditor);
the data stays, the tokens are minted anew. To keep them, run the demo in a desktop session with
a keyring (GNOME, or KDE/Xfce with gnome-keyring), or on a machine without one:
  sudo apt install gnome-keyring libsecret-tools dbus
  dbus-run-session -- bash -c 'printf "\n" | gnome-keyring-daemon --unlock --components=secrets; bash scripts/demo.sh'
INFO
fi

# --screenshots: drives one console inside xvfb-run (its arguments are the console's command
# line, the token, if any, on standard input) and captures its pages into $SHOTS_DIR.
shoot_console() {
  set -euo pipefail
  "$@" <&0 &
  local pid=$!
  # The window title names the environment once the profile has connected ("DEMO (demo-operator)
  # — Redrive": the platform appends the application's name).
  local win
  win=$(timeout 40 xdotool search --sync --onlyvisible --name '^DEMO [(]' | head -1)
  # No window manager under Xvfb: place the window and give it the keyboard ourselves. The size of
  # the most common business laptop screen, where the detail sits under the list.
  xdotool windowmove "$win" 0 0 windowsize "$win" 1366 768 windowfocus --sync "$win"
  # A 1366x768 PNG well under 200 KB: a palette without dithering keeps text crisp and small.
  shot() { sleep 2; import -window root +dither -colors 96 -define png:compression-level=9 "$SHOTS_DIR/$1.png"; }
  # Focus does not come back by itself after a dialog closes: give it back before every key.
  key() { xdotool windowfocus --sync "$win" key --clearmodifiers "$@"; }
  key ctrl+3; shot dead-letters
  # The event support asked to replay, found by its id, with its detail.
  key ctrl+2; sleep 1; key ctrl+f; xdotool type "$SHOT_EVENT"; key Return; sleep 2
  # The list starts lower while the "new events" banner shows above it (light blue).
  local pixel row=160
  pixel=$(import -window root -crop 1x1+20+142 -depth 8 txt:- | grep -o '#[0-9A-Fa-f]\{6\}' | head -1)
  (( 16#${pixel:5:2} > 16#${pixel:1:2} + 8 )) && row=190
  xdotool mousemove 300 "$row" click 1; shot events
  key ctrl+r; sleep 2
  xdotool mousemove 710 457 click 1 type --delay 20 "Customer says the order never shipped"; shot replay-dialog
  xdotool key Escape
  key ctrl+1; sleep 2; shot overview
  # The pending request selected, so its frozen deliveries show below it.
  key ctrl+5; sleep 1; xdotool mousemove 300 133 click 1; shot replays
  key ctrl+6; shot approvals
  key ctrl+7; sleep 2; shot audit
  key ctrl+8; sleep 2; shot destinations
  kill "$pid"
  wait "$pid" || true
}

if [[ $smoke -eq 1 ]]; then
  # Wait (bounded) until this run has shown every behaviour the demo is for: events of every
  # scheme stored, deliveries succeeding, retried and dead-lettered, requests rejected and
  # duplicates answered. Only rows from this run count, so a reused database proves nothing.
  q() { sqlite3 "$demo/redrive.db" "$1"; }
  since=$run_started_ms
  check() {
    missing=()
    for source in github stripe shopify accounts; do
      [[ $(q "SELECT COUNT(*) FROM events WHERE source = '$source' AND received_at >= $since") -gt 0 ]] ||
        missing+=("events from $source")
    done
    [[ $(q "SELECT COUNT(*) FROM deliveries WHERE status = 'succeeded' AND succeeded_at >= $since") -gt 20 ]] ||
      missing+=("20 succeeded deliveries")
    [[ $(q "SELECT COUNT(*) FROM attempts WHERE number > 1 AND replay_id IS NULL AND started_at >= $since") -gt 0 ]] ||
      missing+=("automatic retries")
    [[ $(q "SELECT COUNT(*) FROM deliveries WHERE status = 'dead' AND dead_at >= $since") -gt 0 ]] ||
      missing+=("dead letters")
    [[ $(q "SELECT COUNT(*) FROM rejections WHERE received_at >= $since") -gt 0 ]] || missing+=("rejections")
    [[ $(q "SELECT COUNT(*) FROM events WHERE seen_count > 1 AND last_seen_at >= $since") -gt 0 ]] ||
      missing+=("duplicates")
    # The events whose webhooks were lost: listed by the Stripe stand-in, recovered by a run of
    # this receiver (origin reconciled) and delivered like any other.
    [[ $(q "SELECT COUNT(*) FROM reconcile_runs WHERE source = 'stripe' AND status = 'ok' AND recovered > 0
            AND started_at >= $since") -gt 0 ]] || missing+=("a reconciliation run that recovered events")
    [[ $(q "SELECT COUNT(*) FROM events e JOIN deliveries d ON d.event_id = e.id WHERE e.origin = 'reconciled'
            AND e.provider_event_id LIKE 'evt_lost_%' AND e.received_at >= $since AND d.status = 'succeeded'") -gt 0 ]] ||
      missing+=("recovered events delivered")
    ((${#missing[@]} == 0))
  }
  deadline=$((SECONDS + 120))
  until check; do
    (( SECONDS < deadline )) || { echo "demo.sh --smoke: after 120 s still no ${missing[*]}" >&2; exit 1; }
    sleep 1
  done
  sqlite3 -header -column "$demo/redrive.db" \
    "SELECT source, COUNT(*) AS events, SUM(seen_count - 1) AS duplicates FROM events GROUP BY 1;
     SELECT destination, status, COUNT(*) AS deliveries FROM deliveries GROUP BY 1, 2;
     SELECT reason, COUNT(*) AS rejections FROM rejections GROUP BY 1;
     SELECT source, status, checked, missing, recovered FROM reconcile_runs ORDER BY id DESC LIMIT 3;"
  for role in "${roles[@]}"; do
    curl -fsS -H "Authorization: Bearer ${token[$role]}" "$api/whoami"; echo
  done
  echo "demo.sh --smoke: tokens $([[ $minted -eq 0 ]] && echo reused || echo "minted: $minted")," \
    "keychain $([[ $kept -eq 1 ]] && echo yes || echo no)"
  if [[ -n $shots ]]; then
    mkdir -p "$shots"
    # Something for the operator to decide: support asks to replay a fulfillment delivery
    # (high risk, so it waits for a second person).
    # A dead one tells the story best; the flaky destination makes one within a minute.
    for _ in $(seq 1 60); do
      delivery=$(q "SELECT id FROM deliveries WHERE destination = 'fulfillment' AND status = 'dead'
                    AND id NOT IN (SELECT i.delivery_id FROM replay_items i JOIN replays r ON r.id = i.replay_id
                                   WHERE r.status IN ('pending_approval', 'approved', 'executing'))
                    ORDER BY id DESC LIMIT 1")
      [[ -n $delivery ]] && break
      sleep 1
    done
    [[ -n $delivery ]] || { echo "demo.sh --screenshots: no dead fulfillment delivery within a minute" >&2; exit 1; }
    hash=$(curl -sS --fail-with-body -H "Authorization: Bearer ${token[support]}" -H 'Content-Type: application/json' \
      -d "{\"delivery_ids\": [$delivery]}" "$api/replays/preview" | python3 -c 'import json,sys; print(json.load(sys.stdin)["selection_hash"])')
    curl -sS --fail-with-body -o /dev/null -H "Authorization: Bearer ${token[support]}" -H 'Content-Type: application/json' \
      -d "{\"selection_hash\": \"$hash\", \"reason\": \"Order stuck after the fulfillment outage\", \"ticket\": \"SUP-1042\"}" "$api/replays"
    # One console under Xvfb, as the operator; pages are switched with their shortcuts.
    export SHOTS_DIR=$shots SHOT_EVENT
    SHOT_EVENT=$(q "SELECT event_id FROM deliveries WHERE id = $delivery")
    run_console operator xvfb-run -a -s "-screen 0 1366x768x24" bash -c "$(declare -f shoot_console); shoot_console \"\$@\"" shoot "$console"
    echo "demo.sh --screenshots: $(ls "$shots"/*.png | wc -l) screenshots in $shots"
    exit 0
  fi
  export SHOT=$demo/console.png
  run_console "$as" xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
    "$@" <&0 & pid=$!
    if ! timeout 40 xdotool search --sync --onlyvisible --name "^DEMO [(]" >/dev/null; then
      import -window root "$SHOT"; kill $pid; wait $pid
      echo "demo.sh --smoke: the console did not connect (see $SHOT)" >&2; exit 1
    fi
    sleep 2; import -window root "$SHOT"; kill $pid; wait $pid || true' console "$console"
  echo "demo.sh --smoke: ok (the console connected as demo-$as; screenshot $SHOT)"
  exit 0
fi

if [[ -z ${DISPLAY:-} && -z ${WAYLAND_DISPLAY:-} ]]; then
  echo "No display: starting the console under Xvfb (connect a VNC viewer, or run on a desktop)." >&2
  run_console "$as" xvfb-run -a -s "-screen 0 1440x900x24" "$console"
else
  run_console "$as" "$console"
fi
