package dev.floe.server.it;

import static dev.floe.server.it.support.AuthHttp.expect;
import static dev.floe.server.it.support.AuthHttp.send;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.AuthHttp;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated authorisation matrix: every REST route × how the caller holds the right (warehouse
 * role, namespace grant, table grant, public namespace, nothing) × whether it holds it (granted,
 * never granted, granted then revoked) → the status a model of the access rules expects. Two
 * instances share one Kafka cluster: every grant and revocation goes through instance A and every
 * checked request to instance B, so a revocation is shown to hold on the next request on another
 * instance.
 */
class AuthorizationMatrixIT {
  private static final String WH = "default";

  /** A warehouse where nothing is public or granted to anyone. */
  private static final String OTHER_WH = "other";

  private static final String SCHEMA =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";

  /** What a route needs. */
  enum Need {
    ANY,
    SEE_NAMESPACE,
    WRITE_NAMESPACE,
    READ_TABLE,
    WRITE_TABLE,
    /** {@code manage} on the namespace, which no holder here has: they hold write at most. */
    MANAGE_NAMESPACE
  }

  /** How the caller holds (or would hold) the right. */
  enum Holder {
    ROLE,
    NAMESPACE_GRANT,
    TABLE_GRANT,
    PUBLIC_NAMESPACE,
    NONE
  }

  enum State {
    GRANTED,
    MISSING,
    REVOKED
  }

  /** What a route's fixture namespace holds, made by the admin before the case runs. */
  /**
   * @param dropped a table {@code gone} and a view {@code gonev} dropped, kept for the recovery
   *     period
   * @param expunged and then expunged (their files retained): a register of their metadata takes
   *     over no kept entity, which only a manager of the namespace may do
   */
  record Fixture(
      boolean table, boolean otherTable, boolean view, boolean dropped, boolean expunged) {
    Fixture(boolean table, boolean otherTable, boolean view, boolean dropped) {
      this(table, otherTable, view, dropped, false);
    }
  }

  record Call(String method, String path, String body) {}

  /**
   * @param object the table or view a table grant names
   */
  record Route(
      String name,
      Need need,
      int success,
      Fixture fixture,
      String object,
      Function<Ctx, Call> call) {}

  /** One case's namespace and, for register routes, a dropped entity's metadata file. */
  record Ctx(String ns, String droppedTable, String droppedView) {
    String base() {
      return "/v1/" + WH + "/namespaces/" + ns;
    }
  }

  private static final Fixture EMPTY = new Fixture(false, false, false, false);
  private static final Fixture TABLE = new Fixture(true, false, false, false);
  private static final Fixture VIEW = new Fixture(false, false, true, false);

