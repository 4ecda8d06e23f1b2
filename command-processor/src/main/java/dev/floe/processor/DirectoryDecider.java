package dev.floe.processor;

import static dev.floe.events.RejectionCode.NAMESPACE_ALREADY_EXISTS;
import static dev.floe.events.RejectionCode.NAMESPACE_NOT_EMPTY;
import static dev.floe.events.RejectionCode.NAMESPACE_NOT_FOUND;
import static dev.floe.events.RejectionCode.UNPROCESSABLE;

import dev.floe.events.CommandReply;
import dev.floe.events.Rejection;
import dev.floe.events.command.CatalogCommand;
import dev.floe.events.command.CompletePurgeCommand;
import dev.floe.events.command.CreateNamespaceCommand;
import dev.floe.events.command.CreateTableCommand;
import dev.floe.events.command.CreateTableTransactionCommand;
import dev.floe.events.command.CreateViewCommand;
import dev.floe.events.command.DropNamespaceCommand;
import dev.floe.events.command.DropTableCommand;
import dev.floe.events.command.DropViewCommand;
import dev.floe.events.command.ExpungeDeletedCommand;
import dev.floe.events.command.RecordMaintenanceCommand;
import dev.floe.events.command.RegisterTableCommand;
import dev.floe.events.command.RegisterViewCommand;
import dev.floe.events.command.RelocateCommand;
import dev.floe.events.command.RenameTableCommand;
import dev.floe.events.command.RenameViewCommand;
import dev.floe.events.command.RestoreDeletedCommand;
import dev.floe.events.command.UpdateNamespacePropertiesCommand;
import dev.floe.events.event.NamespaceCreatedEvent;
import dev.floe.events.event.NamespaceDroppedEvent;
import dev.floe.events.event.NamespacePropertiesUpdatedEvent;
import dev.floe.events.event.TableFilesPurgedEvent;
import dev.floe.events.event.TableMaintainedEvent;
import dev.floe.events.event.TablePurgeRefusedEvent;
import dev.floe.events.state.DeletedEntity;
import dev.floe.events.state.NamespaceState;
import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.processor.step.EntityKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.catalog.Namespace;

/**
 * Decides every command that changes a warehouse's membership: namespaces, and the name half of
 * creating and dropping tables. It runs on the warehouse key's single writer, so two concurrent
 * commands never both see a namespace as empty, or a name as free.
 */
public final class DirectoryDecider {
  private DirectoryDecider() {}

  /** How one type of directory command is decided. */
  @FunctionalInterface
  private interface Rule<T extends CatalogCommand> {
    Decision decide(Directory directory, LocationAuthority locations, T command);
  }

  /** Every directory command, by type: one entry a type. */
  private static final Map<Class<?>, Rule<?>> RULES =
      Map.ofEntries(
          rule(CreateNamespaceCommand.class, (d, l, c) -> createNamespace(d, c)),
          rule(DropNamespaceCommand.class, (d, l, c) -> dropNamespace(d, c)),
          rule(UpdateNamespacePropertiesCommand.class, (d, l, c) -> updateProperties(d, c)),
          rule(CreateTableCommand.class, TableNameDecider::create),
          rule(CreateTableTransactionCommand.class, TableNameDecider::createTransaction),
          rule(RegisterTableCommand.class, TableNameDecider::register),
          rule(DropTableCommand.class, (d, l, c) -> TableNameDecider.drop(d, c)),
          rule(
              RenameTableCommand.class,
              (d, l, c) ->
                  TabularNames.rename(
                      d, EntityKind.TABLE, c.header(), c.warehouse(), c.source(), c.destination())),
          rule(CompletePurgeCommand.class, (d, l, c) -> completePurge(d, c)),
          rule(RecordMaintenanceCommand.class, (d, l, c) -> recordMaintenance(d, c)),
          rule(CreateViewCommand.class, ViewNameDecider::create),
          rule(DropViewCommand.class, (d, l, c) -> ViewNameDecider.drop(d, c)),
          rule(
              RenameViewCommand.class,
              (d, l, c) ->
                  TabularNames.rename(
                      d, EntityKind.VIEW, c.header(), c.warehouse(), c.source(), c.destination())),
          rule(RegisterViewCommand.class, ViewNameDecider::register),
          rule(RelocateCommand.class, RelocationDecider::relocate),
          rule(RestoreDeletedCommand.class, (d, l, c) -> RecoveryDecider.restore(d, c)),
          rule(ExpungeDeletedCommand.class, RecoveryDecider::expunge));

  private static <T extends CatalogCommand> Map.Entry<Class<?>, Rule<?>> rule(
      Class<T> type, Rule<T> rule) {
    return Map.entry(type, rule);
  }

  /** Whether commands of this type are directory commands, with a rule here. */
  public static boolean handles(Class<?> type) {
    return RULES.containsKey(type);
  }

  @SuppressWarnings("unchecked")
  public static Decision decide(
      Directory directory, LocationAuthority locations, CatalogCommand command) {
    Rule<CatalogCommand> rule = (Rule<CatalogCommand>) RULES.get(command.getClass());
    if (rule == null) {
      throw new IllegalArgumentException("Not a directory command: " + command.key());
    }
    return rule.decide(directory, locations, command);
  }

  /** Idempotent: a purge completed twice (two purgers, a retry) records one event. */
  static Decision completePurge(Directory directory, CompletePurgeCommand c) {
    String id = c.header().commandId();
    if (!directory.purgePending(c.location())) {
      return Decision.reply(List.of(), CommandReply.done(id));
    }
    if (c.refusal() != null) {
      return Decision.reply(
          List.of(
              new TablePurgeRefusedEvent(
                  c.warehouse(), c.location(), c.refusal(), id, c.header().principal(), 1)),
          CommandReply.done(id));
    }
    TableFilesPurgedEvent event =
        new TableFilesPurgedEvent(c.warehouse(), c.location(), id, c.header().principal(), 1);
    return Decision.reply(List.of(event), CommandReply.done(id));
  }

