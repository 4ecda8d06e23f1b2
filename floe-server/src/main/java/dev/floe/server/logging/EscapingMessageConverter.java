package dev.floe.server.logging;

import ch.qos.logback.classic.pattern.MessageConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * {@code %safeMsg} in logback.xml: the message with its control characters escaped, so a name or
 * path a caller sent cannot forge a line of the log.
 */
public final class EscapingMessageConverter extends MessageConverter {
  @Override
  public String convert(ILoggingEvent event) {
    return ControlCharacters.escape(super.convert(event));
  }
}
