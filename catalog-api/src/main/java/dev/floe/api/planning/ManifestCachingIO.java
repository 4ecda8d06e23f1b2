package dev.floe.api.planning;

import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * A storage's FileIO as planning reads it: reads only, with Iceberg's manifest content cache on
 * ({@code io.manifest.cache-enabled}), which Iceberg keeps per FileIO instance: one instance per
 * storage, shared by every plan, so a hot table's manifests are read from storage once. The cache
 * is bounded in bytes; idle manifests leave it.
 */
final class ManifestCachingIO implements FileIO {
  private final FileIO storage;
  private final Map<String, String> properties;

  ManifestCachingIO(FileIO storage, long maxBytes) {
    this.storage = storage;
    this.properties =
        Map.of(
            CatalogProperties.IO_MANIFEST_CACHE_ENABLED, "true",
            CatalogProperties.IO_MANIFEST_CACHE_MAX_TOTAL_BYTES, Long.toString(maxBytes),
            CatalogProperties.IO_MANIFEST_CACHE_MAX_CONTENT_LENGTH,
                Long.toString(Math.min(maxBytes, 8L * 1024 * 1024)),
            CatalogProperties.IO_MANIFEST_CACHE_EXPIRATION_INTERVAL_MS,
                Long.toString(10 * 60 * 1000L));
  }

  @Override
  public InputFile newInputFile(String path) {
    return storage.newInputFile(path);
  }

  @Override
  public InputFile newInputFile(String path, long length) {
    return storage.newInputFile(path, length);
  }

  @Override
  public OutputFile newOutputFile(String path) {
    throw new UnsupportedOperationException("Scan planning only reads");
  }

  @Override
  public void deleteFile(String path) {
    throw new UnsupportedOperationException("Scan planning only reads");
  }

  @Override
  public Map<String, String> properties() {
    return properties;
  }

  /** The storage's FileIO belongs to the catalog's metadata files, which close it. */
  @Override
  public void close() {}
}