  /**
   * Records a table's maintenance run while its name still holds that table; a run on a table that
   * was dropped or renamed meanwhile is not recorded (its files were handled all the same).
   */
  static Decision recordMaintenance(Directory directory, RecordMaintenanceCommand c) {
    String id = c.header().commandId();
    boolean holds =
        directory.table(c.identifier()).map(e -> c.tableUuid().equals(e.uuid())).orElse(false);
    if (!holds) {
      return Decision.reply(List.of(), CommandReply.done(id));
    }
    TableMaintainedEvent event =
        new TableMaintainedEvent(
            c.warehouse(),
            c.identifier(),
            c.tableUuid(),
            c.trigger(),
            c.expiredSnapshots(),
            c.remainingSnapshots(),
            c.deletedFiles(),
            c.deletedBytes(),
            c.keptOutsideTable(),
            id,
            c.header().principal(),
            1);
    return Decision.reply(List.of(event), CommandReply.done(id));
  }

  static Decision createNamespace(Directory directory, CreateNamespaceCommand c) {
    String id = c.header().commandId();
    if (directory.namespace(c.namespace()).isPresent()) {
      return Decision.rejected(
          id,
          Rejection.of(NAMESPACE_ALREADY_EXISTS, "Namespace already exists: %s", c.namespace()));
    }
    Optional<Rejection> parentMissing = requireParent(directory, c.namespace());
    if (parentMissing.isPresent()) {
      return Decision.rejected(id, parentMissing.get());
    }
    Optional<DeletedEntity> kept = directory.deletedNamespace(c.namespace());
    if (kept.isPresent()) {
      return RecoveryDecider.recreate(kept.get(), c);
    }
    NamespaceCreatedEvent event =
        new NamespaceCreatedEvent(
            c.warehouse(), c.namespace(), c.properties(), id, c.header().principal(), 1);
    return Decision.reply(List.of(event), CommandReply.namespace(id, c.properties()));
  }

  /** A nested namespace needs its parent: no orphan can be listed under a missing parent. */
  static Optional<Rejection> requireParent(Directory directory, Namespace namespace) {
    if (namespace.length() <= 1) {
      return Optional.empty();
    }
    String[] levels = namespace.levels();
    Namespace parent = Namespace.of(Arrays.copyOf(levels, levels.length - 1));
    if (directory.namespace(parent).isEmpty()) {
      return Optional.of(Rejection.of(NAMESPACE_NOT_FOUND, "Namespace does not exist: %s", parent));
    }
    return Optional.empty();
  }

  static Decision dropNamespace(Directory directory, DropNamespaceCommand c) {
    String id = c.header().commandId();
    Optional<NamespaceState> state = directory.namespace(c.namespace());
    if (state.isEmpty()) {
      return Decision.rejected(
          id, Rejection.of(NAMESPACE_NOT_FOUND, "Namespace does not exist: %s", c.namespace()));
    }
    if (directory.hasTables(c.namespace())) {
      return Decision.rejected(
          id,
          Rejection.of(
              NAMESPACE_NOT_EMPTY, "Namespace %s is not empty. Contains tables.", c.namespace()));
    }
    if (directory.hasViews(c.namespace())) {
      return Decision.rejected(
          id,
          Rejection.of(
              NAMESPACE_NOT_EMPTY, "Namespace %s is not empty. Contains views.", c.namespace()));
    }
    if (directory.hasChildNamespaces(c.namespace())) {
      return Decision.rejected(
          id,
          Rejection.of(
              NAMESPACE_NOT_EMPTY,
              "Namespace %s is not empty. Contains namespaces.",
              c.namespace()));
    }
    Duration period = directory.recoveryPeriod();
    NamespaceDroppedEvent event =
        new NamespaceDroppedEvent(
            c.warehouse(),
            c.namespace(),
            id,
            c.header().principal(),
            state.get().sequence() + 1,
            period.isZero() ? 0 : c.header().timestampMillis() + period.toMillis());
    return Decision.reply(List.of(event), CommandReply.done(id));
  }

  static Decision updateProperties(Directory directory, UpdateNamespacePropertiesCommand c) {
    String id = c.header().commandId();
    Set<String> both = new HashSet<>(c.updates().keySet());
    both.retainAll(c.removals());
    if (!both.isEmpty()) {
      // REST spec: a key in both updates and removals is 422 Unprocessable Entity.
      return Decision.rejected(
          id,
          Rejection.of(
              UNPROCESSABLE, "Cannot set and remove the same keys: %s", new TreeSet<>(both)));
    }
    Optional<NamespaceState> state = directory.namespace(c.namespace());
    if (state.isEmpty()) {
      return Decision.rejected(
          id, Rejection.of(NAMESPACE_NOT_FOUND, "Namespace does not exist: %s", c.namespace()));
    }
    Map<String, String> current = state.get().properties();
    List<String> removed = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (String key : c.removals()) {
      (current.containsKey(key) ? removed : missing).add(key);
    }
    List<String> updated = new ArrayList<>(c.updates().keySet());
    NamespacePropertiesUpdatedEvent event =
        new NamespacePropertiesUpdatedEvent(
            c.warehouse(),
            c.namespace(),
            c.updates(),
            removed,
            id,
            c.header().principal(),
            state.get().sequence() + 1);
    return Decision.reply(
        List.of(event), CommandReply.namespaceUpdated(id, updated, removed, missing));
  }
}
