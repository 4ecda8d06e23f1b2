package dev.floe.events;

/**
 * How large one Kafka record of Floe's may be. A create or register event carries the table's whole
 * metadata document (a table's stored state, its replies and idempotency records carry only a
 * pointer to the file), and a table with ten thousand snapshots has a metadata document of about 4
 * MB, so Kafka's default of 1 MB is far too small. The broker, Floe's topics, the changelog topics
 * and every producer are configured for {@link #MAX_RECORD_BYTES}; the processor refuses a change
 * whose metadata document would exceed {@link #MAX_TABLE_STATE_BYTES} (a 413, nothing applied),
 * leaving room for the JSON escaping of a create or register event and for a multi-table
 * transaction's prepared state.
 */
public final class RecordLimits {
  private RecordLimits() {}

  public static final int MAX_RECORD_BYTES = 32 * 1024 * 1024;

  public static final int MAX_TABLE_STATE_BYTES = 24 * 1024 * 1024;

  /** {@code max.request.size} of producers: one record and its batch overhead. */
  public static final int MAX_REQUEST_BYTES = MAX_RECORD_BYTES + 64 * 1024;
}
