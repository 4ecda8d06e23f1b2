package dev.floe.api.auth;

/**
 * Who sent a request: a principal's name. {@code unrestricted} only when authentication is off
 * ({@code floe.auth=none}).
 */
public record Caller(String name, boolean unrestricted) {
  public static final Caller ANONYMOUS = new Caller("anonymous", true);

  public static Caller principal(String name) {
    return new Caller(name, false);
  }
}
