package dev.floe.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.nio.charset.StandardCharsets;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.junit.jupiter.api.Test;

/**
 * The REST mapper refuses request bodies past {@link RestRequestLimits}; the log's mapper does not.
 */
class RestRequestLimitsTest {
  private static final String SET_PROPERTY =
      "{\"action\":\"set-properties\",\"updates\":{\"k\":\"v\"}}";
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
  void logMapperStaysUnbounded() throws Exception {
    int depth = RestRequestLimits.MAX_NESTING_DEPTH * 2;
    String json = "[".repeat(depth) + "]".repeat(depth);
    assertThat(FloeJson.mapper().readTree(json).isArray()).isTrue();
  }

  private static <T> T read(String json, Class<T> type) throws Exception {
    return FloeJson.rest().readValue(json.getBytes(StandardCharsets.UTF_8), type);
  }

  private static String commit(int requirements, int updates) {
    return "{\"requirements\":["
        + String.join(",", java.util.Collections.nCopies(requirements, ASSERT_UUID))
        + "],\"updates\":["
        + String.join(",", java.util.Collections.nCopies(updates, SET_PROPERTY))
        + "]}";
  }
}
