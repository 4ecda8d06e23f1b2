package dev.floe.events.state;

import dev.floe.events.CommandReply;
import dev.floe.events.FloeJson;
import java.util.List;

/**
 * What the processor remembers of a request sent with an {@code Idempotency-Key}: its fingerprint,
 * its final outcome once known, and the retries waiting for it meanwhile.
 *
 * @param reply the first final answer, or null while the change is in flight; a table or view
 *     change's answer names its metadata file and does not hold the document, so a record stays
 *     small however large the table grows
 * @param waiters retries that arrived while it was in flight: they get the same answer
 * @param expiresAtMillis after this the key is forgotten (the advertised lifetime)
 */
public record IdempotencyRecord(
    String fingerprint, CommandReply reply, List<Waiter> waiters, long expiresAtMillis) {
  /** A retry waiting for the outcome: where to send it, under which command id. */
  public record Waiter(String replyTo, String commandId) {}

  public IdempotencyRecord {
    waiters = waiters == null ? List.of() : List.copyOf(waiters);
  }

  public static String key(String principal, String idempotencyKey) {
    return principal + "/" + idempotencyKey;
  }

  public byte[] toBytes() {
    return FloeJson.toBytes(this);
  }

  public static IdempotencyRecord fromBytes(byte[] bytes) {
    return FloeJson.fromBytes(bytes, IdempotencyRecord.class);
  }
}
