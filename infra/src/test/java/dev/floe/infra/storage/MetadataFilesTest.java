package dev.floe.infra.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.events.state.MetadataDocuments;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading a metadata document back from its file, as a store pointer needs it after a restart. */
class MetadataFilesTest {
  @TempDir Path dir;

  @Test
  void aProcessThatDidNotWriteTheFileReadsItOnceAndThenFromItsCache() throws IOException {
    String location = dir.resolve("00001-a.metadata.json").toUri().toString();
    String json = "{\"format-version\":2,\"table-uuid\":\"u-1\"}";
    try (MetadataFiles writer = new MetadataFiles()) {
      writer.writeJson(location, json);
      assertThat(writer.document(location)).isEqualTo(json);
    }

    try (MetadataFiles restarted = new MetadataFiles()) {
      assertThat(restarted.recentlyWritten(location)).isEmpty();
      assertThat(restarted.document(location)).isEqualTo(json);
      // A location names one immutable version: the second read is served from the cache.
      Files.delete(Path.of(java.net.URI.create(location)));
      assertThat(restarted.document(location)).isEqualTo(json);
    }
  }

  @Test
  void aGzipMetadataFileIsReadDecompressed() throws IOException {
    Path file = dir.resolve("00002-b.gz.metadata.json");
    String json = "{\"format-version\":1}";
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write(json.getBytes(StandardCharsets.UTF_8));
    }
    try (MetadataFiles files = new MetadataFiles()) {
      assertThat(files.document(file.toUri().toString())).isEqualTo(json);
    }
  }

  @Test
  void aMissingFileIsUnavailableNamingItsLocation() {
    String location = dir.resolve("00003-missing.metadata.json").toUri().toString();
    try (MetadataFiles files = new MetadataFiles()) {
      assertThatThrownBy(() -> files.document(location))
          .isInstanceOf(MetadataDocuments.UnavailableException.class)
          .hasMessageContaining(location);
    }
  }
}
