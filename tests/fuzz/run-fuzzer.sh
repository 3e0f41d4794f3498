#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: Redrive authors
# Runs one libFuzzer target for a fixed time on a temporary copy of its committed seed corpus
# (CTest: fuzz_<name>). Fails on any crash, timeout, leak, sanitizer report or abort; the
# offending input is kept in ARTIFACT_DIR.
#   run-fuzzer.sh BINARY SEED_DIR SECONDS ARTIFACT_DIR [DICT...]
set -uo pipefail
binary=$1 seeds=$2 seconds=$3 artifacts=$4
shift 4

work=$(mktemp -d "${TMPDIR:-/tmp}/redrive-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$artifacts"
cp "$seeds"/* "$work/corpus/"

args=(-max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1
      -artifact_prefix="$artifacts/")
if [ $# -gt 0 ]; then
    cat "$@" > "$work/dict"
    args+=(-dict="$work/dict")
fi

"$binary" "${args[@]}" "$work/corpus" > "$work/log" 2>&1
status=$?

grep -E "^(Done [0-9]+ runs|stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb))" "$work/log" || true
echo "corpus: $(ls "$seeds" | wc -l) seeds grew to $(ls "$work/corpus" | wc -l) inputs"
if [ "$status" -ne 0 ] || grep -qE "ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|libFuzzer)|runtime error:" "$work/log"; then
    tail -n 80 "$work/log"
    echo "FAILED: $(basename "$binary") exited with $status; crashing inputs are kept in $artifacts" >&2
    exit 1
fi
