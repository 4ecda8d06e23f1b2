package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.client.Uuid7;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.SharedFloe;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The management API's input, against a running server with access control on: a token creation
 * retried with its Idempotency-Key answers the token it stored, token lifetimes are bounded, and
 * principal names that could be mistaken for another caller are refused; internal routes answer
 * only Floe's instances. Every refusal is a 4xx with the ErrorModel and changes nothing.
 */
class ManagementInputIT {
  private static final String MGMT = "/management/v1";

  @RegisterExtension static final SharedFloe SHARED = SharedFloe.withTokens();

  private static FloeProcess floe;
  private static String admin;

  @BeforeAll
  static void start() {
    floe = SHARED.process();
    admin = floe.adminToken();
    send("POST", MGMT + "/principals", "{\"name\":\"etl\"}", 201);
  }

  @Test
  void aTokenCreationRetriedWithItsKeyAnswersTheSameStoredToken() {
    List<String> before = tokenIds("etl");
    Map<String, String> key = Map.of("Idempotency-Key", Uuid7.next().toString());
    String create = "{\"expires-in-seconds\":3600}";

    AuthHttp.Response first = send("POST", MGMT + "/principals/etl/tokens", create, key);
    AuthHttp.Response retry = send("POST", MGMT + "/principals/etl/tokens", create, key);

    assertThat(first.status()).isEqualTo(201);
    assertThat(retry.status()).isEqualTo(201);
    assertThat(retry.body()).isEqualTo(first.body());
    String token = first.json().path("token").asText();
    AuthHttp.Response whoami = AuthHttp.send(floe.uri(), "GET", MGMT + "/whoami", token, null);
    assertThat(whoami.json().path("principal").asText()).as("the token works").isEqualTo("etl");
    List<String> after = tokenIds("etl");
    after.removeAll(before);
    assertThat(after).containsExactly(first.json().path("id").asText());
  }

  @Test
  void tokenLifetimesThatAreNotWholeSecondsUpToTenYearsAreRefused() {
    List<String> before = tokenIds("etl");
    for (String seconds :
        List.of("9223372036854775807", "315360001", "0", "-5", "1.5", "\"3600\"")) {
      AuthHttp.Response refused =
          send("POST", MGMT + "/principals/etl/tokens", "{\"expires-in-seconds\":" + seconds + "}");
      assertError(refused, 400, "BadRequestException");
    }
    assertThat(tokenIds("etl")).as("no token issued").isEqualTo(before);

    long now = System.currentTimeMillis();
    JsonNode tenYears =
        send("POST", MGMT + "/principals/etl/tokens", "{\"expires-in-seconds\":315360000}", 201)
            .json();
    assertThat(tenYears.path("expires-at-ms").asLong())
        .isBetween(now + 315_360_000_000L, now + 315_360_000_000L + 60_000);
  }

  @Test
  void reservedAmbiguousAndCaseOnlyDifferentPrincipalNamesAreRefused() {
    List<String> before = principals();
    for (String name :
        List.of(
            "anonymous",
            "unauthenticated",
            "floe-purger",
            " etl2",
            "etl2\\t",
            "etl\\r\\nadmin",
            "",
            "a".repeat(256),
            // Look-alikes of admin: full-width, a full-width D, a zero-width space.
            "\uff41\uff44\uff4d\uff49\uff4e",
            "a\uff24min",
            "admin\u200b")) {
      AuthHttp.Response refused = send("POST", MGMT + "/principals", "{\"name\":\"" + name + "\"}");
      assertError(refused, 400, "BadRequestException");
    }
    assertError(
        send("POST", MGMT + "/principals", "{\"name\":\"ETL\"}"), 409, "AlreadyExistsException");
    assertThat(principals()).as("nothing created").isEqualTo(before);
    send("POST", MGMT + "/principals", "{\"name\":\"" + "a".repeat(255) + "\"}", 201);
  }

  @Test
  void internalRoutesRefuseCallersWithoutTheInstancesSecret() {
    String sync = "/internal/v1/access/sync";
    String claimed = "/internal/v1/default/namespaces/db/tables/t/claimed-location";
    assertError(AuthHttp.send(floe.uri(), "POST", sync, null, null), 401, "NotAuthorizedException");
    assertError(
        AuthHttp.send(floe.uri(), "POST", sync, admin, null), 401, "NotAuthorizedException");
    assertError(
        AuthHttp.send(
            floe.uri(), "POST", sync, null, null, Map.of("X-Floe-Instance-Secret", "guess")),
        403,
        "ForbiddenException");
    assertError(
        AuthHttp.send(floe.uri(), "GET", claimed, admin, null), 401, "NotAuthorizedException");
  }

  @Test
  void aRefusalOfASuperusersRouteSaysWhatWasRefusedAndWhichRightItNeeds() {
    String reader = AuthHttp.principalWithToken(floe.uri(), admin, "metrics_reader");
    AuthHttp.Response metrics = AuthHttp.send(floe.uri(), "GET", "/metrics", reader, null);
    AuthHttp.Response principals =
        AuthHttp.send(floe.uri(), "GET", MGMT + "/principals", reader, null);

    assertError(metrics, 403, "ForbiddenException");
    assertThat(metrics.json().path("error").path("message").asText())
        .isEqualTo(
            "Principal metrics_reader may not read /metrics (a superuser's right: the admin role on"
                + " warehouse *)");
    assertError(principals, 403, "ForbiddenException");
    assertThat(principals.json().path("error").path("message").asText())
        .startsWith("Principal metrics_reader may not manage principals and tokens");
  }

  private static List<String> principals() {
    List<String> names = new ArrayList<>();
    send("GET", MGMT + "/principals", null, 200)
        .json()
        .path("principals")
        .forEach(p -> names.add(p.path("name").asText()));
    return names;
  }

  private static List<String> tokenIds(String principal) {
    List<String> ids = new ArrayList<>();
    send("GET", MGMT + "/principals/" + principal + "/tokens", null, 200)
        .json()
        .path("tokens")
        .forEach(t -> ids.add(t.path("id").asText()));
    return ids;
  }

  static AuthHttp.Response send(String method, String path, String body, int status) {
    return AuthHttp.expect(status, floe.uri(), method, path, admin, body);
  }

  static AuthHttp.Response send(String method, String path, String body) {
    return AuthHttp.send(floe.uri(), method, path, admin, body);
  }

  static AuthHttp.Response send(
      String method, String path, String body, Map<String, String> headers) {
    return AuthHttp.send(floe.uri(), method, path, admin, body, headers);
  }

  static void assertError(AuthHttp.Response response, int status, String type) {
    assertThat(response.status()).as(response.body()).isEqualTo(status);
    assertThat(response.json().path("error").path("code").asInt()).isEqualTo(status);
    assertThat(response.json().path("error").path("type").asText()).isEqualTo(type);
  }
}
