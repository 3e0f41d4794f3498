#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sets up and runs the Redrive console demo on Debian 12:
#   - installs packages and builds redrived, the console and the demo tools (build/dev);
#   - starts a real redrived on embedded SQLite (ingest + delivery + admin API on loopback);
#   - starts flaky destinations (timeouts, 5xx, 429 with Retry-After, a retired 410 endpoint);
#   - streams realistic, signed GitHub / Stripe / Shopify / Standard Webhooks traffic at it,
#     with redeliveries, late deliveries and requests signed with a rotated-out secret;
#   - opens the console connected as an operator (a second profile, "demo-support", shows the
#     support role; replays to the high-risk "fulfillment" destination need a second operator).
# Closing the console stops everything. Options:
#   --smoke          no window: run the stack, check that events are stored, delivered and
#                    visible through the admin API, take a screenshot under Xvfb, then exit
#   --screenshots DIR  like --smoke, then support requests a high-risk replay and the console's
#                    pages (events with detail, the replay dialog, replays, approvals, audit, …)
#                    are captured under Xvfb into DIR as PNG files (scripts/screenshots.sh)
#   --no-build       use binaries already built in --build-dir
#   --build-dir DIR  where the binaries are (default build/dev)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

smoke=0; build=1; build_dir="$root/build/dev"; shots=""
while (($#)); do
  case $1 in
    --smoke) smoke=1 ;;
    --screenshots) smoke=1; shots=$(realpath -m "$2"); shift ;;
    --no-build) build=0 ;;
    --build-dir) build_dir=$(realpath -m "$2"); shift ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "demo.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

# A session bus with an unlocked keyring is needed for the console's keychain. Desktops have
# one; on a bare machine, run the whole demo inside a private session with a throwaway keyring.
if [[ -z ${DBUS_SESSION_BUS_ADDRESS:-} && -z ${REDRIVE_DEMO_IN_SESSION:-} ]]; then
  [[ $build -eq 1 ]] && bash scripts/install-deps.sh
  export REDRIVE_DEMO_IN_SESSION=1
  args=(); [[ $smoke -eq 1 ]] && args+=(--smoke); [[ -n $shots ]] && args+=(--screenshots "$shots")
  args+=(--no-build --build-dir "$build_dir")
  if [[ $build -eq 1 ]]; then
    cmake --preset dev >/dev/null
    cmake --build "$build_dir" --parallel "$(nproc)" --target redrived redrive redrive-demo-traffic redrive-demo-sink
  fi
  exec dbus-run-session -- bash -c 'printf "\n" | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec "$0" "$@"' \
    "$0" "${args[@]}"
fi

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