  static List<Route> routes() {
    String commit =
        "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"k\":\"v\"}}]}";
    return List.of(
        new Route(
            "get config",
            Need.ANY,
            200,
            EMPTY,
            "t",
            c -> new Call("GET", "/v1/config?warehouse=" + WH, null)),
        new Route(
            "list namespaces under",
            Need.SEE_NAMESPACE,
            200,
            TABLE,
            "t",
            c -> new Call("GET", "/v1/" + WH + "/namespaces?parent=" + c.ns(), null)),
        new Route(
            "create namespace",
            Need.WRITE_NAMESPACE,
            200,
            EMPTY,
            "t",
            c ->
                new Call(
                    "POST",
                    "/v1/" + WH + "/namespaces",
                    "{\"namespace\":[\"" + c.ns() + "\",\"child\"]}")),
        new Route(
            "load namespace",
            Need.SEE_NAMESPACE,
            200,
            TABLE,
            "t",
            c -> new Call("GET", c.base(), null)),
        new Route(
            "namespace exists",
            Need.SEE_NAMESPACE,
            204,
            TABLE,
            "t",
            c -> new Call("HEAD", c.base(), null)),
        new Route(
            "drop namespace",
            Need.WRITE_NAMESPACE,
            204,
            EMPTY,
            "t",
            c -> new Call("DELETE", c.base(), null)),
        new Route(
            "update properties",
            Need.WRITE_NAMESPACE,
            200,
            EMPTY,
            "t",
            c ->
                new Call(
                    "POST",
                    c.base() + "/properties",
                    "{\"updates\":{\"k\":\"v\"},\"removals\":[]}")),
        new Route(
            "list tables",
            Need.SEE_NAMESPACE,
            200,
            new Fixture(true, true, false, false),
            "t",
            c -> new Call("GET", c.base() + "/tables", null)),
        new Route(
            "create table",
            Need.WRITE_NAMESPACE,
            200,
            EMPTY,
            "t",
            c ->
                new Call(
                    "POST", c.base() + "/tables", "{\"name\":\"t\",\"schema\":" + SCHEMA + "}")),
        new Route(
            "load table",
            Need.READ_TABLE,
            200,
            TABLE,
            "t",
            c -> new Call("GET", c.base() + "/tables/t", null)),
        new Route(
            "table exists",
            Need.READ_TABLE,
            204,
            TABLE,
            "t",
            c -> new Call("HEAD", c.base() + "/tables/t", null)),
        new Route(
            "commit table",
            Need.WRITE_TABLE,
            200,
            TABLE,
            "t",
            c -> new Call("POST", c.base() + "/tables/t", commit)),
        new Route(
            "drop table",
            Need.WRITE_TABLE,
            204,
            TABLE,
            "t",
            c -> new Call("DELETE", c.base() + "/tables/t", null)),
        new Route(
            "load credentials",
            Need.READ_TABLE,
            200,
            TABLE,
            "t",
            c -> new Call("GET", c.base() + "/tables/t/credentials", null)),
        new Route(
            "report metrics",
            Need.READ_TABLE,
            204,
            TABLE,
            "t",
            c ->
                new Call(
                    "POST",
                    c.base() + "/tables/t/metrics",
                    "{\"report-type\":\"commit-report\",\"table-name\":\""
                        + c.ns()
                        + ".t\",\"snapshot-id\":1,\"sequence-number\":1,\"operation\":\"append\",\"metrics\":{}}")),
        new Route(
            "register table",
            Need.WRITE_NAMESPACE,
            200,
            new Fixture(false, false, false, true, true),
            "reg",
            c ->
                new Call(
                    "POST",
                    c.base() + "/register",
                    "{\"name\":\"reg\",\"metadata-location\":\"" + c.droppedTable() + "\"}")),
        new Route(
            "rename table",
            Need.WRITE_NAMESPACE,
            204,
            TABLE,
            "t",
            c ->
                new Call(
                    "POST",
                    "/v1/" + WH + "/tables/rename",
                    "{\"source\":{\"namespace\":[\""
                        + c.ns()
                        + "\"],\"name\":\"t\"},\"destination\":{\"namespace\":[\""
                        + c.ns()
                        + "\"],\"name\":\"moved\"}}")),
        new Route(
            "commit transaction",
            Need.WRITE_TABLE,
            204,
            TABLE,
            "t",
            c ->
                new Call(
                    "POST",
                    "/v1/" + WH + "/transactions/commit",
                    "{\"table-changes\":[{\"identifier\":{\"namespace\":[\""
                        + c.ns()
                        + "\"],\"name\":\"t\"},\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"k\":\"v\"}}]}]}")),
        new Route(
            "list views",
            Need.SEE_NAMESPACE,
            200,
            VIEW,
            "v",
            c -> new Call("GET", c.base() + "/views", null)),
        new Route(
            "create view",
            Need.WRITE_NAMESPACE,
            200,
            EMPTY,
            "v",
            c -> new Call("POST", c.base() + "/views", viewBody(c.ns(), "v"))),
        new Route(
            "load view",
            Need.READ_TABLE,
            200,
            VIEW,
            "v",
            c -> new Call("GET", c.base() + "/views/v", null)),
        new Route(
            "view exists",
            Need.READ_TABLE,
            204,
            VIEW,
            "v",
            c -> new Call("HEAD", c.base() + "/views/v", null)),
        new Route(
            "replace view",
            Need.WRITE_TABLE,
            200,
            VIEW,
            "v",
            c -> new Call("POST", c.base() + "/views/v", commit)),
        new Route(
            "drop view",
            Need.WRITE_TABLE,
            204,
            VIEW,
            "v",
            c -> new Call("DELETE", c.base() + "/views/v", null)),
        new Route(
            "rename view",
            Need.WRITE_NAMESPACE,
            204,
            VIEW,
            "v",
            c ->
                new Call(
                    "POST",
                    "/v1/" + WH + "/views/rename",
                    "{\"source\":{\"namespace\":[\""
                        + c.ns()
                        + "\"],\"name\":\"v\"},\"destination\":{\"namespace\":[\""
                        + c.ns()
                        + "\"],\"name\":\"moved\"}}")),
        new Route(
            "register view",
            Need.WRITE_NAMESPACE,
            200,
            new Fixture(false, false, false, true, true),
            "regv",
            c ->
                new Call(
                    "POST",
                    c.base() + "/register-view",
                    "{\"name\":\"regv\",\"metadata-location\":\"" + c.droppedView() + "\"}")),
        new Route(
            "table lineage",
            Need.READ_TABLE,
            200,
            TABLE,
            "t",
            c -> new Call("GET", "/management/v1/lineage/tables/" + c.ns() + "/t", null)),
        new Route(
            "whoami",
            Need.ANY,
            200,
            EMPTY,
            "t",
            c -> new Call("GET", "/management/v1/whoami", null)),
        new Route(
            "list dropped",
            Need.MANAGE_NAMESPACE,
            200,
            new Fixture(false, false, false, true),
            "gone",
            c ->
                new Call(
                    "GET",
                    "/management/v1/warehouses/" + WH + "/deleted?namespace=" + c.ns(),
                    null)),
        new Route(
            "restore dropped table",
            Need.MANAGE_NAMESPACE,
            200,
            new Fixture(false, false, false, true),
            "gone",
            c ->
                new Call(
                    "POST",
                    "/management/v1/warehouses/" + WH + "/deleted/restore",
                    "{\"kind\":\"table\",\"namespace\":[\"" + c.ns() + "\"],\"name\":\"gone\"}")),
        new Route(
            "expunge dropped view",
            Need.MANAGE_NAMESPACE,
            204,
            new Fixture(false, false, false, true),
            "gonev",
            c ->
                new Call(
                    "POST",
                    "/management/v1/warehouses/" + WH + "/deleted/expunge",
                    "{\"kind\":\"view\",\"namespace\":[\"" + c.ns() + "\"],\"name\":\"gonev\"}")));
  }

