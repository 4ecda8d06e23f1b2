#!/usr/bin/env bash
# The fault harness of docs/reliability.md: Kafka brokers and Floe instances as separate
# processes, concurrent Iceberg RESTCatalog writers failing over between the instances, faults of
# instances and brokers under load, read-your-writes after every acknowledged commit, then a
# lineage check of every table and of the event log. Creates, renames and multi-table
# transactions run beside the appends. Each run ends with one summary line,
# "lost 0 duplicates 0 own-conflicts 0 phantoms 0 ryw-violations 0 ...", and the script exits 0
# only when every count there is 0.
#
# Usage: bench/fault-harness.sh [long|short|cluster-long|cluster-short] [-Dfloe.faults.<setting>=<value> ...]
#   long          (default) one broker, 2 instances: 30 instance SIGKILLs, then 3 broker SIGKILLs,
#                 each down up to 20 s (past the session timeout an instance's partitions move)
#   short         the CI version: 4 instance SIGKILLs, then 1 broker SIGKILL, restarted at once
#   cluster-long  three KRaft nodes (replication 3, min ISR 2), 3 instances, 6 writers: 15 instance SIGKILLs
#                 (down up to 20 s), 15 instance SIGSTOPs past the session (zombies), 4 SIGKILLs of
#                 a broker leading floe.commands/floe.events partitions, 3 of the active
#                 controller, 3 broker SIGSTOPs of 20 s, and 10 baselines (no fault: the harness's
#                 own floor), shuffled
#   cluster-short the CI version: one fault of each kind and one baseline, killed processes
#                 restarted at once
# The single-broker long run starts its processes with the JVM's default compilers
# (floe.test.jvm-options empty), as its earlier figures did; the others, as every test, with C1
# alone (seven JVMs on one machine: C2's compilations would take the CPU the faults are timed on).
# Settings (system properties, later ones win): floe.faults.instances (2; 3 on a cluster),
# .writers (4), .mixed-writers (2), .tables (4; 6 on a cluster), .duration (least seconds of load, 15), .pause-ms
# (load between a fault's recovery and the next fault, 2000), .max-down-ms (0), .seed,
# .reply-timeout (the instances' floe.reply-timeout, PT10S); one broker: .kills, .broker-restarts;
# a cluster: .instance-kills, .instance-pauses, .broker-kills, .controller-kills, .broker-pauses,
# .baselines,
# .instance-pause-ms (10000), .broker-pause-ms (20000), .session-timeout (the instances',
# PT3S).
# MVN_FLAGS is passed to Maven (e.g. MVN_FLAGS=-o to build offline).
# Figures: floe-server/target/fault-harness/<run>.txt, one summary line per run at the end.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode="long"
if [ "$#" -gt 0 ] && [[ "$1" != -* ]]; then
  mode="$1"
  shift
fi
test=FaultHarnessIT
case "$mode" in
  long)
    settings=(-Dfloe.faults.kills=30 -Dfloe.faults.broker-restarts=3 -Dfloe.faults.max-down-ms=20000 -Dfloe.test.jvm-options=)
    ;;
  short) settings=() ;;
  cluster-long)
    test=ClusterFaultHarnessIT
    settings=(-Dfloe.faults.cluster=true -Dfloe.faults.run=cluster-long -Dfloe.faults.writers=6 -Dfloe.faults.instance-kills=15 -Dfloe.faults.instance-pauses=15
      -Dfloe.faults.broker-kills=4 -Dfloe.faults.controller-kills=3 -Dfloe.faults.broker-pauses=3
      -Dfloe.faults.baselines=10 -Dfloe.faults.max-down-ms=20000)
    ;;
  cluster-short) test=ClusterFaultHarnessIT; settings=(-Dfloe.faults.cluster=true) ;;
  *) echo "Usage: $0 [long|short|cluster-long|cluster-short] [-Dfloe.faults.<setting>=<value> ...]" >&2; exit 2 ;;
esac
out="$root/floe-server/target/fault-harness"
rm -rf "$out"
status=0
(cd "$root" && mvn -B ${MVN_FLAGS:-} -pl floe-server -am verify \
  -Dit.test="$test" -Dtest=none \
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
  # Every count before the "|" must be 0.
  if awk -F'|' '{ n = split($1, f, " "); for (i = 2; i <= n; i += 2) if (f[i] != "0") bad = 1 } END { exit bad }' "$out/summary.txt"; then
    :
  else
    echo "FAILED: a count on a summary line is not 0" >&2
    status=1
  fi
else
  echo "FAILED: no summary line" >&2
  status=1
fi
if [ "$status" -ne 0 ]; then
  echo "FAILED: see floe-server/target/failsafe-reports and floe-server/target/it-logs" >&2
fi
exit "$status"
