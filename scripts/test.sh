#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sets up and runs every Redrive test on Debian 12: installs packages, builds with warnings as
# errors, then runs CTest inside a private D-Bus session with an unlocked gnome-keyring (the real
# Secret Service the keychain test needs). CTest itself starts the PostgreSQL 15 server.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

bash scripts/install-deps.sh

# On CI (a fresh machine per run, as root) the packaging test also installs, removes and purges
# the .debs with apt; elsewhere it leaves the machine alone unless asked.
if [[ ${CI:-} == true && $(id -u) -eq 0 ]]; then
  export REDRIVE_PACKAGING_INSTALL=${REDRIVE_PACKAGING_INSTALL:-1}
fi

jobs=${REDRIVE_JOBS:-$(nproc)}
cmake --preset ci
cmake --build --preset ci --parallel "$jobs"

# Everything below runs inside one session bus; the keyring daemon goes away with it.
dbus-run-session -- bash -c '
  set -euo pipefail
  printf "\n" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  ctest --preset ci --parallel "${REDRIVE_TEST_JOBS:-2}" "$@"
' redrive-tests "$@"
