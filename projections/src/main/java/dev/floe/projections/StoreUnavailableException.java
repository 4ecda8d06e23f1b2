package dev.floe.projections;

/** The store that answers this key is not queryable right now (starting, rebalancing). */
public class StoreUnavailableException extends RuntimeException {
  public StoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
