#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: Redrive authors
#
# The `packaging` test: builds the two .debs from a build tree with CPack and checks what an
# operator gets: their contents and control data, lintian (no errors), the desktop file, the
# AppStream metainfo, the unit's systemd-analyze exposure (at most 2.5), the example config
# covering every key and passing `redrived check` with its secrets given, a broken one refused
# with the key named, --help pointing only at documents that exist, and the nginx example; with
# REDRIVE_PACKAGING_INSTALL=1 as root, also apt install, remove and purge of both packages.
#
#   packaging/test-packaging.sh BUILD_DIR [SOURCE_DIR]
#
# Exit 0 all passed, 1 a check failed, 77 skipped (only when dpkg-deb is missing).
set -euo pipefail

build_dir=$(cd "${1:?usage: test-packaging.sh BUILD_DIR [SOURCE_DIR]}" && pwd)
source_dir=$(cd "${2:-$(dirname "$0")/..}" && pwd)
max_exposure=2.5

if ! command -v dpkg-deb >/dev/null 2>&1; then
    echo "SKIP: dpkg-deb is missing: the packaging test needs a Debian system (scripts/install-deps.sh)"
    exit 77
fi

failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}
pass() { echo "ok: $*"; }

missing=()
for tool in cpack lintian desktop-file-validate appstreamcli systemd-analyze nginx openssl; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if ((${#missing[@]})); then
    echo "FAIL: missing ${missing[*]}: run scripts/install-deps.sh" >&2
    exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/redrive-packaging.XXXXXX")
trap 'rm -rf "$work"' EXIT

# ---- build the packages ------------------------------------------------------------------------
if ! (cd "$build_dir" && cpack -G DEB -B "$work/out" >"$work/cpack.log" 2>&1); then
    cat "$work/cpack.log" >&2
    echo "FAIL: cpack -G DEB (is the build tree built?)" >&2
    exit 1
fi
shopt -s nullglob
receiver=("$work"/out/redrived_*.deb)
console=("$work"/out/redrive_*.deb)
shopt -u nullglob
if ((${#receiver[@]} != 1 || ${#console[@]} != 1)); then
    ls -l "$work/out" >&2
    echo "FAIL: expected exactly one redrived_*.deb and one redrive_*.deb" >&2
    exit 1
fi
receiver=${receiver[0]}
console=${console[0]}
pass "built $(basename "$receiver") ($(du -k "$receiver" | cut -f1) KiB), $(basename "$console") ($(du -k "$console" | cut -f1) KiB)"

# ---- contents and control data -----------------------------------------------------------------
expect_contents() { # deb, then lines "MODE PATH" (MODE may be -)
    local deb=$1 listing line mode path
    shift
    listing=$(dpkg-deb -c "$deb")
    for line in "$@"; do
        mode=${line%% *}
        path=${line#* }
        if ! grep -qE "[[:space:]]\.${path}\$" <<<"$listing"; then
            fail "$(basename "$deb") lacks $path"
        elif [[ $mode != - ]] && ! grep -E "[[:space:]]\.${path}\$" <<<"$listing" | grep -q "^$mode root/root "; then
            fail "$(basename "$deb"): $path is not $mode root/root: $(grep -E "\.${path}\$" <<<"$listing")"
        fi
    done
}
expect_contents "$receiver" \
    "-rwxr-xr-x /usr/bin/redrived" \
    "-rw-r--r-- /usr/share/man/man8/redrived.8.gz" \
    "-rw-r--r-- /usr/lib/systemd/system/redrived.service" \
    "-rw-r--r-- /usr/lib/sysusers.d/redrived.conf" \
    "-rw-r--r-- /usr/lib/tmpfiles.d/redrived.conf" \
    "-rw-r----- /etc/redrive/redrived.toml" \
    "-rw-r--r-- /usr/share/doc/redrived/copyright" \
    "-rw-r--r-- /usr/share/doc/redrived/changelog.gz" \
    "-rw-r--r-- /usr/share/doc/redrived/operations.md" \
    "-rw-r--r-- /usr/share/doc/redrived/examples/redrive.conf" \
    "-rw-r--r-- /usr/share/redrive/prometheus/redrive-alerts.yml" \
    "-rw-r--r-- /usr/share/redrive/prometheus/redrive-alerts.test.yml" \
    "-rw-r--r-- /usr/share/redrive/grafana/redrive-dashboard.json"
expect_contents "$console" \
    "-rwxr-xr-x /usr/bin/redrive" \
    "-rw-r--r-- /usr/share/man/man1/redrive.1.gz" \
    "-rw-r--r-- /usr/share/applications/io.redrive.Console.desktop" \
    "-rw-r--r-- /usr/share/metainfo/io.redrive.Console.metainfo.xml" \
    "-rw-r--r-- /usr/share/icons/hicolor/scalable/apps/io.redrive.Console.svg" \
    "-rw-r--r-- /usr/share/icons/hicolor/48x48/apps/io.redrive.Console.png" \
    "-rw-r--r-- /usr/share/icons/hicolor/128x128/apps/io.redrive.Console.png" \
    "-rw-r--r-- /usr/share/icons/hicolor/256x256/apps/io.redrive.Console.png" \
    "-rw-r--r-- /usr/share/doc/redrive/copyright" \
    "-rw-r--r-- /usr/share/doc/redrive/changelog.gz"
if dpkg-deb -c "$console" | grep -qE '\./(etc|usr/bin/redrived)'; then
    fail "the console package carries receiver files"
fi
if dpkg-deb -c "$receiver" | grep -qE 'usr/bin/redrive$'; then
    fail "the receiver package carries the console"
fi

field() { dpkg-deb -f "$1" "$2"; }
[[ $(field "$receiver" Package) == redrived ]] || fail "receiver package is named $(field "$receiver" Package)"
[[ $(field "$console" Package) == redrive ]] || fail "console package is named $(field "$console" Package)"
# shlibdeps: the libraries the binaries link, found by dpkg-shlibdeps, not a hand-written list.
for lib in libqt6core6 libqt6network6 libqt6sql6 libssl3 libc6; do
    field "$receiver" Depends | grep -q "\b$lib\b" || fail "redrived Depends lacks $lib: $(field "$receiver" Depends)"
done
for lib in libqt6widgets6 libqt6charts6 libqt6keychain1 libc6; do
    field "$console" Depends | grep -q "\b$lib\b" || fail "redrive Depends lacks $lib: $(field "$console" Depends)"
done
dpkg-deb -e "$receiver" "$work/control"
[[ $(cat "$work/control/conffiles") == /etc/redrive/redrived.toml ]] || fail "conffiles: $(cat "$work/control/conffiles")"
for script in postinst prerm postrm; do
    [[ -x $work/control/$script ]] || fail "redrived has no executable $script"
done
# Installing must not start (or enable) the receiver on the example configuration.
if grep -vE '^\s*(#|echo )' "$work/control/postinst" | grep -qE '(systemctl|deb-systemd-helper)[^|]*\b(start|enable)\b'; then
    fail "postinst starts or enables redrived"
fi
# Purging removes configuration only, never the state directory.
if grep -vE '^\s*#' "$work/control/postrm" | grep -q '/var/lib/redrive'; then
    fail "postrm touches /var/lib/redrive"
fi
pass "contents, permissions, shlibs dependencies and maintainer scripts"

# ---- lintian -----------------------------------------------------------------------------------
lintian_args=(--fail-on error --tag-display-limit 0)
[[ $(id -u) -ne 0 ]] || lintian_args+=(--allow-root)
if lintian "${lintian_args[@]}" "$receiver" "$console" >"$work/lintian.log" 2>&1; then
    pass "lintian: no errors ($(grep -c '^W: ' "$work/lintian.log" || true) warnings, $(grep -c '^I: ' "$work/lintian.log" || true) notes)"
else
    cat "$work/lintian.log" >&2
    fail "lintian reports errors"
fi
grep -E '^(E|W): ' "$work/lintian.log" || true

# ---- desktop integration -----------------------------------------------------------------------
dpkg-deb -x "$console" "$work/console-root"
if desktop-file-validate "$work/console-root/usr/share/applications/io.redrive.Console.desktop"; then
    pass "desktop-file-validate"
else
    fail "desktop-file-validate"
fi
# redrive:// links in notifications open the console: it handles the scheme and takes the link.
desktop_file="$work/console-root/usr/share/applications/io.redrive.Console.desktop"
if grep -qx 'MimeType=x-scheme-handler/redrive;' "$desktop_file" && grep -qx 'Exec=redrive %u' "$desktop_file"; then
    pass "the desktop file handles redrive:// links"
else
    fail "the desktop file does not register x-scheme-handler/redrive with Exec=redrive %u"
fi
if appstreamcli validate --no-net "$work/console-root/usr/share/metainfo/io.redrive.Console.metainfo.xml"; then
    pass "appstreamcli validate"
else
    fail "appstreamcli validate"
fi

# ---- the hardened unit -------------------------------------------------------------------------
dpkg-deb -x "$receiver" "$work/root"
systemd-analyze security --offline=true --root="$work/root" redrived.service >"$work/security.log" 2>&1 || true
exposure=$(sed -nE 's/.*Overall exposure level for redrived\.service: ([0-9.]+).*/\1/p' "$work/security.log")
if [[ -z $exposure ]]; then
    cat "$work/security.log" >&2
    fail "systemd-analyze security gave no exposure level"
elif awk -v e="$exposure" -v max="$max_exposure" 'BEGIN { exit !(e <= max) }'; then
    pass "systemd-analyze security: exposure $exposure (at most $max_exposure)"
else
    grep '✗' "$work/security.log" >&2 || true
    fail "systemd-analyze security: exposure $exposure is above $max_exposure"
fi
unit=$work/root/usr/lib/systemd/system/redrived.service
for directive in "ExecStartPre=/usr/bin/redrived --config /etc/redrive/redrived.toml check" "LoadCredential=" \
    "CapabilityBoundingSet=" "SystemCallFilter=@system-service" "PrivateUsers=true" "UMask=0077"; do
    grep -qF -- "$directive" "$unit" || fail "the unit lacks $directive"
done

# ---- the example configuration -----------------------------------------------------------------
redrived=$work/root/usr/bin/redrived
example=$work/root/etc/redrive/redrived.toml
# Every key the parser reads is documented in the example (set or commented out).
keys=$(grep -ohE '\br\.(string|integer|duration|number|boolean|stringList|node)\("[a-z_]+"' \
    "$source_dir"/core/config/sections.cpp | sed -E 's/.*\("//; s/"$//' | sort -u)
[[ -n $keys ]] || fail "found no keys in core/config/sections.cpp"
for key in $keys; do
    grep -qE "^#? ?$key = " "$example" || fail "the example config does not mention $key"
done
pass "the example config names all $(wc -w <<<"$keys") keys the parser reads"

# The configurations derived below must be private: redrived refuses configs others can read.
umask 077
mkdir -m 0700 "$work/credentials"
printf 'TOPSECRET-github\n' >"$work/credentials/github-webhook-secret"
printf 'TOPSECRET-signing\n' >"$work/credentials/fulfillment-signing-secret"
run_check() { # config, then env assignments; prints stdout+stderr, returns the exit code
    local config=$1
    shift
    env -u CREDENTIALS_DIRECTORY "$@" "$redrived" --config "$config" check 2>&1
}
expect_check() { # expected code, message part, config, env…
    local code=$1 part=$2 out rc=0
    shift 2
    out=$(run_check "$@") || rc=$?
    if [[ $rc -ne $code ]] || ! grep -qF -- "$part" <<<"$out"; then
        fail "redrived check $1: exit $rc (want $code), output: $out"
        return
    fi
    if grep -q TOPSECRET <<<"$out"; then
        fail "redrived check echoed a secret: $out"
        return
    fi
    pass "redrived check $(basename "$1") ${*:2}: exit $rc, \"$part\""
}
expect_check 0 "is valid: 1 source(s), 1 destination(s), 1 route(s), 2 secret(s) resolved" \
    "$example" CREDENTIALS_DIRECTORY="$work/credentials"
expect_check 2 "config error: sources[0].secrets[0]: credential github-webhook-secret needs \$CREDENTIALS_DIRECTORY" \
    "$example"
sed -E 's/"credential:github-webhook-secret"/"env:GITHUB_WEBHOOK_SECRET"/; s/"credential:fulfillment-signing-secret"/"env:FULFILLMENT_SECRET"/' \
    "$example" >"$work/env.toml"
expect_check 0 "2 secret(s) resolved" "$work/env.toml" GITHUB_WEBHOOK_SECRET=TOPSECRET-1 FULFILLMENT_SECRET=TOPSECRET-2
sed -E 's/^risk = "high"/risk = "urgent"/' "$example" >"$work/broken.toml"
expect_check 2 "config error: destinations[0].risk: must be" "$work/broken.toml" CREDENTIALS_DIRECTORY="$work/credentials"
sed -E 's/^listen = "127.0.0.1:8080"/listen = "127.0.0.1:8081"/' "$example" >"$work/collide.toml"
expect_check 2 "config error: server.admin_listen: 127.0.0.1:8081 collides with server.listen" \
    "$work/collide.toml" CREDENTIALS_DIRECTORY="$work/credentials"

# ---- --help points only at documents that exist -------------------------------------------------
check_help() { # program, its --help output
    local doc
    for doc in $(grep -oE '\bdocs/[A-Za-z0-9_.-]+\.md' <<<"$2" | sort -u); do
        [[ -f $source_dir/$doc ]] || fail "$1 --help points at $doc, which does not exist"
    done
    for doc in $(grep -oE '\b[a-z]+\([18]\)' <<<"$2" | sort -u); do
        local name=${doc%(*} section=${doc#*(}
        section=${section%)}
        [[ -f $source_dir/packaging/man/$name.$section ]] || fail "$1 --help points at $doc, which is not shipped"
    done
}
check_help redrived "$("$redrived" --help)"
if [[ -x $build_dir/app/redrive/redrive ]]; then
    check_help redrive "$(QT_QPA_PLATFORM=offscreen "$build_dir/app/redrive/redrive" --help 2>&1)"
fi
pass "--help names only documents that exist"

# ---- nginx in front of ingest ------------------------------------------------------------------
nginx_conf=$work/root/usr/share/doc/redrived/examples/redrive.conf
mkdir -p "$work/nginx/logs"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=hooks.example.com \
    -keyout "$work/nginx/key.pem" -out "$work/nginx/cert.pem" >/dev/null 2>&1
sed -E "s#/etc/ssl/certs/hooks.example.com.pem#$work/nginx/cert.pem#; s#/etc/ssl/private/hooks.example.com.key#$work/nginx/key.pem#" \
    "$nginx_conf" >"$work/nginx/redrive.conf"
cat >"$work/nginx/nginx.conf" <<EOF
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log;
events {}
http {
    access_log off;
    client_body_temp_path $work/nginx/body;
    proxy_temp_path $work/nginx/proxy;
    include $work/nginx/redrive.conf;
}
EOF
if nginx -t -q -p "$work/nginx" -c "$work/nginx/nginx.conf" >"$work/nginx/t.log" 2>&1; then
    pass "nginx -t accepts packaging/nginx/redrive.conf"
else
    cat "$work/nginx/t.log" >&2
    fail "nginx -t refuses packaging/nginx/redrive.conf"
fi
body_limit=$(sed -nE 's/^max_body_bytes = ([0-9]+).*/\1/p' "$example")
[[ $body_limit == 1048576 ]] && grep -q 'client_max_body_size 1m;' "$nginx_conf" ||
    fail "nginx client_max_body_size does not match max_body_bytes ($body_limit)"

# ---- apt install, remove, purge (root on a throwaway machine only) ------------------------------
# This changes the machine (a system user, /etc/redrive, /var/lib/redrive), so it runs only when
# asked: scripts/test.sh asks for it under CI=true as root, where every run gets a fresh machine.
if [[ ${REDRIVE_PACKAGING_INSTALL:-0} == 1 && $(id -u) -eq 0 ]]; then
    if dpkg-query -W -f='${Status}' redrived 2>/dev/null | grep -q installed; then
        fail "apt install: redrived is already installed on this machine; refusing to touch it"
    elif ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        "$receiver" "$console" >"$work/apt-install.log" 2>&1; then
        cat "$work/apt-install.log" >&2
        fail "apt-get install of both packages"
    else
        pass "apt-get install ./redrived_*.deb ./redrive_*.deb"
        [[ -x /usr/bin/redrived && -x /usr/bin/redrive ]] || fail "installed binaries missing"
        /usr/bin/redrived --version >/dev/null 2>&1 || fail "installed redrived --version"
        getent passwd redrive >/dev/null || fail "the redrive system user was not created"
        perms=$(stat -c '%a %U %G' /etc/redrive/redrived.toml 2>/dev/null || true)
        [[ $perms == "640 root redrive" ]] && pass "/etc/redrive/redrived.toml is 0640 root:redrive" ||
            fail "/etc/redrive/redrived.toml is '$perms', want '640 root redrive'"
        [[ -d /var/lib/redrive ]] && pass "/var/lib/redrive created" || fail "/var/lib/redrive missing"
        if pgrep -u redrive redrived >/dev/null 2>&1; then
            fail "installing started redrived with the example config"
        else
            pass "installing did not start the service"
        fi
        # As the service runs it: the user redrive (root is refused a file of another group).
        out=$(runuser -u redrive -- /usr/bin/redrived --config /etc/redrive/redrived.toml check 2>&1) && rc=0 ||
            rc=$?
        [[ $rc -eq 2 ]] && pass "installed example config without its secrets: exit 2, ${out%%$'\n'*}" ||
            fail "redrived check on the installed example config: exit $rc, $out"
        touch /var/lib/redrive/keep-me
        DEBIAN_FRONTEND=noninteractive apt-get remove -y -q redrived redrive >"$work/apt-remove.log" 2>&1 ||
            fail "apt-get remove"
        [[ ! -e /usr/bin/redrived && -f /etc/redrive/redrived.toml && -f /var/lib/redrive/keep-me ]] &&
            pass "remove: binaries gone, configuration and data kept" ||
            fail "remove: binaries, configuration or data not as expected"
        # The console has no conffiles: removing it purged it already; dpkg purges what apt cannot find.
        dpkg --purge redrived >"$work/apt-purge.log" 2>&1 ||
            fail "dpkg --purge redrived: $(cat "$work/apt-purge.log")"
        [[ ! -e /etc/redrive && -f /var/lib/redrive/keep-me ]] &&
            pass "purge: configuration gone, data kept" || fail "purge: /etc/redrive or the data not as expected"
        rm -f /var/lib/redrive/keep-me
    fi
fi

if ((failures)); then
    echo "packaging: $failures check(s) failed" >&2
    exit 1
fi
echo "packaging: all checks passed"
