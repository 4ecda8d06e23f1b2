package dev.floe.api.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * How Floe's instances recognise each other on their internal routes ({@code /internal/v1/…}): each
 * sends the secret they share (held in the access state, created by the first instance) in {@link
 * #HEADER}; a request without it is 401, with another one 403, decided before the route does any
 * work (a catch-up with Kafka, a store read), so refusing costs next to nothing.
 */
public final class InternalAuth {
  public static final String HEADER = "X-Floe-Instance-Secret";

  private final Supplier<Optional<String>> secret;

  public InternalAuth(Supplier<Optional<String>> secret) {
    this.secret = secret;
  }

  /** The secret to send to another instance, once there is one. */
  public Optional<String> secret() {
    return secret.get();
  }

  /** Null when the presented secret is this instance's; else the refusal to answer. */
  ApiException refusal(String presented) {
    if (presented == null || presented.isEmpty()) {
      return ApiException.notAuthenticated("internal routes are for Floe's instances");
    }
    Optional<String> expected = secret.get();
    // Digests compared in constant time: how long the comparison takes tells nothing.
    if (expected.isEmpty() || !MessageDigest.isEqual(digest(presented), digest(expected.get()))) {
      return new ApiException(ErrorType.FORBIDDEN, "not the secret of this catalog's instances");
    }
    return null;
  }

  private static byte[] digest(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
