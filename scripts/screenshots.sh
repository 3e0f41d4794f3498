#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Refreshes the README's screenshots from the demo: a real redrived with live signed traffic, a
# pending high-risk replay request, and the console's pages captured under Xvfb at 1366x768.
# The demo runs in a data directory of its own, so your demo's data is left alone.
#   bash scripts/screenshots.sh [--no-build] [--build-dir DIR]   (writes docs/screenshots/*.png)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
data=$(mktemp -d /tmp/redrive-screenshots.XXXXXX)
cleanup() {
  timeout 10 secret-tool clear application redrive-demo directory "$data/redrive-demo" 2>/dev/null || true
  rm -rf "$data"
}
trap cleanup EXIT
XDG_DATA_HOME=$data bash "$root/scripts/demo.sh" --screenshots "$root/docs/screenshots" "$@"
