#!/usr/bin/env bash
# The benchmark, in one command: starts Floe (embedded Kafka, fresh data directory) and the Iceberg
# reference server (RESTCatalogServer + JdbcCatalog on PostgreSQL, bench/peer), runs the same
# workloads against both, alternating workload by workload, with each server's CPU per operation
# (Floe's process, its embedded broker included; the peer's JVM and its PostgreSQL server with
# every backend) and their idle CPU before the first workload (the peer serves no events
# endpoint: `events` is n/a there), then measures Floe's
# log replay, and writes docs/benchmarks.md (tables generated from the run, then bench/bounds.md;
# the notebook of measurements behind it stays in bench/notes.md).
#
#   bench/run.sh                      # the full run (tens of minutes on 2 cores: 10,000 tables each)
#   bench/run.sh --duration 6         # what docs/benchmarks.md holds (each workload: 20 s warm-up, 6 s measured; ~25 min)
#   bench/run.sh --duration 5 --many-tables 1000 --big-snapshots 2000   # a quick look
#
# Any option of `floe bench` may follow (see bench/src/main/java/dev/floe/bench/Bench.java).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench/serve-lib.sh
. "$root/bench/serve-lib.sh"
work="${BENCH_DIR:-/tmp/floe-bench}"
floe_port="${FLOE_PORT:-18481}"
peer_port="${PEER_PORT:-18482}"
jvm="${BENCH_JVM_OPTS:--Xms1g -Xmx2g}"
report="${BENCH_REPORT:-$root/docs/benchmarks.md}"

rm -rf "$work/floe" "$work/peer"
load_before="$(cat /proc/loadavg)"
mkdir -p "$work"
echo "Building Floe and the benchmark..." >&2
(cd "$root" && mvn -q -B -DskipTests package -pl floe-server,bench,test-s3proxy -am) >&2

stop() {
  if [ -f "$work/floe.pid" ]; then kill "$(cat "$work/floe.pid")" 2>/dev/null || true; rm -f "$work/floe.pid"; fi
  "$root/bench/peer/stop.sh" "$work/peer" >/dev/null 2>&1 || true
}
trap stop EXIT

echo "Starting Floe on port $floe_port (data in $work/floe)..." >&2
# shellcheck disable=SC2086
java $jvm -cp "$floe_cp" \
  dev.floe.server.Main serve --port "$floe_port" --data-dir "$work/floe" > "$work/floe.log" 2>&1 &
echo $! > "$work/floe.pid"
for _ in $(seq 1 240); do
  curl -sf "http://localhost:$floe_port/health/ready" > /dev/null && break
  sleep 0.5
done
curl -sf "http://localhost:$floe_port/health/ready" > /dev/null

echo "Starting the peer on port $peer_port..." >&2
# The same JVM flags as Floe; a JDBC pool of 8 connections (Iceberg's default is 2).
PEER_JAVA_OPTS="$jvm" CATALOG_CLIENTS=8 "$root/bench/peer/start.sh" "$work/peer" "$peer_port" >&2

# shellcheck disable=SC2086
java $jvm -cp "$bench_cp" dev.floe.bench.Bench \
  --target "floe=http://localhost:$floe_port,default,token-file=$work/floe/admin.token,pid-file=$work/floe.pid" \
  --target "iceberg-jdbc-pg=http://localhost:$peer_port,,pid-file=$work/peer/peer.pid,pid-file=$work/peer/postgres.pid" \
  --json "$work/results.json" "$@"

