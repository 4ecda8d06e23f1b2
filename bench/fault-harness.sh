#!/usr/bin/env bash
# The fault harness of docs/reliability.md: a Kafka broker and Floe instances as separate
# processes, concurrent Iceberg RESTCatalog writers failing over between the instances, SIGKILLs
# of instances and of the broker under load, then a lineage check of every table.
#
# Usage: bench/fault-harness.sh [long|short] [-Dfloe.faults.<setting>=<value> ...]
#   long  (default) 30 instance SIGKILLs, then 3 broker SIGKILLs, each run under load; a killed
#         process stays down up to 20 s (past the 15 s session timeout its partitions move)
#   short the CI version: 4 instance SIGKILLs, then 1 broker SIGKILL, restarted at once
# The long run starts its processes with the JVM's default compilers (floe.test.jvm-options empty);
# the short one, as every test, with C1 alone.
# Settings (system properties, later ones win): floe.faults.instances (2), .writers (4),
# .tables (4), .kills, .broker-restarts, .duration (least seconds of load, 15), .pause-ms
# (load between a fault's recovery and the next fault, 2000), .max-down-ms (0), .seed,
# .reply-timeout (the instances' floe.reply-timeout, PT10S).
# MVN_FLAGS is passed to Maven (e.g. MVN_FLAGS=-o to build offline).
# Figures: floe-server/target/fault-harness/<run>.txt, one summary line per run at the end.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode="long"
if [ "$#" -gt 0 ] && [[ "$1" != -* ]]; then
  mode="$1"
  shift
fi
case "$mode" in
  long)
    settings=(-Dfloe.faults.kills=30 -Dfloe.faults.broker-restarts=3 -Dfloe.faults.max-down-ms=20000 -Dfloe.test.jvm-options=)
    ;;
  short) settings=() ;;
  *) echo "Usage: $0 [long|short] [-Dfloe.faults.<setting>=<value> ...]" >&2; exit 2 ;;
esac
out="$root/floe-server/target/fault-harness"
rm -rf "$out"
status=0
(cd "$root" && mvn -B ${MVN_FLAGS:-} -pl floe-server -am verify \
  -Dit.test=FaultHarnessIT -Dtest=none \
  -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false \
  "${settings[@]}" "$@") || status=$?
echo
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
for file in "$out"/*.txt; do
  [ -e "$file" ] || continue
  [ "$(basename "$file")" = summary.txt ] && continue
  echo "== $(basename "$file" .txt)"
  cat "$file"
done
if [ -f "$out/summary.txt" ]; then
  echo
  cat "$out/summary.txt"
fi
if [ "$status" -ne 0 ]; then
  echo "FAILED: see floe-server/target/failsafe-reports and floe-server/target/it-logs" >&2
fi
exit "$status"
