package dev.floe.processor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.events.RejectionCode;
import dev.floe.events.access.AccessChange;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.command.CreateNamespaceCommand;
import dev.floe.events.command.DropNamespaceCommand;
import dev.floe.events.command.DropTableCommand;
import dev.floe.events.command.ExpungeDeletedCommand;
import dev.floe.events.command.RestoreDeletedCommand;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.ExpungeEvent;
import dev.floe.events.event.NamespaceDroppedEvent;
import dev.floe.events.event.NamespaceExpungedEvent;
import dev.floe.events.event.NamespaceRestoredEvent;
import dev.floe.events.event.TableDroppedEvent;
import dev.floe.events.event.TableExpungedEvent;
import dev.floe.events.event.TableRestoredEvent;
import dev.floe.events.state.DeletedEntity;
import dev.floe.events.state.NamespaceState;
import dev.floe.events.state.TableEntry;
import dev.floe.events.state.TableState;
import dev.floe.infra.storage.authority.Claims;
import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.infra.storage.config.StorageConfig;
import dev.floe.processor.step.DropTableStep;
import dev.floe.processor.step.EntityKind;
import dev.floe.processor.step.MoveGrantsStep;
import dev.floe.processor.step.RestoreStep;
import dev.floe.processor.step.RetainDeletedStep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

class RecoveryDeciderTest {
  private static final String WAREHOUSE = "default";
  private static final LocationAuthority LOCATIONS =
      new LocationAuthority(StorageConfig.local(Map.of(WAREHOUSE, "file:///lake/default")));
  private static final Namespace DB = Namespace.of("db");
  private static final TableIdentifier ORDERS = TableIdentifier.of(DB, "orders");
  private static final String LOCATION = "file:///wh/db/orders-1";

  private final Kept directory = new Kept();

  @Test
  void aDropInAWarehouseWithARecoveryPeriodKeepsTheTableUntilItEnds() {
    directory.period = Duration.ofDays(7);
    directory.tables.add(ORDERS);

    Decision decision =
        TableNameDecider.drop(
            directory, new DropTableCommand(header("drop", 1_000), WAREHOUSE, ORDERS, true));

    DropTableStep step = (DropTableStep) decision.steps().get(0);
    assertThat(step.recoverable()).isTrue();
    assertThat(step.expiresAtMs()).isEqualTo(1_000 + Duration.ofDays(7).toMillis());
    assertThat(step.purgeRequested()).isTrue();
  }

  @Test
  void aDropWithoutARecoveryPeriodIsFinal() {
    directory.period = Duration.ZERO;
    directory.tables.add(ORDERS);

    Decision decision =
        TableNameDecider.drop(
            directory, new DropTableCommand(header("drop", 1_000), WAREHOUSE, ORDERS, true));

    assertThat(((DropTableStep) decision.steps().get(0)).recoverable()).isFalse();
  }

  @Test
  void theDroppedTablesKeyHandsItsPointerBackToTheDirectory() {
    TableState state = new TableState("uuid-1", LOCATION + "/metadata/3.json", "{}", 3, 7);

    Decision decision =
        TabularLifecycle.drop(
            state, new DropTableStep(header("drop", 1_000), WAREHOUSE, ORDERS, false, 99_000));

    TableDroppedEvent event = (TableDroppedEvent) decision.events().get(0);
    assertThat(event.sequence()).isEqualTo(8);
    assertThat(decision.tableRemoved()).isTrue();
    assertThat(decision.reply()).as("the directory acknowledges once it keeps the state").isNull();
    RetainDeletedStep retain = (RetainDeletedStep) decision.steps().get(0);
    assertThat(retain.kind()).isEqualTo(EntityKind.TABLE);
    assertThat(retain.state().tableUuid()).isEqualTo("uuid-1");
    assertThat(retain.state().sequence()).isEqualTo(8);
    assertThat(retain.state().version()).isEqualTo(3);
    assertThat(retain.state().holdsDocument()).as("a pointer only").isFalse();
  }

  @Test
  void aFinalDropSendsNothingBack() {
    TableState state = new TableState("uuid-1", LOCATION + "/metadata/3.json", "{}", 3, 7);

    Decision decision =
        TabularLifecycle.drop(
            state, new DropTableStep(header("drop", 1_000), WAREHOUSE, ORDERS, false));

    assertThat(decision.steps()).isEmpty();
    assertThat(decision.reply().accepted()).isTrue();
  }

