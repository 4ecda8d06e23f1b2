package dev.floe.processor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.CommandReply;
import dev.floe.events.Rejection;
import dev.floe.events.RejectionCode;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.event.TableRenamedEvent;
import dev.floe.events.event.ViewDroppedEvent;
import dev.floe.events.event.ViewRenamedEvent;
import dev.floe.events.state.TableState;
import dev.floe.processor.step.DropViewStep;
import dev.floe.processor.step.EntityKind;
import dev.floe.processor.step.MoveInStep;
import dev.floe.processor.step.MoveOutStep;
import dev.floe.processor.step.ReleaseNameStep;
import dev.floe.processor.step.RetainDeletedStep;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The lifecycle tables and views share answers each in its own words: events and errors. */
class TabularLifecycleTest {
  private static final String WAREHOUSE = "wh";
  private static final TableIdentifier FROM = TableIdentifier.of(Namespace.of("db"), "a");
  private static final TableIdentifier TO = TableIdentifier.of(Namespace.of("db"), "b");
  private static final TableState STATE =
      new TableState("uuid-1", "file:/wh/db/a/metadata/00003.metadata.json", "{}", 3, 7);

  @Test
  void aViewDropIsAViewEventAndKeepsTheViewWhenRecoverable() {
    Decision decision =
        TabularLifecycle.drop(STATE, new DropViewStep(header(), WAREHOUSE, FROM, 5_000L));

    assertThat(decision.events())
        .containsExactly(
            new ViewDroppedEvent(
                WAREHOUSE, FROM, "uuid-1", STATE.metadataLocation(), "c-1", "alice", 8));
    assertThat(decision.steps())
        .singleElement()
        .isInstanceOfSatisfying(
            RetainDeletedStep.class, kept -> assertThat(kept.kind()).isEqualTo(EntityKind.VIEW));
    assertThat(decision.reply()).as("answered once the directory keeps it").isNull();
  }

  @Test
  void aMissingViewIsNoSuchViewInEveryStep() {
    Rejection missing = new Rejection(RejectionCode.VIEW_NOT_FOUND, "View does not exist: db.a");

    assertThat(TabularLifecycle.drop(null, new DropViewStep(header(), WAREHOUSE, FROM)).reply())
        .isEqualTo(CommandReply.rejected("c-1", missing));
    assertThat(
            TabularLifecycle.moveOut(
                    null, new MoveOutStep(EntityKind.VIEW, header(), WAREHOUSE, FROM, TO))
                .steps())
        .singleElement()
        .isInstanceOfSatisfying(
            ReleaseNameStep.class, release -> assertThat(release.rejection()).isEqualTo(missing));
  }

  @ParameterizedTest
  @EnumSource(EntityKind.class)
  void aMoveInInstallsThePointerUnderTheNewNameWithAnEventOfItsKind(EntityKind kind) {
    Decision decision =
        TabularLifecycle.moveIn(null, new MoveInStep(kind, header(), WAREHOUSE, FROM, TO, STATE));

    assertThat(decision.tableState()).isEqualTo(STATE.withSequence(8));
    assertThat(decision.events())
        .singleElement()
        .isEqualTo(
            kind == EntityKind.TABLE
                ? new TableRenamedEvent(
                    WAREHOUSE, FROM, TO, "uuid-1", STATE.metadataLocation(), "c-1", "alice", 8)
                : new ViewRenamedEvent(
                    WAREHOUSE, FROM, TO, "uuid-1", STATE.metadataLocation(), "c-1", "alice", 8));
    assertThat(
            TabularLifecycle.moveIn(
                    STATE, new MoveInStep(kind, header(), WAREHOUSE, FROM, TO, STATE))
                .reply()
                .rejection()
                .code())
        .as("never clobbers an entity already under the new name")
        .isEqualTo(RejectionCode.TABLE_ALREADY_EXISTS);
  }

  private static CommandHeader header() {
    return new CommandHeader("c-1", 1_700_000_000_000L, "alice", "api-1", null);
  }
}
