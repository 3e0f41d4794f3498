#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Refreshes the README's screenshots from the demo: a real redrived with live signed traffic, a
# pending high-risk replay request, and the console's pages captured under Xvfb.
#   bash scripts/screenshots.sh [--no-build] [--build-dir DIR]   (writes docs/screenshots/*.png)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
exec bash "$root/scripts/demo.sh" --screenshots "$root/docs/screenshots" "$@"