  @Test
  void aRestorePicksTheTableDroppedLastUnlessAUuidSaysOtherwise() {
    directory.deleted.add(kept("drop-a", "uuid-a", 1_000, 5));
    directory.deleted.add(kept("drop-b", "uuid-b", 2_000, 9));

    RestoreStep last = restoreStep(restore(null, null));
    RestoreStep first = restoreStep(restore("uuid-a", null));

    assertThat(last.state().tableUuid()).isEqualTo("uuid-b");
    assertThat(last.dropCommandId()).isEqualTo("drop-b");
    assertThat(last.destination()).isEqualTo(ORDERS);
    assertThat(first.state().tableUuid()).isEqualTo("uuid-a");
  }

  @Test
  void aRestoreNeverGoesOverALiveNameButMayTakeAnother() {
    directory.deleted.add(kept("drop-a", "uuid-a", 1_000, 5));
    directory.tables.add(ORDERS);

    Decision over = restore(null, null);
    RestoreStep as = restoreStep(restore(null, "orders_old"));

    assertThat(over.reply().rejection().code()).isEqualTo(RejectionCode.TABLE_ALREADY_EXISTS);
    assertThat(over.steps()).isEmpty();
    assertThat(as.source()).isEqualTo(ORDERS);
    assertThat(as.destination()).isEqualTo(TableIdentifier.of(DB, "orders_old"));
  }

  @Test
  void aRestoreOfNothingKeptIsNotFound() {
    directory.deleted.add(kept("drop-a", null, 1_000, 5));

    assertThat(restore(null, null).reply().rejection().code())
        .as("its state has not reached the directory yet")
        .isEqualTo(RejectionCode.TABLE_NOT_FOUND);
    assertThat(restore("uuid-x", null).reply().rejection().code())
        .isEqualTo(RejectionCode.TABLE_NOT_FOUND);
  }

  @Test
  void theRestoredTableContinuesItsHistory() {
    TableState kept =
        new TableState("uuid-a", LOCATION + "/metadata/3.json", "{}", 3, 8).pointerAt(8);
    RestoreStep step =
        new RestoreStep(
            EntityKind.TABLE,
            header("restore", 5_000),
            WAREHOUSE,
            ORDERS,
            TableIdentifier.of(DB, "orders_old"),
            kept,
            "drop-a");

    Decision decision = TabularLifecycle.restore(null, step);
    Decision clobber =
        TabularLifecycle.restore(new TableState("other", LOCATION, "{}", 1, 1), step);

    TableRestoredEvent event = (TableRestoredEvent) decision.events().get(0);
    assertThat(event.sequence()).isEqualTo(9);
    assertThat(event.from()).isEqualTo(ORDERS);
    assertThat(event.identifier()).isEqualTo(TableIdentifier.of(DB, "orders_old"));
    assertThat(decision.tableState().metadataLocation()).isEqualTo(kept.metadataLocation());
    assertThat(decision.tableState().version()).isEqualTo(3);
    assertThat(decision.writeMetadata()).isFalse();
    assertThat(decision.reply()).as("answered once the grants have followed").isNull();
    MoveGrantsStep grants = (MoveGrantsStep) decision.steps().get(0);
    assertThat(grants.change())
        .isEqualTo(
            new AccessChange.CopyTableGrants(
                WAREHOUSE, List.of("db"), "orders", List.of("db"), "orders_old"));
    assertThat(grants.reply().restoredUuid()).isEqualTo("uuid-a");
    assertThat(clobber.isRejected()).isTrue();
  }

  @Test
  void aTableRestoredUnderItsOwnNameIsAnsweredAtOnceAndKeepsItsNamesGrants() {
    TableState kept =
        new TableState("uuid-a", LOCATION + "/metadata/3.json", "{}", 3, 8).pointerAt(8);
    RestoreStep step =
        new RestoreStep(
            EntityKind.TABLE, header("restore", 5_000), WAREHOUSE, ORDERS, ORDERS, kept, "drop-a");

    Decision decision = TabularLifecycle.restore(null, step);

    assertThat(decision.steps()).isEmpty();
    assertThat(decision.reply().restoredUuid()).isEqualTo("uuid-a");
  }

  @Test
  void anExpungePurgesOnlyWhatWasDroppedWithPurgeAndNotRetained() {
    directory.deleted.add(kept("drop-a", "uuid-a", 1_000, 5));

    TableExpungedEvent purged = expunged(expunge(false));
    TableExpungedEvent retained = expunged(expunge(true));

    assertThat(purged.purge()).isTrue();
    assertThat(purged.sequence()).isEqualTo(6);
    assertThat(purged.dropCommandId()).isEqualTo("drop-a");
    assertThat(retained.purge()).isFalse();
  }

