package dev.floe.events.state;

/**
 * Reads the metadata document (Iceberg's JSON) at a metadata location: the file a stored {@link
 * TableState} points at.
 */
@FunctionalInterface
public interface MetadataDocuments {
  /**
   * @throws UnavailableException when the file cannot be read now (storage unreachable, refused, or
   *     the file is missing)
   */
  String document(String metadataLocation);

  /** A metadata document could not be read; nothing that needed it was applied. */
  final class UnavailableException extends RuntimeException {
    public UnavailableException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
