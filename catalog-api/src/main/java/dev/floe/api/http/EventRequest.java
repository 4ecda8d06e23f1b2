package dev.floe.api.http;

import dev.floe.api.auth.Caller;
import dev.floe.projections.events.EventFilter;
import dev.floe.projections.events.EventToken;
import java.util.List;

/**
 * An events request checked, authorised, and its token read: where to read from, and for whom.
 *
 * @param key the instances' secret, which seals the tokens
 * @param digest the filters' digest, which a token must carry
 * @param from the positions to read from, or null (the start, or {@code since})
 */
record EventRequest(
    String warehouse,
    Caller caller,
    byte[] key,
    String digest,
    List<Long> from,
    Long since,
    EventFilter filter) {

  /** The token that resumes at these positions. */
  String token(List<Long> positions) {
    return new EventToken(warehouse, digest, positions).encode(key);
  }

  /** The same request, read from elsewhere. */
  EventRequest at(List<Long> positions, Long sinceMs) {
    return new EventRequest(warehouse, caller, key, digest, positions, sinceMs, filter);
  }
}