  @Test
  void expiryExpungesOnlyWhatHasExpiredUnderAnIdThatFollowsFromTheDrop() {
    directory.deleted.add(kept("drop-a", "uuid-a", 1_000, 5));
    DeletedEntity later =
        new DeletedEntity(
            WAREHOUSE,
            DeletedEntity.TABLE,
            TableIdentifier.of(DB, "later"),
            new TableEntry("c", LOCATION + "-later"),
            null,
            1_000,
            50_000,
            "ana",
            false,
            "drop-l");
    directory.deleted.add(later);

    List<CatalogEvent> first = RecoveryDecider.expire(directory, LOCATIONS, WAREHOUSE, 10_000);
    List<CatalogEvent> again = RecoveryDecider.expire(directory, LOCATIONS, WAREHOUSE, 10_000);

    assertThat(first).hasSize(1);
    assertThat(((ExpungeEvent) first.get(0)).identifier()).isEqualTo(ORDERS);
    assertThat(first.get(0).principal()).isEqualTo(RecoveryDecider.EXPIRY_PRINCIPAL);
    assertThat(((TableExpungedEvent) first.get(0)).purge()).isTrue();
    assertThat(again.get(0).commandId()).isEqualTo(first.get(0).commandId());
  }

  @Test
  void aNamespaceDropInAWarehouseWithARecoveryPeriodKeepsItUntilItEnds() {
    directory.period = Duration.ofDays(7);
    DropNamespaceCommand drop = new DropNamespaceCommand(header("drop", 1_000), WAREHOUSE, DB);

    NamespaceDroppedEvent kept =
        (NamespaceDroppedEvent) DirectoryDecider.dropNamespace(directory, drop).events().get(0);
    directory.period = Duration.ZERO;
    NamespaceDroppedEvent fin =
        (NamespaceDroppedEvent) DirectoryDecider.dropNamespace(directory, drop).events().get(0);

    assertThat(kept.kept()).isTrue();
    assertThat(kept.expiresAtMs()).isEqualTo(1_000 + Duration.ofDays(7).toMillis());
    assertThat(kept.sequence()).isEqualTo(2);
    assertThat(fin.kept()).isFalse();
  }

  @Test
  void creatingADroppedNamespaceAgainRestoresItInPlaceWithTheCreatesProperties() {
    directory.live.remove(DB);
    directory.deleted.add(keptNamespace(DB, "drop-ns", 50_000, Map.of("owner", "ana", "a", "1")));

    Decision decision =
        DirectoryDecider.createNamespace(
            directory,
            new CreateNamespaceCommand(
                header("create", 5_000), WAREHOUSE, DB, Map.of("a", "2", "b", "3")));

    assertThat(decision.isRejected()).as("%s", decision.reply()).isFalse();
    NamespaceRestoredEvent event = (NamespaceRestoredEvent) decision.events().get(0);
    assertThat(event.properties()).isEqualTo(Map.of("a", "2", "b", "3"));
    assertThat(event.dropCommandId()).isEqualTo("drop-ns");
    assertThat(event.sequence()).as("after the drop, which was 4").isEqualTo(5);
    assertThat(decision.reply().properties()).isEqualTo(event.properties());
  }

  @Test
  void aDroppedNamespaceWithSomethingKeptInsideIsRecreatedAndKeepsWhatItHolds() {
    Namespace child = Namespace.of("db", "child");
    directory.live.remove(DB);
    directory.deleted.add(keptNamespace(DB, "drop-ns", 50_000, Map.of("old", "1")));
    directory.deleted.add(keptNamespace(child, "drop-child", 40_000, Map.of()));
    directory.deleted.add(kept("drop-a", "uuid-a", 1_000, 5));

    Decision create =
        DirectoryDecider.createNamespace(
            directory,
            new CreateNamespaceCommand(header("create", 5_000), WAREHOUSE, DB, Map.of("new", "2")));

    assertThat(create.isRejected()).as("%s", create.reply()).isFalse();
    assertThat(create.events())
        .singleElement()
        .isInstanceOfSatisfying(
            NamespaceRestoredEvent.class,
            event -> {
              assertThat(event.namespace()).isEqualTo(DB);
              assertThat(event.dropCommandId()).isEqualTo("drop-ns");
              assertThat(event.properties()).isEqualTo(Map.of("new", "2"));
            });
    assertThat(create.reply().properties()).isEqualTo(Map.of("new", "2"));
  }

