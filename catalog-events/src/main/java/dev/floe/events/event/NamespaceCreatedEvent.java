package dev.floe.events.event;

import dev.floe.events.Keys;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;

public record NamespaceCreatedEvent(
    String warehouse,
    Namespace namespace,
    Map<String, String> properties,
    String commandId,
    String principal,
    long sequence)
    implements CatalogEvent {
  public NamespaceCreatedEvent {
    properties = properties == null ? Map.of() : Map.copyOf(properties);
  }

  @Override
  public String subject() {
    return namespace.toString();
  }

  @Override
  public String key() {
    return Keys.warehouse(warehouse);
  }
}
