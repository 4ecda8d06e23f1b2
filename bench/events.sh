#!/usr/bin/env bash
# The `events` workload alone (bench/src/main/java/dev/floe/bench/EventsRead.java): starts Floe
# (embedded Kafka, --auth none, fresh data directory) and, unless PEER=0, Iceberg's reference
# server (bench/peer), then runs `floe bench --only events` against both: Floe's log is filled
# with --events changes (half single-table commits, half 10-table transactions), which one reader
# then reads through POST /v1/{prefix}/events at each of --event-page-sizes. The server's CPU per
# 1,000 events is read from /proc through its pid file. The peer lists no events endpoint in its
# /v1/config, so it is reported n/a. Prints the Markdown table (Report --events); the JSON stays in
# $BENCH_DIR/results.json. bench/run.sh measures the same workload as part of the whole run.
#
#   bench/events.sh                          # 10,000 events; 20 s warm-up, 15 s measured per page size
#   bench/events.sh --duration 10 --warmup 10
#
# Environment: BENCH_DIR (/tmp/floe-bench-events), FLOE_PORT (18491), PEER_PORT (18492), PEER=0 to
# leave the peer out, BENCH_JVM_OPTS (-Xms1g -Xmx2g, for every JVM), SKIP_BUILD=1 to use the jars
# as built. Any option of `floe bench` may follow.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench/serve-lib.sh
. "$root/bench/serve-lib.sh"
work="${BENCH_DIR:-/tmp/floe-bench-events}"
port="${FLOE_PORT:-18491}"
peer_port="${PEER_PORT:-18492}"
jvm="${BENCH_JVM_OPTS:--Xms1g -Xmx2g}"
dir="$work/floe"

rm -rf "$dir" "$work/peer"
mkdir -p "$dir"
if [ -z "${SKIP_BUILD:-}" ]; then
  echo "Building Floe and the benchmark..." >&2
  (cd "$root" && mvn -q -B -DskipTests package -pl floe-server,bench -am) >&2
fi

pid=""
stop() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  if [ "${PEER:-1}" != 0 ]; then "$root/bench/peer/stop.sh" "$work/peer" >/dev/null 2>&1 || true; fi
}
trap stop EXIT

echo "Starting Floe on port $port (data in $dir/data)..." >&2
floe_start
echo "$pid" > "$work/floe.pid"
targets=(--target "floe=http://localhost:$port,default,pid-file=$work/floe.pid")
if [ "${PEER:-1}" != 0 ]; then
  echo "Starting the peer on port $peer_port..." >&2
  PEER_JAVA_OPTS="$jvm" CATALOG_CLIENTS=8 "$root/bench/peer/start.sh" "$work/peer" "$peer_port" >&2
  targets+=(--target "iceberg-jdbc-pg=http://localhost:$peer_port")
fi

load_before="$(cat /proc/loadavg)"
# shellcheck disable=SC2086
java $jvm -cp "$bench_cp" dev.floe.bench.Bench "${targets[@]}" \
  --only events --json "$work/results.json" "$@"
load_after="$(cat /proc/loadavg)"
java -cp "$bench_cp" dev.floe.bench.Report --events "$work/results.json"
printf '\nLoad average (/proc/loadavg) before: `%s`; after: `%s`. JVM options of every process: `%s`.\n' \
  "$load_before" "$load_after" "$jvm"
