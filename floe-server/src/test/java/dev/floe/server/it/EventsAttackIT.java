package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.AuthHttp.Response;
import dev.floe.server.it.support.EventPaging;
import dev.floe.server.it.support.SseClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The events endpoint attacked as a narrow principal ({@code narrow}: read on the one table {@code
 * sec.visible}, plus what is public in {@code pub}). Around it: a hidden table in the same
 * namespace, a private namespace, a rename out of the private namespace into the public one,
 * multi-table transactions over a visible and a hidden table, a restore under another name whose
 * destination is the visible table, access changes, a second warehouse. Names that must never reach
 * {@code narrow} are in {@link #SECRETS}; every body it receives is scanned for them. Nothing in an
 * answer, an error, a filter's effect, a token or a request's event count tells {@code narrow} of
 * an object it may not read; bad input is a 400, a flood is never a 500 and never holds up the
 * catalog's other reads.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EventsAttackIT {
  private static final String EVENTS = "/v1/default/events";
  private static final String OTHER_EVENTS = "/v1/other/events";
  private static final String SCHEMA_JSON =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
          + "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";

  /** Names narrow may never learn through the endpoint. */
  private static final List<String> SECRETS =
      List.of(
          "hidden_secret_name",
          "private_ns",
          "renamed_secret_src",
          "restore_secret_src",
          "inner_secret_table",
          "secret_principal_name",
          "osecret_ns",
          "other_wh_secret",
          "reused_first_secret",
          "moved_first_secret",
          "view_first_secret",
          "moved_away_secret");

  @TempDir static Path dir;
  private static FloeProcess floe;
  private static String admin;
  private static String narrow;
  private static String nsreader;
  private static String wadmin;
  private static String hiddenUuid;
  private static String visibleUuid;
  private static String visibleRequestId;
  private static String reuser;
  private static String reusedFirstUuid;
  private static String reusedUuid;
  private static String movedUuid;

  /** Every body narrow received, for the final scan. */
  private static final List<String> seenByNarrow = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    String otherRoot = dir.resolve("other-warehouse").toUri().toString();
    floe =
        new FloeProcess(
                dir.resolve("data"),
                Map.of("floe.auth", "token", "floe.warehouse.other.location", otherRoot))
            .start();
    admin = floe.adminToken();
    narrow = AuthHttp.principalWithToken(floe.uri(), admin, "narrow");
    nsreader = AuthHttp.principalWithToken(floe.uri(), admin, "nsreader");
    wadmin = AuthHttp.principalWithToken(floe.uri(), admin, "wadmin");
    // A principal whose very existence is superuser-only knowledge.
    AuthHttp.principalWithToken(floe.uri(), admin, "secret_principal_name");

    namespace("default", "sec");
    namespace("default", "private_ns");
    namespace("default", "pub");
    namespace("other", "ons");
    namespace("other", "osecret_ns");
    createTable("other", "osecret_ns", "other_wh_secret");
    createTable("other", "ons", "o1");

    // sec.visible is born as sec.restore_secret_src, dropped, and restored under its new name.
    createTable("default", "sec", "restore_secret_src");
    AuthHttp.expect(
        204,
        floe.uri(),
        "DELETE",
        "/v1/default/namespaces/sec/tables/restore_secret_src",
        admin,
        null);
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        "/management/v1/warehouses/default/deleted/restore",
        admin,
        "{\"kind\":\"table\",\"namespace\":[\"sec\"],\"name\":\"restore_secret_src\","
            + "\"as\":\"visible\"}");
    createTable("default", "sec", "hidden_secret_name");
    createTable("default", "private_ns", "renamed_secret_src");
    createTable("default", "private_ns", "inner_secret_table");
    createTable("default", "pub", "p1");
    visibleUuid = uuid("sec", "visible");
    hiddenUuid = uuid("sec", "hidden_secret_name");

    AuthHttp.expect(
        204,
        floe.uri(),
        "POST",
        "/v1/default/tables/rename",
        admin,
        "{\"source\":{\"namespace\":[\"private_ns\"],\"name\":\"renamed_secret_src\"},"
            + "\"destination\":{\"namespace\":[\"pub\"],\"name\":\"renamed_in\"}}");
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        "/v1/default/namespaces/private_ns/properties",
        admin,
        "{\"updates\":{\"owner\":\"secret-team\"},\"removals\":[]}");

    transaction(List.of(List.of("sec", "visible")), "solo");
    transaction(List.of(List.of("sec", "visible"), List.of("sec", "hidden_secret_name")), "mixed");
    transaction(List.of(List.of("pub", "p1"), List.of("private_ns", "inner_secret_table")), "mix2");
    for (int i = 0; i < 20; i++) {
      transaction(List.of(List.of("sec", "hidden_secret_name")), "h" + i);
    }
    transaction(List.of(List.of("pub", "renamed_in")), "after-rename");

    // Names held by one entity and then another: sec.reused's first table is dropped (kept),
    // sec.moved's is renamed away into private_ns, sec.rview's first view is dropped. reuser's
    // grants on the three names open only the entities holding them now.
    reuser = AuthHttp.principalWithToken(floe.uri(), admin, "reuser");
    createTable("default", "sec", "reused");
    transaction(List.of(List.of("sec", "reused")), "reused_first_secret");
    reusedFirstUuid = uuid("sec", "reused");
    AuthHttp.expect(
        204, floe.uri(), "DELETE", "/v1/default/namespaces/sec/tables/reused", admin, null);
    createTable("default", "sec", "reused");
    transaction(List.of(List.of("sec", "reused")), "reused_second");
    reusedUuid = uuid("sec", "reused");
    createTable("default", "sec", "moved");
    transaction(List.of(List.of("sec", "moved")), "moved_first_secret");
    AuthHttp.expect(
        204,
        floe.uri(),
        "POST",
        "/v1/default/tables/rename",
        admin,
        "{\"source\":{\"namespace\":[\"sec\"],\"name\":\"moved\"},"
            + "\"destination\":{\"namespace\":[\"private_ns\"],\"name\":\"moved_away_secret\"}}");
    createTable("default", "sec", "moved");
    movedUuid = uuid("sec", "moved");
    createView("rview", "view_first_secret");
    AuthHttp.expect(
        204, floe.uri(), "DELETE", "/v1/default/namespaces/sec/views/rview", admin, null);
    createView("rview", "view_second");
    grant("default", "reuser", "[\"sec\"],\"table\":\"reused\"");
    grant("default", "reuser", "[\"sec\"],\"table\":\"moved\"");
    grant("default", "reuser", "[\"sec\"],\"table\":\"rview\"");

    grant("default", "narrow", "[\"sec\"],\"table\":\"visible\"");
    grant("default", "nsreader", "[\"sec\"]");
    grant("other", "narrow", "[\"ons\"]");
    AuthHttp.expect(
        204,
        floe.uri(),
        "PUT",
        "/management/v1/warehouses/default/namespaces/pub/visibility",
        admin,
        "{\"visibility\":\"AUTHENTICATED_PUBLIC\"}");
    AuthHttp.expect(
        204,
        floe.uri(),
        "PUT",
        "/management/v1/principals/wadmin/roles/default",
        admin,
        "{\"role\":\"admin\"}");
    // A purge of a hidden table (its drop event and, later, its purge events are admin-only).
    AuthHttp.expect(
        204,
        floe.uri(),
        "DELETE",
        "/v1/default/namespaces/private_ns/tables/inner_secret_table?purgeRequested=true",
        admin,
        null);
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (floe != null) {
      floe.close();
    }
  }

  @Test
  @Order(1)
  void narrowSeesOnlyTheVisibleTableAndWhatIsPublic() {
    for (int size : List.of(1, 3, 1000)) {
      List<JsonNode> all = pageAll(narrow, "{}", size);
      assertThat(all).as("page-size %d", size).isNotEmpty();
      for (JsonNode event : all) {
        JsonNode op = event.path("operation");
        String type = op.path("operation-type").asText();
        assertThat(type)
            .as("no access change or purge for narrow: %s", event)
            .isNotIn("x-floe.change-access", "x-floe.purge-files", "x-floe.purge-refused");
        if (op.has("identifier") || op.has("source")) {
          for (List<String> name : names(op)) {
            assertThat(name.equals(List.of("sec", "visible")) || name.get(0).equals("pub"))
                .as("a name narrow may read: %s in %s", name, event)
                .isTrue();
          }
        } else {
          assertThat(op.path("namespace").path(0).asText())
              .as("only the public namespace's events: %s", event)
              .isEqualTo("pub");
        }
      }
      List<String> types =
          all.stream()
              .filter(e -> e.path("operation").path("table-uuid").asText().equals(visibleUuid))
              .map(e -> e.path("operation").path("operation-type").asText())
              .toList();
      // Born under a secret name and restored as sec.visible: only its changes since.
      assertThat(types).as("sec.visible's events").containsOnly("update-table").hasSize(2);
      visibleRequestId =
          all.stream()
              .filter(
                  e ->
                      e.path("operation").path("table-uuid").asText().equals(visibleUuid)
                          && e.path("operation").toString().contains("mixed"))
              .findFirst()
              .orElseThrow()
              .path("request-id")
              .asText();
      assertThat(
              all.stream()
                  .anyMatch(
                      e ->
                          e.path("operation")
                              .path("operation-type")
                              .asText()
                              .equals("rename-table")))
          .as("the rename out of private_ns is not shown")
          .isFalse();
    }
    assertNoSecrets();
  }

  @Test
  @Order(2)
  void aNamespaceReaderDoesNotSeeTheRenameFromThePrivateNamespace() {
    List<JsonNode> all = pageAll(nsreader, "{}", 1000);
    String text = all.toString();
    assertThat(text).doesNotContain("private_ns").doesNotContain("renamed_secret_src");
    assertThat(all)
        .anyMatch(
            e ->
                e.path("operation").path("operation-type").asText().equals("create-namespace")
                    && e.path("operation").path("namespace").path(0).asText().equals("sec"));
    // The restore shows the source name restore_secret_src, in sec: nsreader may read both.
    assertThat(all)
        .anyMatch(
            e ->
                e.path("operation").path("operation-type").asText().equals("x-floe.restore-table"));
  }

  @Test
  @Order(3)
  void aWarehouseAdminSeesAccessChangesButNotPrincipals() {
    List<JsonNode> all = pageAll(wadmin, "{}", 1000);
    assertThat(all)
        .anyMatch(
            e ->
                e.path("operation").path("operation-type").asText().equals("x-floe.change-access"));
    assertThat(all.toString())
        .as("principals and tokens are superuser-only")
        .doesNotContain("secret_principal_name")
        .doesNotContain("other_wh_secret");
    // narrow, in contrast, sees no access change even when it asks for one.
    JsonNode asked = page(narrow, "{\"operation-types\":[\"x-floe.change-access\"]}");
    assertThat(asked.path("events")).isEmpty();
  }

  @Test
  @Order(4)
  void probingHiddenNamesIsIndistinguishableFromProbingNamesThatDoNotExist() {
    Map<String, String> pairs = new LinkedHashMap<>();
    pairs.put("[[\"private_ns\"]]", "[[\"no_such_ns\"]]");
    pairs.put("[[\"sec\",\"hidden_secret_name\"]]", "[[\"sec\",\"no_such_table\"]]");
    pairs.put("[[\"private_ns\",\"renamed_secret_src\"]]", "[[\"no_such_ns\",\"renamed_x\"]]");
    pairs.put("[[\"sec\",\"restore_secret_src\"]]", "[[\"sec\",\"restore_x_src\"]]");
    pairs.put("[[\"private_ns\",\"inner_secret_table\"]]", "[[\"no_such_ns\",\"inner_x\"]]");
    pairs.put("[[\"osecret_ns\"]]", "[[\"no_such_other\"]]");
    for (Map.Entry<String, String> pair : pairs.entrySet()) {
      for (String extra : List.of("", ",\"page-size\":1", ",\"object-types\":[\"table\"]")) {
        Response hidden = probe("{\"catalog-objects-by-name\":" + pair.getKey() + extra + "}");
        Response absent = probe("{\"catalog-objects-by-name\":" + pair.getValue() + extra + "}");
        assertSameAnswer(pair.getKey() + extra, hidden, absent);
      }
    }
    Response byHiddenUuid = probe("{\"catalog-objects-by-uuid\":[\"" + hiddenUuid + "\"]}");
    Response byRandomUuid = probe("{\"catalog-objects-by-uuid\":[\"" + UUID.randomUUID() + "\"]}");
    assertSameAnswer("uuid", byHiddenUuid, byRandomUuid);
    // A prefix narrow may see into: only the table it may read.
    JsonNode sec = page(narrow, "{\"catalog-objects-by-name\":[[\"sec\"]]}");
    sec.path("events")
        .forEach(
            e ->
                assertThat(e.path("operation").path("table-uuid").asText()).isEqualTo(visibleUuid));
    // By principal: the secret principal made no change narrow may see, as for one who is not.
    assertSameAnswer(
        "principal",
        probe("{\"custom-filters\":{\"principal\":\"secret_principal_name\"}}"),
        probe("{\"custom-filters\":{\"principal\":\"no_such_principal\"}}"));
    assertNoSecrets();
  }

  @Test
  @Order(6)
  void malformedRequestsAre400WithTheErrorModel() {
    StringBuilder deep = new StringBuilder();
    for (int i = 0; i < 5000; i++) {
      deep.append("{\"a\":");
    }
    deep.append("1");
    deep.append("}".repeat(5000));
    StringBuilder deepArray = new StringBuilder("[".repeat(3000)).append("]".repeat(3000));
    List<String> bodies =
        List.of(
            "[]",
            "\"just a string\"",
            "42",
            "null",
            "{",
            "{\"page-size\":}",
            "not json",
            "{\"unknown-field\":1}",
            "{\"Page-Size\":5}",
            "{\"page-size\":0}",
            "{\"page-size\":-1}",
            "{\"page-size\":\"10\"}",
            "{\"page-size\":1.5}",
            "{\"page-size\":1e3}",
            "{\"page-size\":99999999999999999999999999}",
            "{\"page-size\":true}",
            "{\"page-size\":[1]}",
            "{\"since-timestamp-ms\":\"yesterday\"}",
            "{\"since-timestamp-ms\":1.5}",
            "{\"since-timestamp-ms\":99999999999999999999999999}",
            "{\"since-timestamp-ms\":{}}",
            "{\"operation-types\":\"update-table\"}",
            "{\"operation-types\":[1]}",
            "{\"operation-types\":[\"\"]}",
            "{\"operation-types\":[null]}",
            "{\"operation-types\":[[\"x\"]]}",
            "{\"object-types\":[\"bogus\"]}",
            "{\"object-types\":[\"TABLE\"]}",
            "{\"object-types\":\"table\"}",
            "{\"catalog-objects-by-name\":\"sec\"}",
            "{\"catalog-objects-by-name\":[\"sec\"]}",
            "{\"catalog-objects-by-name\":[[]]}",
            "{\"catalog-objects-by-name\":[[1]]}",
            "{\"catalog-objects-by-name\":[[\"sec\",null]]}",
            "{\"catalog-objects-by-name\":[[\"\"]]}",
            "{\"catalog-objects-by-name\":{\"sec\":1}}",
            "{\"catalog-objects-by-name\":[" + deepArray + "]}",
            "{\"catalog-objects-by-uuid\":[\"not-a-uuid\"]}",
            "{\"catalog-objects-by-uuid\":[123]}",
            "{\"catalog-objects-by-uuid\":\"" + visibleUuid + "\"}",
            "{\"custom-filters\":[]}",
            "{\"custom-filters\":\"principal\"}",
            "{\"custom-filters\":{\"owner\":\"x\"}}",
            "{\"custom-filters\":{\"principal\":1}}",
            "{\"custom-filters\":{\"principal\":[\"a\"]}}",
            "{\"custom-filters\":{\"principal\":{\"principal\":{\"principal\":\"x\"}}}}",
            "{\"custom-filters\":" + deep + "}",
            "{\"continuation-token\":5}",
            "{\"continuation-token\":\"\"}",
            "{\"continuation-token\":\".\"}",
            "{\"continuation-token\":\"a.b.c\"}",
            "{\"continuation-token\":\"!!!.???\"}",
            "{\"continuation-token\":\"" + "A".repeat(70_000) + ".AA\"}");
    List<String> failures = new ArrayList<>();
    for (String body : bodies) {
      Response response = AuthHttp.send(floe.uri(), "POST", EVENTS, narrow, body);
      seenByNarrow.add(response.body());
      String shown = body.length() > 120 ? body.substring(0, 120) + "…" : body;
      if (response.status() != 400 || !isErrorModel(response, 400)) {
        failures.add(shown + " -> " + response.status() + " " + abbreviate(response.body()));
      }
    }
    assertThat(failures).as("requests not answered 400 with the ErrorModel").isEmpty();
    assertNoSecrets();
  }

  @Test
  @Order(7)
  void edgeValuesThatTheDraftAllowsAreNeverA500() {
    Map<String, Integer> expected = new LinkedHashMap<>();
    expected.put("{\"since-timestamp-ms\":" + Long.MAX_VALUE + "}", 200);
    expected.put("{\"since-timestamp-ms\":0}", 200);
    expected.put("{\"page-size\":" + Long.MAX_VALUE + "}", 200);
    expected.put("{\"page-size\":2147483648}", 200);
    expected.put("{\"page-size\":null,\"since-timestamp-ms\":null}", 200);
    expected.put("{\"operation-types\":[\"x-made-up\"]}", 200);
    expected.put("{\"catalog-objects-by-uuid\":[\"" + visibleUuid.toUpperCase() + "\"]}", 200);
    List<String> failures = new ArrayList<>();
    for (Map.Entry<String, Integer> e : expected.entrySet()) {
      Response response = AuthHttp.send(floe.uri(), "POST", EVENTS, narrow, e.getKey());
      seenByNarrow.add(response.body());
      if (response.status() != e.getValue()) {
        failures.add(e.getKey() + " -> " + response.status() + " " + abbreviate(response.body()));
      }
      assertThat(response.status()).as(e.getKey()).isLessThan(500);
    }
    // The draft types since-timestamp-ms as any int64. A negative one may be "since forever" (200)
    // or refused (400), but by the endpoint, not by Kafka's client with its internals in the text.
    for (String since : List.of("-1", Long.toString(Long.MIN_VALUE))) {
      Response negative =
          AuthHttp.send(
              floe.uri(), "POST", EVENTS, narrow, "{\"since-timestamp-ms\":" + since + "}");
      seenByNarrow.add(negative.body());
      assertThat(negative.status()).as(negative.body()).isIn(200, 400);
      if (negative.status() == 400) {
        assertThat(isErrorModel(negative, 400)).as(negative.body()).isTrue();
        // Refused by the endpoint itself, not by Kafka's offsetsForTimes (which names the topic).
        assertThat(negative.body())
            .as("a refusal of a negative since by the endpoint itself")
            .doesNotContain("partition")
            .doesNotContain("floe.events");
      }
    }
    // No body at all: treated as {} (no field is required by the draft).
    Response empty = AuthHttp.send(floe.uri(), "POST", EVENTS, narrow, null);
    seenByNarrow.add(empty.body());
    assertThat(empty.status()).as(empty.body()).isIn(200, 400);
    if (empty.status() == 400) {
      assertThat(isErrorModel(empty, 400)).isTrue();
    }
    // Page-size is capped.
    JsonNode capped = page(admin, "{\"page-size\":100000}");
    assertThat(capped.path("events").size()).isLessThanOrEqualTo(1000);
    assertThat(failures).as("edge values not answered as the draft allows").isEmpty();
    assertNoSecrets();
  }

  @Test
  @Order(8)
  void tokensCannotBeForgedMovedOrReused() {
    JsonNode first = page(narrow, "{\"page-size\":1}");
    String token = first.path("continuation-token").asText();
    String sealed = token.substring(token.indexOf('.') + 1);
    char middle = sealed.charAt(sealed.length() / 2);
    List<String> bad = new ArrayList<>();
    // One character changed in the sealed part: the cipher's tag no longer matches.
    bad.add(
        "v1."
            + sealed.substring(0, sealed.length() / 2)
            + (middle == 'A' ? 'B' : 'A')
            + sealed.substring(sealed.length() / 2 + 1));
    bad.add("v1." + sealed.substring(1));
    bad.add("v1." + sealed.substring(0, sealed.length() - 4));
    bad.add("v2." + sealed);
    bad.add(sealed);
    bad.add("v1." + encode("{\"v\":1,\"w\":\"default\",\"f\":\"\",\"p\":[0]}"));
    bad.add(encode("{\"v\":1,\"w\":\"default\",\"f\":\"\",\"p\":[0]}") + "." + sealed);
    for (String forged : bad) {
      Response response =
          AuthHttp.send(
              floe.uri(),
              "POST",
              EVENTS,
              narrow,
              "{\"page-size\":1,\"continuation-token\":\"" + forged + "\"}");
      seenByNarrow.add(response.body());
      assertThat(response.status()).as(forged + ": " + response.body()).isEqualTo(400);
      assertThat(isErrorModel(response, 400)).isTrue();
    }
    // Issued for other filters.
    Response otherFilters =
        AuthHttp.send(
            floe.uri(),
            "POST",
            EVENTS,
            narrow,
            "{\"object-types\":[\"table\"],\"continuation-token\":\"" + token + "\"}");
    assertThat(otherFilters.status()).as(otherFilters.body()).isEqualTo(400);
    assertThat(isErrorModel(otherFilters, 400)).isTrue();
    // Issued for another warehouse (narrow may read ons there): refused both ways.
    JsonNode other = page(narrow, OTHER_EVENTS, "{\"page-size\":1}");
    assertThat(other.toString()).doesNotContain("osecret_ns").doesNotContain("other_wh_secret");
    Response crossed =
        AuthHttp.send(
            floe.uri(),
            "POST",
            OTHER_EVENTS,
            narrow,
            "{\"page-size\":1,\"continuation-token\":\"" + token + "\"}");
    seenByNarrow.add(crossed.body());
    assertThat(crossed.status()).as(crossed.body()).isEqualTo(400);
    assertThat(isErrorModel(crossed, 400)).isTrue();
    Response back =
        AuthHttp.send(
            floe.uri(),
            "POST",
            EVENTS,
            narrow,
            "{\"page-size\":1,\"continuation-token\":\""
                + other.path("continuation-token").asText()
                + "\"}");
    assertThat(back.status()).as(back.body()).isEqualTo(400);
    // The admin's token, replayed by narrow: still only what narrow may read.
    String adminToken = page(admin, "{\"page-size\":1}").path("continuation-token").asText();
    List<JsonNode> rest = new ArrayList<>();
    String continuation = adminToken;
    while (true) {
      JsonNode page =
          page(narrow, "{\"page-size\":5,\"continuation-token\":\"" + continuation + "\"}");
      continuation = page.path("continuation-token").asText();
      if (page.path("events").isEmpty()) {
        break;
      }
      page.path("events").forEach(rest::add);
    }
    assertThat(rest).isNotEmpty();
    assertNoSecrets();
  }

  @Test
  @Order(20)
  void aHugeFilterIsRefusedOrAnsweredInBoundedTime() {
    // About 8 MB (the body limit is 10 MB): a million one-level prefixes, kept in a list that is
    // walked for every event scanned; the control is as many uuids, kept in a hash set.
    int count = 1_000_000;
    StringBuilder names = new StringBuilder("{\"catalog-objects-by-name\":[");
    for (int i = 0; i < count; i++) {
      names.append(i == 0 ? "" : ",").append("[\"n").append(i % 10).append("\"]");
    }
    names.append("]}");
    StringBuilder uuids = new StringBuilder("{\"catalog-objects-by-uuid\":[");
    for (int i = 0; i < count / 4; i++) {
      uuids.append(i == 0 ? "" : ",").append('"').append(new UUID(0, i % 10)).append('"');
    }
    uuids.append("]}");
    Response control = AuthHttp.send(floe.uri(), "POST", EVENTS, narrow, uuids.toString());
    Response response = AuthHttp.send(floe.uri(), "POST", EVENTS, narrow, names.toString());
    // Refused before any reading: a filter is looked up for every event a page reads, so it may
    // hold at most 100 values.
    assertThat(response.status()).as(abbreviate(response.body())).isEqualTo(400);
    assertThat(isErrorModel(response, 400)).isTrue();
    assertThat(response.json().path("error").path("message").asText()).contains("at most 100");
    assertThat(control.status()).isEqualTo(400);
  }

  @Test
  @Order(13)
  void manyEventsRequestsDoNotStarveTheRestOfTheCatalog() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(80);
    try {
      List<Future<Integer>> flood = new ArrayList<>();
      for (int i = 0; i < 80; i++) {
        flood.add(
            pool.submit(
                () ->
                    AuthHttp.send(floe.uri(), "POST", EVENTS, narrow, "{\"page-size\":1000}")
                        .status()));
      }
      long start = System.nanoTime();
      Thread.sleep(50);
      long loadStart = System.nanoTime();
      Response load = AuthHttp.send(floe.uri(), "GET", "/v1/default/namespaces/pub", admin, null);
      long loadNanos = System.nanoTime() - loadStart;
      long doneWhenLoaded = flood.stream().filter(Future::isDone).count();
      boolean stillFlooding = doneWhenLoaded < flood.size();
      List<Integer> statuses = new ArrayList<>();
      for (Future<Integer> f : flood) {
        statuses.add(f.get());
      }
      long floodNanos = System.nanoTime() - start;
      // Answered, or refused at once when too many wait for the log's readers: never a 500.
      assertThat(statuses)
          .as("the flooding requests themselves")
          .allMatch(s -> s == 200 || s == 503);
      // Events requests wait on the endpoint's own threads, never on those every read runs on:
      // the load is answered while they still wait for the log's two readers.
      assertThat(load.status()).isEqualTo(200);
      assertThat(stillFlooding)
          .as("events requests still waiting when the load was answered")
          .isTrue();
      System.out.printf(
          "EventsAttackIT flood: a load took %d ms during a flood of %d ms; %d of %d events"
              + " requests were answered before it%n",
          loadNanos / 1_000_000, floodNanos / 1_000_000, doneWhenLoaded, flood.size());
      // Had they held the threads every read runs on (20, with 80 requests in flight), the load
      // would have queued behind them and at least 60 would have been answered first (61 and 62
      // measured); on the endpoint's own threads, 22 to 27. A count, not a time.
      assertThat(doneWhenLoaded)
          .as("events requests answered before a load sent just after them")
          .isLessThan(48);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  @Order(10)
  void requestEventCountCountsOnlyWhatTheCallerMaySee() {
    // The transaction "mixed" changed sec.visible and sec.hidden_secret_name in one request.
    JsonNode page = page(narrow, "{\"catalog-objects-by-uuid\":[\"" + visibleUuid + "\"]}");
    List<JsonNode> ofRequest = new ArrayList<>();
    for (JsonNode event : page.path("events")) {
      if (event.path("request-id").asText().equals(visibleRequestId)) {
        ofRequest.add(event);
      }
    }
    assertThat(ofRequest).hasSize(1);
    // A count of 2 would tell narrow that the request changed one more object it may not read.
    assertThat(ofRequest.get(0).path("request-event-count").asInt())
        .as("request-event-count of a request over a visible and a hidden table, for narrow")
        .isEqualTo(1);
  }

  @Test
  @Order(11)
  void theTokenRevealsNothingOfTheLog() {
    String probe = "{\"catalog-objects-by-name\":[[\"sec\",\"visible\"]]}";
    JsonNode before = drainToEnd(narrow, probe);
    String tokenBefore = before.path("continuation-token").asText();
    // Changes to a table narrow may not read...
    for (int i = 0; i < 7; i++) {
      transaction(List.of(List.of("sec", "hidden_secret_name")), "later" + i);
    }
    JsonNode after = drainToEnd(narrow, probe);
    String tokenAfter = after.path("continuation-token").asText();
    // ...leave no trace narrow can read in its token: it is sealed, and as long as before.
    assertThat(readable(tokenBefore)).as("the token's payload is readable").isFalse();
    assertThat(readable(tokenAfter)).isFalse();
    assertThat(tokenAfter).hasSameSizeAs(tokenBefore);
    assertThat(after.path("events")).isEqualTo(before.path("events"));
  }

  @Test
  @Order(12)
  void afterARevokeNothingOfTheTableIsShown() {
    AuthHttp.expect(
        204,
        floe.uri(),
        "POST",
        "/management/v1/warehouses/default/grants/revoke",
        admin,
        "{\"principal\":\"narrow\",\"namespace\":[\"sec\"],\"table\":\"visible\"}");
    List<JsonNode> all = pageAll(narrow, "{}", 1000);
    assertThat(all).isNotEmpty().allMatch(e -> !e.toString().contains(visibleUuid));
    assertNoSecrets();
  }

  @Test
  @Order(14)
  void aGrantOnANameOpensOnlyTheHistoryOfTheEntityHoldingItNow() throws Exception {
    List<JsonNode> all = pageAll(reuser, "{}", 1000);
    String text = all.toString();
    assertThat(text)
        .as("events of the tables and the view that held the names before")
        .doesNotContain("reused_first_secret")
        .doesNotContain("moved_first_secret")
        .doesNotContain("view_first_secret")
        .doesNotContain("moved_away_secret")
        .doesNotContain(reusedFirstUuid);
    assertThat(text).contains("reused_second").contains(movedUuid).contains("view_second");
    assertThat(
            all.stream()
                .filter(e -> e.path("operation").path("table-uuid").asText().equals(reusedUuid))
                .map(e -> e.path("operation").path("operation-type").asText()))
        .as("the present sec.reused's own history")
        .containsExactly("create-table", "update-table");
    // Asked by the old table's uuid or by the name, the old history stays closed.
    assertThat(
            page(reuser, "{\"catalog-objects-by-uuid\":[\"" + reusedFirstUuid + "\"]}")
                .path("events"))
        .isEmpty();
    assertThat(
            pageAll(reuser, "{\"catalog-objects-by-name\":[[\"sec\",\"reused\"]]}", 1000).stream()
                .map(e -> e.path("operation").path("table-uuid").asText())
                .distinct())
        .containsExactly(reusedUuid);
    // The transaction that wrote the old table's secret counts nothing for reuser either.
    assertThat(all)
        .allMatch(e -> e.path("request-event-count").asInt() == 1, "one visible event each");
    // A stream from the start serves the same events.
    try (SseClient stream =
        new SseClient(
            floe.uri().toString(),
            "/v1/default/events/stream?since-timestamp-ms=0",
            reuser,
            null)) {
      stream.awaitOpen();
      List<JsonNode> streamed = new ArrayList<>();
      while (streamed.size() < all.size()) {
        streamed.add(stream.next(Duration.ofSeconds(10)));
      }
      Thread.sleep(1000);
      assertThat(stream.received().toString()).isEqualTo(all.toString());
    }
  }

  // ----- helpers -----

  private static void assertNoSecrets() {
    List<String> leaks = new ArrayList<>();
    for (String body : seenByNarrow) {
      for (String secret : SECRETS) {
        if (body.contains(secret)) {
          leaks.add(secret + " in " + abbreviate(body));
        }
      }
    }
    assertThat(leaks).as("secret names in what narrow received").isEmpty();
  }

  private static Response probe(String body) {
    Response response = AuthHttp.send(floe.uri(), "POST", EVENTS, narrow, body);
    seenByNarrow.add(response.body());
    return response;
  }

  private static void assertSameAnswer(String what, Response hidden, Response absent) {
    assertThat(hidden.status()).as(what + ": " + hidden.body()).isEqualTo(absent.status());
    assertThat(hidden.status()).as(what).isEqualTo(200);
    assertThat(hidden.json().path("events")).as(what).isEqualTo(absent.json().path("events"));
    assertThat(hidden.json().path("events")).as(what).isEmpty();
    // The tokens are sealed: nothing in them tells the two apart, not even their length.
    assertThat(hidden.json().path("continuation-token").asText())
        .as(what + ": the token")
        .hasSameSizeAs(absent.json().path("continuation-token").asText());
    assertThat(readable(hidden.json().path("continuation-token").asText())).isFalse();
  }

  private static JsonNode drainToEnd(String token, String filter) {
    return EventPaging.all(body -> page(token, body), filter, null, () -> 1000).last();
  }

  private static List<JsonNode> pageAll(String token, String filter, int size) {
    return EventPaging.all(body -> page(token, body), filter, null, () -> size).events();
  }

  private static JsonNode page(String token, String body) {
    return page(token, EVENTS, body);
  }

  private static JsonNode page(String token, String path, String body) {
    Response response = AuthHttp.expect(200, floe.uri(), "POST", path, token, body);
    if (token.equals(narrow)) {
      seenByNarrow.add(response.body());
    }
    return response.json();
  }

  private static boolean isErrorModel(Response response, int status) {
    try {
      JsonNode error = response.json().path("error");
      return error.path("message").isTextual()
          && !error.path("message").asText().isEmpty()
          && error.path("type").isTextual()
          && error.path("code").asInt() == status;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static List<List<String>> names(JsonNode op) {
    List<List<String>> names = new ArrayList<>();
    for (String field : List.of("identifier", "source", "destination")) {
      JsonNode id = op.path(field);
      if (id.isObject()) {
        List<String> name = new ArrayList<>();
        id.path("namespace").forEach(l -> name.add(l.asText()));
        name.add(id.path("name").asText());
        names.add(name);
      }
    }
    return names;
  }

  /** Whether any part of the token decodes to JSON a caller could read. */
  private static boolean readable(String token) {
    for (String part : token.split("\\.")) {
      try {
        String text = new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8);
        if (text.contains("\"p\"") || text.contains("default")) {
          return true;
        }
      } catch (IllegalArgumentException e) {
        // not base64: not readable
      }
    }
    return false;
  }

  private static String encode(String text) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String abbreviate(String body) {
    return body.length() > 300 ? body.substring(0, 300) + "…" : body;
  }

  private static void namespace(String warehouse, String name) {
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        "/v1/" + warehouse + "/namespaces",
        admin,
        "{\"namespace\":[\"" + name + "\"]}");
  }

  private static void createTable(String warehouse, String namespace, String name) {
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        "/v1/" + warehouse + "/namespaces/" + namespace + "/tables",
        admin,
        "{\"name\":\"" + name + "\",\"schema\":" + SCHEMA_JSON + "}");
  }

  private static void createView(String name, String round) {
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        "/v1/default/namespaces/sec/views",
        admin,
        "{\"name\":\""
            + name
            + "\",\"schema\":"
            + SCHEMA_JSON
            + ",\"view-version\":{\"version-id\":1,\"timestamp-ms\":1700000000000,"
            + "\"schema-id\":0,\"summary\":{},\"representations\":[{\"type\":\"sql\","
            + "\"sql\":\"select 1\",\"dialect\":\"spark\"}],\"default-namespace\":[\"sec\"]},"
            + "\"properties\":{\"round\":\""
            + round
            + "\"}}");
  }

  private static String uuid(String namespace, String table) {
    return AuthHttp.expect(
            200,
            floe.uri(),
            "GET",
            "/v1/default/namespaces/" + namespace + "/tables/" + table,
            admin,
            null)
        .json()
        .path("metadata")
        .path("table-uuid")
        .asText();
  }

  private static void grant(String warehouse, String principal, String target) {
    AuthHttp.expect(
        204,
        floe.uri(),
        "POST",
        "/management/v1/warehouses/" + warehouse + "/grants",
        admin,
        "{\"principal\":\"" + principal + "\",\"namespace\":" + target + ",\"action\":\"read\"}");
  }

  private static void transaction(List<List<String>> tables, String round) {
    ObjectNode body = AuthHttp.JSON.createObjectNode();
    ArrayNode changes = body.putArray("table-changes");
    for (List<String> table : tables) {
      ObjectNode change = changes.addObject();
      ObjectNode id = change.putObject("identifier");
      id.putArray("namespace").add(table.get(0));
      id.put("name", table.get(1));
      change.putArray("requirements");
      ObjectNode update = change.putArray("updates").addObject();
      update.put("action", "set-properties");
      update.putObject("updates").put("round", round);
    }
    AuthHttp.expect(
        204, floe.uri(), "POST", "/v1/default/transactions/commit", admin, body.toString());
  }
}
