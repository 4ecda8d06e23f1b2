package dev.floe.processor;

import static dev.floe.events.RejectionCode.NAMESPACE_NOT_FOUND;
import static dev.floe.events.RejectionCode.TABLE_ALREADY_EXISTS;

import dev.floe.events.Rejection;
import dev.floe.events.command.CommandHeader;
import dev.floe.processor.step.EntityKind;
import dev.floe.processor.step.MoveOutStep;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The directory's checks on a table's or a view's name, written once for both kinds: tables and
 * views share one name space, so a name is free only when neither holds it.
 */
final class TabularNames {
  private TabularNames() {}

  static boolean exists(Directory directory, EntityKind kind, TableIdentifier name) {
    return switch (kind) {
      case TABLE -> directory.tableExists(name);
      case VIEW -> directory.viewExists(name);
    };
  }

  /** Why a new table or view cannot take this name, if it cannot. */
  static Optional<Rejection> requireFreeName(
      Directory directory, EntityKind kind, TableIdentifier name) {
    if (directory.namespace(name.namespace()).isEmpty()) {
      return Optional.of(namespaceMissing(name.namespace()));
    }
    for (EntityKind holder : EntityKind.values()) {
      if (exists(directory, holder, name)) {
        String message =
            holder == kind ? "%s already exists: %s" : "%s with same name already exists: %s";
        return Optional.of(Rejection.of(TABLE_ALREADY_EXISTS, message, noun(holder), name));
      }
    }
    return Optional.empty();
  }

  static Optional<Rejection> requireExisting(
      Directory directory, EntityKind kind, TableIdentifier name) {
    return exists(directory, kind, name)
        ? Optional.empty()
        : Optional.of(TabularLifecycle.notFound(kind, name));
  }

  /**
   * Moves the name in the directory (atomically: both names change in this one decision) and sends
   * the state's move to the source key. Acknowledged once the destination key has it.
   */
  static Decision rename(
      Directory directory,
      EntityKind kind,
      CommandHeader header,
      String warehouse,
      TableIdentifier source,
      TableIdentifier destination) {
    String id = header.commandId();
    Optional<Rejection> missing = requireExisting(directory, kind, source);
    if (missing.isPresent()) {
      return Decision.rejected(id, missing.get());
    }
    if (directory.namespace(destination.namespace()).isEmpty()) {
      return Decision.rejected(id, namespaceMissing(destination.namespace()));
    }
    for (EntityKind holder : EntityKind.values()) {
      if (exists(directory, holder, destination)) {
        return Decision.rejected(
            id,
            Rejection.of(
                TABLE_ALREADY_EXISTS,
                "Cannot rename %s to %s. %s already exists",
                source,
                destination,
                noun(holder)));
      }
    }
    return Decision.step(new MoveOutStep(kind, header, warehouse, source, destination));
  }

  /**
   * When a drop decided now ends its recovery period; 0 when the warehouse keeps no dropped entity.
   */
  static long expiresAt(Directory directory, long nowMs) {
    long period = directory.recoveryPeriod().toMillis();
    return period <= 0 ? 0 : Math.max(1, nowMs + period);
  }

  static Rejection namespaceMissing(Namespace namespace) {
    return Rejection.of(NAMESPACE_NOT_FOUND, "Namespace does not exist: %s", namespace);
  }

  private static String noun(EntityKind kind) {
    return switch (kind) {
      case TABLE -> "Table";
      case VIEW -> "View";
    };
  }
}