  @Test
  void aNamespaceIsRestoredTopDownAndOnlyWhenKept() {
    Namespace child = Namespace.of("db", "child");
    directory.live.remove(DB);
    directory.deleted.add(keptNamespace(DB, "drop-db", 50_000, Map.of("k", "v")));
    directory.deleted.add(keptNamespace(child, "drop-child", 40_000, Map.of()));

    Decision childFirst = restoreNamespace(child);
    Decision none = restoreNamespace(Namespace.of("never"));
    Decision parent = restoreNamespace(DB);

    assertThat(childFirst.reply().rejection().code())
        .as("its parent is not live")
        .isEqualTo(RejectionCode.NAMESPACE_NOT_FOUND);
    assertThat(none.reply().rejection().code()).isEqualTo(RejectionCode.NAMESPACE_NOT_FOUND);
    NamespaceRestoredEvent restored = (NamespaceRestoredEvent) parent.events().get(0);
    assertThat(restored.namespace()).isEqualTo(DB);
    assertThat(restored.properties()).isEqualTo(Map.of("k", "v"));
  }

  @Test
  void expungingANamespaceExpungesWhatIsKeptInsideItFirst() {
    Namespace child = Namespace.of("db", "child");
    directory.live.remove(DB);
    directory.deleted.add(keptNamespace(DB, "drop-db", 50_000, Map.of()));
    directory.deleted.add(keptNamespace(child, "drop-child", 40_000, Map.of()));
    directory.deleted.add(kept("drop-a", "uuid-a", 1_000, 5));
    directory.deleted.add(keptNamespace(Namespace.of("other"), "drop-o", 40_000, Map.of()));

    Decision decision =
        RecoveryDecider.expunge(
            directory,
            LOCATIONS,
            new ExpungeDeletedCommand(
                header("expunge", 5_000),
                WAREHOUSE,
                DeletedEntity.NAMESPACE,
                DeletedEntity.identifierOf(DB),
                null,
                false));

    assertThat(decision.events())
        .extracting(CatalogEvent::type)
        .containsExactly(
            "floe.table.expunged", "floe.namespace.expunged", "floe.namespace.expunged");
    assertThat(((TableExpungedEvent) decision.events().get(0)).purge()).isTrue();
    assertThat(((NamespaceExpungedEvent) decision.events().get(1)).namespace()).isEqualTo(child);
    assertThat(((NamespaceExpungedEvent) decision.events().get(2)).namespace()).isEqualTo(DB);
    assertThat(((NamespaceExpungedEvent) decision.events().get(2)).purgedAreas())
        .containsExactly("file:///lake/default/db");
    assertThat(((NamespaceExpungedEvent) decision.events().get(1)).purgedAreas())
        .containsExactly("file:///lake/default/db/child");
    assertThat(decision.events()).allMatch(e -> e.commandId().equals("expunge"));
  }

  @Test
  void anExpiredNamespaceTakesWhatIsKeptInsideItAlong() {
    directory.live.remove(DB);
    directory.deleted.add(keptNamespace(DB, "drop-db", 8_000, Map.of()));
    DeletedEntity table = kept("drop-a", "uuid-a", 1_000, 5);
    directory.deleted.add(
        new DeletedEntity(
            WAREHOUSE,
            DeletedEntity.TABLE,
            ORDERS,
            table.entry(),
            table.state(),
            1_000,
            90_000,
            "ana",
            false,
            "drop-a"));

    List<CatalogEvent> expired = RecoveryDecider.expire(directory, LOCATIONS, WAREHOUSE, 10_000);

    assertThat(expired)
        .extracting(CatalogEvent::type)
        .containsExactly("floe.table.expunged", "floe.namespace.expunged");
    assertThat(((TableExpungedEvent) expired.get(0)).purge())
        .as("dropped without purge: its files stay")
        .isFalse();
    assertThat(expired).allMatch(e -> e.principal().equals(RecoveryDecider.EXPIRY_PRINCIPAL));
    assertThat(((NamespaceExpungedEvent) expired.get(1)).purgedAreas())
        .as("the expired namespace's area is emptied by the purger")
        .containsExactly("file:///lake/default/db");
  }

  private Decision restoreNamespace(Namespace namespace) {
    return RecoveryDecider.restore(
        directory,
        new RestoreDeletedCommand(
            header("restore", 5_000),
            WAREHOUSE,
            DeletedEntity.NAMESPACE,
            DeletedEntity.identifierOf(namespace),
            null,
            null));
  }

