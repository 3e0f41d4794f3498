#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs clang-tidy (.clang-tidy) or clazy (.clazy) over every C++ source of the named rooms, as
# compiled by BUILD_DIR (its compile_commands.json; build first, so the moc/uic headers exist).
# Headers of the rooms are checked too, Qt and system headers are not. Each finding is printed
# once; the exit status is non-zero when there is any. The clang warnings of the project's own
# compile flags (-Wall -Wshadow ... -Werror) count as findings as well. Sources are checked in
# chunks (scripts/static_checks.py says how, and why nothing is lost).
#
#   scripts/static-checks.sh tidy|clazy BUILD_DIR ROOM...     ROOM: core receiver ui app
#   scripts/static-checks.sh tidy|clazy BUILD_DIR --self-test  planted findings are all reported
#   STATIC_JOBS=N         chunks checked in parallel (default: nproc)
#   STATIC_CHUNK_FILES=N  sources per chunk (default 8; 1 checks each file on its own)
set -euo pipefail
exec python3 "$(dirname "${BASH_SOURCE[0]}")/static_checks.py" "$@"
