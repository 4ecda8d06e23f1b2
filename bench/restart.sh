#!/usr/bin/env bash
# Times a restart of Floe on a data directory holding TABLES tables: from the process's start to
# the first 200 of /health/ready, after a clean stop (SIGTERM: Kafka Streams writes its checkpoints,
# the stores open as they are) and after a crash (SIGKILL: under exactly-once the stores are wiped
# and restored from their changelogs). Fills the directory first when it holds no catalog yet
# (bench/load-log.sh, 8 clients, no commits), and can add tables to it later (a larger TABLES).
# TABLES=0 times a directory filled otherwise (e.g. by `floe bench --many-tables N`); the tables of
# every namespace are counted.
#
#   bench/restart.sh [TABLES=10000] [RUNS=3]
#
# Environment: RESTART_DIR (default /tmp/floe-restart; kept), FLOE_PORT (18582), JVM_OPTS
# (-Xms1g -Xmx2g), FLOE_CP (classpath of the server, default this checkout's), FLOE_OPTS (extra options for `floe serve`, e.g. -Dfloe.…=…).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tables="${1:-10000}"
runs="${2:-3}"
dir="${RESTART_DIR:-/tmp/floe-restart}"
port="${FLOE_PORT:-18582}"
jvm="${JVM_OPTS:--Xms1g -Xmx2g}"
# shellcheck source=bench/serve-lib.sh
. "$root/bench/serve-lib.sh"
floe_build
mkdir -p "$dir"
pid=""
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; wait 2>/dev/null || true' EXIT

floe_start
have="$(curl -s "http://localhost:$port/v1/default/namespaces/restart/tables?pageSize=1000000" \
  | grep -o '"name"' | wc -l || true)"
if [ "$have" -lt "$tables" ]; then
  echo "Creating tables $have..$((tables - 1)) (8 clients)..." >&2
  t0=$(date +%s)
  FIRST="$have" "$root/bench/load-log.sh" "http://localhost:$port" "$tables" 0 8 restart
  echo "Created $((tables - have)) tables in $(( $(date +%s) - t0 )) s" >&2
fi
have="$(curl -s "http://localhost:$port/v1/default/namespaces/restart/tables?pageSize=1000000" \
  | grep -o '"name"' | wc -l || true)"
all="$(curl -s "http://localhost:$port/v1/default/namespaces" | grep -o '"namespaces":\[.*\]' \
  | grep -o '\["[^]"]*"\]' | tr -d '[]"' | while read -r ns; do
    curl -s "http://localhost:$port/v1/default/namespaces/$ns/tables?pageSize=1000000" | grep -o '"name"' | wc -l
  done | awk '{s += $1} END {print s + 0}')"
echo "tables: $all in all namespaces ($have in 'restart'); streams state: $(du -sh "$dir/data/streams" | cut -f1); kafka log: $(du -sh "$dir/data/kafka" | cut -f1)"
echo "load average before: $(cat /proc/loadavg)"
for i in $(seq 1 "$runs"); do
  floe_stop TERM
  floe_start
  clean="$ready_ms"
  floe_stop KILL
  floe_start
  echo "run $i: ready after SIGTERM restart ${clean} ms, after SIGKILL restart ${ready_ms} ms"
done
echo "load average after: $(cat /proc/loadavg)"
