package dev.floe.server.it;

import static dev.floe.server.it.support.DataFileEntries.path;
import static dev.floe.server.it.support.DataFileEntries.written;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.TableMaintainedEvent;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.Browser;
import dev.floe.server.it.support.FloeCommand;
import dev.floe.server.it.support.RestClients;
import dev.floe.server.it.support.ServerEvents;
import dev.floe.server.it.support.Waits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The catalog's own maintenance, at {@code floe.warehouse.default.maintenance=opted-in} and a round
 * every 2 s: a table with {@code floe.maintenance.enabled=true} has its snapshots expired by its
 * {@code history.expire.*} properties, committed by {@code floe-maintenance}, and the file only the
 * expired snapshots reached deleted; a table that did not opt in keeps everything. The run is
 * recorded as {@code floe.table.maintained}, served by the events endpoint and by the table's
 * maintenance status, through a writer's token.
 */
class ScheduledMaintenanceIT {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  private static final String KEPT =
      "/management/v1/warehouses/default/namespaces/sched/tables/kept/maintenance";

  @TempDir static Path dataDir;
  private static FloeProcess floe;
  private static String writer;
  private static Path optedInFirst;
  private static Path leftFirst;

  @BeforeAll
  static void startAndWaitForARun() throws Exception {
    floe =
        new FloeProcess(
                dataDir,
                Map.of(
                    "floe.auth", "token",
                    "floe.warehouse.default.maintenance", "opted-in",
                    "floe.maintenance.interval", "PT2S"))
            .start();
    writer = AuthHttp.writerToken(floe, "scheduled-writer");
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of("token", writer))) {
      catalog.createNamespace(Namespace.of("sched"));
      Map<String, String> history =
          Map.of(
              "history.expire.max-snapshot-age-ms", "1",
              "history.expire.min-snapshots-to-keep", "1");
      Table left =
          catalog.createTable(
              TableIdentifier.of("sched", "left"), SCHEMA, PartitionSpec.unpartitioned(), history);
      leftFirst = threeCommits(left);
      Table kept =
          catalog.createTable(
              TableIdentifier.of("sched", "kept"), SCHEMA, PartitionSpec.unpartitioned(), history);
      optedInFirst = threeCommits(kept);
      // Opted in once written, so one run finds all three snapshots.
      kept.updateProperties().set("floe.maintenance.enabled", "true").commit();
    }
    Waits.until(
        () -> !status(writer, KEPT).path("last-run").isNull(),
        "a scheduled run of sched.kept is recorded",
        Duration.ofSeconds(60));
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (floe != null) {
      floe.close();
    }
  }

  @Test
  void anOptedInTableIsMaintainedOnTheScheduleAndAnotherIsLeftAlone() throws Exception {
    JsonNode kept = status(writer, KEPT);
    assertThat(kept.path("schedule").path("scheduled").asBoolean()).isTrue();
    assertThat(kept.path("schedule").path("interval").asText()).isEqualTo("PT2S");
    JsonNode run = kept.path("last-run");
    assertThat(run.path("trigger").asText()).isEqualTo("schedule");
    assertThat(run.path("principal").asText()).isEqualTo("floe-maintenance");
    assertThat(run.path("expired-snapshots").asInt()).isEqualTo(2);
    assertThat(run.path("remaining-snapshots").asInt()).isEqualTo(1);
    assertThat(run.path("deleted-files").asLong()).isGreaterThanOrEqualTo(3);
    assertThat(optedInFirst).as("the data file only expired snapshots reached").doesNotExist();

    JsonNode left =
        status(
            writer, "/management/v1/warehouses/default/namespaces/sched/tables/left/maintenance");
    assertThat(left.path("schedule").path("scheduled").asBoolean()).isFalse();
    assertThat(left.path("schedule").path("because").asText())
        .contains("floe.maintenance.enabled is not true");
    assertThat(left.path("last-run").isNull()).isTrue();
    assertThat(leftFirst).exists();
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of("token", writer))) {
      assertThat(catalog.loadTable(TableIdentifier.of("sched", "left")).snapshots()).hasSize(3);
      assertThat(catalog.loadTable(TableIdentifier.of("sched", "kept")).snapshots()).hasSize(1);
    }

    List<CatalogEvent> events = ServerEvents.read(floe.dataDir());
    assertThat(events)
        .anyMatch(
            e ->
                e.type().equals("floe.table.committed")
                    && e.subject().equals("sched.kept")
                    && e.principal().equals("floe-maintenance"));
    assertThat(events)
        .filteredOn(e -> e instanceof TableMaintainedEvent)
        .singleElement()
        .satisfies(e -> assertThat(e.subject()).isEqualTo("sched.kept"));
    JsonNode served =
        AuthHttp.expect(
                200,
                floe.uri(),
                "POST",
                "/v1/default/events",
                writer,
                "{\"operation-types\":[\"x-floe.maintain-table\"],\"since-timestamp-ms\":0}")
            .json();
    assertThat(served.path("events")).hasSize(1);
    JsonNode operation = served.path("events").get(0).path("operation");
    assertThat(operation.path("identifier").path("name").asText()).isEqualTo("kept");
    assertThat(operation.path("expired-snapshots").asInt()).isEqualTo(2);

    assertThat(
            FloeCommand.succeeds(
                floe.uri(),
                writer,
                "maintenance",
                "status",
                "--warehouse",
                "default",
                "--table",
                "sched.kept"))
        .startsWith("scheduled every PT2S: floe.warehouse.default.maintenance=opted-in")
        .contains("(schedule, by floe-maintenance): 2 snapshots expired, 1 remain");
  }

  @Test
  void theConsoleShowsATablesScheduleAndLastRunToItsReader() throws Exception {
    assumeTrue(
        Browser.available(),
        "No chromium and chromedriver in /usr/bin: .ci/run installs them (apt chromium"
            + " chromium-driver)");
    try (Browser browser = new Browser()) {
      browser.open(floe.uri() + "/ui/");
      new WebDriverWait(browser.driver(), Duration.ofSeconds(10))
          .until(ExpectedConditions.elementToBeClickable(By.id("token")))
          .sendKeys(writer);
      browser.driver().findElement(By.id("sign-in")).click();
      browser.await("principal");
      browser.open(floe.uri() + "/ui/#/w/default/ns/sched/table/kept");
      assertThat(browser.await("maintenance-schedule", Duration.ofSeconds(20)).getText())
          .contains("every PT2S")
          .contains("floe.warehouse.default.maintenance=opted-in");
      assertThat(browser.await("maintenance-last-run").getText())
          .contains("schedule, by floe-maintenance")
          .contains("2 expired, 1 kept");
      browser.open(floe.uri() + "/ui/#/w/default/ns/sched/table/left");
      assertThat(browser.await("maintenance-last-run", Duration.ofSeconds(20)).getText())
          .isEqualTo("No maintenance run recorded.");
      assertThat(browser.await("maintenance-schedule").getText())
          .startsWith("Not maintained on a schedule");
      assertThat(browser.consoleErrors()).isEmpty();
    }
  }

  /** An append, another, and an overwrite that removes the first file: answers that file. */
  private static Path threeCommits(Table table) {
    DataFile first = written(table, "x");
    table.newFastAppend().appendFile(first).commit();
    table.newFastAppend().appendFile(written(table, "x")).commit();
    table.newOverwrite().deleteFile(first).addFile(written(table, "x")).commit();
    return path(first.location());
  }

  private static JsonNode status(String token, String route) {
    return AuthHttp.expect(200, floe.uri(), "GET", route, token, null).json();
  }
}
