package dev.floe.events.command;

import java.util.Objects;

/**
 * What every command carries besides its payload.
 *
 * @param commandId UUIDv7 chosen by the API; names the metadata files the command writes, so a
 *     reprocessed command rewrites the same file
 * @param timestampMillis when the API accepted the request; the event time of what it causes
 * @param principal who asked (never a credential)
 * @param replyTo the id of the API instance waiting for the outcome
 * @param idempotencyKey the client's {@code Idempotency-Key}, or null
 * @param requestFingerprint a digest of the request (method, path, body) that carried the key: a
 *     key reused for another request is refused
 */
public record CommandHeader(
    String commandId,
    long timestampMillis,
    String principal,
    String replyTo,
    String idempotencyKey,
    String requestFingerprint) {
  public CommandHeader {
    Objects.requireNonNull(commandId, "commandId");
    Objects.requireNonNull(principal, "principal");
    Objects.requireNonNull(replyTo, "replyTo");
  }

  /** A header without an idempotency fingerprint. */
  public CommandHeader(
      String commandId,
      long timestampMillis,
      String principal,
      String replyTo,
      String idempotencyKey) {
    this(commandId, timestampMillis, principal, replyTo, idempotencyKey, null);
  }
}
