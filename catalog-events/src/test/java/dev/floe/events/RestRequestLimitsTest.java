package dev.floe.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * The REST mapper refuses request bodies past {@link RestRequestLimits}; the log's mapper does not.
 */
class RestRequestLimitsTest {
  private static final String SET_PROPERTY =
      "{\"action\":\"set-properties\",\"updates\":{\"k\":\"v\"}}";
  private static final String SCHEMA =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\","
          + "\"required\":true,\"type\":\"long\"}]}";
  private static final String ASSERT_UUID =
      "{\"type\":\"assert-table-uuid\",\"uuid\":\"00000000-0000-0000-0000-000000000000\"}";

  @Test
  void readsCommitWithAsManyChangesAsAllowed() throws Exception {
    UpdateTableRequest request =
        read(
            commit(RestRequestLimits.MAX_COMMIT_CHANGES, RestRequestLimits.MAX_COMMIT_CHANGES),
            UpdateTableRequest.class);
    assertThat(request.updates()).hasSize(RestRequestLimits.MAX_COMMIT_CHANGES);
    assertThat(request.requirements()).hasSize(RestRequestLimits.MAX_COMMIT_CHANGES);
  }

  @Test
  void refusesCommitWithTooManyUpdates() {
    assertThatThrownBy(
            () ->
                read(commit(0, RestRequestLimits.MAX_COMMIT_CHANGES + 1), UpdateTableRequest.class))
        .isInstanceOf(JsonProcessingException.class)
        .hasMessageContaining("Too many updates in one commit: 1001 (at most 1000)");
  }

  @Test
  void refusesCommitWithTooManyRequirements() {
    assertThatThrownBy(
            () ->
                read(commit(RestRequestLimits.MAX_COMMIT_CHANGES + 1, 0), UpdateTableRequest.class))
        .isInstanceOf(JsonProcessingException.class)
        .hasMessageContaining("Too many requirements in one commit");
  }

  @Test
  void refusesNestingDeeperThanTheBound() {
    int depth = RestRequestLimits.MAX_NESTING_DEPTH + 1;
    String json = "{\"namespace\":[\"a\"],\"x\":" + "[".repeat(depth) + "]".repeat(depth) + "}";
    assertThatThrownBy(() -> read(json, CreateNamespaceRequest.class))
        .isInstanceOf(JsonProcessingException.class)
        .hasMessageContaining("nesting depth");
  }

  @Test
  void refusesStringLongerThanTheBound() {
    String json =
        "{\"namespace\":[\"" + "a".repeat(RestRequestLimits.MAX_STRING_CHARS + 1) + "\"]}";
    assertThatThrownBy(() -> read(json, CreateNamespaceRequest.class))
        .isInstanceOf(JsonProcessingException.class)
        .hasMessageContaining("String value length");
  }

  @Test
  void refusesNumberLongerThanTheBound() {
    String json =
        "{\"namespace\":[\"a\"],\"x\":" + "9".repeat(RestRequestLimits.MAX_NUMBER_CHARS + 1) + "}";
    assertThatThrownBy(() -> read(json, CreateNamespaceRequest.class))
        .isInstanceOf(JsonProcessingException.class)
        .hasMessageContaining("Number value length");
  }

  @Test
  void refusesDocumentLargerThanTheBound() {
    String padding = " ".repeat((int) RestRequestLimits.MAX_DOCUMENT_BYTES);
    String json = "{\"namespace\":[\"a\"]" + padding + "}";
    assertThatThrownBy(() -> read(json, CreateNamespaceRequest.class))
        .isInstanceOf(JsonProcessingException.class)
        .hasMessageContaining("Document length");
  }

  @Test
  void readsCreatesWithAsManyPropertiesAsAllowed() throws Exception {
    String properties = properties(RestRequestLimits.MAX_PROPERTIES_PER_REQUEST, 10);
    assertThat(
            read(
                    "{\"namespace\":[\"a\"],\"properties\":" + properties + "}",
                    CreateNamespaceRequest.class)
                .properties())
        .hasSize(RestRequestLimits.MAX_PROPERTIES_PER_REQUEST);
    assertThat(read(createTable(properties), CreateTableRequest.class).properties())
        .hasSize(RestRequestLimits.MAX_PROPERTIES_PER_REQUEST);
    assertThat(read(createView(properties), CreateViewRequest.class).properties())
        .hasSize(RestRequestLimits.MAX_PROPERTIES_PER_REQUEST);
  }