echo "Replaying Floe's event log (4 runs)..." >&2
# As `bin/floe replay` runs it: the first run after a build writes its class-data archive, the later
# ones map it; the report gives every run and the median.
replays=()
rates=()
rm -f "$root/floe-server/target/cds/replay.jsa" "$work/replay.log"
for _ in 1 2 3 4; do
  # --data-dir: the embedded broker's port and the admin token (for the comparison) are there.
  line="$(FLOE_JAVA_OPTS="$jvm" "$root/bin/floe" replay --data-dir "$work/floe" \
    --url "http://localhost:$floe_port" --out "$work/replay-out" 2>>"$work/replay.log" \
    | grep -E '^Replayed|differ' | paste -sd ';' - || true)"
  rm -rf "$work/replay-out"
  echo "$line" >&2
  replays+=("$line")
  rates+=("$(sed -nE 's/.*\(([0-9]+) events\/s.*/\1/p' <<< "$line")")
done
# The median of runs 2-4, which map the archive run 1 wrote.
median="$(printf '%s\n' "${rates[@]:1}" | grep . | sort -n | sed -n 2p || true)"
if [ -z "$median" ]; then
  replay="not measured (see $work/replay.log)"
else
  replay="median of the runs with the archive $median events/s"
  for i in 0 1 2 3; do
    what=""
    if [ "$i" = 0 ]; then what=" (writes the class-data archive)"; fi
    replay+="; run $((i + 1))$what: ${replays[$i]}"
  done
fi

load_after="$(cat /proc/loadavg)"
stop
trap - EXIT

# Floe's commit path with the catalog taken out (bench/src/main/java/dev/floe/bench/KafkaFloor.java):
# its own embedded broker, after both catalogs have stopped; as long as the workloads above.
duration=15
warmup=20
args=("$@")
for ((i = 0; i + 1 < ${#args[@]}; i++)); do
  case "${args[$i]}" in
    --duration) duration="${args[$((i + 1))]}" ;;
    --warmup) warmup="${args[$((i + 1))]}" ;;
  esac
done
echo "Measuring Floe's commit path without the catalog (KafkaFloor)..." >&2
rm -f "$work/kafka-floor.json"
# shellcheck disable=SC2086
java $jvm -cp "$bench_cp" dev.floe.bench.KafkaFloor \
  --clients 1,4 --duration "$duration" --warmup "$warmup" --json "$work/kafka-floor.json" \
  2>"$work/kafka-floor.log" >&2 || echo "KafkaFloor failed; see $work/kafka-floor.log" >&2
floor=()
if [ -f "$work/kafka-floor.json" ]; then floor=("$work/kafka-floor.json"); fi

# Floe on object storage, its defaults against both settings off, S3 behind a 10 ms delay
# (bench/object-storage.sh).
echo "Measuring Floe on S3 behind a delay (bench/object-storage.sh)..." >&2
object_storage="$(SKIP_BUILD=1 BENCH_DIR="$work/object-storage" "$root/bench/object-storage.sh" \
  --duration "$duration" --warmup "$warmup" 2>"$work/object-storage.log" \
  || echo "not measured (see $work/object-storage.log)")"
{
  java -cp "$bench_cp" dev.floe.bench.Report \
    "$work/results.json" "${floor[@]}"
  printf '\n## Replay\n\n`floe replay` of the run'"'"'s whole event log: %s\n\n' "${replay:-not measured}"
  printf 'Load average (/proc/loadavg) before the run: `%s`; after: `%s`.\n\n' "$load_before" "$load_after"
  printf 'JVM options of both servers and of the benchmark: `%s`. Floe: embedded Kafka 4.3.1 broker in the\nsame process, `floe.streams.commit-interval-ms=20` with group commit (the default), exactly-once v2. Peer: see bench/peer/README.md.\n\n' "$jvm"
  printf '## Floe on object storage (bench/object-storage.sh)\n\nTwo Floe servers on one S3 server a network away: `floe-s3` with the defaults for S3 (the API writes commits'"'"' metadata files ahead; a load trusts a metadata file seen in the last 10 s), `floe-s3-plain` with both off (the processor writes every file; every load asks S3). The commit workloads measure the first, `load-table` the second (*On object storage* below):\n\n%s\n\n' "$object_storage"
  cat "$root/bench/bounds.md"
} > "$report"
echo "Wrote $report" >&2
