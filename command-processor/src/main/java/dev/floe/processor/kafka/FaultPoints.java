package dev.floe.processor.kafka;

import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fault injection for the crash tests: halts the process (as SIGKILL would, no shutdown hooks) just
 * before the processor decides the first command or step of a named type, so that record's Kafka
 * transaction never commits and the record is decided again after the restart. Off unless {@code
 * floe.testing.halt-before} names record types (class names such as {@code PrepareTableStep});
 * never set it in production.
 */
public final class FaultPoints {
  private static final Logger LOG = LoggerFactory.getLogger(FaultPoints.class);
  public static final FaultPoints NONE = new FaultPoints(Set.of());

  private final Set<String> haltBefore;

  public FaultPoints(Set<String> haltBefore) {
    this.haltBefore = Set.copyOf(haltBefore);
  }

  void before(Object record) {
    if (!haltBefore.isEmpty() && haltBefore.contains(record.getClass().getSimpleName())) {
      LOG.error("floe.testing.halt-before: halting before {}", record.getClass().getSimpleName());
      Runtime.getRuntime().halt(137);
    }
  }
}
