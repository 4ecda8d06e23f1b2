package dev.floe.server.logging;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;

/**
 * {@code %safeEx} in logback.xml: a stack trace as {@code %ex} writes it, with the control
 * characters of each exception's message escaped (a message may quote a caller's input); the stack
 * frames keep their own lines.
 */
public final class EscapingThrowableConverter extends ThrowableProxyConverter {
  @Override
  protected String throwableProxyToString(IThrowableProxy proxy) {
    return super.throwableProxyToString(Escaped.of(proxy));
  }

  /** The same throwable, causes and suppressed ones included, with escaped messages. */
  private record Escaped(IThrowableProxy proxy) implements IThrowableProxy {
    static IThrowableProxy of(IThrowableProxy proxy) {
      return proxy == null ? null : new Escaped(proxy);
    }

    @Override
    public String getMessage() {
      return ControlCharacters.escape(proxy.getMessage());
    }

    @Override
    public String getClassName() {
      return proxy.getClassName();
    }

    @Override
    public StackTraceElementProxy[] getStackTraceElementProxyArray() {
      return proxy.getStackTraceElementProxyArray();
    }

    @Override
    public int getCommonFrames() {
      return proxy.getCommonFrames();
    }

    @Override
    public IThrowableProxy getCause() {
      return of(proxy.getCause());
    }

    @Override
    public IThrowableProxy[] getSuppressed() {
      IThrowableProxy[] suppressed = proxy.getSuppressed();
      if (suppressed == null) {
        return null;
      }
      IThrowableProxy[] escaped = new IThrowableProxy[suppressed.length];
      for (int i = 0; i < suppressed.length; i++) {
        escaped[i] = of(suppressed[i]);
      }
      return escaped;
    }

    @Override
    public boolean isCyclic() {
      return proxy.isCyclic();
    }
  }
}
