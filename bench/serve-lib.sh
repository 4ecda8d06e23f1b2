#!/usr/bin/env bash
# Sourced by every bench script: the one place that says where the packaged server is (floe_cp;
# FLOE_CP replaces it) and where the bench is (bench_cp). floe_build builds the server when its jar
# is missing; floe_start and floe_stop start and stop one `floe serve` (embedded Kafka, --auth none)
# on "$dir/data", logging to "$dir/serve.log". floe_start reads root, jvm, port and dir (and
# FLOE_OPTS, extra JVM options, and FLOE_ARGS, extra arguments of `floe serve`); sets pid (of the running server, empty once stopped) and
# ready_ms. s3proxy_start starts the S3 API server the object-storage and signing benches use.

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