  /** The model: does a holder in this state pass a route that needs this? */
  static boolean allowed(Holder holder, State state, Need need) {
    if (need == Need.ANY) {
      return true;
    }
    if (need == Need.MANAGE_NAMESPACE) {
      return false;
    }
    if (state != State.GRANTED) {
      return false;
    }
    return switch (holder) {
      case ROLE, NAMESPACE_GRANT -> true;
      case TABLE_GRANT -> need != Need.WRITE_NAMESPACE;
      case PUBLIC_NAMESPACE -> need == Need.SEE_NAMESPACE || need == Need.READ_TABLE;
      case NONE -> false;
    };
  }

  @TempDir static Path first;
  @TempDir static Path second;
  private static FloeProcess a;
  private static FloeProcess b;
  private static String admin;

  @BeforeAll
  static void start() throws Exception {
    String other = "floe.warehouse." + OTHER_WH + ".location";
    String otherRoot = first.resolve("other-warehouse").toUri().toString();
    // Both instances are configured with the same warehouses, as in production.
    String lake = "floe.warehouse.default.location";
    String lakeRoot = first.resolve("lake").toUri().toString();
    a =
        new FloeProcess(first, Map.of("floe.auth", "token", other, otherRoot, lake, lakeRoot))
            .start();
    b =
        new FloeProcess(
                second,
                Map.of(
                    "floe.auth",
                    "token",
                    "floe.kafka.bootstrap-servers",
                    FloeProcess.embeddedKafka(first),
                    other,
                    otherRoot,
                    lake,
                    lakeRoot))
            .start();
    admin = a.adminToken();
  }

  @AfterAll
  static void stop() throws Exception {
    if (b != null) {
      b.close();
    }
    if (a != null) {
      a.close();
    }
  }

