package dev.floe.events.command;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.Objects;
import org.apache.iceberg.catalog.TableIdentifier;

/** A request to change the catalog, on {@code floe.commands}. The processor decides it. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
  @JsonSubTypes.Type(value = CreateNamespaceCommand.class, name = "create-namespace"),
  @JsonSubTypes.Type(value = DropNamespaceCommand.class, name = "drop-namespace"),
  @JsonSubTypes.Type(
      value = UpdateNamespacePropertiesCommand.class,
      name = "update-namespace-properties"),
  @JsonSubTypes.Type(value = CreateTableCommand.class, name = "create-table"),
  @JsonSubTypes.Type(value = DropTableCommand.class, name = "drop-table"),
  @JsonSubTypes.Type(value = CommitTableCommand.class, name = "commit-table"),
  @JsonSubTypes.Type(value = RenameTableCommand.class, name = "rename-table"),
  @JsonSubTypes.Type(value = RegisterTableCommand.class, name = "register-table"),
  @JsonSubTypes.Type(
      value = CreateTableTransactionCommand.class,
      name = "create-table-transaction"),
  @JsonSubTypes.Type(value = CompletePurgeCommand.class, name = "complete-purge"),
  @JsonSubTypes.Type(value = CreateViewCommand.class, name = "create-view"),
  @JsonSubTypes.Type(value = CommitViewCommand.class, name = "commit-view"),
  @JsonSubTypes.Type(value = DropViewCommand.class, name = "drop-view"),
  @JsonSubTypes.Type(value = RenameViewCommand.class, name = "rename-view"),
  @JsonSubTypes.Type(value = RegisterViewCommand.class, name = "register-view"),
  @JsonSubTypes.Type(value = CommitTransactionCommand.class, name = "commit-transaction"),
  @JsonSubTypes.Type(value = ChangeAccessCommand.class, name = "change-access"),
  @JsonSubTypes.Type(value = RelocateCommand.class, name = "relocate"),
  @JsonSubTypes.Type(value = RestoreDeletedCommand.class, name = "restore-deleted"),
  @JsonSubTypes.Type(value = ExpungeDeletedCommand.class, name = "expunge-deleted"),
  @JsonSubTypes.Type(value = RecordMaintenanceCommand.class, name = "record-maintenance")
})
public sealed interface CatalogCommand
    permits CreateNamespaceCommand,
        DropNamespaceCommand,
        UpdateNamespacePropertiesCommand,
        CreateTableCommand,
        DropTableCommand,
        CommitTableCommand,
        RenameTableCommand,
        RegisterTableCommand,
        CreateTableTransactionCommand,
        CompletePurgeCommand,
        CreateViewCommand,
        CommitViewCommand,
        DropViewCommand,
        RenameViewCommand,
        RegisterViewCommand,
        CommitTransactionCommand,
        ChangeAccessCommand,
        RelocateCommand,
        RestoreDeletedCommand,
        ExpungeDeletedCommand,
        RecordMaintenanceCommand {

  CommandHeader header();

  String warehouse();

  /** The Kafka key, and so the partition whose single writer decides this command. */
  String key();

  /** Refuses a command without the request it answers or the warehouse it changes. */
  static void requireHeader(CommandHeader header, String warehouse) {
    Objects.requireNonNull(header, "header");
    Objects.requireNonNull(warehouse, "warehouse");
  }

  /** As {@link #requireHeader}, for a command about one table or view. */
  static void requireTarget(CommandHeader header, String warehouse, TableIdentifier identifier) {
    requireHeader(header, warehouse);
    Objects.requireNonNull(identifier, "identifier");
  }
}
