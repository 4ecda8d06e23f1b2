package dev.floe.events;

import java.util.Objects;

/** A refused command: data with a stable code, never an exception crossing Kafka. */
public record Rejection(RejectionCode code, String message) {
  public Rejection {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
  }

  /**
   * Iceberg refused the change: an IllegalArgumentException is a bad argument, anything else a bad
   * request.
   */
  public static Rejection invalid(RuntimeException e) {
    return new Rejection(
        e instanceof IllegalArgumentException
            ? RejectionCode.INVALID_ARGUMENT
            : RejectionCode.INVALID_REQUEST,
        String.valueOf(e.getMessage()));
  }

  public static Rejection of(RejectionCode code, String format, Object... args) {
    return new Rejection(code, String.format(format, args));
  }
}
