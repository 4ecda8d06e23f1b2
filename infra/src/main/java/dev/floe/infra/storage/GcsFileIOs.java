package dev.floe.infra.storage;

import dev.floe.infra.storage.config.StorageProfile;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.io.FileIO;

/**
 * Iceberg's {@code GCSFileIO} for a {@code gs://} storage. Loaded by name: it needs {@code
 * iceberg-gcp} and {@code google-cloud-storage} on the class path, which a {@code file:}/S3
 * deployment does not carry.
 */
final class GcsFileIOs {
  static final String GCS_FILE_IO = "org.apache.iceberg.gcp.gcs.GCSFileIO";

  private GcsFileIOs() {}

  static FileIO open(StorageProfile profile) {
    Map<String, String> props = new HashMap<>();
    if (profile.gcs().projectId() != null) {
      props.put("gcs.project-id", profile.gcs().projectId());
    }
    if (profile.gcs().endpoint() != null) {
      props.put("gcs.service.host", profile.gcs().endpoint());
    }
    try {
      return CatalogUtil.loadFileIO(GCS_FILE_IO, props, null);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          "Storage "
              + profile.name()
              + " is on GCS but "
              + GCS_FILE_IO
              + " cannot be loaded: add iceberg-gcp and google-cloud-storage to the class path",
          e);
    }
  }
}