  /** A namespace dropped at 1 s with these properties, at sequence 3 before its drop. */
  private static DeletedEntity keptNamespace(
      Namespace namespace, String drop, long expiresAt, Map<String, String> properties) {
    return DeletedEntity.namespace(
        WAREHOUSE, namespace, new NamespaceState(properties, 3), 1_000, expiresAt, "ana", drop);
  }

  private Decision restore(String uuid, String as) {
    return RecoveryDecider.restore(
        directory,
        new RestoreDeletedCommand(
            header("restore", 5_000), WAREHOUSE, DeletedEntity.TABLE, ORDERS, uuid, as));
  }

  private Decision expunge(boolean retain) {
    return RecoveryDecider.expunge(
        directory,
        LOCATIONS,
        new ExpungeDeletedCommand(
            header("expunge", 5_000), WAREHOUSE, DeletedEntity.TABLE, ORDERS, null, retain));
  }

  private static RestoreStep restoreStep(Decision decision) {
    assertThat(decision.isRejected()).as("%s", decision.reply()).isFalse();
    return (RestoreStep) decision.steps().get(0);
  }

  private static TableExpungedEvent expunged(Decision decision) {
    assertThat(decision.isRejected()).isFalse();
    return (TableExpungedEvent) decision.events().get(0);
  }

  /** A table kept since {@code deletedAt}, expiring 5 s later, dropped with purge. */
  private static DeletedEntity kept(String drop, String uuid, long deletedAt, long sequence) {
    TableState state =
        uuid == null
            ? null
            : new TableState(uuid, LOCATION + "/m.json", "{}", 2, sequence).pointerAt(sequence);
    return new DeletedEntity(
        WAREHOUSE,
        DeletedEntity.TABLE,
        ORDERS,
        new TableEntry("create", LOCATION),
        state,
        deletedAt,
        deletedAt + 5_000,
        "ana",
        true,
        drop);
  }

  private static CommandHeader header(String id, long at) {
    return new CommandHeader(id, at, "ana", "api-1", null);
  }

  /** A directory with one namespace, some live tables and some kept ones. */
  private static final class Kept implements Directory {
    Duration period = Duration.ZERO;
    final Set<Namespace> live = new HashSet<>(Set.of(DB));
    final Set<TableIdentifier> tables = new HashSet<>();
    final List<DeletedEntity> deleted = new ArrayList<>();

    @Override
    public Duration recoveryPeriod() {
      return period;
    }

    @Override
    public List<DeletedEntity> deleted(TableIdentifier identifier) {
      return deleted.stream().filter(e -> e.identifier().equals(identifier)).toList();
    }

    @Override
    public List<DeletedEntity> deleted() {
      return List.copyOf(deleted);
    }

    @Override
    public List<DeletedEntity> deletedWithin(Namespace namespace) {
      return deleted.stream().filter(e -> within(e.identifier().namespace(), namespace)).toList();
    }

    private static boolean within(Namespace inner, Namespace outer) {
      return inner.length() >= outer.length()
          && Arrays.equals(Arrays.copyOf(inner.levels(), outer.length()), outer.levels());
    }

    @Override
    public Optional<NamespaceState> namespace(Namespace namespace) {
      return live.contains(namespace)
          ? Optional.of(new NamespaceState(Map.of(), 1))
          : Optional.empty();
    }

    @Override
    public boolean hasChildNamespaces(Namespace namespace) {
      return false;
    }

    @Override
    public boolean hasTables(Namespace namespace) {
      return tables.stream().anyMatch(t -> t.namespace().equals(namespace));
    }

    @Override
    public boolean hasViews(Namespace namespace) {
      return false;
    }

    @Override
    public boolean tableExists(TableIdentifier identifier) {
      return tables.contains(identifier);
    }

    @Override
    public boolean viewExists(TableIdentifier identifier) {
      return false;
    }

    @Override
    public Optional<TableEntry> table(TableIdentifier identifier) {
      return Optional.empty();
    }

    @Override
    public Optional<TableEntry> view(TableIdentifier identifier) {
      return Optional.empty();
    }

    @Override
    public String tableHolder(TableIdentifier identifier) {
      return "t/" + identifier;
    }

    @Override
    public String viewHolder(TableIdentifier identifier) {
      return "v/" + identifier;
    }

    @Override
    public Claims claims() {
      return Claims.NONE;
    }

    @Override
    public boolean purgePending(String location) {
      return false;
    }
  }
}
