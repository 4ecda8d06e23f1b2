package dev.floe.api.http;

import dev.floe.events.RejectionCode;

/**
 * A command the processor decided against: certainly not applied, with its stable rejection code.
 */
public final class CommandRejectedException extends ApiException {
  private final RejectionCode code;

  CommandRejectedException(int status, String type, RejectionCode code, String message) {
    super(status, type, message);
    this.code = code;
  }

  public RejectionCode code() {
    return code;
  }
}
