package dev.floe.events.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.events.FloeJson;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The stored form of a table's state: a pointer to its metadata file, and no other format. */
class TableStateTest {
  private static final String LOCATION = "file:/wh/db/t/metadata/00003-abc.metadata.json";

  /** A warehouse of documents by location that counts its reads. */
  private static final class Files implements MetadataDocuments {
    final Map<String, String> documents = new HashMap<>();
    final List<String> reads = new ArrayList<>();

    @Override
    public String document(String location) {
      reads.add(location);
      String json = documents.get(location);
      if (json == null) {
        throw new UnavailableException("no file " + location, null);
      }
      return json;
    }
  }

  @Test
  void theStoredValueIsAPointerWhoseDocumentIsReadFromItsFileOnFirstUse() {
    Files files = new Files();
    String json = "{\"format-version\":2,\"table-uuid\":\"u-1\"}";
    files.documents.put(LOCATION, json);
    TableState state = new TableState("u-1", LOCATION, json, 3, 7);

    TableState stored = TableState.fromBytes(state.toBytes(), files);

    assertThat(stored.tableUuid()).isEqualTo("u-1");
    assertThat(stored.metadataLocation()).isEqualTo(LOCATION);
    assertThat(stored.version()).isEqualTo(3);
    assertThat(stored.sequence()).isEqualTo(7);
    assertThat(files.reads).isEmpty();
    assertThat(stored.metadataJson()).isEqualTo(json);
    assertThat(stored.metadataJson()).isEqualTo(json);
    assertThat(files.reads).containsExactly(LOCATION);
    assertThat(stored).isEqualTo(state);
    assertThat(TableState.metadataLocationOf(state.toBytes())).isEqualTo(LOCATION);
  }

  @Test
  void theStoredValueKeepsOneSizeWhateverTheDocument() {
    String small = "{\"snapshots\":[]}";
    String large = "{\"snapshots\":[" + "{\"snapshot-id\":1},".repeat(100_000) + "{}]}";
    int smallSize = new TableState("u-1", LOCATION, small, 1, 1).toBytes().length;
    int largeSize = new TableState("u-1", LOCATION, large, 1, 1).toBytes().length;

    assertThat(largeSize).isEqualTo(smallSize).isLessThan(200);
  }

  /** A value whose document is inline after the pointer, under format byte 1, is not read. */
  @Test
  void aValueWithItsDocumentInlineIsRefusedNamingItsFormat() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(1);
      out.writeUTF("u-1");
      out.writeUTF(LOCATION);
      out.writeInt(2);
      out.writeLong(5);
      byte[] json = "{\"format-version\":1}".getBytes(StandardCharsets.UTF_8);
      out.writeInt(json.length);
      out.write(json);
    }
    byte[] inline = bytes.toByteArray();
    Files files = new Files();
    files.documents.put(LOCATION, "{}");

    assertThatThrownBy(() -> TableState.fromBytes(inline, files))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("format 1");
    assertThatThrownBy(() -> TableState.metadataLocationOf(inline))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("format 1");
    assertThat(files.reads).isEmpty();
  }

  @Test
  void aDocumentThatCannotBeReadFailsTheCallerThatNeedsIt() {
    TableState stored =
        TableState.fromBytes(new TableState("u-1", LOCATION, "{}", 1, 1).toBytes(), new Files());

    assertThat(stored.metadataLocation()).isEqualTo(LOCATION);
    assertThatThrownBy(stored::metadataJson)
        .isInstanceOf(MetadataDocuments.UnavailableException.class)
        .hasMessageContaining(LOCATION);
  }

  @Test
  void anUnknownFormatIsRefused() {
    byte[] bytes = new TableState("u-1", LOCATION, "{}", 1, 1).toBytes();
    bytes[0] = 9;
    assertThatThrownBy(() -> TableState.fromBytes(bytes, new Files()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("format 9");
  }

  @Test
  void itsJsonFormCarriesTheDocumentOnlyWhenItHoldsIt() {
    String json = "{\"format-version\":2}";
    TableState held = new TableState("u-1", LOCATION, json, 4, 9);
    TableState decoded = FloeJson.fromBytes(FloeJson.toBytes(held), TableState.class);
    assertThat(decoded.holdsDocument()).isTrue();
    assertThat(decoded.metadataJson()).isEqualTo(json);
    assertThat(decoded).isEqualTo(held);

    // A state read from the store and not yet used travels as a pointer (a rename's move step):
    // serialising it reads no file.
    Files files = new Files();
    TableState stored = TableState.fromBytes(held.toBytes(), files);
    TableState pointer = FloeJson.fromBytes(FloeJson.toBytes(stored), TableState.class);
    assertThat(files.reads).isEmpty();
    assertThat(new String(FloeJson.toBytes(stored), StandardCharsets.UTF_8))
        .doesNotContain("metadataJson");
    assertThat(pointer.holdsDocument()).isFalse();
    assertThat(pointer.metadataLocation()).isEqualTo(LOCATION);
    assertThat(pointer.withSequence(10).sequence()).isEqualTo(10);
    assertThat(pointer.withSequence(10).toBytes())
        .isEqualTo(new TableState("u-1", LOCATION, json, 4, 10).toBytes());
    assertThatThrownBy(pointer::metadataJson)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("without its document");
  }
}
