#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: Redrive authors
# Runs a console test as a screen reader meets the console: on a real X server (Xvfb, at the
# 1366x768 of a common laptop) with Qt's AT-SPI bridge on, inside a private session bus that
# also has an unlocked keyring. Qt looks for the accessibility bus without activating it, so the
# bus launcher is started here; the test waits until Qt reports accessibility active. Usage: with-atspi.sh TEST_BINARY [QtTest arguments...]
set -euo pipefail
for tool in dbus-run-session xvfb-run gnome-keyring-daemon; do
  command -v "$tool" >/dev/null || { echo "with-atspi: $tool is missing (scripts/install-deps.sh installs it)" >&2; exit 1; }
done
[[ -x /usr/libexec/at-spi-bus-launcher ]] || { echo "with-atspi: at-spi2-core is missing" >&2; exit 1; }
exec dbus-run-session -- bash -c '
  set -euo pipefail
  printf "\n" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  /usr/libexec/at-spi-bus-launcher --launch-immediately &
  launcher=$!
  trap "kill $launcher 2>/dev/null || true" EXIT
  export QT_QPA_PLATFORM=xcb QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 REDRIVE_TEST_ATSPI=1
  xvfb-run -a -s "-screen 0 1366x768x24" "$@"
' with-atspi "$@"
