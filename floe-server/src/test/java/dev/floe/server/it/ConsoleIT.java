package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.Browser;
import dev.floe.server.it.support.DataFileEntries;
import dev.floe.server.it.support.RestClients;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
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
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web console in a real browser (Debian's chromium through chromedriver), on the real server,
 * through the journeys a person takes: sign in with a token; open a table the Java client wrote and
 * see its schema and snapshots with their author; watch a commit arrive in the live feed; grant a
 * reader and see its 403 become a page; see that a reader has no access pages; restore a dropped
 * table from Deleted; read the table as of before its last commit. After each journey the browser's
 * console holds no errors. Screenshots land in {@code target/console}.
 */
class ConsoleIT {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "category", Types.StringType.get()));
  private static final Namespace DB = Namespace.of("db");
  private static final TableIdentifier ORDERS = TableIdentifier.of(DB, "orders");
  private static final Path SHOTS = Path.of("target", "console");

  @TempDir static Path dir;
  private static FloeProcess floe;
  private static String admin;
  private static Instant beforeLastCommit;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(
        Browser.available(),
        "No chromium and chromedriver in /usr/bin: .ci/run installs them (apt chromium"
            + " chromium-driver)");
    floe = new FloeProcess(dir.resolve("data"), Map.of("floe.auth", "token")).start();
    admin = floe.adminToken();
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of("token", admin))) {
      catalog.createNamespace(DB, new HashMap<>(Map.of("owner", "sales")));
      Table table = catalog.createTable(ORDERS, SCHEMA);
      table.newFastAppend().appendFile(DataFileEntries.of(table, "a")).commit();
      Thread.sleep(50);
      beforeLastCommit = Instant.now();
      Thread.sleep(50);
      table.newFastAppend().appendFile(DataFileEntries.of(table, "b")).commit();
    }
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (floe != null) {
      floe.close();
    }
  }

  @Test
  void signInWithATokenAndSeeATableWithItsSchemaAndSnapshotsByAuthor() throws Exception {
    try (Browser browser = new Browser()) {
      browser.open(floe.uri() + "/");
      assertThat(browser.driver().getCurrentUrl()).contains("/ui/");
      signIn(browser, admin);
      assertThat(browser.await("principal").getText()).contains("admin");

      browser.open(floe.uri() + "/ui/#/w/default/ns/db/table/orders");
      browser.await("schema");
      assertThat(texts(browser.all("field"))).anyMatch(f -> f.contains("id") && f.contains("long"));
      assertThat(texts(browser.all("field"))).anyMatch(f -> f.contains("category"));
      await(browser, () -> browser.all("snapshot").size() == 2, "two snapshots");
      assertThat(texts(browser.all("author"))).hasSize(2).allMatch(a -> a.contains("admin"));
      assertThat(unlabelled(browser)).as("controls without a label on the table page").isEmpty();
      browser.screenshot(SHOTS.resolve("table.png"));
      ((JavascriptExecutor) browser.driver())
          .executeScript("arguments[0].scrollIntoView()", browser.await("snapshots"));
      browser.screenshot(SHOTS.resolve("snapshots.png"));
      assertThat(browser.consoleErrors()).isEmpty();
    }
  }

  /**
   * Snapshot ids are 64-bit; a JavaScript number keeps 53 bits. Every id the table page shows (each
   * snapshot's, its parent's, the refs', the current one) is the REST answer's, digit for digit.
   */
  @Test
  void theTablePageShowsSnapshotIdsPast2To53Exactly() throws Exception {
    long first = 6141917671516805529L;
    long second = (1L << 53) + 1;
    String tables = "/v1/default/namespaces/db/tables";
    String location =
        AuthHttp.expect(
                200,
                floe.uri(),
                "POST",
                tables,
                admin,
                "{\"name\":\"exact\",\"schema\":" + idSchema() + "}")
            .json()
            .path("metadata")
            .path("location")
            .asText();
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        tables + "/exact",
        admin,
        "{\"requirements\":[],\"updates\":["
            + addSnapshot(first, null, 1, location)
            + ","
            + ref("main", "branch", first)
            + "]}");
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        tables + "/exact",
        admin,
        "{\"requirements\":[],\"updates\":["
            + addSnapshot(second, first, 2, location)
            + ","
            + ref("main", "branch", second)
            + ","
            + ref("v1", "tag", first)
            + "]}");
    JsonNode metadata =
        AuthHttp.expect(200, floe.uri(), "GET", tables + "/exact", admin, null)
            .json()
            .path("metadata");
    List<String> answered = new ArrayList<>();
    metadata.path("snapshots").forEach(snap -> answered.add(snap.path("snapshot-id").asText()));
    assertThat(answered).containsExactlyInAnyOrder(Long.toString(first), Long.toString(second));
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        tables,
        admin,
        "{\"name\":\"bare\",\"schema\":" + idSchema() + "}");

    try (Browser browser = new Browser()) {
      browser.open(floe.uri() + "/ui/");
      signIn(browser, admin);
      browser.open(floe.uri() + "/ui/#/w/default/ns/db/table/exact");
      await(browser, () -> browser.all("snapshot").size() == 2, "two snapshots");

      assertThat(texts(browser.all("snapshot-id"))).containsExactlyInAnyOrderElementsOf(answered);
      assertThat(browser.await("table-overview").getText())
          .contains(metadata.path("current-snapshot-id").asText());
      assertThat(texts(browser.all("snapshot")))
          .as("the second snapshot names its parent")
          .anyMatch(s -> s.contains("parent " + first));
      List<String> refs = texts(browser.all("ref"));
      metadata
          .path("refs")
          .properties()
          .forEach(
              ref ->
                  assertThat(refs)
                      .anyMatch(
                          row ->
                              row.contains(ref.getKey())
                                  && row.contains(ref.getValue().path("snapshot-id").asText())));
      assertThat(browser.await("raw-metadata").getAttribute("textContent"))
          .contains("\"snapshot-id\": " + first, "\"snapshot-id\": " + second);

      browser.open(floe.uri() + "/ui/#/w/default/ns/db/table/bare");
      await(
          browser,
          () -> browser.await("table-overview").getText().contains("Current snapshot"),
          "the overview");
      assertThat(browser.await("table-overview").getText())
          .as("a table without snapshots")
          .containsPattern("Current snapshot\\s+none\\s");
      assertThat(browser.consoleErrors()).isEmpty();
    }
  }

  private static String addSnapshot(long id, Long parent, long sequence, String location) {
    return "{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":"
        + id
        + (parent == null ? "" : ",\"parent-snapshot-id\":" + parent)
        + ",\"sequence-number\":"
        + sequence
        + ",\"timestamp-ms\":"
        + (System.currentTimeMillis() + sequence)
        + ",\"manifest-list\":\""
        + location
        + "/metadata/snap-"
        + id
        + ".avro\",\"summary\":{\"operation\":\"append\"},\"schema-id\":0}}";
  }

  private static String ref(String name, String type, long id) {
    return "{\"action\":\"set-snapshot-ref\",\"ref-name\":\""
        + name
        + "\",\"type\":\""
        + type
        + "\",\"snapshot-id\":"
        + id
        + "}";
  }

  private static String idSchema() {
    return "{\"type\":\"struct\",\"schema-id\":0,"
        + "\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";
  }

  @Test
  void aCommitAppearsInTheLiveFeedWithinTwoSeconds() throws Exception {
    try (Browser browser = new Browser()) {
      browser.open(floe.uri() + "/ui/");
      signIn(browser, admin);
      browser.open(floe.uri() + "/ui/#/w/default/live");
      await(
          browser,
          () -> texts(browser.all("live-status")).stream().anyMatch(t -> t.contains("connected")),
          "the feed connected");
      int before = browser.all("live-event").size();

      commit("measured");
      long acknowledged = System.nanoTime();
      await(
          browser,
          () -> browser.all("live-event").size() > before,
          "the commit in the feed",
          Duration.ofSeconds(5));
      Duration took = Duration.ofNanos(System.nanoTime() - acknowledged);
      assertThat(took)
          .as("from the commit's acknowledgement to the feed")
          .isLessThan(Duration.ofSeconds(2));
      assertThat(texts(browser.all("live-event")))
          .anyMatch(e -> e.contains("update-table") && e.contains("db.orders"));
      browser.screenshot(SHOTS.resolve("live.png"));
      assertThat(browser.consoleErrors()).isEmpty();
    }
  }

  @Test
  void aGrantTurnsAReadersForbiddenIntoAPageAndAReaderHasNoAccessPages() throws Exception {
    String reader = AuthHttp.principalWithToken(floe.uri(), admin, "rita");
    try (Browser ritas = new Browser();
        Browser admins = new Browser()) {
      ritas.open(floe.uri() + "/ui/");
      signIn(ritas, reader);
      ritas.open(floe.uri() + "/ui/#/w/default/ns/db/table/orders");
      assertThat(ritas.await("error").getText()).containsIgnoringCase("forbidden");
      assertThat(ritas.all("nav-access")).as("a reader has no access pages").isEmpty();
      assertThat(ritas.all("nav-audit")).as("nor the audit log").isEmpty();
      ritas.open(floe.uri() + "/ui/#/w/default/access");
      await(
          ritas,
          () -> !ritas.all("error").isEmpty() || !ritas.all("grant").isEmpty(),
          "the access page answered");
      assertThat(ritas.all("grant-submit")).as("a reader cannot grant").isEmpty();

      admins.open(floe.uri() + "/ui/");
      signIn(admins, admin);
      admins.open(floe.uri() + "/ui/#/w/default/access");
      admins.await("grant-principal").sendKeys("rita");
      admins.await("grant-namespace").sendKeys("db");
      admins.await("grant-table").sendKeys("orders");
      new Select(admins.await("grant-action")).selectByValue("read");
      assertThat(unlabelled(admins)).as("controls without a label on the access page").isEmpty();
      admins.await("grant-submit").click();
      await(
          admins,
          () -> texts(admins.all("grant")).stream().anyMatch(g -> g.contains("rita")),
          "rita's grant listed");
      assertThat(admins.consoleErrors()).isEmpty();

      ritas.open(floe.uri() + "/ui/#/w/default/ns/db/table/orders");
      ritas.driver().navigate().refresh();
      ritas.await("schema");
      assertThat(ritas.all("snapshot")).isNotEmpty();
      // The only errors are the API's 403 answers the pages showed before the grant.
      assertThat(ritas.consoleErrors())
          .allMatch(e -> e.contains("status of 403"), "only the 403s shown as pages");
    }
  }

  @Test
  void aDroppedTableIsRestoredFromDeleted() throws Exception {
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of("token", admin))) {
      catalog.createTable(TableIdentifier.of(DB, "mistake"), SCHEMA);
      assertThat(catalog.dropTable(TableIdentifier.of(DB, "mistake"))).isTrue();
    }
    try (Browser browser = new Browser()) {
      browser.open(floe.uri() + "/ui/");
      signIn(browser, admin);
      browser.open(floe.uri() + "/ui/#/w/default/deleted");
      await(
          browser,
          () -> texts(browser.all("deleted-row")).stream().anyMatch(r -> r.contains("mistake")),
          "the dropped table listed");
      WebElement row =
          browser.all("deleted-row").stream()
              .filter(r -> r.getText().contains("mistake"))
              .findFirst()
              .orElseThrow();
      browser.screenshot(SHOTS.resolve("deleted.png"));
      row.findElement(Browser.test("restore")).click();
      await(
          browser,
          () ->
              AuthHttp.send(
                          floe.uri(),
                          "GET",
                          "/v1/default/namespaces/db/tables/mistake",
                          admin,
                          null)
                      .status()
                  == 200,
          "the table restored");
      await(
          browser,
          () -> texts(browser.all("deleted-row")).stream().noneMatch(r -> r.contains("mistake")),
          "the row gone from Deleted");
      assertThat(browser.consoleErrors()).isEmpty();
    }
  }

  @Test
  void asOfShowsTheTableBeforeItsLastCommit() throws Exception {
    try (Browser browser = new Browser()) {
      browser.open(floe.uri() + "/ui/");
      signIn(browser, admin);
      browser.open(floe.uri() + "/ui/#/w/default@" + beforeLastCommit + "/ns/db/table/orders");
      browser.await("as-of-banner");
      browser.await("schema");
      await(browser, () -> browser.all("snapshot").size() == 1, "one snapshot as of then");
      browser.open(floe.uri() + "/ui/#/w/default/ns/db/table/orders");
      await(browser, () -> browser.all("snapshot").size() >= 2, "every snapshot now");
      assertThat(browser.consoleErrors()).isEmpty();
    }
  }

  @Test
  void anAdminSeesADeniedRequestInTheAuditLog() throws Exception {
    String outsider = AuthHttp.principalWithToken(floe.uri(), admin, "otto");
    assertThat(
            AuthHttp.send(
                    floe.uri(), "DELETE", "/v1/default/namespaces/db/tables/orders", outsider, null)
                .status())
        .isEqualTo(403);
    assertThat(
            AuthHttp.send(
                    floe.uri(), "GET", "/management/v1/warehouses/default/audit", outsider, null)
                .status())
        .as("the audit log is for admins")
        .isEqualTo(403);
    assertThat(
            AuthHttp.send(
                    floe.uri(),
                    "GET",
                    "/management/v1/warehouses/default/data-access",
                    outsider,
                    null)
                .status())
        .as("so are the data access counts")
        .isEqualTo(403);
    assertThat(
            AuthHttp.send(
                    floe.uri(),
                    "POST",
                    "/v1/default/namespaces",
                    outsider,
                    "{\"namespace\":[\"o\"]}")
                .status())
        .isEqualTo(403);
    // Reading the events is a read, by POST: not an audited change.
    AuthHttp.expect(200, floe.uri(), "POST", "/v1/default/events", admin, "{}");
    try (Browser browser = new Browser()) {
      browser.open(floe.uri() + "/ui/");
      signIn(browser, admin);
      browser.open(floe.uri() + "/ui/#/w/default/live");
      browser.await("nav-audit").click();
      browser.await("audit-status").sendKeys("403");
      browser.await("audit-principal").sendKeys("otto");
      browser.await("audit-apply").click();
      await(
          browser,
          () ->
              texts(browser.all("audit-row")).stream()
                  .anyMatch(r -> r.contains("otto") && r.contains("403") && r.contains("DELETE")),
          "otto's denied drop in the audit log");
      assertThat(texts(browser.all("audit-row")))
          .as("each request's method once")
          .anyMatch(r -> r.contains("POST /v1/{prefix}/namespaces"))
          .noneMatch(r -> r.contains("POST POST"));
      // This warehouse signs no S3 request: its data access section says so.
      assertThat(browser.await("data-access-empty").getText()).contains("No signed or refused");
      assertThat(browser.consoleErrors()).isEmpty();
    }
    JsonNode records =
        AuthHttp.expect(
                200,
                floe.uri(),
                "GET",
                "/management/v1/warehouses/default/audit?limit=1000",
                admin,
                null)
            .json()
            .path("records");
    assertThat(records).isNotEmpty();
    records.forEach(
        r ->
            assertThat(r.path("route").asText())
                .as("the events endpoint's reads and the console's")
                .isNotEqualTo("POST /v1/{prefix}/events"));
  }

  private static void signIn(Browser browser, String token) {
    new WebDriverWait(browser.driver(), Duration.ofSeconds(10))
        .until(ExpectedConditions.elementToBeClickable(By.id("token")))
        .sendKeys(token);
    browser.driver().findElement(By.id("sign-in")).click();
    browser.await("principal");
  }

  private static void commit(String value) {
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        "/v1/default/namespaces/db/tables/orders",
        admin,
        "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"note\":\""
            + value
            + System.nanoTime()
            + "\"}}]}");
  }

  /** Form controls a screen reader could not name: no label, no aria-label. */
  @SuppressWarnings("unchecked")
  private static List<String> unlabelled(Browser browser) {
    return (List<String>)
        ((JavascriptExecutor) browser.driver())
            .executeScript(
                "return [...document.querySelectorAll('input,select,textarea')]"
                    + ".filter(e => e.type !== 'hidden' && !(e.labels && e.labels.length)"
                    + " && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby'))"
                    + ".map(e => e.outerHTML)");
  }

  private static List<String> texts(List<WebElement> elements) {
    return elements.stream().map(WebElement::getText).toList();
  }

  private static void await(Browser browser, BooleanSupplier condition, String what) {
    await(browser, condition, what, Duration.ofSeconds(10));
  }

  private static void await(
      Browser browser, BooleanSupplier condition, String what, Duration wait) {
    new WebDriverWait(browser.driver(), wait)
        .withMessage(what)
        .until(driver -> condition.getAsBoolean());
  }
}
