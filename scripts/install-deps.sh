#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs every Debian 12 package Redrive needs to build, test, benchmark and run its demo.
# Idempotent: packages already present are skipped and `apt-get update` runs at most once.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git ca-certificates
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev libqt6opengl6-dev qtkeychain-qt6-dev
  qt6-tools-dev qt6-l10n-tools qt6-translations-l10n
  libqt6sql6-sqlite libqt6sql6-psql libqt6svg6 qt6-qpa-plugins
  libssl-dev libboost-dev libtomlplusplus-dev libsqlite3-dev libpq-dev
  libsimdjson-dev prometheus-cpp-dev prometheus libvalijson-dev rapidjson-dev json-schema-test-suite
  postgresql postgresql-contrib
  gnome-keyring dbus dbus-x11 libsecret-tools at-spi2-core
  xvfb xauth imagemagick xdotool
  clang clang-tidy clang-format clazy libclang-rt-14-dev lld
  nginx-light nghttp2-client wrk
  nodejs
  sqlite3 procps curl python3 python3-yaml openssl
  lintian desktop-file-utils appstream systemd
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  echo "install-deps: installing ${#missing[@]} package(s): ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all ${#PACKAGES[@]} packages present"
fi
