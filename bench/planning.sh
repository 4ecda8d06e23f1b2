#!/usr/bin/env bash
# Server-side scan planning, measured: one Floe whose default warehouse is on an S3 API server
# (S3Proxy, filesystem backend, behind DelayProxy, which holds every request for --delay-ms), and a
# table of 10,000 data files in 1,000 manifests, planned by a short-lived Java client each time
# (load the table, plan a full scan; Iceberg 1.11's RESTCatalog):
#   plan-server  scan-planning-mode=server: the catalog plans, the client fetches the 32 plan tasks
#   plan-client  the client plans itself: it reads the manifest list and all 1,000 manifests
# in one run, with the server's CPU per plan (its process, embedded broker included) and the
# bench's (the client's). The first plan of each, on a catalog that never read the table's
# manifests, is measured before the warm-up ("plan-first" in the JSON). Prints the table
# (Report --planning).
#
#   bench/planning.sh                       # 10 ms per exchange, 30 s per workload
#   DELAY_MS=25 bench/planning.sh --duration 60
#
# Any option of `floe bench` may follow (bench/src/main/java/dev/floe/bench/Bench.java).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench/serve-lib.sh
. "$root/bench/serve-lib.sh"
work="${BENCH_DIR:-/tmp/floe-bench-planning}"
delay="${DELAY_MS:-10}"
jvm="${BENCH_JVM_OPTS:--Xms1g -Xmx2g}"
s3_port="${S3_PORT:-18800}"
proxy_port="${PROXY_PORT:-18810}"
port="${FLOE_PORT:-18821}"

rm -rf "$work"
mkdir -p "$work/s3/lake"
s3_bench_build

pids=()
stop() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap stop EXIT

echo "Starting S3Proxy on port $s3_port and the delay proxy ($delay ms) on port $proxy_port..." >&2
s3proxy_start "$work" "$s3_port"
java -cp "$bench_cp" dev.floe.bench.DelayProxy --port "$proxy_port" \
  --upstream "127.0.0.1:$s3_port" --delay-ms "$delay" > "$work/delay-proxy.log" 2>&1 &
pids+=($!)

floe_s3_serve "$work" "$port" "http://127.0.0.1:$proxy_port"

# The client reaches the table's files with the storage's keys (the catalog vends none here),
# through the JDK's HTTP client, and leaves out the trailing checksums S3Proxy cannot verify.
# shellcheck disable=SC2086
java $jvm \
  -Daws.requestChecksumCalculation=WHEN_REQUIRED -Daws.responseChecksumValidation=WHEN_REQUIRED \
  -Dfloe.bench.client.io-impl=org.apache.iceberg.aws.s3.S3FileIO \
  -Dfloe.bench.client.http-client.type=urlconnection \
  -Dfloe.bench.client.s3.endpoint="http://127.0.0.1:$proxy_port" \
  -Dfloe.bench.client.s3.path-style-access=true \
  -Dfloe.bench.client.client.region=us-east-1 \
  -Dfloe.bench.client.s3.access-key-id=bench \
  -Dfloe.bench.client.s3.secret-access-key=bench-secret \
  -cp "$bench_cp" dev.floe.bench.Bench \
  --target "floe=http://localhost:$port,default,token-file=$work/floe/admin.token,pid-file=$work/floe.pid" \
  --only plan-server,plan-client --duration 30 --warmup 10 --json "$work/results.json" "$@" >&2
stop
trap - EXIT
java -cp "$bench_cp" dev.floe.bench.Report --planning "$work/results.json"
echo
echo "S3 exchanges held ${delay} ms each by DelayProxy; S3Proxy on the same machine; the client's worker pool has $(nproc) threads (one per core)."