  @Test
  void everyRouteAnswersWhatTheModelExpectsForEveryHolderAndState() {
    String mgmt = a.uri();
    Map<Holder, Map<State, String>> tokens = new EnumMap<>(Holder.class);
    for (Holder holder : Holder.values()) {
      tokens.put(holder, new EnumMap<>(State.class));
      for (State state : states(holder)) {
        String name = (holder + "-" + state).toLowerCase().replace('_', '-');
        tokens.get(holder).put(state, AuthHttp.principalWithToken(mgmt, admin, name));
      }
    }
    // Roles are per principal: give them (and take the revoked one back) once.
    setRole("role-granted", "writer");
    setRole("role-revoked", "writer");
    expect(204, mgmt, "DELETE", "/management/v1/principals/role-revoked/roles/" + WH, admin, null);

    // Every case has a namespace of its own, so they run side by side: the processor then commits
    // their fixtures in groups, at a fraction of the CPU and time of one at a time.
    List<String> mismatches = Collections.synchronizedList(new ArrayList<>());
    List<Route> routes = routes();
    List<Runnable> work = new ArrayList<>();
    for (int r = 0; r < routes.size(); r++) {
      Route route = routes.get(r);
      for (Holder holder : Holder.values()) {
        for (State state : states(holder)) {
          String ns = "r" + r + "_" + holder.ordinal() + state.ordinal();
          String token = tokens.get(holder).get(state);
          work.add(() -> runCase(route, holder, state, ns, token, mismatches));
        }
      }
    }
    int cases = work.size();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (Runnable task : work) {
        running.add(pool.submit(task));
      }
      for (Future<?> done : running) {
        try {
          done.get();
        } catch (ExecutionException e) {
          if (e.getCause() instanceof Error error) {
            throw error;
          }
          throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(mismatches).as("%d cases", cases).isEmpty();
    assertThat(cases).isGreaterThan(routes.size() * 10);
  }

  /** One route for one holder in one state, on its own namespace; a wrong status is recorded. */
  private static void runCase(
      Route route, Holder holder, State state, String ns, String token, List<String> mismatches) {
    String principal = (holder + "-" + state).toLowerCase().replace('_', '-');
    Ctx ctx = fixture(ns, route);
    hold(holder, state, principal, ctx.ns(), route.object());
    Call call = route.call().apply(ctx);
    AuthHttp.Response response = send(b.uri(), call.method(), call.path(), token, call.body());
    int expected = allowed(holder, state, route.need()) ? route.success() : 403;
    // The lineage index trails the log by a poll: a table created just now may be missing.
    for (int retry = 0;
        route.name().equals("table lineage") && response.status() == 404 && retry < 50;
        retry++) {
      sleep(100);
      response = send(b.uri(), call.method(), call.path(), token, call.body());
    }
    if (response.status() != expected) {
      mismatches.add(
          route.name()
              + " / "
              + holder
              + " / "
              + state
              + ": expected "
              + expected
              + ", got "
              + response.status()
              + " "
              + response.body());
    } else if (expected == 403 && !call.method().equals("HEAD")) {
      // An answer to HEAD has no body (HTTP/1.1), so no ErrorModel to look at.
      assertErrorModel(response, 403, "ForbiddenException");
    }
    if (route.name().equals("list tables") && expected == 200) {
      assertListing(holder, response);
    }
  }

  @Test
  void withoutAValidTokenEveryRouteIs401AndAnUnknownWarehouseIs404ForAnyCaller() {
    Ctx ctx = fixture("unauth", TABLE_AND_VIEW);
    for (Route route : routes()) {
      Call call = route.call().apply(ctx);
      for (String token : new String[] {null, "floe_not-a-real-token", "eyJhbGciOi.not.ajwt"}) {
        AuthHttp.Response response = send(b.uri(), call.method(), call.path(), token, call.body());
        assertThat(response.status()).as(route.name() + " with " + token).isEqualTo(401);
        if (!call.method().equals("HEAD")) {
          assertErrorModel(response, 401, "NotAuthorizedException");
        }
      }
    }
    String stranger = AuthHttp.principalWithToken(a.uri(), admin, "stranger");
    AuthHttp.Response unknown =
        send(b.uri(), "GET", "/v1/nowhere/namespaces/" + ctx.ns() + "/tables/t", stranger, null);
    assertErrorModel(unknown, 404, "NoSuchWarehouseException");
    // A caller who can see nothing in the warehouse gets 403 for the top-level listing.
    expect(
        200,
        a.uri(),
        "POST",
        "/v1/" + OTHER_WH + "/namespaces",
        admin,
        "{\"namespace\":[\"hidden\"]}");
    assertErrorModel(
        send(b.uri(), "GET", "/v1/" + OTHER_WH + "/namespaces", stranger, null),
        403,
        "ForbiddenException");
  }

  @Test
  void aRevokedTokenIsRefusedOnTheNextRequestOnEveryInstance() {
    String name = "short-lived";
    String token = AuthHttp.principalWithToken(a.uri(), admin, name);
    String id =
        expect(200, a.uri(), "GET", "/management/v1/principals/" + name + "/tokens", admin, null)
            .json()
            .get("tokens")
            .get(0)
            .get("id")
            .asText();
    for (FloeProcess instance : List.of(a, b)) {
      assertThat(send(instance.uri(), "GET", "/management/v1/whoami", token, null).status())
          .isEqualTo(200);
    }
    expect(204, a.uri(), "DELETE", "/management/v1/tokens/" + id, admin, null);
    for (FloeProcess instance : List.of(b, a)) {
      assertErrorModel(
          send(instance.uri(), "GET", "/management/v1/whoami", token, null),
          401,
          "NotAuthorizedException");
    }
  }

  @Test
  void aTableGrantFollowsARenameAndMergesWithTheGrantOnTheNewName() {
    String reader = AuthHttp.principalWithToken(a.uri(), admin, "follower");
    Ctx ctx = fixture("follow", TABLE);
    grant("follower", ctx.ns(), "t", "write");
    grant("follower", ctx.ns(), "renamed", "read");
    expect(
        204,
        a.uri(),
        "POST",
        "/v1/" + WH + "/tables/rename",
        admin,
        "{\"source\":{\"namespace\":[\""
            + ctx.ns()
            + "\"],\"name\":\"t\"},\"destination\":{\"namespace\":[\""
            + ctx.ns()
            + "\"],\"name\":\"renamed\"}}");
    // The write on the old name wins over the read on the new one: committing works at once.
    assertThat(
            send(
                    b.uri(),
                    "POST",
                    ctx.base() + "/tables/renamed",
                    reader,
                    "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"a\":\"b\"}}]}")
                .status())
        .isEqualTo(200);
    JsonNode grants =
        expect(200, a.uri(), "GET", "/management/v1/warehouses/" + WH + "/grants", admin, null)
            .json()
            .get("grants");
    List<String> mine = new ArrayList<>();
    grants.forEach(
        g -> {
          if (g.get("principal").asText().equals("follower")) {
            mine.add(g.get("table").asText() + ":" + g.get("action").asText());
          }
        });
    assertThat(mine).containsExactly("renamed:write");
  }

  private static final Fixture TABLE_AND_VIEW = new Fixture(true, false, true, false);

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static List<State> states(Holder holder) {
    return holder == Holder.NONE ? List.of(State.MISSING) : List.of(State.values());
  }

  private static void assertListing(Holder holder, AuthHttp.Response response) {
    List<String> names = new ArrayList<>();
    response.json().get("identifiers").forEach(id -> names.add(id.get("name").asText()));
    if (holder == Holder.TABLE_GRANT) {
      assertThat(names).as("a table grant lists only that table").containsExactly("t");
    } else {
      assertThat(names).containsExactlyInAnyOrder("t", "other");
    }
  }

  private static void assertErrorModel(AuthHttp.Response response, int status, String type) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    JsonNode error = response.json().get("error");
    assertThat(error.get("code").asInt()).isEqualTo(status);
    assertThat(error.get("type").asText()).isEqualTo(type);
    assertThat(error.get("message").asText()).isNotBlank();
  }

  /** Gives (and for REVOKED takes back) the right of this holder kind on the case's entities. */
  private static void hold(Holder holder, State state, String principal, String ns, String object) {
    if (state == State.MISSING) {
      return;
    }
    switch (holder) {
      case ROLE, NONE -> {}
      case NAMESPACE_GRANT -> {
        grant(principal, ns, null, "write");
        if (state == State.REVOKED) {
          revoke(principal, ns, null);
        }
      }
      case TABLE_GRANT -> {
        grant(principal, ns, object, "write");
        if (state == State.REVOKED) {
          revoke(principal, ns, object);
        }
      }
      case PUBLIC_NAMESPACE -> {
        visibility(ns, "AUTHENTICATED_PUBLIC");
        if (state == State.REVOKED) {
          visibility(ns, "PRIVATE");
        }
      }
    }
  }

  private static void setRole(String principal, String role) {
    expect(
        204,
        a.uri(),
        "PUT",
        "/management/v1/principals/" + principal + "/roles/" + WH,
        admin,
        "{\"role\":\"" + role + "\"}");
  }

  private static void grant(String principal, String ns, String table, String action) {
    expect(
        204,
        a.uri(),
        "POST",
        "/management/v1/warehouses/" + WH + "/grants",
        admin,
        target(principal, ns, table) + ",\"action\":\"" + action + "\"}");
  }

  private static void revoke(String principal, String ns, String table) {
    expect(
        204,
        a.uri(),
        "POST",
        "/management/v1/warehouses/" + WH + "/grants/revoke",
        admin,
        target(principal, ns, table) + "}");
  }

  private static String target(String principal, String ns, String table) {
    return "{\"principal\":\""
        + principal
        + "\",\"namespace\":[\""
        + ns
        + "\"]"
        + (table == null ? "" : ",\"table\":\"" + table + "\"");
  }

  private static void visibility(String ns, String visibility) {
    expect(
        204,
        a.uri(),
        "PUT",
        "/management/v1/warehouses/" + WH + "/namespaces/" + ns + "/visibility",
        admin,
        "{\"visibility\":\"" + visibility + "\"}");
  }

  private static Ctx fixture(String ns, Route route) {
    return fixture(ns, route.fixture());
  }

  /** The admin makes the case's namespace and what the route acts on. */
  private static Ctx fixture(String ns, Fixture fixture) {
    String base = "/v1/" + WH + "/namespaces/" + ns;
    expect(
        200,
        a.uri(),
        "POST",
        "/v1/" + WH + "/namespaces",
        admin,
        "{\"namespace\":[\"" + ns + "\"]}");
    if (fixture.table()) {
      expect(
          200,
          a.uri(),
          "POST",
          base + "/tables",
          admin,
          "{\"name\":\"t\",\"schema\":" + SCHEMA + "}");
    }
    if (fixture.otherTable()) {
      expect(
          200,
          a.uri(),
          "POST",
          base + "/tables",
          admin,
          "{\"name\":\"other\",\"schema\":" + SCHEMA + "}");
    }
    if (fixture.view()) {
      expect(200, a.uri(), "POST", base + "/views", admin, viewBody(ns, "v"));
    }
    String droppedTable = null;
    String droppedView = null;
    if (fixture.dropped()) {
      droppedTable =
          expect(
                  200,
                  a.uri(),
                  "POST",
                  base + "/tables",
                  admin,
                  "{\"name\":\"gone\",\"schema\":" + SCHEMA + "}")
              .json()
              .get("metadata-location")
              .asText();
      expect(204, a.uri(), "DELETE", base + "/tables/gone", admin, null);
      droppedView =
          expect(200, a.uri(), "POST", base + "/views", admin, viewBody(ns, "gonev"))
              .json()
              .get("metadata-location")
              .asText();
      expect(204, a.uri(), "DELETE", base + "/views/gonev", admin, null);
      if (fixture.expunged()) {
        for (String kind : List.of("table", "view")) {
          expect(
              204,
              a.uri(),
              "POST",
              "/management/v1/warehouses/" + WH + "/deleted/expunge",
              admin,
              "{\"kind\":\""
                  + kind
                  + "\",\"namespace\":[\""
                  + ns
                  + "\"],\"name\":\""
                  + (kind.equals("table") ? "gone" : "gonev")
                  + "\",\"retain-data\":true}");
        }
      }
    }
    return new Ctx(ns, droppedTable, droppedView);
  }

  private static String viewBody(String ns, String name) {
    return "{\"name\":\""
        + name
        + "\",\"schema\":"
        + SCHEMA
        + ",\"view-version\":{\"version-id\":1,\"timestamp-ms\":1700000000000,\"schema-id\":0,\"summary\":{},\"representations\":[{\"type\":\"sql\",\"sql\":\"select"
        + " 1\",\"dialect\":\"spark\"}],\"default-namespace\":[\""
        + ns
        + "\"]},\"properties\":{}}";
  }
}
