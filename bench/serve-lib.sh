#!/usr/bin/env bash
# Sourced by bench/replay.sh and bench/restart.sh: builds the server when its jar is missing, and
# starts and stops one `floe serve` (embedded Kafka, --auth none) on "$dir/data", logging to
# "$dir/serve.log". Reads root, cp, jvm, port and dir (and FLOE_OPTS, extra server options); sets
# pid (of the running server, empty once stopped) and ready_ms.

floe_build() {
  if [ ! -f "$root/catalog-api/target/catalog-api-0.1.0-SNAPSHOT.jar" ]; then
    (cd "$root" && mvn -q -B -DskipTests package -pl catalog-api -am) >&2
  fi
}

floe_start() { # sets pid, and ready_ms: the milliseconds from launch to the first ready answer
  local t0
  t0=$(date +%s%3N)
  # shellcheck disable=SC2086
  java $jvm ${FLOE_OPTS:-} -cp "$cp" dev.floe.api.Main serve --auth none --port "$port" \
    --data-dir "$dir/data" >> "$dir/serve.log" 2>&1 &
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
