#!/usr/bin/env bash
# Sourced by every bench script: the one place that says where the packaged server is (floe_cp;
# FLOE_CP replaces it) and where the bench is (bench_cp). floe_build builds the server when its jar
# is missing; floe_start and floe_stop start and stop one `floe serve` (embedded Kafka, --auth none)
# on "$dir/data", logging to "$dir/serve.log". floe_start reads root, jvm, port and dir (and
# FLOE_OPTS, extra JVM options, and FLOE_ARGS, extra arguments of `floe serve`); sets pid (of the running server, empty once stopped) and
# ready_ms.

floe_cp="${FLOE_CP:-$root/floe-server/target/floe-server.jar:$root/floe-server/target/lib/*}"
bench_cp="$root/bench/target/floe-bench.jar:$root/bench/target/lib/*"

floe_build() {
  if [ ! -f "$root/floe-server/target/floe-server.jar" ]; then
    (cd "$root" && mvn -q -B -DskipTests package -pl floe-server -am) >&2
  fi
}

floe_start() { # sets pid, and ready_ms: the milliseconds from launch to the first ready answer
  local t0
  t0=$(date +%s%3N)
  # shellcheck disable=SC2086
  java $jvm ${FLOE_OPTS:-} -cp "$floe_cp" dev.floe.server.Main serve --auth none --port "$port" \
    --data-dir "$dir/data" ${FLOE_ARGS:-} >> "$dir/serve.log" 2>&1 &
  pid=$!
  until curl -sf -o /dev/null "http://localhost:$port/health/ready"; do
    kill -0 "$pid" 2>/dev/null || { echo "server died, see $dir/serve.log" >&2; exit 1; }
    sleep 0.1
  done
  ready_ms=$(( $(date +%s%3N) - t0 ))
}

floe_stop() { # $1: TERM or KILL
  kill -s "$1" "$pid"
  wait "$pid" 2>/dev/null || true
  pid=""
}
