package dev.floe.events.command;

import dev.floe.events.Keys;
import java.util.List;
import java.util.Objects;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Iceberg's own requirements and updates, decided on the table's key.
 *
 * @param writtenAhead the metadata file the API already wrote for this commit, decided on the base
 *     it names; null when the processor decides and writes it (the usual way before, and always
 *     when the API could not write ahead)
 */
public record CommitTableCommand(
    CommandHeader header,
    String warehouse,
    TableIdentifier identifier,
    List<UpdateRequirement> requirements,
    List<MetadataUpdate> updates,
    WrittenAhead writtenAhead)
    implements CatalogCommand {
  public CommitTableCommand {
    CatalogCommand.requireTarget(header, warehouse, identifier);
    requirements = requirements == null ? List.of() : List.copyOf(requirements);
    updates = updates == null ? List.of() : List.copyOf(updates);
  }

  /** A commit the processor decides and writes itself. */
  public CommitTableCommand(
      CommandHeader header,
      String warehouse,
      TableIdentifier identifier,
      List<UpdateRequirement> requirements,
      List<MetadataUpdate> updates) {
    this(header, warehouse, identifier, requirements, updates, null);
  }

  /** The same commit, with the metadata file the API wrote ahead for it. */
  public CommitTableCommand withWrittenAhead(WrittenAhead file) {
    return new CommitTableCommand(header, warehouse, identifier, requirements, updates, file);
  }

  @Override
  public String key() {
    return Keys.table(warehouse, identifier);
  }

  /**
   * A metadata file written before the command was sent: the API decided the commit with the same
   * decider on the table's state as it read it, and wrote the result. The processor takes the file
   * only if the table still points at {@code baseLocation} (a location names one version, so the
   * same base gives the same decision); otherwise it decides again and writes a file of its own.
   *
   * @param baseLocation the metadata location the commit was decided on
   * @param tableUuid the table's uuid in that base
   * @param location the file written, named by the API (never a name the processor would choose, so
   *     a file the processor writes never replaces it)
   */
  public record WrittenAhead(String baseLocation, String tableUuid, String location) {
    public WrittenAhead {
      Objects.requireNonNull(baseLocation, "baseLocation");
      Objects.requireNonNull(tableUuid, "tableUuid");
      Objects.requireNonNull(location, "location");
    }
  }
}
