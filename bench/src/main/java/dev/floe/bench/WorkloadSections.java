package dev.floe.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * The report's sections of the workloads measured their own way: the events endpoint's pages
 * ({@link EventsRead}), one tenant's latency beside another's load (fairness), and scan planning by
 * the catalog beside the client's own ({@link ScanPlans}).
 */
final class WorkloadSections {
  private WorkloadSections() {}

  /**
   * The {@code events} workload ({@link EventsRead}): per catalog and page size, events served per
   * second, request latencies and CPU per 1,000 events; a catalog with no events endpoint is marked
   * n/a, with no figure.
   */
  static void events(StringBuilder md, JsonNode results) {
    List<String> names = new ArrayList<>();
    results.fieldNames().forEachRemaining(names::add);
    for (String name : names) {
      JsonNode fill = results.path(name).path(Workloads.EVENTS).path("fill");
      if (fill.isObject()) {
        md.append(
            String.format(
                Locale.ROOT,
                "%s: %d events written first (%d single-table commits and %d transactions of %d"
                    + " tables, %d clients: %s events/s written, %d errors), then read from a"
                    + " token taken at the log's end before them to the log's end again",
                name,
                results.path(name).path(Workloads.EVENTS).path("eventsWritten").asLong(),
                fill.path("commits").asLong(),
                fill.path("transactions").asLong(),
                fill.path("tablesPerTransaction").asLong(),
                fill.path("clients").asLong(),
                Report.num(fill.path("eventsPerSecond").asDouble()),
                fill.path("errors").asLong()));
        md.append(
            " (an empty `events` ends a pass), by one reader following `continuation-token`, in"
                + " whole passes. Latencies are per request, in milliseconds. CPU is the"
                + " catalog process's user + system time (/proc, every thread, its embedded Kafka"
                + " broker included) over the measured passes, per 1,000 events served, and in"
                + " cores; the benchmark client's own beside it.\n\n");
      }
    }
    md.append(
        "| catalog | page size | events/s | requests/s | p50 / p95 / p99 / max | server CPU ms"
            + " per 1,000 events (cores) | bench CPU ms per 1,000 events | largest page |"
            + " passes × events | errors |\n");
    md.append("|---|---:|---:|---:|---|---:|---:|---:|---|---:|\n");
    for (String name : names) {
      JsonNode events = results.path(name).path(Workloads.EVENTS);
      if (events.isMissingNode()) {
        continue;
      }
      if (!events.path("served").asBoolean()) {
        md.append("| ")
            .append(name)
            .append(" | all | n/a: ")
            .append(name)
            .append(" serves no events endpoint (")
            .append(events.path("why").asText())
            .append(") | — | — | — | — | — | — | — |\n");
        continue;
      }
      long written = events.path("eventsWritten").asLong();
      for (JsonNode page : events.path("pageSizes")) {
        long passes = page.path("passes").asLong();
        long miscounted = page.path("passesMiscounted").asLong();
        JsonNode cores = page.path("serverCores");
        md.append("| ")
            .append(name)
            .append(" | ")
            .append(page.path("pageSize").asLong())
            .append(" | ")
            .append(Report.num(page.path("eventsPerSecond").asDouble()))
            .append(" | ")
            .append(Report.num(page.path("requestsPerSecond").asDouble()))
            .append(" | ")
            .append(Report.figures(page, "p50", "p95", "p99", "max"))
            .append(" | ")
            .append(Report.optional(page.path("serverCpuMsPer1000Events")))
            .append(cores.isNumber() ? " (" + Report.num(cores.asDouble()) + ")" : "")
            .append(" | ")
            .append(Report.optional(page.path("benchCpuMsPer1000Events")))
            .append(" | ")
            .append(page.path("largestPage").asLong())
            .append(" | ")
            .append(passes)
            .append(" × ")
            .append(written)
            .append(
                miscounted == 0
                    ? ""
                    : " (**" + miscounted + " pass(es) read another number of events**)")
            .append(" | ")
            .append(page.path("errors").asLong())
            .append(" |\n");
      }
    }
  }

