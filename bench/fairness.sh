#!/usr/bin/env bash
# The `fairness` workload alone (bench/src/main/java/dev/floe/bench/Fairness.java): starts Floe
# (embedded Kafka, --auth none, fresh data directory) with a second warehouse, `noisy`, and, unless
# PEER=0, Iceberg's reference server (bench/peer), then runs `floe bench --only fairness` against
# both. A quiet tenant commits small updates 20 times a second, alone and then while --clients noisy
# clients commit 1 MB property values: in Floe's `noisy` warehouse, in another namespace of the
# peer (it serves one warehouse). Prints the Markdown table (Report --fairness); the JSON stays in
# $BENCH_DIR/results.json.
#
#   bench/fairness.sh                              # 20 s warm-up, 15 s measured per phase
#   bench/fairness.sh --duration 10 --warmup 5
#   FLOE_CONFIG_EXTRA='floe.streams.threads=2' bench/fairness.sh   # another server setting
#
# Environment: BENCH_DIR (/tmp/floe-bench-fairness), FLOE_PORT (18495), PEER_PORT (18496), PEER=0
# to leave the peer out, FLOE_CONFIG_EXTRA (lines added to Floe's properties), BENCH_JVM_OPTS
# (-Xms1g -Xmx2g, for every JVM), SKIP_BUILD=1 to use the jars as built. Any option of `floe bench`
# may follow.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench/serve-lib.sh
. "$root/bench/serve-lib.sh"
work="${BENCH_DIR:-/tmp/floe-bench-fairness}"
port="${FLOE_PORT:-18495}"
peer_port="${PEER_PORT:-18496}"
jvm="${BENCH_JVM_OPTS:--Xms1g -Xmx2g}"
dir="$work/floe"

rm -rf "$dir" "$work/peer"
mkdir -p "$dir"
if [ -z "${SKIP_BUILD:-}" ]; then
  echo "Building Floe and the benchmark..." >&2
  (cd "$root" && mvn -q -B -DskipTests package -pl floe-server,bench -am) >&2
fi
{
  echo "floe.warehouse.noisy.location=file://$dir/noisy-warehouse"
  printf '%s\n' "${FLOE_CONFIG_EXTRA:-}"
} > "$dir/floe.properties"
FLOE_ARGS="--config $dir/floe.properties"

pid=""
stop() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  if [ "${PEER:-1}" != 0 ]; then "$root/bench/peer/stop.sh" "$work/peer" >/dev/null 2>&1 || true; fi
}
trap stop EXIT

echo "Starting Floe on port $port (data in $dir/data)..." >&2
floe_start
echo "$pid" > "$work/floe.pid"
targets=(--target "floe=http://localhost:$port,default,pid-file=$work/floe.pid,noisy=noisy")
if [ "${PEER:-1}" != 0 ]; then
  echo "Starting the peer on port $peer_port..." >&2
  PEER_JAVA_OPTS="$jvm" CATALOG_CLIENTS=8 "$root/bench/peer/start.sh" "$work/peer" "$peer_port" >&2
  targets+=(--target "iceberg-jdbc-pg=http://localhost:$peer_port,,pid-file=$work/peer/peer.pid,pid-file=$work/peer/postgres.pid")
fi

load_before="$(cat /proc/loadavg)"
# shellcheck disable=SC2086
java $jvm -cp "$bench_cp" dev.floe.bench.Bench "${targets[@]}" \
  --only fairness --idle 0 --json "$work/results.json" "$@"
load_after="$(cat /proc/loadavg)"
java -cp "$bench_cp" dev.floe.bench.Report --fairness "$work/results.json"
printf '\nLoad average (/proc/loadavg) before: `%s`; after: `%s`. JVM options of every process: `%s`. Floe settings: `%s`.\n' \
  "$load_before" "$load_after" "$jvm" "$(tr '\n' ' ' < "$dir/floe.properties")"
