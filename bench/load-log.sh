#!/usr/bin/env bash
# Fills a running Floe (started with --auth none, or FLOE_TOKEN set) with TABLES tables, each
# then given COMMITS commits that append a snapshot and move `main` to it, like an engine's
# append (the manifest lists are never read by the catalog, so none are written). WORKERS
# clients run at once, each on its own slice of tables. Used by bench/replay.sh and
# bench/restart.sh.
#
#   bench/load-log.sh http://localhost:18581 TABLES COMMITS [WORKERS] [NAMESPACE]
set -euo pipefail
url="$1"
tables="$2"
commits="$3"
workers="${4:-4}"
ns="${5:-replay}"
first="${FIRST:-0}" # tables t0..t<FIRST-1> exist already
base="$url/v1/default"
auth=()
if [ -n "${FLOE_TOKEN:-}" ]; then auth=(-H "Authorization: Bearer $FLOE_TOKEN"); fi

call() { # method path body: fails on any status but 200/204 (409 too with ALLOW_409 set: a table that exists)
  local status
  status="$(curl -s -o /dev/null -w '%{http_code}' "${auth[@]}" -X "$1" -H 'Content-Type: application/json' \
    "$base/$2" ${3:+--data "$3"})"
  case "$status" in 200|204) ;; 409) [ -n "${ALLOW_409:-}" ] || { echo "$1 $2 -> 409" >&2; return 1; } ;; *) echo "$1 $2 -> $status" >&2; return 1 ;; esac
}

call POST namespaces "{\"namespace\":[\"$ns\"],\"properties\":{\"owner\":\"bench\"}}" || true

schema='{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"id","required":true,"type":"long"},{"id":2,"name":"payload","required":false,"type":"string"},{"id":3,"name":"ts","required":false,"type":"timestamptz"}]}'
spec='{"spec-id":0,"fields":[{"source-id":3,"field-id":1000,"name":"ts_day","transform":"day"}]}'

worker() {
  local w="$1" t c id parent now
  for ((t = first + w; t < tables; t += workers)); do
    ALLOW_409=1 call POST "namespaces/$ns/tables" \
      "{\"name\":\"t$t\",\"schema\":$schema,\"partition-spec\":$spec,\"properties\":{\"format-version\":\"2\"}}"
    parent=""
    for ((c = 1; c <= commits; c++)); do
      id=$((t * 100000 + c))
      now="$(date +%s%3N)"
      call POST "namespaces/$ns/tables/t$t" "{\"requirements\":[],\"updates\":[{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":$id,${parent:+\"parent-snapshot-id\":$parent,}\"sequence-number\":$c,\"timestamp-ms\":$now,\"manifest-list\":\"file:/tmp/floe-bench-none/snap-$id.avro\",\"summary\":{\"operation\":\"append\",\"added-data-files\":\"1\",\"added-records\":\"1000\",\"total-records\":\"$((c * 1000))\"},\"schema-id\":0}},{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\",\"snapshot-id\":$id}]}"
      parent="$id"
    done
  done
}

pids=()
for ((w = 0; w < workers; w++)); do worker "$w" & pids+=($!); done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
exit "$failed"
