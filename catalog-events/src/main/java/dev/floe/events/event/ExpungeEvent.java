package dev.floe.events.event;

import dev.floe.events.Keys;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A dropped table or view left its recovery period for good (it expired, or was expunged on
 * request): it can no longer be restored and its locations are no longer held for it. Keyed by the
 * warehouse, whose directory kept it.
 */
public sealed interface ExpungeEvent extends CatalogEvent
    permits TableExpungedEvent, ViewExpungedEvent {

  /** The name it had when it was dropped. */
  TableIdentifier identifier();

  /** Its uuid; null when it was expunged before its state reached the directory. */
  String uuid();

  /** The command of the drop that started its recovery period. */
  String dropCommandId();

  /** {@code table} or {@code view}. */
  String kind();

  @Override
  default String subject() {
    return identifier().toString();
  }

  @Override
  default String key() {
    return Keys.warehouse(warehouse());
  }
}
