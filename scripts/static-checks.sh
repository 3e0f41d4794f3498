#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs clang-tidy (.clang-tidy) or clazy (.clazy) over every C++ source of the named rooms, as
# compiled by BUILD_DIR (its compile_commands.json; build first, so the moc/uic headers exist).
# Headers of the rooms are checked too, Qt and system headers are not. Each finding is printed
# once; the exit status is non-zero when there is any. The clang warnings of the project's own
# compile flags (-Wall -Wshadow ... -Werror) count as findings as well.
#
#   scripts/static-checks.sh tidy|clazy BUILD_DIR ROOM...     ROOM: core receiver ui app
#   STATIC_JOBS=N   files checked in parallel (default: nproc)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
rooms_known=(core receiver ui app)

usage() {
  echo "usage: scripts/static-checks.sh tidy|clazy BUILD_DIR ROOM...   (ROOM: ${rooms_known[*]})" >&2
  [[ $# -eq 0 ]] || echo "static-checks: $*" >&2
  exit 2
}

[[ $# -ge 3 ]] || usage "expected a tool, a build directory and at least one room"
tool=$1 build=$2
shift 2
case $tool in tidy | clazy) ;; *) usage "unknown tool '$tool'" ;; esac
[[ -f $build/compile_commands.json ]] ||
  usage "no $build/compile_commands.json (configure with a preset: cmake --preset ci)"
build=$(cd "$build" && pwd -P)
rooms=()
for r in "$@"; do
  [[ " ${rooms_known[*]} " == *" $r "* ]] || usage "unknown room '$r'"
  rooms+=("$r")
done
rooms_re=$(IFS='|' && echo "${rooms[*]}")
all_re=$(IFS='|' && echo "${rooms_known[*]}")
header_filter="^$root/($all_re)/"

case $tool in
  tidy)
    exe=""
    for c in clang-tidy-14 clang-tidy; do
      if command -v "$c" >/dev/null; then exe=$(command -v "$c"); break; fi
    done
    [[ -n $exe ]] || { echo "static-checks: clang-tidy not found (scripts/install-deps.sh installs package clang-tidy)" >&2; exit 1; }
    ;;
  clazy)
    exe=$(command -v clazy-standalone || true)
    [[ -n $exe ]] || { echo "static-checks: clazy-standalone not found (scripts/install-deps.sh installs package clazy)" >&2; exit 1; }
    # .clazy: one check per line, '#' starts a comment.
    clazy_checks=$(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$root/.clazy" | grep -v '^$' | paste -sd, -)
    [[ -n $clazy_checks ]] || { echo "static-checks: $root/.clazy lists no checks" >&2; exit 1; }
    ;;
esac

# The translation units of the rooms, and a check that the build ran (the autogen include
# directories they name exist), since the sources include moc and uic output.
mapfile -t files < <(python3 - "$build/compile_commands.json" "$root" "$rooms_re" <<'EOF'
import json, os, re, shlex, sys
db, root, rooms = sys.argv[1], sys.argv[2], sys.argv[3]
pattern = re.compile(r'^' + re.escape(root) + r'/(' + rooms + r')/.*\.cpp$')
missing, files = set(), set()
for entry in json.load(open(db)):
    path = os.path.realpath(os.path.join(entry['directory'], entry['file']))
    if not pattern.match(path):
        continue
    files.add(path)
    args = entry.get('arguments') or shlex.split(entry['command'])
    for a in args:
        if a.startswith('-I') and '_autogen' in a and not os.path.isdir(a[2:]):
            missing.add(a[2:])
if missing:
    sys.exit('static-checks: build first, autogen headers missing: ' + ', '.join(sorted(missing)[:3]))
print('\n'.join(sorted(files)))
EOF
)
[[ ${#files[@]} -gt 0 && -n ${files[0]} ]] ||
  { echo "static-checks: $build compiles no source of: ${rooms[*]} (wrong build or source directory?)" >&2; exit 1; }

jobs=${STATIC_JOBS:-$(nproc)}
out=$(mktemp -d "${TMPDIR:-/tmp}/static-checks.XXXXXX")
trap 'rm -rf "$out"' EXIT

# clang understands every warning flag GCC gets here today; the first extra argument keeps a
# future GCC-only flag from breaking the run.
extra=(--extra-arg=-Wno-unknown-warning-option --extra-arg=-Wno-unused-command-line-argument)
if [[ $tool == tidy ]]; then
  cmd=("$exe" --quiet -p "$build" "--header-filter=$header_filter" "${extra[@]}")
else
  cmd=("$exe" -p "$build" "--checks=$clazy_checks" "--header-filter=$header_filter"
    "--ignore-dirs=^($build|/usr)/" "${extra[@]}" --extra-arg=-Werror)
fi

# One job per file: its output in $out/N.log, its status in $out/N.rc, its seconds in $out/N.s.
# xargs appends "N FILE" after the command.
export out
start=$SECONDS
for i in "${!files[@]}"; do printf '%s %s\n' "$i" "${files[$i]}"; done |
  xargs -P "$jobs" -L 1 bash -c '
    n=$(($# - 1)) i=${*: -2:1} file=${*: -1}
    t0=$(date +%s%N)
    rc=0
    "${@:1:n-1}" "$file" >"$out/$i.log" 2>&1 || rc=$?
    echo "$rc" >"$out/$i.rc"
    echo $((($(date +%s%N) - t0) / 1000000)) >"$out/$i.ms"
  ' job "${cmd[@]}" || true
wall=$((SECONDS - start))

# A diagnostic is its "file:line:col: warning|error: ..." line plus the notes and source lines
# after it; the same one reached from several translation units is printed once.
findings=$(cat "$out"/*.log | awk -v root="$root/" '
  /^[^ ]+:[0-9]+:[0-9]+: (warning|error): / { flush(); key = $0; block = $0 "\n"; next }
  /^[0-9]+ (warnings?|errors?)( and [0-9]+ (warnings?|errors?))? generated\.$/ { flush(); next }
  /^Suppressed [0-9]+ warnings|^Use -header-filter|^Error while processing|^Error: |^In file included from / { flush(); next }
  /[^ ]+:[0-9]+:[0-9]+: (note|remark): / && key == "" { next }
  { if (key != "") block = block $0 "\n" }
  function flush() { if (key != "" && !(key in seen)) { seen[key] = 1; order[++n] = key; text[key] = block } key = "" }
  function relative(s,    out, i) {
    out = ""
    while ((i = index(s, root)) > 0) { out = out substr(s, 1, i - 1); s = substr(s, i + length(root)) }
    return out s
  }
  END { flush(); for (i = 1; i <= n; i++) printf "%s", relative(text[order[i]]) }
')
count=0
if [[ -n $findings ]]; then
  printf '%s\n' "$findings"
  count=$(grep -cE '^[^ ]+:[0-9]+:[0-9]+: (warning|error): ' <<<"$findings" || true)
fi

# A tool that failed without a diagnostic (crash, bad compile command) is a failure too.
crashed=0
for i in "${!files[@]}"; do
  rc=$(cat "$out/$i.rc" 2>/dev/null || echo missing)
  if [[ $rc != 0 ]] && ! grep -qE '^[^ ]+:[0-9]+:[0-9]+: (warning|error): ' "$out/$i.log" 2>/dev/null; then
    echo "static-checks: $tool failed on ${files[$i]#"$root"/} (status $rc):" >&2
    cat "$out/$i.log" >&2 2>/dev/null || true
    crashed=$((crashed + 1))
  fi
done

slowest=$(for i in "${!files[@]}"; do
  printf '%s %s\n' "$(cat "$out/$i.ms" 2>/dev/null || echo 0)" "${files[$i]#"$root"/}"
done | sort -rn | head -1)
per_file=$(cat "$out"/*.ms 2>/dev/null | awk '{ s += $1 } END { printf "%.1f", s / NR / 1000 }')
echo "static-checks: $tool over ${#files[@]} files of ${rooms[*]} in ${wall}s wall with $jobs jobs" \
  "(${per_file} s/file, slowest $(awk '{ printf "%.1f s %s", $1 / 1000, $2 }' <<<"$slowest")):" \
  "$count finding(s)$([[ $crashed -eq 0 ]] || echo ", $crashed file(s) failed")"
[[ $count -eq 0 && $crashed -eq 0 ]]
