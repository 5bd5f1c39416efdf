#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on loopback, for the tests and the bench: initdb into a temporary
# folder as the unprivileged `postgres` user (Debian's postgresql package makes it), then pg_ctl.
#
#   scripts/pg-cluster.sh start [port]   installs postgresql if missing, starts the cluster and
#                                        prints its URL (postgres://postgres@127.0.0.1:<port>/postgres)
#   scripts/pg-cluster.sh stop           stops it and removes its folder
#   scripts/pg-cluster.sh down|up        stops it and starts it again, data kept (the fault tests)
set -euo pipefail

# The test and bench clusters use ports below 32768 (25432-25486): Linux gives ports from 32768 to 60999 to
# outgoing connections, and one such connection on a cluster's port once made its start fail.
PORT="${2:-${PG_CLUSTER_PORT:-25432}}"
DIR="${PG_CLUSTER_DIR:-/tmp/ats-pg-cluster-$PORT}"

bin_dir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

as_postgres() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$1"; else sh -c "$1"; fi
}

case "${1:-}" in
  start)
    if [ -z "$(bin_dir)" ]; then
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq && apt-get install -y -qq postgresql >/dev/null
    fi
    BIN="$(bin_dir)"
    if [ -f "$DIR/data/postmaster.pid" ]; then as_postgres "$BIN/pg_ctl -D $DIR/data -m fast stop" >/dev/null || true; fi
    rm -rf "$DIR" && mkdir -p "$DIR"
    [ "$(id -u)" = 0 ] && chown postgres "$DIR"
    as_postgres "$BIN/initdb -D $DIR/data -U postgres --auth=trust -E UTF8 --locale=C.UTF-8" >/dev/null
    as_postgres "$BIN/pg_ctl -D $DIR/data -l $DIR/server.log -w \
      -o '-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=300' start" >/dev/null
    echo "postgres://postgres@127.0.0.1:$PORT/postgres"
    ;;
  down)
    as_postgres "$(bin_dir)/pg_ctl -D $DIR/data -m fast -w stop" >/dev/null
    ;;
  up)
    as_postgres "$(bin_dir)/pg_ctl -D $DIR/data -l $DIR/server.log -w \
      -o '-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=300' start" >/dev/null
    ;;
  stop)
    if [ -f "$DIR/data/postmaster.pid" ]; then as_postgres "$(bin_dir)/pg_ctl -D $DIR/data -m fast -w stop" >/dev/null; fi
    rm -rf "$DIR"
    ;;
  *)
    echo "Usage: scripts/pg-cluster.sh start|stop|down|up [port]" >&2
    exit 2
    ;;
esac
