package dev.floe.events;

/** The names of Floe's topics, under a configurable prefix (default {@code floe.}). */
public record Topics(String prefix) {
  public static final Topics DEFAULT = new Topics("floe.");

  public Topics {
    if (prefix == null) {
      throw new IllegalArgumentException("topic prefix must not be null");
    }
  }

  /** Commands from the API to the processor, keyed by warehouse or table. */
  public String commands() {
    return prefix + "commands";
  }

  /** Internal steps the processor sends itself, e.g. the table half of a create or a drop. */
  public String steps() {
    return prefix + "steps";
  }

  /** The log of record: one CloudEvents envelope per change. */
  public String events() {
    return prefix + "events";
  }

  /**
   * Request outcomes that matter (changes, refusals, failed commits): one {@code AuditRecord} each.
   */
  public String audit() {
    return prefix + "audit";
  }

  /**
   * Per principal, table and minute, how many S3 requests the catalog signed and refused for
   * engines: one {@code DataAccessRecord} each.
   */
  public String dataAccess() {
    return prefix + "data-access";
  }

  /** Outcomes back to the instance holding the HTTP request, keyed by that instance's id. */
  public String replies() {
    return prefix + "replies";
  }

  /** The Kafka Streams application id, which also prefixes the changelog topics. */
  public String applicationId() {
    return prefix + "processor";
  }
}
