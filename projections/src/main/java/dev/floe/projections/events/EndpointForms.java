package dev.floe.projections.events;

import static dev.floe.projections.events.CatalogObjectEvent.NAMESPACE;
import static dev.floe.projections.events.CatalogObjectEvent.TABLE;
import static dev.floe.projections.events.CatalogObjectEvent.VIEW;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import dev.floe.events.event.AccessChangedEvent;
import dev.floe.events.event.CatalogEvent;
import dev.floe.events.event.EventVisitor;
import dev.floe.events.event.NamespaceCreatedEvent;
import dev.floe.events.event.NamespaceDroppedEvent;
import dev.floe.events.event.NamespaceExpungedEvent;
import dev.floe.events.event.NamespacePropertiesUpdatedEvent;
import dev.floe.events.event.NamespaceRestoredEvent;
import dev.floe.events.event.TableCommittedEvent;
import dev.floe.events.event.TableCreatedEvent;
import dev.floe.events.event.TableDroppedEvent;
import dev.floe.events.event.TableExpungedEvent;
import dev.floe.events.event.TableFilesPurgedEvent;
import dev.floe.events.event.TableMaintainedEvent;
import dev.floe.events.event.TablePurgeRefusedEvent;
import dev.floe.events.event.TableRegisteredEvent;
import dev.floe.events.event.TableRenamedEvent;
import dev.floe.events.event.TableRestoredEvent;
import dev.floe.events.event.ViewCreatedEvent;
import dev.floe.events.event.ViewDroppedEvent;
import dev.floe.events.event.ViewExpungedEvent;
import dev.floe.events.event.ViewRegisteredEvent;
import dev.floe.events.event.ViewRenamedEvent;
import dev.floe.events.event.ViewReplacedEvent;
import dev.floe.events.event.ViewRestoredEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewMetadataParser;
import org.apache.iceberg.view.ViewVersion;

/**
 * Each event type's form at the events endpoint ({@link CatalogObjectEvent#of}): the draft's
 * operation, and the names, uuid and object type the endpoint filters and authorises it by.
 */
final class EndpointForms implements EventVisitor<CatalogObjectEvent> {
  static final EndpointForms INSTANCE = new EndpointForms();
  private static final ObjectMapper JSON = FloeJson.mapper();

  private EndpointForms() {}

  @Override
  public CatalogObjectEvent namespaceCreated(NamespaceCreatedEvent e) {
    ObjectNode op = operation("create-namespace");
    op.set("namespace", namespace(e.namespace()));
    op.set("properties", JSON.valueToTree(e.properties()));
    return namespaceEvent(op, e.namespace(), e.principal(), e.warehouse());
  }

  @Override
  public CatalogObjectEvent namespacePropertiesUpdated(NamespacePropertiesUpdatedEvent e) {
    ObjectNode op = operation("update-namespace-properties");
    op.set("namespace", namespace(e.namespace()));
    op.set("updated", JSON.valueToTree(new ArrayList<>(e.updated().keySet())));
    op.set("removed", JSON.valueToTree(e.removed()));
    return namespaceEvent(op, e.namespace(), e.principal(), e.warehouse());
  }

  @Override
  public CatalogObjectEvent namespaceDropped(NamespaceDroppedEvent e) {
    ObjectNode op = operation("drop-namespace");
    op.set("namespace", namespace(e.namespace()));
    if (e.kept()) {
      op.put("x-floe-recoverable-until-ms", e.expiresAtMs());
    }
    return namespaceEvent(op, e.namespace(), e.principal(), e.warehouse());
  }

  @Override
  public CatalogObjectEvent namespaceRestored(NamespaceRestoredEvent e) {
    ObjectNode op = operation("x-floe.restore-namespace");
    op.set("namespace", namespace(e.namespace()));
    op.set("properties", JSON.valueToTree(e.properties()));
    return namespaceEvent(op, e.namespace(), e.principal(), e.warehouse());
  }

