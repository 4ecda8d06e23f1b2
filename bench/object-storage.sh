#!/usr/bin/env bash
# Floe on an object store a network away, measured: two Floe servers on one S3 API server
# (S3Proxy, filesystem backend, behind DelayProxy, which holds every request for --delay-ms),
# driven by the same `floe bench` workloads, alternating workload by workload:
#   floe-s3        the defaults on S3: the API writes commits' metadata files ahead (write-ahead
#                  auto), and a load trusts a metadata file seen in the last 10 s
#                  (metadata-exists-ttl) instead of asking S3
#   floe-s3-plain  write-ahead=off and metadata-exists-ttl=PT0S: the processor writes every
#                  metadata file, and every load asks S3 whether the file is there
# The commit workloads show the first setting, load-table the second. Prints the side-by-side
# table (Report --compare).
#
#   bench/object-storage.sh                    # 10 ms per exchange, 6 s per workload
#   DELAY_MS=25 bench/object-storage.sh --duration 10
#   SECOND_INSTANCE=1 bench/object-storage.sh  # each server gets a second instance on its broker
#                                              # and warehouse; the workloads go to the second, so
#                                              # about half of them reach an instance that does not
#                                              # hold their table
#
# bench/run.sh runs it too (SKIP_BUILD=1: it has built everything) and puts its table in
# docs/benchmarks.md.
#
# Any option of `floe bench` may follow (bench/src/main/java/dev/floe/bench/Bench.java).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench/serve-lib.sh
. "$root/bench/serve-lib.sh"
work="${BENCH_DIR:-/tmp/floe-bench-object-storage}"
delay="${DELAY_MS:-10}"
jvm="${BENCH_JVM_OPTS:--Xms1g -Xmx2g}"
s3_port="${S3_PORT:-18600}"
proxy_port="${PROXY_PORT:-18610}"
on_port="${FLOE_S3_PORT:-18621}"
off_port="${FLOE_S3_PLAIN_PORT:-18622}"

rm -rf "$work"
mkdir -p "$work/s3/lake"
if [ -z "${SKIP_BUILD:-}" ]; then
  echo "Building Floe, the benchmark and the S3 server's class path..." >&2
  (cd "$root" && mvn -q -B -DskipTests package -pl floe-server,bench,test-s3proxy -am) >&2
fi

pids=()
stop() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap stop EXIT

echo "Starting S3Proxy on port $s3_port and the delay proxy ($delay ms) on port $proxy_port..." >&2
s3proxy_start "$work" "$s3_port"
java -cp "$bench_cp" dev.floe.bench.DelayProxy --port "$proxy_port" \
  --upstream "127.0.0.1:$s3_port" --delay-ms "$delay" > "$work/delay-proxy.log" 2>&1 &
pids+=($!)

start_floe() { # name port write-ahead metadata-exists-ttl [instance whose broker and warehouse to join]
  cat > "$work/$1.properties" <<PROPS
floe.warehouse.default.location=s3://lake/${5:-$1}
floe.warehouse.default.s3.endpoint=http://127.0.0.1:$proxy_port
floe.warehouse.default.s3.path-style-access=true
floe.warehouse.default.s3.region=us-east-1
floe.warehouse.default.s3.access-key-id=bench
floe.warehouse.default.s3.secret-access-key=bench-secret
floe.warehouse.default.write-ahead=$3
floe.warehouse.default.metadata-exists-ttl=$4
PROPS
  if [ -n "${5:-}" ]; then
    echo "floe.kafka.bootstrap-servers=localhost:$(sed -n 's/^port=//p' "$work/$5/kafka-ports.properties")" \
      >> "$work/$1.properties"
  fi
  # shellcheck disable=SC2086
  java $jvm -cp "$floe_cp" \
    dev.floe.server.Main serve --port "$2" --data-dir "$work/$1" --config "$work/$1.properties" \
    > "$work/$1.log" 2>&1 &
  pids+=($!)
}
echo "Starting Floe with the defaults (port $on_port) and with both off (port $off_port)..." >&2
start_floe floe-s3 "$on_port" auto PT10S
start_floe floe-s3-plain "$off_port" off PT0S
await_ready() {
  for port in "$@"; do
    for _ in $(seq 1 240); do
      curl -sf "http://localhost:$port/health/ready" > /dev/null && break
      sleep 0.5
    done
    curl -sf "http://localhost:$port/health/ready" > /dev/null
  done
}
await_ready "$on_port" "$off_port"
on_url="http://localhost:$on_port"
off_url="http://localhost:$off_port"
if [ -n "${SECOND_INSTANCE:-}" ]; then
  echo "Starting a second instance of each (ports $((on_port + 10)) and $((off_port + 10)))..." >&2
  start_floe floe-s3-b "$((on_port + 10))" auto PT10S floe-s3
  start_floe floe-s3-plain-b "$((off_port + 10))" off PT0S floe-s3-plain
  await_ready "$((on_port + 10))" "$((off_port + 10))"
  on_url="http://localhost:$((on_port + 10))"
  off_url="http://localhost:$((off_port + 10))"
fi

# shellcheck disable=SC2086
java $jvm -cp "$bench_cp" dev.floe.bench.Bench \
  --target "floe-s3=$on_url,default,token-file=$work/floe-s3/admin.token" \
  --target "floe-s3-plain=$off_url,default,token-file=$work/floe-s3-plain/admin.token" \
  --only commit-1,commit-many-tables,hot-table-4,load-table --hot-writers 4 --duration 6 --warmup 20 \
  --json "$work/results.json" "$@" >&2
stop
trap - EXIT
java -cp "$bench_cp" dev.floe.bench.Report --compare "$work/results.json"
echo
echo "S3 exchanges held ${delay} ms each by DelayProxy (a PUT with Expect: 100-continue twice); S3Proxy $(basename "$(tr ':' '\n' < "$root/test-s3proxy/target/classes/floe-s3proxy.classpath" | grep -m1 's3proxy-')" .jar) on the same machine."
