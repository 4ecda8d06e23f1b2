#!/usr/bin/env bash
# Remote signing, measured: one Floe whose default warehouse is on an S3 API server (S3Proxy on
# loopback) with remote-signing.enabled=true, driven by `floe bench --only
# namespace-exists,load-table,sign`:
#   namespace-exists  the cheapest authenticated request: what any request costs (the floor)
#   load-table  a load of a table in that warehouse (its answer carries the signer configuration)
#   sign        POST …/tables/{t}/sign for a GET of another object under the table each time, as
#               S3FileIO asks for a scan's data files (checked, then signed with SigV4)
# with the server's CPU per operation (its process, embedded broker included). Signing never
# reaches S3, so no delay is put in front of it. Prints the table (Report --compare).
#
#   bench/signing.sh                 # 6 s per workload after 20 s of warm-up
#   bench/signing.sh --duration 10 --clients 8
#
# Any option of `floe bench` may follow (bench/src/main/java/dev/floe/bench/Bench.java).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench/serve-lib.sh
. "$root/bench/serve-lib.sh"
work="${BENCH_DIR:-/tmp/floe-bench-signing}"
jvm="${BENCH_JVM_OPTS:--Xms1g -Xmx2g}"
s3_port="${S3_PORT:-18700}"
port="${FLOE_PORT:-18721}"

rm -rf "$work"
mkdir -p "$work/s3/lake"
if [ -z "${SKIP_BUILD:-}" ]; then
  echo "Building Floe, the benchmark and the S3 server's class path..." >&2
  (cd "$root" && mvn -q -B -DskipTests package -pl floe-server,bench,test-s3proxy -am) >&2
fi

pids=()
stop() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap stop EXIT

echo "Starting S3Proxy on port $s3_port..." >&2
s3proxy_start "$work" "$s3_port"

cat > "$work/floe.properties" <<PROPS
floe.warehouse.default.location=s3://lake/warehouse
floe.warehouse.default.s3.endpoint=http://127.0.0.1:$s3_port
floe.warehouse.default.s3.path-style-access=true
floe.warehouse.default.s3.region=us-east-1
floe.warehouse.default.s3.access-key-id=bench
floe.warehouse.default.s3.secret-access-key=bench-secret
floe.warehouse.default.remote-signing.enabled=true
PROPS
echo "Starting Floe on port $port..." >&2
# shellcheck disable=SC2086
java $jvm -cp "$floe_cp" dev.floe.server.Main serve --port "$port" --data-dir "$work/floe" \
  --config "$work/floe.properties" > "$work/floe.log" 2>&1 &
pids+=($!)
echo $! > "$work/floe.pid"
for _ in $(seq 1 240); do
  curl -sf "http://localhost:$port/health/ready" > /dev/null && break
  sleep 0.5
done
curl -sf "http://localhost:$port/health/ready" > /dev/null

# shellcheck disable=SC2086
java $jvm -cp "$bench_cp" dev.floe.bench.Bench \
  --target "floe-signing=http://localhost:$port,default,token-file=$work/floe/admin.token,pid-file=$work/floe.pid" \
  --only namespace-exists,load-table,sign --duration 6 --warmup 20 --json "$work/results.json" "$@" >&2
stop
trap - EXIT
java -cp "$bench_cp" dev.floe.bench.Report --compare "$work/results.json"
