package dev.floe.infra.storage.location;

/** A location Floe refuses to use at all; the message says why and is safe to show a client. */
public class InvalidLocationException extends IllegalArgumentException {
  public InvalidLocationException(String message) {
    super(message);
  }
}
