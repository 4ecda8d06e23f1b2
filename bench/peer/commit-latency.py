#!/usr/bin/env python3
"""Rough single-client commit latency of an Iceberg REST catalog (stdlib only).

Usage: bench/peer/commit-latency.py URI [COUNT]     (default COUNT 200)

Creates namespace peer_lat_<time> and table t in it, then sends COUNT sequential
set-properties commits (POST .../tables/t with an assert-table-uuid requirement) over one
keep-alive HTTP/1.1 connection, timing each request from send to fully read response, and
prints count, p50, p90, p99, max and mean in milliseconds. It honours the "prefix" that
GET /v1/config returns (overrides, then defaults), so it works for Floe and for the peer.
Every request goes to the given URI only (use a localhost one).
"""
import http.client
import json
import statistics
import sys
import time
import urllib.parse


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    uri = urllib.parse.urlsplit(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) == 3 else 200
    conn = http.client.HTTPConnection(uri.hostname, uri.port or 80, timeout=30)
    headers = {"Content-Type": "application/json", "Accept": "application/json"}

    def call(method, path, body=None, ok=(200, 204)):
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        resp = conn.getresponse()
        data = resp.read()
        if resp.status not in ok:
            sys.exit(f"{method} {path} -> {resp.status}: {data[:500]!r}")
        return json.loads(data) if data else None

    config = call("GET", "/v1/config")
    prefix = config.get("overrides", {}).get("prefix") or config.get("defaults", {}).get("prefix")
    base = "/v1/" + (urllib.parse.quote(prefix, safe="") + "/" if prefix else "")
    ns = f"peer_lat_{int(time.time() * 1000)}"
    call("POST", base + "namespaces", {"namespace": [ns]})
    table = call(
        "POST",
        f"{base}namespaces/{ns}/tables",
        {
            "name": "t",
            "schema": {
                "type": "struct",
                "schema-id": 0,
                "fields": [{"id": 1, "name": "id", "required": True, "type": "long"}],
            },
        },
    )
    uuid = table["metadata"]["table-uuid"]
    path = f"{base}namespaces/{ns}/tables/t"

    times = []
    for i in range(count):
        body = {
            "requirements": [{"type": "assert-table-uuid", "uuid": uuid}],
            "updates": [{"action": "set-properties", "updates": {"k": str(i)}}],
        }
        t0 = time.perf_counter()
        call("POST", path, body)
        times.append((time.perf_counter() - t0) * 1000.0)

    times.sort()

    def pct(p):
        return times[min(len(times) - 1, max(0, int(round(p / 100.0 * len(times))) - 1))]

    print(
        f"commits={len(times)} p50={pct(50):.2f}ms p90={pct(90):.2f}ms p99={pct(99):.2f}ms "
        f"max={times[-1]:.2f}ms mean={statistics.fmean(times):.2f}ms (namespace {ns})"
    )


if __name__ == "__main__":
    main()
