package dev.floe.processor.step;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.FloeJson;
import dev.floe.events.Rejection;
import dev.floe.events.RejectionCode;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.state.TableState;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A step of either kind keeps the wire form of the table and view records it replaced, so steps on
 * {@code floe.steps} and those waiting in a prepared table read the same whichever version wrote
 * them.
 */
class StepTypesTest {
  private static final CommandHeader HEADER = new CommandHeader("c1", 1L, "alice", "api-1", null);
  private static final TableIdentifier SOURCE = TableIdentifier.of("db", "a");
  private static final TableIdentifier DESTINATION = TableIdentifier.of("db", "b");
  private static final String HEADER_JSON =
      "{\"commandId\":\"c1\",\"timestampMillis\":1,\"principal\":\"alice\",\"replyTo\":\"api-1\"}";
  private static final String NAMES_JSON =
      "\"source\":{\"namespace\":[\"db\"],\"name\":\"a\"},"
          + "\"destination\":{\"namespace\":[\"db\"],\"name\":\"b\"}";

  @ParameterizedTest
  @EnumSource(EntityKind.class)
  void aMoveOutIsWrittenUnderItsKindsNameAndNothingMore(EntityKind kind) {
    String name = kind == EntityKind.TABLE ? "move-table-out" : "move-view-out";
    String json =
        "{\"type\":\""
            + name
            + "\",\"header\":"
            + HEADER_JSON
            + ",\"warehouse\":\"w\","
            + NAMES_JSON
            + "}";
    MoveOutStep step = new MoveOutStep(kind, HEADER, "w", SOURCE, DESTINATION);

    assertThat(new String(FloeJson.toBytes(step), UTF_8)).isEqualTo(json);
    assertThat(FloeJson.fromBytes(json.getBytes(UTF_8), Step.class)).isEqualTo(step);
  }

  @ParameterizedTest
  @EnumSource(EntityKind.class)
  void aReleaseWrittenByTheRecordOfItsKindReadsAsThatKind(EntityKind kind) {
    String name = kind == EntityKind.TABLE ? "release-table-name" : "release-view-name";
    String json =
        "{\"type\":\""
            + name
            + "\",\"header\":"
            + HEADER_JSON
            + ",\"warehouse\":\"w\","
            + "\"identifier\":{\"namespace\":[\"db\"],\"name\":\"a\"},"
            + "\"rejection\":{\"code\":\"STORAGE_FAILED\",\"message\":\"refused\"}}";

    Step step = FloeJson.fromBytes(json.getBytes(UTF_8), Step.class);

    assertThat(step)
        .isEqualTo(
            new ReleaseNameStep(
                kind, HEADER, "w", SOURCE, new Rejection(RejectionCode.STORAGE_FAILED, "refused")));
    assertThat(new String(FloeJson.toBytes(step), UTF_8)).isEqualTo(json);
  }

  @ParameterizedTest
  @EnumSource(EntityKind.class)
  void aMoveInKeepsItsKindAndStateThroughTheTopic(EntityKind kind) {
    TableState state = new TableState("uuid-1", "s3://b/a/metadata/00001.json", "{}", 1, 3);
    MoveInStep step = new MoveInStep(kind, HEADER, "w", SOURCE, DESTINATION, state);

    String json = new String(FloeJson.toBytes(step), UTF_8);

    assertThat(json)
        .startsWith(
            "{\"type\":\"" + (kind == EntityKind.TABLE ? "move-table-in" : "move-view-in") + "\"")
        .doesNotContain("kind");
    assertThat(FloeJson.fromBytes(json.getBytes(UTF_8), Step.class)).isEqualTo(step);
  }

  @Test
  void aStepOfOneKindKeepsItsOwnName() {
    String json = new String(FloeJson.toBytes(new DropViewStep(HEADER, "w", SOURCE)), UTF_8);

    assertThat(json).startsWith("{\"type\":\"drop-view\",");
    assertThat(FloeJson.fromBytes(json.getBytes(UTF_8), Step.class))
        .isEqualTo(new DropViewStep(HEADER, "w", SOURCE));
  }
}
