#!/usr/bin/env bash
# Measures what an idle `floe serve` costs: time from launch to the first ready answer on an empty
# data directory, CPU (% of one core, all threads, from /proc) over MEASURE_S seconds after IDLE_S
# seconds of idling, resident memory (VmRSS) at the end of that window, and, after a SIGTERM, time
# from relaunch on the same directory to the first ready answer. The server runs through bin/floe
# (FLOE_SKIP_BUILD=1), so it has the JVM flags bin/floe gives it. Prints one summary line; with
# THREADS=1 it also prints the CPU of each thread over the window.
#
#   bench/idle.sh [IDLE_S=60] [MEASURE_S=60]
#
# Environment: IDLE_DIR (default: a fresh temporary directory, removed afterwards), FLOE_PORT
# (18583), FLOE_OPTS (extra options for `floe serve`), FLOE_JAVA_OPTS (as for bin/floe).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
idle_s="${1:-60}"
measure_s="${2:-60}"
port="${FLOE_PORT:-18583}"
tck="$(getconf CLK_TCK)"
if [ -n "${IDLE_DIR:-}" ]; then dir="$IDLE_DIR"; rm -rf "$dir/data"; mkdir -p "$dir"; keep=1
else dir="$(mktemp -d /tmp/floe-idle.XXXXXX)"; keep=""; fi
if [ ! -f "$root/floe-server/target/floe-server.jar" ]; then
  (cd "$root" && mvn -q -B -DskipTests package -pl floe-server -am) >&2
fi
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null || true; [ -z "$keep" ] && rm -rf "$dir"' EXIT

start() { # sets pid, ready_ms (milliseconds from launch to the first ready answer, polled every 50 ms)
  # and ready_cpu (CPU seconds the process used until then)
  local t0
  t0=$(date +%s%3N)
  # shellcheck disable=SC2086
  FLOE_SKIP_BUILD=1 "$root/bin/floe" serve --auth none --port "$port" --data-dir "$dir/data" \
    ${FLOE_OPTS:-} >> "$dir/serve.log" 2>&1 &
  pid=$!
  until curl -sf -o /dev/null "http://localhost:$port/health/ready"; do
    kill -0 "$pid" 2>/dev/null || { echo "server died, see $dir/serve.log" >&2; exit 1; }
    sleep 0.05
  done
  ready_ms=$(( $(date +%s%3N) - t0 ))
  ready_cpu="$(awk -v t="$tck" '{printf "%.1f", ($14 + $15) / t}' "/proc/$pid/stat")"
}
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; } # utime + stime of the process: all its threads
thread_ticks() { for t in /proc/"$1"/task/*; do
  printf '%s %s\n' "$(awk '{print $14 + $15}' "$t/stat" 2>/dev/null || echo 0)" "$(cat "$t/comm" 2>/dev/null)"
done; }

start
first_ms="$ready_ms"; first_cpu="$ready_cpu"
sleep "$idle_s"
[ -n "${THREADS:-}" ] && { declare -A before; while read -r n name; do before["$name"]=$(( ${before["$name"]:-0} + n )); done < <(thread_ticks "$pid"); }
c0="$(ticks "$pid")"; t0=$(date +%s%3N)
sleep "$measure_s"
c1="$(ticks "$pid")"; t1=$(date +%s%3N)
rss_kb="$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")"
if [ -n "${THREADS:-}" ]; then
  declare -A after; while read -r n name; do after["$name"]=$(( ${after["$name"]:-0} + n )); done < <(thread_ticks "$pid")
  for name in "${!after[@]}"; do
    d=$(( after["$name"] - ${before["$name"]:-0} ))
    [ "$d" -gt 0 ] && awk -v d="$d" -v t="$tck" -v ms=$((t1 - t0)) -v n="$name" \
      'BEGIN {printf "  %6.2f %%  %s\n", 100 * d / t / (ms / 1000), n}'
  done | sort -rn
fi
cpu="$(awk -v d=$((c1 - c0)) -v t="$tck" -v ms=$((t1 - t0)) 'BEGIN {printf "%.2f", 100 * d / t / (ms / 1000)}')"
kill -s TERM "$pid"; wait "$pid" 2>/dev/null || true; pid=""
start
restart_ms="$ready_ms"
echo "ready ${first_ms} ms / ${first_cpu} CPU s (empty dir), idle CPU ${cpu} % of a core over ${measure_s} s after ${idle_s} s, RSS $((rss_kb / 1024)) MB, ready ${restart_ms} ms / ${ready_cpu} CPU s (restart); load $(cut -d' ' -f1-3 /proc/loadavg)"
