#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A PostgreSQL primary with a real streaming hot standby made by `pg_basebackup -R`, for the
# console's replica test. Both are private clusters on free loopback ports.
#   pg-replica.sh start DIR → DIR/primary (pg-harness.sh) with a database "redrive", DIR/standby
#                             streaming from it; urls in DIR/primary-url and DIR/standby-url
#   pg-replica.sh stop DIR  → fast shutdown of both and remove DIR
set -euo pipefail

cmd=${1:?usage: pg-replica.sh start|stop DIR}
dir=${2:?usage: pg-replica.sh start|stop DIR}
here=$(cd "$(dirname "$0")" && pwd)

pgbin=""
for v in 15 16 17; do
  if [[ -x /usr/lib/postgresql/$v/bin/initdb ]]; then pgbin=/usr/lib/postgresql/$v/bin; break; fi
done
[[ -n $pgbin ]] || { echo "pg-replica: PostgreSQL server binaries not found (install postgresql)" >&2; exit 1; }

as_owner() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case $cmd in
start)
  "$0" stop "$dir" 2>/dev/null || true
  mkdir -p "$dir"
  bash "$here/pg-harness.sh" start "$dir/primary" > /dev/null
  url=$(cat "$dir/primary/url")
  port=${url##*:}; port=${port%%/*}
  as_owner "$pgbin/psql" -h "$dir/primary" -p "$port" -U redrive -d postgres -qAt \
      -c "CREATE DATABASE redrive" > /dev/null
  mkdir -p "$dir/standby"
  if [[ $(id -u) -eq 0 ]]; then chown postgres:postgres "$dir/standby"; fi
  # -R writes primary_conninfo and standby.signal: the copy starts as a streaming hot standby.
  PGPASSWORD=redrive-test as_owner env PGPASSWORD=redrive-test "$pgbin/pg_basebackup" \
      -h 127.0.0.1 -p "$port" -U redrive -D "$dir/standby/data" -R -X stream -c fast \
      > "$dir/standby/basebackup.log" 2>&1 || { cat "$dir/standby/basebackup.log" >&2; exit 1; }
  sport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  # A hot standby needs at least the primary's max_connections.
  as_owner "$pgbin/pg_ctl" -D "$dir/standby/data" -l "$dir/standby/server.log" -w -t 60 start \
      -o "-c listen_addresses=127.0.0.1 -c port=$sport -c unix_socket_directories=$dir/standby \
          -c max_connections=300 -c shared_buffers=128MB -c hot_standby=on -c log_min_messages=warning" \
      > /dev/null || { cat "$dir/standby/server.log" >&2; exit 1; }
  echo "postgresql://redrive:redrive-test@127.0.0.1:$port/redrive" > "$dir/primary-url"
  echo "postgresql://redrive:redrive-test@127.0.0.1:$sport/redrive" > "$dir/standby-url"
  echo "pg-replica: primary on 127.0.0.1:$port, hot standby on 127.0.0.1:$sport ($dir)"
  ;;
stop)
  if [[ -d $dir/standby/data ]]; then
    as_owner "$pgbin/pg_ctl" -D "$dir/standby/data" -m fast -w -t 60 stop > /dev/null 2>&1 || true
  fi
  if [[ -d $dir/primary ]]; then bash "$here/pg-harness.sh" stop "$dir/primary"; fi
  rm -rf "$dir"
  ;;
*)
  echo "usage: pg-replica.sh start|stop DIR" >&2; exit 2 ;;
esac
