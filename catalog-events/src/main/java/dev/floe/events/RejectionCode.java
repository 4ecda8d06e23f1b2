package dev.floe.events;

/** Why the processor refused a command. Stable: these codes cross Kafka and live in the log. */
public enum RejectionCode {
  NAMESPACE_NOT_FOUND,
  NAMESPACE_ALREADY_EXISTS,
  NAMESPACE_NOT_EMPTY,
  TABLE_NOT_FOUND,
  TABLE_ALREADY_EXISTS,
  REQUIREMENT_FAILED,
  INVALID_REQUEST,
  /** The request's values are invalid (Iceberg threw IllegalArgumentException). */
  INVALID_ARGUMENT,
  UNPROCESSABLE,
  /** An Idempotency-Key was reused with a different request. */
  IDEMPOTENCY_KEY_REUSED,
  WAREHOUSE_NOT_FOUND,
  VIEW_NOT_FOUND,
  /** The warehouse storage failed; nothing was applied and the client may retry. */
  STORAGE_FAILED,
  /** The change would make a table's state larger than Floe's records take; nothing applied. */
  TOO_LARGE,
  PRINCIPAL_NOT_FOUND,
  PRINCIPAL_ALREADY_EXISTS,
  TOKEN_NOT_FOUND,
  GRANT_NOT_FOUND,
  /** A bug: the processor could not decide the command; nothing was applied. */
  INTERNAL_ERROR
}
