package dev.floe.infra.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.events.state.MetadataDocuments;
import dev.floe.infra.storage.config.StorageConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
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
      Files.delete(Path.of(URI.create(location)));
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
  void aFileSeenWithinItsTtlIsTrustedWithoutAskingStorage() throws IOException {
    AtomicLong nanos = new AtomicLong();
    String root = dir.toUri().toString();
    StorageConfig storage =
        StorageConfig.fromProperties(
            props("floe.warehouse.w.metadata-exists-ttl", "PT10S"), Map.of("w", root));
    String written = dir.resolve("00004-w.metadata.json").toUri().toString();
    Path found = dir.resolve("00005-f.metadata.json");
    Files.writeString(found, "{}");
    try (MetadataFiles files = new MetadataFiles(storage, nanos::get)) {
      files.writeJson(written, "{}");
      assertThat(files.exists(found.toUri().toString())).as("found by asking").isTrue();
      Files.delete(Path.of(URI.create(written)));
      Files.delete(found);

      nanos.addAndGet(Duration.ofSeconds(9).toNanos());
      assertThat(files.exists(written)).as("written 9 s ago: trusted").isTrue();
      assertThat(files.knownToExist(written)).isTrue();
      assertThat(files.exists(found.toUri().toString())).as("found 9 s ago: trusted").isTrue();

      nanos.addAndGet(Duration.ofSeconds(1).toNanos());
      assertThat(files.exists(written)).as("10 s: storage is asked again").isFalse();
      assertThat(files.knownToExist(written)).isFalse();
      assertThat(files.exists(found.toUri().toString())).isFalse();
    }
  }

  @Test
  void withoutATtlEveryCheckAsksStorage() throws IOException {
    String location = dir.resolve("00006-l.metadata.json").toUri().toString();
    try (MetadataFiles files = new MetadataFiles()) {
      files.writeJson(location, "{}");
      assertThat(files.knownToExist(location)).as("a stat").isTrue();
      Files.delete(Path.of(URI.create(location)));
      assertThat(files.exists(location)).isFalse();
      assertThat(files.knownToExist(location)).isFalse();
    }
  }

  @Test
  void anObjectStoreFileNotSeenLatelyIsNotKnownWithoutARequest() {
    // Nothing listens on port 9: a request would fail, not answer false.
    StorageConfig storage =
        StorageConfig.fromProperties(
            props(
                "floe.warehouse.lake.s3.endpoint", "http://127.0.0.1:9",
                "floe.warehouse.lake.s3.region", "us-east-1",
                "floe.warehouse.lake.s3.access-key-id", "k",
                "floe.warehouse.lake.s3.secret-access-key", "s",
                "floe.warehouse.lake.io-timeout", "PT2S"),
            Map.of("lake", "s3://lake/warehouse"));
    String location = "s3://lake/warehouse/t/metadata/00001-a.metadata.json";
    try (MetadataFiles files = new MetadataFiles(storage)) {
      assertThat(files.knownToExist(location)).isFalse();
      // Asking is a request: to an endpoint where nothing listens, it cannot connect.
      assertThatThrownBy(() -> files.exists(location))
          .hasRootCauseInstanceOf(ConnectException.class);
    }
  }

  private static Properties props(String... keyValues) {
    Properties props = new Properties();
    for (int i = 0; i < keyValues.length; i += 2) {
      props.setProperty(keyValues[i], keyValues[i + 1]);
    }
    return props;
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