  @Override
  public CatalogObjectEvent namespaceExpunged(NamespaceExpungedEvent e) {
    ObjectNode op = operation("x-floe.expunge-namespace");
    op.set("namespace", namespace(e.namespace()));
    return namespaceEvent(op, e.namespace(), e.principal(), e.warehouse());
  }

  @Override
  public CatalogObjectEvent tableCreated(TableCreatedEvent e) {
    ObjectNode op = entity("create-table", e.identifier(), "table-uuid", e.tableUuid());
    op.set("updates", tableUpdates(e.metadata()));
    return entityEvent(op, TABLE, e.tableUuid(), e.principal(), e.warehouse(), e.identifier());
  }

  @Override
  public CatalogObjectEvent tableRegistered(TableRegisteredEvent e) {
    ObjectNode op = entity("register-table", e.identifier(), "table-uuid", e.tableUuid());
    op.set("updates", tableUpdates(e.metadata()));
    return entityEvent(op, TABLE, e.tableUuid(), e.principal(), e.warehouse(), e.identifier());
  }

  @Override
  public CatalogObjectEvent tableCommitted(TableCommittedEvent e) {
    ObjectNode op = entity("update-table", e.identifier(), "table-uuid", e.tableUuid());
    op.set("updates", JSON.valueToTree(e.updates()));
    op.set("requirements", JSON.valueToTree(e.requirements()));
    return entityEvent(op, TABLE, e.tableUuid(), e.principal(), e.warehouse(), e.identifier());
  }

  @Override
  public CatalogObjectEvent tableDropped(TableDroppedEvent e) {
    ObjectNode op = entity("drop-table", e.identifier(), "table-uuid", e.tableUuid());
    op.put("purge", e.purgeRequested());
    return entityEvent(op, TABLE, e.tableUuid(), e.principal(), e.warehouse(), e.identifier());
  }

  @Override
  public CatalogObjectEvent tableRenamed(TableRenamedEvent e) {
    ObjectNode op = rename("rename-table", e.from(), e.to(), "table-uuid", e.tableUuid());
    return entityEvent(op, TABLE, e.tableUuid(), e.principal(), e.warehouse(), e.from(), e.to());
  }

  @Override
  public CatalogObjectEvent tableRestored(TableRestoredEvent e) {
    ObjectNode op = rename("x-floe.restore-table", e.from(), e.to(), "table-uuid", e.tableUuid());
    return entityEvent(op, TABLE, e.tableUuid(), e.principal(), e.warehouse(), e.from(), e.to());
  }

  @Override
  public CatalogObjectEvent tableExpunged(TableExpungedEvent e) {
    ObjectNode op = entity("x-floe.expunge-table", e.identifier(), "table-uuid", e.tableUuid());
    op.put("purge", e.purge());
    return entityEvent(op, TABLE, e.tableUuid(), e.principal(), e.warehouse(), e.identifier());
  }

  @Override
  public CatalogObjectEvent viewCreated(ViewCreatedEvent e) {
    ObjectNode op = entity("create-view", e.identifier(), "view-uuid", e.viewUuid());
    op.set("updates", viewUpdates(e.metadataLocation(), e.metadata()));
    return entityEvent(op, VIEW, e.viewUuid(), e.principal(), e.warehouse(), e.identifier());
  }

  @Override
  public CatalogObjectEvent viewRegistered(ViewRegisteredEvent e) {
    ObjectNode op = entity("x-floe.register-view", e.identifier(), "view-uuid", e.viewUuid());
    op.set("updates", viewUpdates(e.metadataLocation(), e.metadata()));
    return entityEvent(op, VIEW, e.viewUuid(), e.principal(), e.warehouse(), e.identifier());
  }

  @Override
  public CatalogObjectEvent viewReplaced(ViewReplacedEvent e) {
    ObjectNode op = entity("update-view", e.identifier(), "view-uuid", e.viewUuid());
    op.set("updates", JSON.valueToTree(e.updates()));
    op.set("requirements", JSON.valueToTree(e.requirements()));
    return entityEvent(op, VIEW, e.viewUuid(), e.principal(), e.warehouse(), e.identifier());
  }

