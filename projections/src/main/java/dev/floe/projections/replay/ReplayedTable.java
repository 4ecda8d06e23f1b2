package dev.floe.projections.replay;

import dev.floe.events.state.MetadataDocuments;
import dev.floe.events.state.TableState;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A replayed table (or view) of one warehouse, with its state as the live tables store would hold
 * it. The metadata document is serialised on first use and kept.
 */
public final class ReplayedTable {
  private final String warehouse;
  private final TableIdentifier identifier;
  private final String uuid;
  private final String metadataLocation;
  private final int version;
  private final long sequence;
  private TableMetadata metadata;
  private String json;

  ReplayedTable(
      String warehouse,
      TableIdentifier identifier,
      String uuid,
      String metadataLocation,
      int version,
      long sequence,
      TableMetadata metadata,
      String json) {
    this.warehouse = warehouse;
    this.identifier = identifier;
    this.uuid = uuid;
    this.metadataLocation = metadataLocation;
    this.version = version;
    this.sequence = sequence;
    this.metadata = metadata;
    this.json = json;
  }

  public String warehouse() {
    return warehouse;
  }

  public TableIdentifier identifier() {
    return identifier;
  }

  String uuid() {
    return uuid;
  }

  public String metadataLocation() {
    return metadataLocation;
  }

  int version() {
    return version;
  }

  long sequence() {
    return sequence;
  }

  /**
   * The state the live store would hold: a pointer, whose document is serialised only when it is
   * asked for (a digest, an as-of read), not to write the pointer to a store.
   */
  public TableState state() {
    return TableState.pointer(uuid, metadataLocation, version, sequence, location -> json());
  }

  /**
   * The state whose document is the file as written, read through {@code files}; the replay's
   * rebuild only when the file cannot be read (gone with a purge, storage unreachable).
   */
  TableState storedState(MetadataDocuments files) {
    return TableState.pointer(
        uuid,
        metadataLocation,
        version,
        sequence,
        location -> {
          try {
            return files.document(location);
          } catch (MetadataDocuments.UnavailableException e) {
            return json();
          }
        });
  }

  /** A table's parsed metadata (its {@code metadataFileLocation} is not set). */
  public synchronized TableMetadata metadata() {
    if (metadata == null) {
      metadata = TableMetadataParser.fromJson(metadataLocation, json);
    }
    return metadata;
  }

  private synchronized String json() {
    if (json == null) {
      json = TableMetadataParser.toJson(metadata);
    }
    return json;
  }

  ReplayedTable renamed(TableIdentifier to, long newSequence) {
    return new ReplayedTable(
        warehouse, to, uuid, metadataLocation, version, newSequence, metadata, json);
  }
}
