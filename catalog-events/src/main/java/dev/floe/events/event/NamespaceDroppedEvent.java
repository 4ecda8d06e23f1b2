package dev.floe.events.event;

import org.apache.iceberg.catalog.Namespace;

public record NamespaceDroppedEvent(
    String warehouse, Namespace namespace, String commandId, String principal, long sequence)
    implements NamespaceEvent {
}