  @Override
  public CatalogObjectEvent viewDropped(ViewDroppedEvent e) {
    ObjectNode op = entity("drop-view", e.identifier(), "view-uuid", e.viewUuid());
    return entityEvent(op, VIEW, e.viewUuid(), e.principal(), e.warehouse(), e.identifier());
  }

  @Override
  public CatalogObjectEvent viewRenamed(ViewRenamedEvent e) {
    ObjectNode op = rename("rename-view", e.from(), e.to(), "view-uuid", e.viewUuid());
    return entityEvent(op, VIEW, e.viewUuid(), e.principal(), e.warehouse(), e.from(), e.to());
  }

  @Override
  public CatalogObjectEvent viewRestored(ViewRestoredEvent e) {
    ObjectNode op = rename("x-floe.restore-view", e.from(), e.to(), "view-uuid", e.viewUuid());
    return entityEvent(op, VIEW, e.viewUuid(), e.principal(), e.warehouse(), e.from(), e.to());
  }

  @Override
  public CatalogObjectEvent viewExpunged(ViewExpungedEvent e) {
    ObjectNode op = entity("x-floe.expunge-view", e.identifier(), "view-uuid", e.viewUuid());
    return entityEvent(op, VIEW, e.viewUuid(), e.principal(), e.warehouse(), e.identifier());
  }

  @Override
  public CatalogObjectEvent tableFilesPurged(TableFilesPurgedEvent e) {
    ObjectNode op = operation("x-floe.purge-files");
    op.put("location", e.location());
    return ofNoObject(op, e);
  }

  @Override
  public CatalogObjectEvent tablePurgeRefused(TablePurgeRefusedEvent e) {
    ObjectNode op = operation("x-floe.purge-refused");
    op.put("location", e.location());
    op.put("reason", e.reason());
    return ofNoObject(op, e);
  }

  @Override
  public CatalogObjectEvent tableMaintained(TableMaintainedEvent e) {
    ObjectNode op = entity("x-floe.maintain-table", e.identifier(), "table-uuid", e.tableUuid());
    op.put("trigger", e.trigger());
    op.put("expired-snapshots", e.expiredSnapshots());
    op.put("remaining-snapshots", e.remainingSnapshots());
    op.put("deleted-files", e.deletedFiles());
    op.put("deleted-bytes", e.deletedBytes());
    op.put("kept-outside-table", e.keptOutsideTable());
    return entityEvent(op, TABLE, e.tableUuid(), e.principal(), e.warehouse(), e.identifier());
  }

  @Override
  public CatalogObjectEvent accessChanged(AccessChangedEvent e) {
    ObjectNode op = operation("x-floe.change-access");
    op.set("change", JSON.valueToTree(e.change()));
    return ofNoObject(op, e);
  }

  /** A change to no one catalog object: a purge of files, an access change. */
  private static CatalogObjectEvent ofNoObject(ObjectNode op, CatalogEvent event) {
    return new CatalogObjectEvent(
        op.get("operation-type").asText(),
        null,
        List.of(),
        null,
        event.principal(),
        event.warehouse(),
        op);
  }

  /** The changes that made a table's first metadata, as Iceberg's table updates. */
  private static ArrayNode tableUpdates(TableMetadata metadata) {
    List<MetadataUpdate> updates = new ArrayList<>();
    updates.add(new MetadataUpdate.AssignUUID(metadata.uuid()));
    updates.add(new MetadataUpdate.UpgradeFormatVersion(metadata.formatVersion()));
    for (Schema schema : metadata.schemas()) {
      updates.add(new MetadataUpdate.AddSchema(schema));
    }
    updates.add(new MetadataUpdate.SetCurrentSchema(metadata.currentSchemaId()));
    for (PartitionSpec spec : metadata.specs()) {
      updates.add(new MetadataUpdate.AddPartitionSpec(spec));
    }
    updates.add(new MetadataUpdate.SetDefaultPartitionSpec(metadata.defaultSpecId()));
    for (SortOrder order : metadata.sortOrders()) {
      updates.add(new MetadataUpdate.AddSortOrder(order));
    }
    updates.add(new MetadataUpdate.SetDefaultSortOrder(metadata.defaultSortOrderId()));
    updates.add(new MetadataUpdate.SetLocation(metadata.location()));
    if (!metadata.properties().isEmpty()) {
      updates.add(new MetadataUpdate.SetProperties(metadata.properties()));
    }
    for (Snapshot snapshot : metadata.snapshots()) {
      updates.add(new MetadataUpdate.AddSnapshot(snapshot));
    }
    for (Map.Entry<String, SnapshotRef> ref : metadata.refs().entrySet()) {
      SnapshotRef value = ref.getValue();
      updates.add(
          new MetadataUpdate.SetSnapshotRef(
              ref.getKey(),
              value.snapshotId(),
              value.type(),
              value.minSnapshotsToKeep(),
              value.maxSnapshotAgeMs(),
              value.maxRefAgeMs()));
    }
    return JSON.valueToTree(updates);
  }

