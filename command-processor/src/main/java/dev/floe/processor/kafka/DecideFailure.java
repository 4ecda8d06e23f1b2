package dev.floe.processor.kafka;

import dev.floe.events.Rejection;
import dev.floe.events.RejectionCode;
import dev.floe.events.command.CommandHeader;
import dev.floe.events.state.MetadataDocuments;
import dev.floe.infra.storage.LocationRefusedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a command or step that could not be decided answers: the request's own error (too large, a
 * refused location), storage's (the metadata file could not be written or read), or an internal
 * error. No store has changed when a decision fails.
 */
final class DecideFailure {
  private static final Logger LOG = LoggerFactory.getLogger(DecideFailure.class);

  private DecideFailure() {}

  static Rejection rejection(CommandHeader header, RuntimeException failure) {
    if (failure instanceof TableStores.TooLargeException e) {
      return new Rejection(RejectionCode.TOO_LARGE, e.getMessage());
    }
    if (failure instanceof LocationRefusedException e) {
      // The location itself is refused (a symbolic link inside the root): the request's error.
      return new Rejection(
          RejectionCode.INVALID_REQUEST, "Cannot write table metadata: " + e.getMessage());
    }
    if (failure instanceof TableStores.MetadataWriteException e) {
      LOG.warn("Metadata write failed for command {}: {}", header.commandId(), e.getMessage());
      return new Rejection(
          RejectionCode.STORAGE_FAILED, "Cannot write table metadata: " + e.getMessage());
    }
    if (failure instanceof MetadataDocuments.UnavailableException e) {
      LOG.warn("Metadata read failed for command {}: {}", header.commandId(), e.getMessage());
      return new Rejection(RejectionCode.STORAGE_FAILED, e.getMessage());
    }
    LOG.error("Command {} could not be decided", header.commandId(), failure);
    return new Rejection(RejectionCode.INTERNAL_ERROR, "Internal error: " + failure);
  }
}
