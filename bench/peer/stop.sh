#!/usr/bin/env bash
# Stops the benchmark peer started by bench/peer/start.sh DIR PORT: the REST server, then PostgreSQL.
# Usage: bench/peer/stop.sh DIR       Idempotent; keeps DIR (rm -rf DIR for a fresh catalog).
set -euo pipefail

log() { printf 'peer: %s\n' "$*" >&2; }
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
[ -d "$1" ] || { log "no such directory $1: nothing to stop"; exit 0; }
dir="$(cd "$1" && pwd)"
pg_bin="${PEER_PG_BIN:-/usr/lib/postgresql/15/bin}"

alive() { # pid pattern
  [ -r "/proc/$1/cmdline" ] || return 1
  local cmd
  cmd="$(tr '\0' ' ' < "/proc/$1/cmdline" 2> /dev/null)" || return 1
  [[ "$cmd" == *"$2"* ]]
}

if [ -s "$dir/peer.pid" ]; then
  pid="$(cat "$dir/peer.pid")"
  if alive "$pid" RESTCatalogServer; then
    log "stopping RESTCatalogServer pid $pid"
    kill "$pid"
    for _ in $(seq 1 60); do alive "$pid" RESTCatalogServer || break; sleep 0.5; done
    if alive "$pid" RESTCatalogServer; then
      log "pid $pid still alive after 30 s: SIGKILL"
      kill -9 "$pid" 2> /dev/null || true
    fi
  fi
  rm -f "$dir/peer.pid"
fi

if [ -s "$dir/pg/PG_VERSION" ]; then
  st=0
  runuser -u postgres -- "$pg_bin/pg_ctl" -D "$dir/pg" status > /dev/null 2>&1 || st=$?
  if [ "$st" -eq 0 ]; then
    log "stopping PostgreSQL ($dir/pg)"
    runuser -u postgres -- "$pg_bin/pg_ctl" -D "$dir/pg" -m fast -w -t 60 stop > /dev/null
  fi
fi
rm -f "$dir/postgres.pid"
log "stopped"
