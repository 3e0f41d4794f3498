#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Starts or stops a throwaway PostgreSQL 15 cluster for the test suite.
#   pg-harness.sh start DIR   → initdb in DIR (owned by `postgres` when run as root), listen on a free
#                               loopback port, write the connection url to DIR/url
#   pg-harness.sh stop DIR    → fast shutdown and remove DIR
#   pg-harness.sh restart DIR → `pg_ctl restart -m fast` (a private cluster only: tst_dbrestart)
#   pg-harness.sh halt DIR    → fast shutdown, keeping DIR; `resume DIR` starts it again
#   pg-harness.sh freeze DIR  → SIGSTOP the cluster's postmaster and backends: a server that hangs
#                               with its connections open (tst_dbhang); `thaw DIR` → SIGCONT
# PostgreSQL refuses to run as root, so as root every server command runs through runuser.
set -euo pipefail

cmd=${1:?usage: pg-harness.sh start|stop|restart|halt|resume|freeze|thaw DIR}
dir=${2:?usage: pg-harness.sh start|stop DIR}

pgbin=""
for v in 15 16 17; do
  if [[ -x /usr/lib/postgresql/$v/bin/initdb ]]; then pgbin=/usr/lib/postgresql/$v/bin; break; fi
done
[[ -n $pgbin ]] || { echo "pg-harness: PostgreSQL server binaries not found (install postgresql)" >&2; exit 1; }

# The cluster's own processes: the postmaster named in its pid file and that process's children.
cluster_pids() {
  local pid
  pid=$(head -1 "$dir/data/postmaster.pid" 2>/dev/null || true)
  [[ $pid =~ ^[0-9]+$ ]] || return 0
  echo "$pid"
  pgrep -P "$pid" || true
}

as_owner() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case $cmd in
start)
  rm -rf "$dir"
  mkdir -p "$dir"
  if [[ $(id -u) -eq 0 ]]; then chown postgres:postgres "$dir"; fi
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  pwfile=$dir/pwfile
  printf 'redrive-test\n' > "$pwfile"
  if [[ $(id -u) -eq 0 ]]; then chown postgres:postgres "$pwfile"; fi
  as_owner "$pgbin/initdb" -D "$dir/data" -U redrive --pwfile="$pwfile" \
      --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --no-instructions > "$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  opts="-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir \
          -c max_connections=300 -c shared_buffers=128MB -c fsync=on -c synchronous_commit=on \
          -c max_wal_size=2GB -c log_min_messages=warning"
  printf '%s\n' "$opts" > "$dir/opts"
  as_owner "$pgbin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start -o "$opts" > /dev/null \
    || { cat "$dir/server.log" >&2; exit 1; }
  echo "postgresql://redrive:redrive-test@127.0.0.1:$port/postgres" > "$dir/url"
  echo "pg-harness: PostgreSQL $("$pgbin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port ($dir)"
  ;;
stop)
  if [[ -d $dir/data ]]; then
    # shellcheck disable=SC2046
    kill -CONT $(cluster_pids) 2>/dev/null || true # a frozen cluster cannot shut down
    as_owner "$pgbin/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop > /dev/null 2>&1 || true
  fi
  rm -rf "$dir"
  ;;
restart)
  as_owner "$pgbin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m fast -w -t 60 restart > /dev/null \
    || { tail -20 "$dir/server.log" >&2; exit 1; }
  ;;
halt)
  as_owner "$pgbin/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop > /dev/null
  ;;
resume)
  as_owner "$pgbin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start -o "$(cat "$dir/opts")" > /dev/null \
    || { tail -20 "$dir/server.log" >&2; exit 1; }
  ;;
freeze)
  pids=$(cluster_pids)
  [[ -n $pids ]] || { echo "pg-harness: no running cluster in $dir" >&2; exit 1; }
  # shellcheck disable=SC2086
  kill -STOP $pids
  ;;
thaw)
  pids=$(cluster_pids)
  # shellcheck disable=SC2086
  [[ -z $pids ]] || kill -CONT $pids
  ;;
*)
  echo "usage: pg-harness.sh start|stop|restart|halt|resume|freeze|thaw DIR" >&2; exit 2 ;;
esac
