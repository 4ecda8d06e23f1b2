package dev.floe.infra.storage;

/**
 * Storage refused a location by rule, not by failure: outside every storage root, or through a
 * symbolic link below one. Trying again cannot succeed, so it is the request's error (400), never a
 * storage outage (503).
 */
public final class LocationRefusedException extends IllegalArgumentException {
  public LocationRefusedException(String message) {
    super(message);
  }

  /** The refusal among {@code e} and its causes, if there is one. */
  public static LocationRefusedException in(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof LocationRefusedException refused) {
        return refused;
      }
    }
    return null;
  }
}
