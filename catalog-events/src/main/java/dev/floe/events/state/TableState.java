package dev.floe.events.state;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * A table (or view) as the processor decides on it: its current metadata document (Iceberg's JSON,
 * served as-is to readers), where that document lives, and counters.
 *
 * <p>The tables store keeps only the pointer ({@link #toBytes}: uuid, location, counters; about 200
 * bytes), not the document: the document is the immutable file at {@code metadataLocation}, which
 * the processor writes before it stores the pointer. A state read from the store fetches its
 * document from there the first time {@link #metadataJson()} is asked for (through {@link
 * MetadataDocuments}, which caches by location). So a commit no longer rewrites a table's whole
 * document into RocksDB and its changelog, and a restart restores pointers. A stored value of any
 * other format is refused.
 */
@JsonAutoDetect(
    fieldVisibility = JsonAutoDetect.Visibility.NONE,
    getterVisibility = JsonAutoDetect.Visibility.NONE,
    isGetterVisibility = JsonAutoDetect.Visibility.NONE)
public final class TableState {
  /** The pointer only: the document is the file at the metadata location. */
  static final byte POINTER = 2;

  private final String tableUuid;
  private final String metadataLocation;
  private final int version;
  private final long sequence;
  private final MetadataDocuments documents;
  private volatile String metadataJson;

  /**
   * @param version how many metadata files this table has had; names the next one
   * @param sequence how many events this table has had; the next event's sequence is one more
   */
  public TableState(
      String tableUuid, String metadataLocation, String metadataJson, int version, long sequence) {
    this(tableUuid, metadataLocation, version, sequence, null);
    this.metadataJson = Objects.requireNonNull(metadataJson, "metadataJson");
  }

  /**
   * The JSON form (inside steps): the document when the state carried it, else only the pointer (a
   * renamed table's state travels without its document, which stays in its file).
   */
  @JsonCreator
  static TableState fromJson(
      @JsonProperty("tableUuid") String tableUuid,
      @JsonProperty("metadataLocation") String metadataLocation,
      @JsonProperty("metadataJson") String metadataJson,
      @JsonProperty("version") int version,
      @JsonProperty("sequence") long sequence) {
    TableState state = new TableState(tableUuid, metadataLocation, version, sequence, null);
    state.metadataJson = metadataJson;
    return state;
  }

  /**
   * A pointer whose document is read through {@code documents} when it is first asked for, as for a
   * state read from the store.
   */
  public static TableState pointer(
      String tableUuid,
      String metadataLocation,
      int version,
      long sequence,
      MetadataDocuments documents) {
    return new TableState(
        tableUuid,
        metadataLocation,
        version,
        sequence,
        Objects.requireNonNull(documents, "documents"));
  }

  private TableState(
      String tableUuid,
      String metadataLocation,
      int version,
      long sequence,
      MetadataDocuments documents) {
    this.tableUuid = Objects.requireNonNull(tableUuid, "tableUuid");
    this.metadataLocation = Objects.requireNonNull(metadataLocation, "metadataLocation");
    this.version = version;
    this.sequence = sequence;
    this.documents = documents;
  }

  @JsonProperty("tableUuid")
  public String tableUuid() {
    return tableUuid;
  }

  @JsonProperty("metadataLocation")
  public String metadataLocation() {
    return metadataLocation;
  }

  /**
   * The metadata document; for a state read from the store, read from its file on first use.
   *
   * @throws MetadataDocuments.UnavailableException when that file cannot be read
   */
  public String metadataJson() {
    String json = metadataJson;
    if (json == null) {
      if (documents == null) {
        throw new IllegalStateException(
            "The state of " + metadataLocation + " travelled without its document");
      }
      json = documents.document(metadataLocation);
      metadataJson = json;
    }
    return json;
  }

  /** Whether this state holds its document already (else {@link #metadataJson} reads the file). */
  public boolean holdsDocument() {
    return metadataJson != null;
  }

  /** The document if this state holds it already; no file is read. */
  @JsonProperty("metadataJson")
  @JsonInclude(JsonInclude.Include.NON_NULL)
  private String carriedJson() {
    return metadataJson;
  }

  /**
   * The same table under the next sequence (a rename): the same file, so the document is taken
   * along only if it was already read.
   */
  public TableState withSequence(long next) {
    TableState moved = new TableState(tableUuid, metadataLocation, version, next, documents);
    moved.metadataJson = metadataJson;
    return moved;
  }

  /**
   * The same table under {@code next}, as a pointer alone: it travels without its document, which
   * stays in its file (a dropped table's state kept by the directory).
   */
  public TableState pointerAt(long next) {
    return new TableState(tableUuid, metadataLocation, version, next, null);
  }

  @JsonProperty("version")
  public int version() {
    return version;
  }

  @JsonProperty("sequence")
  public long sequence() {
    return sequence;
  }

  /** The stored form: the pointer, without the document (which is the file it points at). */
  public byte[] toBytes() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(128 + metadataLocation.length());
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(POINTER);
      out.writeUTF(tableUuid);
      out.writeUTF(metadataLocation);
      out.writeInt(version);
      out.writeLong(sequence);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /**
   * The metadata location of a stored state, read without its metadata document.
   *
   * @throws IllegalStateException when the value is not of the pointer format
   */
  public static String metadataLocationOf(byte[] bytes) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      requirePointerFormat(in);
      in.readUTF();
      return in.readUTF();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A stored state. Its document is read through {@code documents} when it is first asked for.
   *
   * @throws IllegalStateException when the value is not of the pointer format
   */
  public static TableState fromBytes(byte[] bytes, MetadataDocuments documents) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      requirePointerFormat(in);
      String uuid = in.readUTF();
      String location = in.readUTF();
      int version = in.readInt();
      long sequence = in.readLong();
      return pointer(uuid, location, version, sequence, documents);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void requirePointerFormat(DataInputStream in) throws IOException {
    byte format = in.readByte();
    if (format != POINTER) {
      throw new IllegalStateException(
          "Unsupported table state format " + format + "; only format " + POINTER + " is read");
    }
  }

  /**
   * Equal when the pointers are equal and, where both states hold their documents, the documents
   * are too (a location names one document; no file is read to compare).
   */
  @Override
  public boolean equals(Object other) {
    return other instanceof TableState that
        && version == that.version
        && sequence == that.sequence
        && tableUuid.equals(that.tableUuid)
        && metadataLocation.equals(that.metadataLocation)
        && (metadataJson == null
            || that.metadataJson == null
            || metadataJson.equals(that.metadataJson));
  }

  @Override
  public int hashCode() {
    return Objects.hash(tableUuid, metadataLocation, version, sequence);
  }

  @Override
  public String toString() {
    return "TableState[tableUuid="
        + tableUuid
        + ", metadataLocation="
        + metadataLocation
        + ", version="
        + version
        + ", sequence="
        + sequence
        + "]";
  }
}
