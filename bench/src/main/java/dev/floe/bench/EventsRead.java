package dev.floe.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code events} workload: reading the catalog's changes through {@code POST
 * /v1/{prefix}/events} (Iceberg's proposed Events API), as a client that follows a log does.
 *
 * <p>First a token is taken at the log's end ({@code since-timestamp-ms} after every event: the
 * first page is empty and its token points at the end), then {@code events} changes are written to
 * the tree's tables by {@code clients} clients: half requirement-free single-table commits (the
 * path {@code commit-many-tables} measures), half multi-table transactions ({@code POST
 * /v1/{prefix}/transactions/commit}) of {@link #TABLES_PER_TRANSACTION} tables, one event per
 * table. Whatever ran before, every read then starts at that token and reads exactly those changes.
 *
 * <p>Then, per page size: one reader reads from the token to the end (an empty {@code events}) in
 * passes, unmeasured for {@code warmupSeconds}, then measured for whole passes until {@code
 * durationSeconds} have gone by. Measured: events served per second, each request's latency, and
 * the CPU time of the catalog's process (when the target names its pid-file) and of this benchmark
 * per 1,000 events served. Every pass must read exactly the events the fill wrote; one that reads
 * another number is counted in {@code passesMiscounted}.
 */
final class EventsRead {
  static final String ENDPOINT = "POST /v1/{prefix}/events";
  static final int TABLES_PER_TRANSACTION = 10;

  private final RestTarget target;
  private final List<List<String>> tables;
  private final Workloads.Settings settings;
  private final AtomicLong counter = new AtomicLong();

  /** Events the fill's successful commits and transactions wrote. */
  private final AtomicLong written = new AtomicLong();

  EventsRead(RestTarget target, List<List<String>> tables, Workloads.Settings settings) {
    this.target = target;
    this.tables = tables;
    this.settings = settings;
  }

  Map<String, Object> run() {
    Map<String, Object> result = new LinkedHashMap<>();
    if (!target.serves(ENDPOINT)) {
      result.put("served", false);
      result.put("why", "its /v1/config lists no " + ENDPOINT);
      System.err.printf("  %s: serves no events endpoint; events not measured%n", target.name);
      return result;
    }
    result.put("served", true);
    String start = endOfLog();
    result.put("fill", fill());
    long expected = written.get();
    result.put("eventsWritten", expected);
    System.err.printf("  %s: wrote %d events; reading them%n", target.name, expected);
    List<Map<String, Object>> pages = new ArrayList<>();
    for (int pageSize : settings.eventPageSizes()) {
      if (settings.warmupSeconds() > 0) {
        read(start, pageSize, settings.warmupSeconds(), expected, false);
      }
      Map<String, Object> measured =
          read(start, pageSize, settings.durationSeconds(), expected, true);
      System.err.printf(
          "  %s: events page-size %d: %.0f events/s, p50 %.2f ms, p99 %.2f ms, server CPU %s ms"
              + " per 1,000 events%n",
          target.name,
          pageSize,
          (Double) measured.get("eventsPerSecond"),
          (Double) measured.get("p50"),
          (Double) measured.get("p99"),
          measured.get("serverCpuMsPer1000Events"));
      pages.add(measured);
    }
    result.put("pageSizes", pages);
    return result;
  }

  /** A token at the log's end: asked for the events since a time after every event, none. */
  private String endOfLog() {
    RestTarget.Response answer =
        target.call(
            "POST", "events", "{\"page-size\":1,\"since-timestamp-ms\":" + Long.MAX_VALUE + "}");
    JsonNode page = answer.json();
    if (answer.status() != 200 || !page.path("events").isEmpty()) {
      throw new IllegalStateException(
          target.name + ": asking for the log's end answered " + answer.status());
    }
    return page.path("continuation-token").asText();
  }

  /** Half the events from single-table commits, half from transactions; their write rate. */
  private Map<String, Object> fill() {
    int rounds = Math.max(1, settings.events() / (2 * TABLES_PER_TRANSACTION));
    // Each round: TABLES_PER_TRANSACTION single-table commits, then one transaction of as many.
    int perRound = TABLES_PER_TRANSACTION + 1;
    Stats stats = new Stats();
    long began = System.nanoTime();
    Load.parallel(
        rounds * perRound,
        i ->
            Load.timed(
                stats,
                () -> {
                  boolean transaction = i % perRound == TABLES_PER_TRANSACTION;
                  int status = transaction ? transaction() : commit();
                  if (status >= 200 && status < 300) {
                    written.addAndGet(transaction ? TABLES_PER_TRANSACTION : 1);
                  }
                  return status;
                }),
        settings.clients());
    stats.elapsed(System.nanoTime() - began);
    Map<String, Object> fill = stats.toMap();
    fill.put("commits", rounds * TABLES_PER_TRANSACTION);
    fill.put("transactions", rounds);
    fill.put("tablesPerTransaction", TABLES_PER_TRANSACTION);
    fill.put("clients", settings.clients());
    fill.put("eventsPerSecond", written.get() / stats.elapsedSeconds());
    return fill;
  }

  private int commit() {
    List<String> table = tables.get(ThreadLocalRandom.current().nextInt(tables.size()));
    List<String> namespace = table.subList(0, table.size() - 1);
    return target
        .call(
            "POST",
            "namespaces/"
                + target.namespacePath(namespace)
                + "/tables/"
                + RestTarget.encode(table.get(table.size() - 1)),
            "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":"
                + "{\"bench-events\":\""
                + counter.incrementAndGet()
                + "\"}}]}")
        .status();
  }

  /** A requirement-free property update of {@link #TABLES_PER_TRANSACTION} distinct tables. */
  private int transaction() {
    List<List<String>> chosen = new ArrayList<>(tables);
    Collections.shuffle(chosen, ThreadLocalRandom.current());
    ObjectNode body = RestTarget.JSON.createObjectNode();
    ArrayNode changes = body.putArray("table-changes");
    String value = Long.toString(counter.incrementAndGet());
    for (List<String> table : chosen.subList(0, Math.min(TABLES_PER_TRANSACTION, chosen.size()))) {
      ObjectNode change = changes.addObject();
      ObjectNode id = change.putObject("identifier");
      ArrayNode namespace = id.putArray("namespace");
      table.subList(0, table.size() - 1).forEach(namespace::add);
      id.put("name", table.get(table.size() - 1));
      change.putArray("requirements");
      change
          .putArray("updates")
          .addObject()
          .put("action", "set-properties")
          .putObject("updates")
          .put("bench-events", value);
    }
    return target.call("POST", "transactions/commit", body.toString()).status();
  }

  /**
   * Passes from {@code start} to the log's end, {@code pageSize} events a request, until {@code
   * seconds} have gone by: with {@code whole}, whole passes (at least one), as measured; else (the
   * warm-up) stopping mid-pass at the deadline, as a pass of small pages can take minutes.
   */
  private Map<String, Object> read(
      String start, int pageSize, int seconds, long expected, boolean whole) {
    Stats requests = new Stats();
    long events = 0;
    long passes = 0;
    long miscounted = 0;
    long largestPage = 0;
    long serverBefore = ServerCpu.treeNanos(target.serverPids);
    long benchBefore = ServerCpu.benchNanos();
    long began = System.nanoTime();
    long deadline = began + TimeUnit.SECONDS.toNanos(seconds);
    do {
      long read = 0;
      String token = start;
      // A bound on the requests of a pass, should the end never come.
      long most = 2 * (expected / pageSize) + 100;
      for (long request = 0; request < most; request++) {
        if (!whole && System.nanoTime() >= deadline) {
          break;
        }
        String body = "{\"page-size\":" + pageSize + ",\"continuation-token\":\"" + token + "\"}";
        long sent = System.nanoTime();
        RestTarget.Response answer = target.call("POST", "events", body);
        if (answer.status() != 200) {
          requests.error();
          break;
        }
        requests.record(System.nanoTime() - sent);
        JsonNode page = answer.json();
        int served = page.path("events").size();
        if (served == 0) {
          break;
        }
        read += served;
        largestPage = Math.max(largestPage, served);
        token = page.path("continuation-token").asText();
      }
      events += read;
      passes++;
      if (read != expected) {
        miscounted++;
      }
    } while (System.nanoTime() < deadline);
    long elapsed = System.nanoTime() - began;
    long serverAfter = ServerCpu.treeNanos(target.serverPids);
    long benchAfter = ServerCpu.benchNanos();
    requests.elapsed(elapsed);

    Map<String, Object> result = new LinkedHashMap<>();
    result.put("pageSize", pageSize);
    result.put("passes", passes);
    result.put("passesMiscounted", miscounted);
    result.put("events", events);
    result.put("eventsPerSecond", events / (elapsed / 1e9));
    result.put("requests", requests.count());
    result.put("requestsPerSecond", requests.opsPerSecond());
    result.put("largestPage", largestPage);
    result.put("errors", requests.errors());
    for (String field : List.of("p50", "p90", "p95", "p99", "p999", "max")) {
      result.put(field, requests.toMap().get(field));
    }
    result.put("serverCpuMsPer1000Events", perThousand(serverBefore, serverAfter, events));
    result.put("serverCores", cores(serverBefore, serverAfter, elapsed));
    result.put("benchCpuMsPer1000Events", perThousand(benchBefore, benchAfter, events));
    return result;
  }

  /** CPU milliseconds per 1,000 events, or null when the CPU time could not be read. */
  private static Double perThousand(long before, long after, long events) {
    if (before < 0 || after < 0 || events == 0) {
      return null;
    }
    return (after - before) / 1e6 / (events / 1000.0);
  }

  /** How many cores the process used on average over {@code elapsed}, or null. */
  private static Double cores(long before, long after, long elapsed) {
    return before < 0 || after < 0 ? null : (after - before) / (double) elapsed;
  }
}