demo=${REDRIVE_DEMO_DIR:-$(mktemp -d /tmp/redrive-demo.XXXXXX)}
mkdir -p "$demo"
rm -f "$demo"/redrive.db* "$demo"/*.log
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ingest_port=$(free_port); admin_port=$(free_port); sink_port=$(free_port)

# Secrets shared by the "providers" (the traffic generator) and the receiver, through the
# environment only: nothing secret is written to the config file.
rand() { head -c "$1" /dev/urandom | base64 | tr -d '\n'; }
export DEMO_GITHUB_SECRET="gh-$(rand 18)"
export DEMO_STRIPE_SECRET="whsec_$(rand 24 | tr '+/' 'xy')"
export DEMO_SHOPIFY_SECRET="shp-$(rand 18)"
export DEMO_ACCOUNTS_SECRET="whsec_$(rand 24)"
export DEMO_FULFILLMENT_SIGNING="whsec_$(rand 32)"

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

[[sources]]
name = "stripe"
scheme = "stripe"
secrets = ["env:DEMO_STRIPE_SECRET"]

[[sources]]
name = "shopify"
scheme = "shopify"
secrets = ["env:DEMO_SHOPIFY_SECRET"]

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
source = "accounts"
event_types = ["user.deleted"]
destinations = ["legacy-erp"]
TOML
chmod 600 "$demo/redrived.toml" # redrived refuses a config other users can read

"$redrived" --config "$demo/redrived.toml" migrate >/dev/null
operator_token=$("$redrived" --config "$demo/redrived.toml" token create --name ana-operator --owner ana --role operator --expires 7d | grep -o 'rdt_[A-Za-z0-9_-]*')
support_token=$("$redrived" --config "$demo/redrived.toml" token create --name sam-support --owner sam --role support --expires 7d | grep -o 'rdt_[A-Za-z0-9_-]*')

pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

"$sink" --port "$sink_port" 2>"$demo/sink.log" & pids+=($!)
"$redrived" --config "$demo/redrived.toml" 2>"$demo/redrived.log" & pids+=($!)
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$ingest_port/readyz" >/dev/null 2>&1 && break
  sleep 0.1
done
curl -fsS "http://127.0.0.1:$ingest_port/readyz" >/dev/null || { echo "demo.sh: redrived did not start, see $demo/redrived.log" >&2; exit 1; }

# A burst of history first, so the console opens on something to triage; then a live stream.
"$traffic" --url "http://127.0.0.1:$ingest_port" --rate 60 --count 400 --seed 7 2>>"$demo/traffic.log"
"$traffic" --url "http://127.0.0.1:$ingest_port" --rate 3 2>>"$demo/traffic.log" & pids+=($!)

# Console profiles live in the demo directory, not in the user's own settings.
export XDG_CONFIG_HOME="$demo/config"
cat > "$demo/profile-support.json" <<JSON
{"name": "demo-support", "environment": "demo", "colour": "#6a1b9a", "sqlite": "$demo/redrive.db",
 "admin_url": "http://127.0.0.1:$admin_port", "receiver_config": "$demo/redrived.toml"}
JSON
cat > "$demo/profile-operator.json" <<JSON
{"name": "demo-operator", "environment": "demo", "colour": "#2e7d32", "sqlite": "$demo/redrive.db",
 "admin_url": "http://127.0.0.1:$admin_port", "receiver_config": "$demo/redrived.toml"}
JSON
printf '%s\n' "$support_token" | "$console" --import-profile "$demo/profile-support.json" --token-stdin
printf '%s\n' "$operator_token" | "$console" --import-profile "$demo/profile-operator.json" --token-stdin

cat <<INFO

Redrive demo is running (files in $demo):
  ingest     http://127.0.0.1:$ingest_port/hooks/{github,stripe,shopify,accounts}
  admin API  http://127.0.0.1:$admin_port/admin/v1   metrics: http://127.0.0.1:$admin_port/metrics
  console    profiles "demo-operator" (ana-operator) and "demo-support" (sam-support)
Try: Dead letters → a group → an event → Replay; approve a high-risk replay from the other profile.
INFO

if [[ $smoke -eq 1 ]]; then
  # Wait (bounded) for deliveries to succeed and to fail, then check the admin API and the console.
  deadline=$((SECONDS + 90))
  until [[ $(sqlite3 "$demo/redrive.db" "SELECT COUNT(*) FROM deliveries WHERE status='succeeded'") -gt 20 &&
           $(sqlite3 "$demo/redrive.db" "SELECT COUNT(*) FROM attempts WHERE category <> 'success'") -gt 5 ]]; do
    (( SECONDS < deadline )) || { echo "demo.sh --smoke: deliveries did not progress" >&2; exit 1; }
    sleep 1
  done
  sqlite3 -header -column "$demo/redrive.db" \
    "SELECT status, COUNT(*) AS events FROM event_status GROUP BY status;
     SELECT destination, status, COUNT(*) AS deliveries FROM deliveries GROUP BY 1, 2;
     SELECT reason, COUNT(*) AS rejections FROM rejections GROUP BY 1;"
  curl -fsS -H "Authorization: Bearer $operator_token" "http://127.0.0.1:$admin_port/admin/v1/whoami"; echo
  if [[ -n $shots ]]; then
    mkdir -p "$shots"
    # Something for the operator to decide: support asks to replay a fulfillment delivery
    # (high risk, so it waits for a second person).
    api=http://127.0.0.1:$admin_port/admin/v1
    delivery=$(sqlite3 "$demo/redrive.db" "SELECT id FROM deliveries WHERE destination = 'fulfillment' ORDER BY status = 'dead' DESC, id LIMIT 1")
    hash=$(curl -fsS -H "Authorization: Bearer $support_token" -H 'Content-Type: application/json' \
      -d "{\"delivery_ids\": [$delivery]}" "$api/replays/preview" | python3 -c 'import json,sys; print(json.load(sys.stdin)["selection_hash"])')
    curl -fsS -o /dev/null -H "Authorization: Bearer $support_token" -H 'Content-Type: application/json' \
      -d "{\"selection_hash\": \"$hash\", \"reason\": \"Order stuck after the fulfillment outage\", \"ticket\": \"SUP-1042\"}" "$api/replays"
    # One console under Xvfb; pages are switched with their shortcuts (Ctrl+1 … Ctrl+8).
    QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1440x900x24" bash -c '
      console=$0; out=$1
      "$console" --profile demo-operator --page events & pid=$!
      sleep 8
      shot() { sleep 2; import -window root "$out/$1.png"; }
      xdotool mousemove 300 200 click 1; shot events
      xdotool key ctrl+r; shot replay-dialog; xdotool key Escape
      for spec in 1:overview 3:dead-letters 5:replays 6:approvals 7:audit; do
        xdotool key "ctrl+${spec%%:*}"; shot "${spec#*:}"
      done
      kill $pid' "$console" "$shots"
    echo "demo.sh --screenshots: $(ls "$shots"/*.png | wc -l) screenshots in $shots"
    exit 0
  fi
  shot=$demo/console.png
  QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1440x900x24" bash -c '
    "$0" --profile demo-operator & pid=$!
    sleep 6; import -window root "$1"; kill $pid' "$console" "$shot"
  echo "demo.sh --smoke: ok (screenshot $shot)"
  exit 0
fi

if [[ -z ${DISPLAY:-} && -z ${WAYLAND_DISPLAY:-} ]]; then
  echo "No display: starting the console under Xvfb (connect a VNC viewer, or run on a desktop)." >&2
  xvfb-run -a -s "-screen 0 1440x900x24" "$console" --profile demo-operator
else
  "$console" --profile demo-operator
fi
