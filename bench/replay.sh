#!/usr/bin/env bash
# Times `floe replay` on a log of a known size: starts Floe (embedded Kafka, --auth none) on a data
# directory, fills it with TABLES tables of COMMITS snapshot commits each (bench/load-log.sh; skipped
# when the directory already holds a log), then runs `floe replay` RUNS times against the running
# catalog (every run replays the whole log into fresh stores and compares every table and namespace
# with the live catalog) and prints each run's line, the median and the load average.
#
#   bench/replay.sh [TABLES=1000] [COMMITS=20] [RUNS=3]
#
# Environment: REPLAY_DIR (data directory, default /tmp/floe-replay; kept, so a second call reuses
# the log), FLOE_PORT (18581), REPLAY_CP (classpath of the build whose replay is timed, default this
# checkout's; the server is always this checkout's), JVM_OPTS (-Xms1g -Xmx2g, for both),
# REPLAY_JVM_OPTS (-XX:TieredStopAtLevel=1, added for the replay, as bin/floe does; set it to a
# space to time the JVM's default compilers). Unlike bin/floe it maps no class-data archive, so
# two builds compare on the same footing; add -XX:SharedArchiveFile=... to time one with it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tables="${1:-1000}"
commits="${2:-20}"
runs="${3:-3}"
dir="${REPLAY_DIR:-/tmp/floe-replay}"
port="${FLOE_PORT:-18581}"
jvm="${JVM_OPTS:--Xms1g -Xmx2g}"
# shellcheck source=bench/serve-lib.sh
. "$root/bench/serve-lib.sh"
replay_cp="${REPLAY_CP:-$floe_cp}"
replay_jvm="${REPLAY_JVM_OPTS:--XX:TieredStopAtLevel=1}"

floe_build
mkdir -p "$dir"
fresh=true
[ -f "$dir/data/kafka-ports.properties" ] && fresh=false

pid=""
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; wait 2>/dev/null || true' EXIT
floe_start

if $fresh; then
  echo "Loading $tables tables x $commits commits..." >&2
  start=$(date +%s)
  "$root/bench/load-log.sh" "http://localhost:$port" "$tables" "$commits" 4
  echo "Loaded in $(( $(date +%s) - start )) s" >&2
fi

echo "load average before: $(cat /proc/loadavg); replay JVM options: $jvm $replay_jvm"
rates=()
for i in $(seq 1 "$runs"); do
  rm -rf "$dir/out"
  # shellcheck disable=SC2086
  out="$(java $jvm $replay_jvm -cp "$replay_cp" dev.floe.server.Main replay --data-dir "$dir/data" \
    --url "http://localhost:$port" --out "$dir/out" 2>/dev/null)" || { echo "$out"; echo "replay differs" >&2; exit 1; }
  line="$(grep -m1 '^Replayed' <<< "$out")"
  echo "run $i: $line; $(grep 'compared' <<< "$out")"
  rates+=("$(sed -E 's/.*\(([0-9]+) events\/s.*/\1/' <<< "$line")")
done
echo "load average after: $(cat /proc/loadavg)"
printf '%s\n' "${rates[@]}" | sort -n | awk '{a[NR]=$1} END {print "median events/s: " a[int((NR+1)/2)]}'
