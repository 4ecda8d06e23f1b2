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
s3_bench_build

pids=()
stop() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap stop EXIT

echo "Starting S3Proxy on port $s3_port..." >&2
s3proxy_start "$work" "$s3_port"

floe_s3_serve "$work" "$port" "http://127.0.0.1:$s3_port" \
  floe.warehouse.default.remote-signing.enabled=true

# shellcheck disable=SC2086
java $jvm -cp "$bench_cp" dev.floe.bench.Bench \
  --target "floe-signing=http://localhost:$port,default,token-file=$work/floe/admin.token,pid-file=$work/floe.pid" \
  --only namespace-exists,load-table,sign --duration 6 --warmup 20 --json "$work/results.json" "$@" >&2
stop
trap - EXIT
java -cp "$bench_cp" dev.floe.bench.Report --compare "$work/results.json"
