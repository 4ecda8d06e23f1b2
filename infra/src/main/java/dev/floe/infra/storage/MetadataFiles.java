package dev.floe.infra.storage;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.io.FileIO;

/**
 * Reads and writes {@code metadata.json} files in the warehouse through Iceberg's FileIO, chosen by
 * the location's scheme. Writes overwrite: a command reprocessed after a crash writes the same file
 * name again (the name comes from the command), and the file that stays is the one whose Kafka
 * transaction committed last.
 */
public class MetadataFiles {
  private final Map<String, FileIO> ioByScheme = new ConcurrentHashMap<>();

  /**
   * The documents this process wrote in the last minute, by location. A reply names the metadata
   * file of the change, not its document; when the API instance that answers is the one whose
   * processor decided the change (always with one instance), it serves the body from here instead
   * of reading the file back. A location names one version, so an entry is the file's content (up
   * to the {@code last-updated-ms} of a fenced zombie's late rewrite). Bounded by characters.
   */
  private final Cache<String, String> recentlyWritten =
      Caffeine.newBuilder()
          .maximumWeight(64L * 1024 * 1024)
          .<String, String>weigher((location, json) -> location.length() + json.length())
          .expireAfterWrite(Duration.ofMinutes(1))
          .build();

  public MetadataFiles() {
    ioByScheme.put("file", new LocalFileIO());
  }

  public void write(TableMetadata metadata, String location) {
    TableMetadataParser.overwrite(metadata, io(location).newOutputFile(location));
  }

  /** Writes an already serialised metadata document (the processor has the JSON in hand). */
  public void writeJson(String location, String json) {
    try (java.io.OutputStream out = io(location).newOutputFile(location).createOrOverwrite()) {
      out.write(json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("Cannot write " + location, e);
    }
    recentlyWritten.put(location, json);
  }

  /** The document written at this location by this process lately, if it is still held. */
  public Optional<String> recentlyWritten(String location) {
    return Optional.ofNullable(recentlyWritten.getIfPresent(location));
  }

  /** Deletes everything under a location (a dropped table's files, when a purge was asked for). */
  public void deleteAll(String location) {
    FileIO io = io(location);
    if (!(io instanceof org.apache.iceberg.io.SupportsPrefixOperations prefixes)) {
      throw new UnsupportedOperationException("Cannot delete by prefix at " + location);
    }
    prefixes.deletePrefix(location);
  }

  public boolean exists(String location) {
    return io(location).newInputFile(location).exists();
  }

  public TableMetadata read(String location) {
    return TableMetadataParser.read(io(location), location);
  }

  public FileIO io(String location) {
    int colon = location.indexOf(':');
    String scheme =
        colon > 0 && location.indexOf('/') > colon ? location.substring(0, colon) : "file";
    FileIO io = ioByScheme.get(scheme);
    if (io == null) {
      throw new IllegalArgumentException(
          "No storage configured for scheme " + scheme + ": " + location);
    }
    return io;
  }
}
