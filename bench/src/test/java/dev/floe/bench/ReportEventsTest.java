package dev.floe.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** The events table: figures for a catalog that serves the endpoint, n/a for one that does not. */
class ReportEventsTest {
  @Test
  void aCatalogWithoutTheEndpointIsNotApplicableNotAFigure() throws Exception {
    JsonNode results =
        RestTarget.JSON.readTree(
"""
{"floe": {"events": {"served": true, "eventsWritten": 1000,
   "fill": {"commits": 500, "transactions": 50, "tablesPerTransaction": 10,
            "clients": 4, "eventsPerSecond": 250.0, "errors": 0},
   "pageSizes": [{"pageSize": 100, "passes": 3, "passesMiscounted": 0,
     "eventsPerSecond": 1234.5, "requestsPerSecond": 12.0, "largestPage": 109,
     "p50": 8.0, "p95": 9.5, "p99": 12.25, "max": 20.0,
     "serverCpuMsPer1000Events": 45.0, "serverCores": 0.5,
     "benchCpuMsPer1000Events": 5.0, "errors": 0}]}},
 "peer": {"events": {"served": false, "why": "its /v1/config lists no POST /v1/{prefix}/events"}}}
""");
    StringBuilder md = new StringBuilder();

    WorkloadSections.events(md, results);

    assertThat(md.toString())
        .contains(
            "| floe | 100 | 1235 | 12.0 | 8.00 / 9.50 / 12.3 / 20.0 | 45.0 (0.50) | 5.00 | 109 | 3"
                + " × 1000 | 0 |")
        .contains(
            "| peer | all | n/a: peer serves no events endpoint (its /v1/config lists no POST")
        .contains("1000 events written first (500 single-table commits and 50 transactions of 10");
  }
}
