#!/usr/bin/env bash
# Measures sequential commit and load latency of Floe on its embedded broker for several
# Kafka Streams commit intervals. Usage: bench/commit-latency.sh [count]   (default 500)
# Each setting gets a fresh data directory and server; results print as one block per setting.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
count="${1:-500}"
port=18281
for interval in 100 20 0; do
  dir="$(mktemp -d)"
  printf 'floe.streams.commit-interval-ms=%s\n' "$interval" > "$dir/floe.properties"
  "$root/bin/floe" serve --port "$port" --data-dir "$dir/data" --config "$dir/floe.properties" > "$dir/serve.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 120); do curl -sf "http://localhost:$port/health/ready" > /dev/null && break; sleep 0.5; done
  echo "commit.interval.ms=$interval"
  "$root/bin/floe" latency --url "http://localhost:$port" --count "$count" --token "$(cat "$dir/data/admin.token")" 2>/dev/null
  kill "$pid"; wait "$pid" 2>/dev/null || true
  rm -rf "$dir"
done
