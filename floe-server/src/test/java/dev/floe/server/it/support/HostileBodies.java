package dev.floe.server.it.support;

import static dev.floe.server.it.support.HostileRequests.NS;
import static dev.floe.server.it.support.HostileRequests.TABLE;
import static dev.floe.server.it.support.HostileRequests.VIEW;
import static dev.floe.server.it.support.HostileRequests.fill;
import static dev.floe.server.it.support.HostileRequests.pick;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * Request bodies that must fail, for each POST route, and the path each is sent to. Malformed JSON
 * of every kind; bodies past the parser's bounds (depth, string, number, name length) and the
 * commit bounds; wrong types; and well-formed requests that the catalog must refuse — they name a
 * missing namespace or table, an existing one, or require what does not hold.
 *
 * <p>Iceberg's parsers coerce scalars to strings ({@code "namespace":[5]} is namespace {@code "5"};
 * {@code "name":5} is table {@code "5"}), so a wrong-typed name is only ever sent where the request
 * fails anyway: in a missing namespace, or with an existing name.
 */
public final class HostileBodies {
  public record Target(String path, byte[] body) {}

  public static final String SCHEMA =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";
  private static final String WRONG_UUID = "00000000-0000-0000-0000-000000000000";

  /** Requirements that cannot hold for the seeded tables (format v2, one schema, no snapshot). */
  private static final List<String> FAILING_REQUIREMENTS =
      List.of(
          "{\"type\":\"assert-table-uuid\",\"uuid\":\"" + WRONG_UUID + "\"}",
          "{\"type\":\"assert-current-schema-id\",\"current-schema-id\":99}",
          "{\"type\":\"assert-last-assigned-field-id\",\"last-assigned-field-id\":999}",
          "{\"type\":\"assert-default-spec-id\",\"default-spec-id\":77}",
          "{\"type\":\"assert-default-sort-order-id\",\"default-sort-order-id\":77}",
          "{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\",\"snapshot-id\":123}",
          "{\"type\":\"assert-last-assigned-partition-id\",\"last-assigned-partition-id\":9999}");

  /** Updates Iceberg's builder must refuse on the seeded tables. */
  private static final List<String> FAILING_UPDATES =
      List.of(
          "{\"action\":\"upgrade-format-version\",\"format-version\":1}",
          "{\"action\":\"upgrade-format-version\",\"format-version\":99}",
          "{\"action\":\"set-current-schema\",\"schema-id\":99}",
          "{\"action\":\"set-default-spec\",\"spec-id\":99}",
          "{\"action\":\"set-default-sort-order\",\"sort-order-id\":99}",
          "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\",\"snapshot-id\":123}");

  /**
   * Updates that would apply on their own: only ever sent next to a failing requirement or update.
   */
  private static final List<String> APPLICABLE_UPDATES =
      List.of(
          "{\"action\":\"set-properties\",\"updates\":{\"fuzzed\":\"yes\"}}",
          "{\"action\":\"remove-properties\",\"removals\":[\"owner\"]}",
          "{\"action\":\"set-location\",\"location\":\"file:///tmp/elsewhere\"}",
          "{\"action\":\"add-schema\",\"schema\":{\"type\":\"struct\",\"schema-id\":1,\"fields\":[{\"id\":1,\"name\":\"id\","
              + "\"required\":true,\"type\":\"long\"},{\"id\":2,\"name\":\"x\",\"required\":false,\"type\":\"string\"}]}}",
          "{\"action\":\"assign-uuid\",\"uuid\":\"" + WRONG_UUID + "\"}");

  private static final List<String> WRONG_VALUES =
      List.of("5", "{}", "true", "null", "1.5", "-1e400", "\"\"", "[]");

  private final String metadataLocation;
  private final List<Function<Random, byte[]>> malformed = new ArrayList<>();
  private final boolean knownBugs;

