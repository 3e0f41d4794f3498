#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sets up and runs every Redrive test on Debian 12: installs packages, builds with warnings as
# errors, then runs CTest inside a private D-Bus session with an unlocked gnome-keyring (the real
# Secret Service the keychain test needs). CTest itself starts the PostgreSQL 15 server.
#
# At the end it prints how long each phase took and the slowest tests, against the budget in
# docs/architecture.md ("CI time"), so a slow addition is seen in the run that adds it.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

budget=${REDRIVE_CI_BUDGET_SECONDS:-1800}
phases=()
phase_start=$SECONDS
phase() { # phase NAME: closes the phase that ran since the last call
  phases+=("$1 $((SECONDS - phase_start))")
  phase_start=$SECONDS
}
log=$(mktemp "${TMPDIR:-/tmp}/redrive-ctest.XXXXXX")
report() {
  local status=$?
  echo
  echo "test.sh: phase timings (budget ${budget} s for the whole run on a 2-core machine)"
  local total=0 p
  for p in "${phases[@]}"; do
    printf '  %-10s %5d s\n' "${p% *}" "${p##* }"
    total=$((total + ${p##* }))
  done
  printf '  %-10s %5d s\n' total "$total"
  if [[ -s $log ]]; then
    echo "test.sh: slowest tests (seconds; they run two at a time):"
    grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' "$log" |
      sed -E 's/^.*Test +#[0-9]+: ([^ ]+) .* ([0-9.]+) sec$/\2 \1/' | sort -rn | head -12 |
      awk '{ printf "  %7.1f  %s\n", $1, $2 }'
  fi
  if ((total > budget)); then
    echo "test.sh: WARNING: ${total} s is over the ${budget} s budget (docs/architecture.md, \"CI time\")"
  fi
  rm -f "$log"
  exit "$status"
}
trap report EXIT

bash scripts/install-deps.sh
phase install

# On CI (a fresh machine per run, as root) the packaging test also installs, removes and purges
# the .debs with apt; elsewhere it leaves the machine alone unless asked.
if [[ ${CI:-} == true && $(id -u) -eq 0 ]]; then
  export REDRIVE_PACKAGING_INSTALL=${REDRIVE_PACKAGING_INSTALL:-1}
fi

jobs=${REDRIVE_JOBS:-$(nproc)}
cmake --preset ci
phase configure
cmake --build --preset ci --parallel "$jobs"
phase build

# Everything below runs inside one session bus; the keyring daemon goes away with it.
set +e
dbus-run-session -- bash -c '
  set -euo pipefail
  printf "\n" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  ctest --preset ci --parallel "${REDRIVE_TEST_JOBS:-2}" "${@:2}" 2>&1 | tee "$1"
' redrive-tests "$log" "$@"
status=$?
set -e
phase tests
exit "$status"
