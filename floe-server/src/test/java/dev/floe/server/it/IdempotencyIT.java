package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.floe.client.Uuid7;
import dev.floe.events.event.CatalogEvent;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.projections.replay.EventLogReader;
import dev.floe.server.it.support.SharedFloe;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The REST spec's Idempotency-Key: a retry with the same key and request gets the first final
 * answer and has no second effect, concurrent duplicates have one effect and identical answers,
 * another request under the same key is 422, and a key that is not a UUIDv7 is 400.
 */
class IdempotencyIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SCHEMA =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";

  @RegisterExtension static final SharedFloe SHARED = SharedFloe.withAuthOff();

  private static FloeProcess floe;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  static void start() {
    floe = SHARED.process();
  }

  @Test
  void configAdvertisesTheKeyLifetime() throws Exception {
    JsonNode config = JSON.readTree(send("GET", "/v1/config", null, null).body());
    assertThat(config.path("idempotency-key-lifetime").asText()).isEqualTo("PT30M");
  }

  @Test
  void retryWithTheSameKeyReplaysTheFirstAnswerWithoutASecondEffect() throws Exception {
    String key = Uuid7.next().toString();
    String body = "{\"namespace\":[\"idem_ns\"],\"properties\":{\"a\":\"1\"}}";
    HttpResponse<String> first = send("POST", "/v1/default/namespaces", body, key);
    HttpResponse<String> retry = send("POST", "/v1/default/namespaces", body, key);

    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(retry.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(retry.body())).isEqualTo(JSON.readTree(first.body()));
    // Without the key the same request is a second attempt, and the namespace exists.
    assertThat(send("POST", "/v1/default/namespaces", body, null).statusCode()).isEqualTo(409);
    assertThat(events("floe.namespace.created", "idem_ns")).hasSize(1);
  }

  @Test
  void sameKeyWithAnotherRequestIs422AndAKeyThatIsNotUuid7Is400() throws Exception {
    String key = Uuid7.next().toString();
    assertThat(
            send("POST", "/v1/default/namespaces", "{\"namespace\":[\"idem_a\"]}", key)
                .statusCode())
        .isEqualTo(200);

    HttpResponse<String> reused =
        send("POST", "/v1/default/namespaces", "{\"namespace\":[\"idem_b\"]}", key);
    assertThat(reused.statusCode()).isEqualTo(422);
    assertThat(JSON.readTree(reused.body()).path("error").path("type").asText())
        .isEqualTo("UnprocessableEntityException");
    assertThat(send("HEAD", "/v1/default/namespaces/idem_b", null, null).statusCode())
        .isEqualTo(404);

    HttpResponse<String> invalid =
        send("POST", "/v1/default/namespaces", "{\"namespace\":[\"idem_c\"]}", "not-a-uuid");
    assertThat(invalid.statusCode()).isEqualTo(400);
    assertThat(
            send(
                    "POST",
                    "/v1/default/namespaces",
                    "{\"namespace\":[\"idem_c\"]}",
                    java.util.UUID.randomUUID().toString())
                .statusCode())
        .as("a UUIDv4 is not a UUIDv7")
        .isEqualTo(400);
  }

  @Test
  void concurrentDuplicatesOfAKeyedCreateHaveOneEffectAndIdenticalAnswers() throws Exception {
    send("POST", "/v1/default/namespaces", "{\"namespace\":[\"idem_conc\"]}", null);
    String key = Uuid7.next().toString();
    String body = "{\"name\":\"t\",\"schema\":" + SCHEMA + "}";
    List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      answers.add(sendAsync("POST", "/v1/default/namespaces/idem_conc/tables", body, key));
    }
    List<String> locations = new ArrayList<>();
    for (CompletableFuture<HttpResponse<String>> answer : answers) {
      HttpResponse<String> response = answer.get();
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      locations.add(JSON.readTree(response.body()).path("metadata-location").asText());
    }
    assertThat(locations).containsOnly(locations.get(0));
    assertThat(events("floe.table.created", "idem_conc.t")).hasSize(1);
  }

  @Test
  void keyedCommitsReplayTheirOutcomeWhetherAcceptedOrRefused() throws Exception {
    send("POST", "/v1/default/namespaces", "{\"namespace\":[\"idem_commit\"]}", null);
    send(
        "POST",
        "/v1/default/namespaces/idem_commit/tables",
        "{\"name\":\"t\",\"schema\":" + SCHEMA + "}",
        null);
    String path = "/v1/default/namespaces/idem_commit/tables/t";
    String update =
        "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"k\":\"v\"}}]}";
    String key = Uuid7.next().toString();
    HttpResponse<String> first = send("POST", path, update, key);
    HttpResponse<String> retry = send("POST", path, update, key);
    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(retry.body()).path("metadata-location"))
        .isEqualTo(JSON.readTree(first.body()).path("metadata-location"));
    assertThat(retry.body()).as("the same bytes as the first answer").isEqualTo(first.body());
    String etag = first.headers().firstValue("ETag").orElseThrow();
    assertThat(retry.headers().firstValue("ETag")).contains(etag);
    HttpResponse<String> load = send("GET", path, null, null);
    assertThat(load.headers().firstValue("ETag")).as("a load's ETag").contains(etag);
    assertThat(load.body()).isEqualTo(first.body());
    assertThat(events("floe.table.committed", "idem_commit.t")).hasSize(1);

    String failing =
        "{\"requirements\":[{\"type\":\"assert-table-uuid\",\"uuid\":\"00000000-0000-0000-0000-000000000000\"}],"
            + "\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"x\":\"y\"}}]}";
    String refusedKey = Uuid7.next().toString();
    HttpResponse<String> refused = send("POST", path, failing, refusedKey);
    HttpResponse<String> refusedAgain = send("POST", path, failing, refusedKey);
    assertThat(refused.statusCode()).isEqualTo(409);
    assertThat(refusedAgain.statusCode()).isEqualTo(409);
    assertThat(JSON.readTree(refusedAgain.body())).isEqualTo(JSON.readTree(refused.body()));
  }

  private static List<CatalogEvent> events(String type, String subject) throws Exception {
    List<CatalogEvent> events = new ArrayList<>();
    EventLogReader.read(
        FloeProcess.embeddedKafka(floe.dataDir()),
        "floe.events",
        EventLogReader.Until.END,
        e -> {
          if (e.type().equals(type) && e.subject().equals(subject)) {
            events.add(e.data());
          }
        },
        (d, t) -> {});
    return events;
  }

  private static HttpResponse<String> send(String method, String path, String body, String key)
      throws Exception {
    return sendAsync(method, path, body, key).get();
  }

  private static CompletableFuture<HttpResponse<String>> sendAsync(
      String method, String path, String body, String key) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(floe.uri() + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (key != null) {
      request.header("Idempotency-Key", key);
    }
    return HTTP.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