  /** The changes that made a view's metadata, as Iceberg's view updates. */
  private static ArrayNode viewUpdates(String metadataLocation, JsonNode document) {
    ViewMetadata metadata = ViewMetadataParser.fromJson(metadataLocation, document.toString());
    List<MetadataUpdate> updates = new ArrayList<>();
    updates.add(new MetadataUpdate.AssignUUID(metadata.uuid()));
    updates.add(new MetadataUpdate.UpgradeFormatVersion(metadata.formatVersion()));
    for (Schema schema : metadata.schemas()) {
      updates.add(new MetadataUpdate.AddSchema(schema));
    }
    updates.add(new MetadataUpdate.SetLocation(metadata.location()));
    if (!metadata.properties().isEmpty()) {
      updates.add(new MetadataUpdate.SetProperties(metadata.properties()));
    }
    for (ViewVersion version : metadata.versions()) {
      updates.add(new MetadataUpdate.AddViewVersion(version));
    }
    updates.add(new MetadataUpdate.SetCurrentViewVersion(metadata.currentVersionId()));
    return JSON.valueToTree(updates);
  }

  private static ObjectNode operation(String type) {
    ObjectNode op = JSON.createObjectNode();
    op.put("operation-type", type);
    return op;
  }

  private static ObjectNode entity(
      String type, TableIdentifier identifier, String uuidField, String uuid) {
    ObjectNode op = operation(type);
    op.set("identifier", identifier(identifier));
    op.put(uuidField, uuid);
    return op;
  }

  private static ObjectNode rename(
      String type, TableIdentifier from, TableIdentifier to, String uuidField, String uuid) {
    ObjectNode op = operation(type);
    op.set("source", identifier(from));
    op.set("destination", identifier(to));
    op.put(uuidField, uuid);
    return op;
  }

  private static ObjectNode identifier(TableIdentifier identifier) {
    ObjectNode node = JSON.createObjectNode();
    node.set("namespace", namespace(identifier.namespace()));
    node.put("name", identifier.name());
    return node;
  }

  private static ArrayNode namespace(Namespace namespace) {
    ArrayNode levels = JSON.createArrayNode();
    for (String level : namespace.levels()) {
      levels.add(level);
    }
    return levels;
  }

  private static CatalogObjectEvent namespaceEvent(
      ObjectNode op, Namespace namespace, String actor, String warehouse) {
    return new CatalogObjectEvent(
        op.get("operation-type").asText(),
        NAMESPACE,
        List.of(List.of(namespace.levels())),
        null,
        actor,
        warehouse,
        op);
  }

  private static CatalogObjectEvent entityEvent(
      ObjectNode op,
      String objectType,
      String uuid,
      String actor,
      String warehouse,
      TableIdentifier... identifiers) {
    List<List<String>> names = new ArrayList<>();
    for (TableIdentifier identifier : identifiers) {
      List<String> name = new ArrayList<>(List.of(identifier.namespace().levels()));
      name.add(identifier.name());
      if (!names.contains(name)) {
        names.add(List.copyOf(name));
      }
    }
    return new CatalogObjectEvent(
        op.get("operation-type").asText(), objectType, names, uuid, actor, warehouse, op);
  }
}