  public HostileBodies(String seededMetadataLocation, boolean includeKnownBugs) {
    this.metadataLocation = seededMetadataLocation;
    this.knownBugs = includeKnownBugs;
    malformed.add(
        r ->
            utf8(
                pick(
                    r,
                    List.of(
                        "",
                        " ",
                        "null",
                        "[]",
                        "5",
                        "\"s\"",
                        "true",
                        "{",
                        "}",
                        "{\"namespace\":",
                        "{\"a\":NaN}",
                        "{}x",
                        "/* c */ {}",
                        "{\"a\":1,\"a\":2}",
                        "{'a':1}",
                        "{\"a\":\"\u0001\"}",
                        "\uFEFF{}",
                        "[[[["))));
    malformed.add(HostileBodies::truncated);
    malformed.add(HostileBodies::randomBytes);
    malformed.add(
        r -> new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'});
    malformed.add(HostileBodies::deeplyNested);
    malformed.add(
        r ->
            utf8(
                "{\"namespace\":[\"fuzz\"],\"x\":\""
                    + "s".repeat(1024 * 1024 + 1 + r.nextInt(1000))
                    + "\"}"));
    malformed.add(
        r -> utf8("{\"namespace\":[\"fuzz\"],\"x\":" + "7".repeat(101 + r.nextInt(5000)) + "}"));
    malformed.add(r -> utf8("{\"" + "k".repeat(50_001 + r.nextInt(1000)) + "\":1}"));
    malformed.add(
        r ->
            utf8(
                "{\"x\":["
                    + String.join(",", Collections.nCopies(20_000 + r.nextInt(50_000), "1"))
                    + "]"));
  }

  /** Any malformed body, whatever the route. */
  public byte[] any(Random random) {
    return pick(random, malformed).apply(random);
  }

  /**
   * A body for {@code template}'s route that fails even when the path names existing entities; with
   * {@code anything}, the path already fails (a hostile prefix) and any body will do.
   */
  public byte[] forRoute(Random random, String template, boolean anything) {
    if (random.nextInt(3) == 0) {
      return any(random);
    }
    if (anything && template.equals("/v1/{prefix}/namespaces")) {
      return utf8("{\"namespace\":[\"fuzz_new_" + random.nextInt(1000) + "\"]}");
    }
    if (template.equals(TABLE) || template.equals(VIEW)) {
      // The path's table may be any name: never a bare assert-create, which would create it.
      return commitBody(random, true);
    }
    return target(random, template).body();
  }

  /** A path under the default warehouse and a body that together must fail. */
  public Target target(Random random, String template) {
    if (random.nextInt(4) == 0) {
      return new Target(fill(template, "default", "fuzz", "events"), any(random));
    }
    return switch (template) {
      case "/v1/{prefix}/namespaces" -> createNamespace(random);
      case NS + "/properties" -> updateProperties(random);
      case NS + "/tables" -> createTable(random);
      case TABLE -> commit(random);
      case TABLE + "/metrics" ->
          new Target(
              fill(template, "default", "fuzz", "events"),
              utf8(
                  pick(
                      random,
                      List.of(
                          "{}",
                          "{\"report-type\":\"scan-report\"}",
                          "{\"report-type\":5}",
                          "{\"report-type\":\"commit-report\",\"table-name\":5}",
                          "{\"report-type\":\"scan-report\",\"table-name\":\"events\",\"snapshot-id\":\"x\"}"))));
      case NS + "/register" -> register(random);
      case "/v1/{prefix}/tables/rename" -> rename(random, "/v1/default/tables/rename");
      case "/v1/{prefix}/views/rename" -> rename(random, "/v1/default/views/rename");
      case "/v1/{prefix}/transactions/commit" -> transaction(random);
      case NS + "/views" ->
          new Target(
              fill(template, "default", pick(random, List.of("nope", "fuzz%1Fghost")), ""),
              utf8(view(random)));
      case VIEW ->
          new Target(fill(template, "default", "fuzz", "ghost_view"), commitBody(random, true));
      case NS + "/register-view" ->
          new Target(
              fill(template, "default", "fuzz", ""),
              utf8(
                  "{\"name\":\"v\",\"metadata-location\":\""
                      + pick(
                          random,
                          List.of(
                              "file:///nonexistent/v.metadata.json",
                              "",
                              "/dev/null",
                              "s3://bucket/v.metadata.json"))
                      + "\"}"));
      default -> new Target(fill(template, "default", "fuzz", "events"), any(random));
    };
  }

  private Target createNamespace(Random random) {
    String path = "/v1/default/namespaces";
    List<String> bodies =
        new ArrayList<>(
            List.of(
                "{\"namespace\":[\"fuzz\"]}",
                "{\"namespace\":[\"fuzz\",\"inner\"],\"properties\":{\"k\":\"v\"}}",
                "{\"namespace\":[\"nope\",\"x\"]}",
                "{\"namespace\":[\"fuzz\",\"ghost\",\"x\"]}",
                "{\"namespace\":[]}",
                "{\"namespace\":[\"fuzz\"],\"properties\":"
                    + pick(random, List.of("[]", "5", "\"x\"", "true", "[1]"))
                    + "}",
                "{\"namespace\":"
                    + pick(random, List.of("5", "{}", "true", "null", "1.5", "-1e400"))
                    + "}",
                "{\"namespace\":[\"nope\"" + ",\"x\"".repeat(1 + random.nextInt(999)) + "]}",
                "{\"namespace\":[\"fuzz\\u0000\"]}"));
    if (knownBugs) {
      // Regression, fixed in Names (was: NamespaceHandlers.handleCreateNamespace,
      // NamespaceHandlers.java:54-58): only an
      // empty list is refused, so a level that is empty ("", or an object Iceberg's parser turns
      // into ""), a level holding the %1F separator, or [null] (parsed as "null") creates a
      // namespace — one that no path can name (RequestContext.parseNamespace refuses empty
      // levels) or that collides with another's path. Each of these changes the catalog. ([null]
      // is left out: Iceberg's parser reads it as the level "null", a valid name.)
      bodies.addAll(
          List.of(
              "{\"namespace\":[\"\"]}",
              "{\"namespace\":[\"fuzz\",\"\"]}",
              "{\"namespace\":[{}]}",
              "{\"namespace\":[\"fuzz\\u001finner2\"]}"));
      // Regression, fixed in Names (was: CreateNamespaceCommand.java:18 via
      // NamespaceHandlers.java:58): a null property
      // value reaches Map.copyOf and answers 500 InternalServerError (NullPointerException).
      bodies.add("{\"namespace\":[\"fuzz\"],\"properties\":{\"a\":null}}");
    }
    return new Target(path, utf8(pick(random, bodies)));
  }

  private Target updateProperties(Random random) {
    List<String> bodies =
        new ArrayList<>(
            List.of(
                "{\"updates\":{\"k\":\"v\"},\"removals\":[\"k\"]}",
                "{\"updates\":" + pick(random, List.of("[]", "5", "\"x\"", "[\"k\"]")) + "}",
                "{\"removals\":" + pick(random, List.of("{}", "5", "\"k\"", "{\"k\":1}")) + "}"));
    if (knownBugs) {
      // Regression, fixed in Names (was: NamespaceHandlers.handleUpdateProperties,
      // NamespaceHandlers.java:97-104, into
      // UpdateNamespacePropertiesCommand.java:20-21, Map.copyOf/List.copyOf): a null value in
      // "updates" or a null in "removals" answers 500 InternalServerError (NullPointerException).
      bodies.addAll(List.of("{\"updates\":{\"a\":null}}", "{\"removals\":[null]}"));
    }
    boolean missing = random.nextInt(3) == 0;
    String namespace =
        missing
            ? pick(random, List.of("nope", "fuzz%1Fghost"))
            : pick(random, List.of("fuzz", "fuzz%1Finner"));
    // A valid update of a missing namespace must be refused by the processor.
    String body =
        missing ? "{\"updates\":{\"k\":\"v\"},\"removals\":[\"gone\"]}" : pick(random, bodies);
    return new Target("/v1/default/namespaces/" + namespace + "/properties", utf8(body));
  }

  private Target createTable(Random random) {
    String inFuzz = "/v1/default/namespaces/fuzz/tables";
    String wrongSchema =
        pick(
            random,
            List.of(
                "\"x\"",
                "5",
                "{}",
                "{\"type\":\"struct\",\"fields\":5}",
                "{\"type\":\"struct\",\"fields\":[{\"id\":1,\"name\":\"a\",\"required\":true,\"type\":\"decimal(99,99)\"}]}",
                "{\"type\":\"struct\",\"fields\":[{\"id\":1,\"name\":\"a\",\"required\":true,\"type\":\"blob\"}]}",
                "{\"type\":\"struct\",\"fields\":[{\"id\":\"x\",\"name\":\"a\",\"required\":true,\"type\":\"int\"}]}"));
    List<Target> targets =
        new ArrayList<>(
            List.of(
                // The name exists: refused whatever else the request asks.
                new Target(
                    inFuzz,
                    utf8(
                        "{\"name\":\"events\",\"schema\":"
                            + SCHEMA
                            + ",\"stage-create\":"
                            + random.nextBoolean()
                            + "}")),
                new Target(
                    inFuzz,
                    utf8(
                        "{\"name\":\"events\",\"schema\":"
                            + SCHEMA
                            + ",\"partition-spec\":{\"spec-id\":0,\"fields\":"
                            + "[{\"source-id\":42,\"field-id\":1000,\"name\":\"p\",\"transform\":\"identity\"}]}}")),
                new Target(inFuzz, utf8("{\"name\":\"fresh\",\"schema\":" + wrongSchema + "}")),
                new Target(inFuzz, utf8("{\"name\":\"fresh\"}")),
                new Target(inFuzz, utf8("{\"name\":\"\",\"schema\":" + SCHEMA + "}")),
                new Target(inFuzz, utf8("{\"name\":null,\"schema\":" + SCHEMA + "}")),
                // Missing namespaces: whatever the name, nothing can be created.
                new Target(
                    "/v1/default/namespaces/"
                        + pick(random, List.of("nope", "fuzz%1Fghost"))
                        + "/tables",
                    utf8(
                        "{\"name\":" + pick(random, WRONG_VALUES) + ",\"schema\":" + SCHEMA + "}")),
                new Target(
                    "/v1/default/namespaces/nope/tables",
                    utf8("{\"name\":\"t\",\"schema\":" + SCHEMA + "}"))));
    if (knownBugs) {
      // Regression, fixed in Names (was: TableHandlers.handleCreateTable, TableHandlers.java:48-62;
      // the processor's
      // DirectoryKeys.table, DirectoryKeys.java:39, turns the name into a Namespace): a table name
      // with a null byte answers 500 InternalServerError ("Cannot create a namespace with the
      // null-byte character") instead of 400; a null property value answers 500 (NPE from
      // Map.copyOf
      // in CreateTableCommand.java:37).
      targets.add(new Target(inFuzz, utf8("{\"name\":\"a\\u0000b\",\"schema\":" + SCHEMA + "}")));
      targets.add(
          new Target(
              "/v1/default/namespaces/nope/tables",
              utf8("{\"name\":\"t\",\"schema\":" + SCHEMA + ",\"properties\":{\"a\":null}}")));
    }
    return pick(random, targets);
  }

  private Target commit(Random random) {
    String path =
        pick(
            random,
            List.of(
                "/v1/default/namespaces/fuzz/tables/events",
                    "/v1/default/namespaces/fuzz%1Finner/tables/logs",
                "/v1/default/namespaces/fuzz/tables/ghost",
                    "/v1/default/namespaces/nope/tables/events"));
    return new Target(path, commitBody(random, path.endsWith("ghost") || path.contains("/nope/")));
  }

  /**
   * A multi-table transaction that must fail as a whole: one change fails on its seeded table, the
   * others would apply on their own (so a partial apply shows as a state change), or the
   * transaction itself is malformed (no tables, a table twice, too many tables).
   */
  private Target transaction(Random random) {
    String path = "/v1/default/transactions/commit";
    String events = "{\"namespace\":[\"fuzz\"],\"name\":\"events\"}";
    String logs = "{\"namespace\":[\"fuzz\",\"inner\"],\"name\":\"logs\"}";
    String ghost = "{\"namespace\":[\"fuzz\"],\"name\":\"ghost\"}";
    String applicable =
        "\"requirements\":[],\"updates\":[" + pick(random, APPLICABLE_UPDATES) + "]}";
    List<String> changes = new ArrayList<>();
    switch (random.nextInt(6)) {
      case 0 -> {
        return new Target(path, utf8("{\"table-changes\":[]}"));
      }
      case 1 ->
          changes.addAll(Collections.nCopies(2, "{\"identifier\":" + events + "," + applicable));
      case 2 ->
          changes.addAll(
              Collections.nCopies(
                  101 + random.nextInt(50), "{\"identifier\":" + ghost + "," + applicable));
      case 3 -> {
        changes.add("{\"identifier\":" + logs + "," + applicable);
        changes.add("{\"identifier\":" + ghost + "," + applicable);
      }
      default -> {
        boolean onEvents = random.nextBoolean();
        String failing = new String(commitBody(random, false), StandardCharsets.UTF_8);
        if (!failing.startsWith("{\"identifier\"")) {
          failing = "{\"identifier\":" + (onEvents ? events : logs) + "," + failing.substring(1);
        }
        changes.add(failing);
        changes.add(
            random.nextInt(changes.size() + 1),
            "{\"identifier\":" + (onEvents ? logs : events) + "," + applicable);
      }
    }
    return new Target(path, utf8("{\"table-changes\":[" + String.join(",", changes) + "]}"));
  }

  /** A commit that fails on the seeded tables; {@code missing}: the table does not exist. */
  private byte[] commitBody(Random random, boolean missing) {
    List<String> requirements = new ArrayList<>();
    List<String> updates = new ArrayList<>();
    int choice = random.nextInt(9);
    switch (choice) {
      case 0 -> {
        requirements.add(pick(random, FAILING_REQUIREMENTS));
        randomUpdates(random, updates, true);
      }
      case 1 -> {
        randomUpdates(random, updates, false);
        updates.add(random.nextInt(updates.size() + 1), pick(random, FAILING_UPDATES));
      }
      case 2 ->
          requirements.add(
              "{\"type\":\""
                  + pick(random, List.of("assert-foo", "", "ASSERT-TABLE-UUID", "assert-create2"))
                  + "\"}");
      case 3 ->
          updates.add(
              "{\"action\":\""
                  + pick(random, List.of("frobnicate", "", "SET-PROPERTIES", "drop-table"))
                  + "\"}");
      case 4 -> {
        requirements.addAll(
            Collections.nCopies(1001 + random.nextInt(2000), pick(random, FAILING_REQUIREMENTS)));
        updates.add(APPLICABLE_UPDATES.get(0));
      }
      case 5 ->
          updates.addAll(
              Collections.nCopies(1001 + random.nextInt(2000), APPLICABLE_UPDATES.get(0)));
      case 6 -> {
        // A create transaction's commit for a name that exists (or in a missing namespace):
        // refused.
        requirements.add("{\"type\":\"assert-create\"}");
        if (random.nextBoolean()) {
          requirements.add(pick(random, FAILING_REQUIREMENTS));
        }
        updates.add("{\"action\":\"add-schema\",\"schema\":" + SCHEMA + "}");
        if (missing) {
          // assert-create on a missing name would create the table: send the mixed form only.
          requirements.add(FAILING_REQUIREMENTS.get(0));
        }
      }
      case 7 -> {
        return utf8(
            "{\"identifier\":{\"namespace\":[\"other\"],\"name\":\"elsewhere\"},\"requirements\":[],\"updates\":["
                + APPLICABLE_UPDATES.get(0)
                + "]}");
      }
      default -> {
        String field = random.nextBoolean() ? "requirements" : "updates";
        return utf8("{\"" + field + "\":" + pick(random, WRONG_VALUES) + "}");
      }
    }
    if (missing && choice == 3 && random.nextBoolean()) {
      // A large commit (under the 10 MiB request limit) on a table that does not exist: 404.
      String value = "v".repeat(900_000);
      updates.clear();
      updates.add(
          "{\"action\":\"set-properties\",\"updates\":{\"a\":\""
              + value
              + "\",\"b\":\""
              + value
              + "\"}}");
    }
    return utf8(
        "{\"requirements\":["
            + String.join(",", requirements)
            + "],\"updates\":["
            + String.join(",", updates)
            + "]}");
  }

  private static void randomUpdates(Random random, List<String> updates, boolean anyKind) {
    int count = random.nextInt(4);
    for (int i = 0; i < count; i++) {
      updates.add(
          anyKind && random.nextBoolean()
              ? pick(random, FAILING_UPDATES)
              : pick(random, APPLICABLE_UPDATES));
    }
  }

  private Target register(Random random) {
    String location =
        pick(
            random,
            List.of(
                metadataLocation,
                "file:///nonexistent/x.metadata.json",
                "/etc/passwd",
                "",
                "/dev/null",
                "s3://bucket/x.metadata.json",
                "hdfs://nn/x.json",
                "file:///",
                "../../etc/passwd"));
    String name =
        location.equals(metadataLocation)
            ? "events"
            : pick(random, List.of("events", "fresh", "x"));
    String namespace = location.equals(metadataLocation) && random.nextBoolean() ? "nope" : "fuzz";
    String body =
        random.nextInt(6) == 0
            ? "{\"name\":"
                + pick(random, WRONG_VALUES)
                + ",\"metadata-location\":\"file:///nonexistent\"}"
            : "{\"name\":\"" + name + "\",\"metadata-location\":\"" + location + "\"}";
    return new Target("/v1/default/namespaces/" + namespace + "/register", utf8(body));
  }

  private Target rename(Random random, String path) {
    List<String> bodies =
        new ArrayList<>(
            List.of(
                move("[\"fuzz\"]", "ghost", "[\"fuzz\"]", "ghost2"),
                move("[\"nope\"]", "events", "[\"fuzz\"]", "renamed"),
                move("[\"fuzz\"]", "events", "[\"fuzz\",\"inner\"]", "logs"),
                move("[\"fuzz\"]", "events", "[\"nope\"]", "renamed"),
                move("[\"fuzz\"]", "events", "[\"fuzz\",\"ghost\"]", "renamed"),
                "{\"source\":"
                    + pick(random, WRONG_VALUES)
                    + ",\"destination\":{\"namespace\":[\"fuzz\"],\"name\":\"y\"}}",
                "{\"source\":{\"namespace\":[\"fuzz\"],\"name\":\"events\"}}"));
    if (path.contains("/views/")) {
      // No view is seeded: any move names a missing source.
      bodies.removeIf(b -> b.contains("\"events\""));
    }
    if (knownBugs && !path.contains("/views/")) {
      // Regression, fixed in Names (was: TableMembershipHandlers.handleRenameTable,
      // TableMembershipHandlers.java:21-26; the
      // processor's DirectoryKeys.table, DirectoryKeys.java:39): a source or destination name with
      // a null byte answers 500 InternalServerError instead of 400 (nothing is renamed).
      bodies.add(move("[\"fuzz\"]", "events", "[\"fuzz\"]", "a\\u0000b"));
      bodies.add(move("[\"fuzz\"]", "nope\\u0000", "[\"fuzz\"]", "x"));
      bodies.add(move("[\"fuzz\"]", "ghost", "[\"fuzz\"]", "a\\u0000b"));
    }
    return new Target(path, utf8(pick(random, bodies)));
  }

  private static String move(String fromNamespace, String from, String toNamespace, String to) {
    return "{\"source\":{\"namespace\":"
        + fromNamespace
        + ",\"name\":\""
        + from
        + "\"},\"destination\":{\"namespace\":"
        + toNamespace
        + ",\"name\":\""
        + to
        + "\"}}";
  }

  private static String view(Random random) {
    String version =
        "{\"version-id\":1,\"timestamp-ms\":0,\"schema-id\":0,\"summary\":{},\"default-namespace\":[\"fuzz\"],\"representations\":[{\"type\":\"sql\",\"sql\":\"select"
            + " 1\",\"dialect\":\"spark\"}]}";
    return pick(
        random,
        List.of(
            "{\"name\":\"v\",\"schema\":"
                + SCHEMA
                + ",\"view-version\":"
                + version
                + ",\"properties\":{}}",
            "{\"name\":\"v\",\"schema\":" + SCHEMA + "}",
            "{\"name\":5,\"view-version\":5}"));
  }

  private static byte[] deeplyNested(Random random) {
    int depth = 65 + random.nextInt(random.nextBoolean() ? 100 : 5000);
    String open = random.nextBoolean() ? "[" : "{\"a\":";
    String close = open.equals("[") ? "]" : "}";
    return utf8(
        "{\"namespace\":[\"fuzz\"],\"properties\":{},\"x\":"
            + open.repeat(depth)
            + "1"
            + close.repeat(depth)
            + "}");
  }

  /** A well-formed request cut short: never a complete JSON document. */
  private static byte[] truncated(Random random) {
    String whole =
        pick(
            random,
            List.of(
                "{\"namespace\":[\"fuzz_truncated\"],\"properties\":{\"k\":\"v\"}}",
                "{\"name\":\"fresh\",\"schema\":" + SCHEMA + "}",
                "{\"requirements\":[],\"updates\":[" + APPLICABLE_UPDATES.get(0) + "]}",
                move("[\"fuzz\"]", "events", "[\"fuzz\"]", "renamed"),
                "{\"updates\":{\"k\":\"v\"},\"removals\":[]}"));
    return utf8(whole.substring(0, 1 + random.nextInt(whole.length() - 1)));
  }

  private static byte[] randomBytes(Random random) {
    byte[] bytes = new byte[1 + random.nextInt(2048)];
    random.nextBytes(bytes);
    return bytes;
  }

  public static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