  @Test
  void refusesCreatesWithTooManyProperties() {
    String properties = properties(RestRequestLimits.MAX_PROPERTIES_PER_REQUEST + 1, 10);
    for (ThrowingCallable create :
        List.<ThrowingCallable>of(
            () ->
                read(
                    "{\"namespace\":[\"a\"],\"properties\":" + properties + "}",
                    CreateNamespaceRequest.class),
            () -> read(createTable(properties), CreateTableRequest.class),
            () -> read(createView(properties), CreateViewRequest.class))) {
      assertThatThrownBy(create)
          .hasMessageContaining(
              "Too many properties set or removed in one request: 1001 (at most 1000)");
    }
  }

  @Test
  void refusesPropertiesLargerThanTheBoundInTotal() {
    // 200 properties of 6 KB each: 1.2 MB, each string well under the string bound.
    String properties = properties(200, 6 * 1024);
    assertThatThrownBy(
            () ->
                read(
                    "{\"namespace\":[\"a\"],\"properties\":" + properties + "}",
                    CreateNamespaceRequest.class))
        .hasMessageContaining("too large")
        .hasMessageContaining("at most 1048576");
  }

  @Test
  void countsANamespaceUpdatesUpdatesAndRemovalsTogether() throws Exception {
    String removals = keys(500);
    assertThat(
            read(
                    "{\"updates\":" + properties(500, 1) + ",\"removals\":" + removals + "}",
                    UpdateNamespacePropertiesRequest.class)
                .removals())
        .hasSize(500);
    assertThatThrownBy(
            () ->
                read(
                    "{\"updates\":" + properties(501, 1) + ",\"removals\":" + removals + "}",
                    UpdateNamespacePropertiesRequest.class))
        .hasMessageContaining("Too many properties");
  }

  @Test
  void countsEveryPropertyACommitSetsOrRemoves() throws Exception {
    String update =
        "{\"action\":\"set-properties\",\"updates\":"
            + properties(600, 1)
            + "},"
            + "{\"action\":\"remove-properties\",\"removals\":"
            + keys(401)
            + "}";
    String commit = "{\"requirements\":[],\"updates\":[" + update + "]}";
    assertThatThrownBy(() -> read(commit, UpdateTableRequest.class))
        .hasMessageContaining("Too many properties set or removed in one request: 1001");
    assertThatThrownBy(
            () ->
                read(
                    "{\"table-changes\":[{\"identifier\":{\"namespace\":[\"a\"],\"name\":\"t\"},"
                        + commit.substring(1)
                        + "]}",
                    CommitTransactionRequest.class))
        .hasMessageContaining("Too many properties");
  }

  @Test
  void logMapperStaysUnbounded() throws Exception {
    int depth = RestRequestLimits.MAX_NESTING_DEPTH * 2;
    String json = "[".repeat(depth) + "]".repeat(depth);
    assertThat(FloeJson.mapper().readTree(json).isArray()).isTrue();
  }

  private static <T> T read(String json, Class<T> type) throws Exception {
    return FloeJson.rest().readValue(json.getBytes(StandardCharsets.UTF_8), type);
  }

  /** {@code {"k0":"vvv…", …}}: this many properties, each value this long. */
  private static String properties(int count, int valueChars) {
    StringBuilder json = new StringBuilder("{");
    for (int i = 0; i < count; i++) {
      json.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":\"");
      json.append("v".repeat(valueChars)).append('"');
    }
    return json.append('}').toString();
  }

  private static String keys(int count) {
    StringBuilder json = new StringBuilder("[");
    for (int i = 0; i < count; i++) {
      json.append(i == 0 ? "" : ",").append("\"r").append(i).append('"');
    }
    return json.append(']').toString();
  }

  private static String createTable(String properties) {
    return "{\"name\":\"t\",\"schema\":" + SCHEMA + ",\"properties\":" + properties + "}";
  }

  private static String createView(String properties) {
    return "{\"name\":\"v\",\"schema\":"
        + SCHEMA
        + ",\"view-version\":{\"version-id\":1,\"timestamp-ms\":1,\"schema-id\":0,"
        + "\"summary\":{},\"default-namespace\":[],\"representations\":"
        + "[{\"type\":\"sql\",\"sql\":\"select 1\",\"dialect\":\"spark\"}]},"
        + "\"properties\":"
        + properties
        + "}";
  }

  private static String commit(int requirements, int updates) {
    return "{\"requirements\":["
        + String.join(",", Collections.nCopies(requirements, ASSERT_UUID))
        + "],\"updates\":["
        + String.join(",", Collections.nCopies(updates, SET_PROPERTY))
        + "]}";
  }
}
