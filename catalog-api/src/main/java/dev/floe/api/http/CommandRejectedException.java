package dev.floe.api.http;

import dev.floe.events.RejectionCode;

/**
 * A command the processor decided against: certainly not applied, with its stable rejection code.
 */
public final class CommandRejectedException extends ApiException {
  private final RejectionCode code;

  CommandRejectedException(ErrorType errorType, RejectionCode code, String message) {
    super(errorType, message);
    this.code = code;
  }

  public RejectionCode code() {
    return code;
  }
}
