#!/usr/bin/env bash
# Sourced by every bench script: the one place that says where the packaged server is (floe_cp;
# FLOE_CP replaces it) and where the bench is (bench_cp). floe_build builds the server when its jar
# is missing; floe_start and floe_stop start and stop one `floe serve` (embedded Kafka, --auth none)
# on "$dir/data", logging to "$dir/serve.log". floe_start reads root, jvm, port and dir (and
# FLOE_OPTS, extra JVM options, and FLOE_ARGS, extra arguments of `floe serve`); sets pid (of the running server, empty once stopped) and
# ready_ms. s3proxy_start starts the S3 API server the object-storage, signing and planning benches
# use; s3_bench_build builds what they run, floe_s3_serve starts one Floe on it.

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

s3proxy_start() { # DIR PORT: S3Proxy (filesystem backend under DIR/s3, identity bench/bench-secret,
  # signatures checked) on PORT, logging warnings to DIR/s3proxy.log; appends its pid to pids
  # and returns once it answers. Buckets are directories under DIR/s3.
  mkdir -p "$1/s3"
  cat > "$1/logback.xml" <<'XML'
<configuration><appender name="OUT" class="ch.qos.logback.core.ConsoleAppender"><encoder><pattern>%d %level %logger - %msg%n</pattern></encoder></appender><root level="WARN"><appender-ref ref="OUT"/></root></configuration>
XML
  cat > "$1/s3proxy.properties" <<PROPS
s3proxy.endpoint=http://127.0.0.1:$2
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=bench
s3proxy.credential=bench-secret
s3proxy.ignore-unknown-headers=true
jclouds.provider=filesystem
jclouds.filesystem.basedir=$1/s3
jclouds.identity=bench
jclouds.credential=bench-secret
PROPS
  java -Xmx512m -Dlogback.configurationFile="$1/logback.xml" \
    -cp "$(cat "$root/test-s3proxy/target/classes/floe-s3proxy.classpath")" org.gaul.s3proxy.Main \
    --properties "$1/s3proxy.properties" > "$1/s3proxy.log" 2>&1 &
  pids+=($!)
  until curl -s -o /dev/null "http://127.0.0.1:$2/"; do sleep 0.3; done
}

s3_bench_build() { # unless SKIP_BUILD: the server, the bench and the S3 server's class path
  if [ -z "${SKIP_BUILD:-}" ]; then
    echo "Building Floe, the benchmark and the S3 server's class path..." >&2
    (cd "$root" && mvn -q -B -DskipTests package -pl floe-server,bench,test-s3proxy -am) >&2
  fi
}

floe_s3_serve() { # WORK PORT ENDPOINT [PROPERTY=VALUE...]: one Floe (token auth, embedded
  # Kafka, data under WORK/floe) whose default warehouse is s3://lake/warehouse at ENDPOINT with
  # S3Proxy's identity, plus the given properties; appends its pid to pids, writes it to
  # WORK/floe.pid and returns once it is ready.
  local work="$1" port="$2" endpoint="$3"
  shift 3
  {
    echo "floe.warehouse.default.location=s3://lake/warehouse"
    echo "floe.warehouse.default.s3.endpoint=$endpoint"
    echo "floe.warehouse.default.s3.path-style-access=true"
    echo "floe.warehouse.default.s3.region=us-east-1"
    echo "floe.warehouse.default.s3.access-key-id=bench"
    echo "floe.warehouse.default.s3.secret-access-key=bench-secret"
    for property in "$@"; do echo "$property"; done
  } > "$work/floe.properties"
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
}
