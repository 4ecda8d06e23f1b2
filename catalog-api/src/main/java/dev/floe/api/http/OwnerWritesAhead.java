package dev.floe.api.http;

import dev.floe.projections.NotLocalException;

/**
 * A commit whose table another instance hosts, on storage that is written ahead: it is sent to that
 * instance, which can write its metadata file ahead (it holds the table's state), instead of
 * leaving the write to the processor's stream thread ({@link WriteAhead}). When the owner cannot be
 * reached at all, the request was never sent, and this instance commits it the usual way.
 */
final class OwnerWritesAhead extends NotLocalException {
  OwnerWritesAhead(NotLocalException owner) {
    super(owner.host(), owner.port());
  }
}