  /**
   * The {@code fairness} workload ({@link Fairness}): per catalog, the quiet tenant's commit
   * latencies alone and beside the noisy tenant's large commits, and the noise's rate.
   */
  static void fairness(StringBuilder md, JsonNode results) {
    md.append(
        String.format(
            Locale.ROOT,
            "A quiet tenant commits a one-property update to one of its %d tables, in turn, %d"
                + " times a second (open loop: a stall counts from when the commit was due), first"
                + " alone, then while"
                + " noisy clients each commit a %,d-byte property value to tables of their own as"
                + " fast as they are answered. Latencies in milliseconds; the server's CPU in"
                + " cores over each phase.%n%n",
            Fairness.QUIET_TABLES,
            Fairness.QUIET_RATE,
            Fairness.NOISY_BYTES));
    md.append(
        "| catalog | noisy tenant | quiet alone p50 / p90 / p99 / p99.9 / max | quiet beside the"
            + " noise p50 / p90 / p99 / p99.9 / max | p50 × | noisy commits/s (MiB/s) | server"
            + " cores alone / with noise | errors |\n");
    md.append("|---|---|---|---|---:|---|---|---:|\n");
    for (Iterator<String> it = results.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      JsonNode run = results.path(name).path(Fairness.WORKLOAD);
      if (run.isMissingNode()) {
        continue;
      }
      JsonNode alone = run.path("alone");
      JsonNode together = run.path("withNoise");
      JsonNode noisy = run.path("noisy");
      md.append("| ")
          .append(name)
          .append(" | ")
          .append(run.path("noisyClients").asInt())
          .append(" clients, ")
          .append(
              run.path("separateWarehouses").asBoolean()
                  ? "warehouse `" + run.path("noisyWarehouse").asText() + "`"
                  : "another namespace (no second warehouse)")
          .append(" | ")
          .append(Report.latencies(alone))
          .append(" | ")
          .append(Report.latencies(together))
          .append(" | ")
          .append(
              String.format(
                  Locale.ROOT,
                  "%.1f×",
                  together.path("p50").asDouble() / alone.path("p50").asDouble()))
          .append(" | ")
          .append(Report.num(noisy.path("opsPerSecond").asDouble()))
          .append(" (")
          .append(Report.num(noisy.path("mebibytesPerSecond").asDouble()))
          .append(") | ")
          .append(Report.optional(alone.path("serverCores")))
          .append(" / ")
          .append(Report.optional(together.path("serverCores")))
          .append(" | ")
          .append(
              alone.path("errors").asLong()
                  + together.path("errors").asLong()
                  + noisy.path("errors").asLong())
          .append(" |\n");
    }
  }

  /**
   * The scan planning workloads ({@link ScanPlans}) of each catalog: latency of a plan by the
   * catalog and by the client itself, the catalog's and the client's CPU per plan, and the first
   * plan of each.
   */
  static void planning(StringBuilder md, JsonNode results) {
    md.append(
        "| catalog | planned by | plans | p50 / p90 / p99 / max (ms) | catalog CPU-ms/plan (cores)"
            + " | client CPU-ms/plan | first plan (ms) |\n|---|---|---:|---|---:|---:|---:|\n");
    for (Iterator<String> it = results.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      JsonNode first = results.path(name).path(ScanPlans.FIRST);
      for (String workload : List.of(ScanPlans.SERVER, ScanPlans.CLIENT)) {
        JsonNode stats = results.path(name).path(workload);
        if (!stats.isObject()) {
          continue;
        }
        boolean server = workload.equals(ScanPlans.SERVER);
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %d | %s / %s / %s / %s | %s (%.2f) | %s | %s |%n",
                name,
                server ? "the catalog (`plan-server`)" : "the client (`plan-client`)",
                stats.path("ops").asLong(),
                Report.num(stats.path("p50").asDouble()),
                Report.num(stats.path("p90").asDouble()),
                Report.num(stats.path("p99").asDouble()),
                Report.num(stats.path("max").asDouble()),
                Report.num(stats.path("serverCpuMsPerOp").asDouble()),
                stats.path("serverCores").asDouble(),
                Report.num(stats.path("benchCpuMsPerOp").asDouble()),
                Report.num(first.path(server ? "server-ms" : "client-ms").asDouble())));
      }
      JsonNode server = results.path(name).path(ScanPlans.SERVER);
      JsonNode client = results.path(name).path(ScanPlans.CLIENT);
      if (server.isObject() && client.isObject()) {
        md.append(
            String.format(
                Locale.ROOT,
                "%n%s: p50 of a plan by the catalog is %.2f× the client's own; its first plan"
                    + " %.2f×.%n",
                name,
                server.path("p50").asDouble() / client.path("p50").asDouble(),
                first.path("server-ms").asDouble() / first.path("client-ms").asDouble()));
      }
    }
  }
}
