package dev.floe.events;

import java.util.Objects;

/** A refused command: data with a stable code, never an exception crossing Kafka. */
public record Rejection(RejectionCode code, String message) {
  public Rejection {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
  }

  public static Rejection of(RejectionCode code, String format, Object... args) {
    return new Rejection(code, String.format(format, args));
  }
}
