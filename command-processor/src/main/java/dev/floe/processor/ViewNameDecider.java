package dev.floe.processor;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.events.FloeJson;
import dev.floe.events.Rejection;
import dev.floe.events.command.CreateViewCommand;
import dev.floe.events.command.DropViewCommand;
import dev.floe.events.command.RegisterViewCommand;
import dev.floe.events.state.DeletedEntity;
import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.infra.storage.location.Location;
import dev.floe.processor.step.CreateViewStep;
import dev.floe.processor.step.DropViewStep;
import dev.floe.processor.step.EntityKind;
import dev.floe.processor.step.RegisterViewStep;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewMetadataParser;
import org.apache.iceberg.view.ViewProperties;

/**
 * The name half of view commands, on the warehouse key. Tables and views share one name space per
 * namespace: a name held by either is taken for both.
 */
final class ViewNameDecider {
  private ViewNameDecider() {}

  static Decision create(Directory directory, LocationAuthority locations, CreateViewCommand c) {
    String id = c.header().commandId();
    Optional<Rejection> taken =
        TabularNames.requireFreeName(directory, EntityKind.VIEW, c.identifier());
    if (taken.isPresent()) {
      return Decision.rejected(id, taken.get());
    }
    ViewMetadata metadata;
    Location root;
    try {
      root =
          Placement.area(
              directory,
              locations,
              c.warehouse(),
              c.identifier().namespace(),
              c.request().properties());
      metadata = build(c, root.spelling());
    } catch (RuntimeException e) {
      return Decision.rejected(id, Rejection.invalid(e));
    }
    // A view's metadata files go to its location (or write.metadata.path inside it): the location
    // lies inside the storage root and overlaps no other entity's, as a table's does.
    // A view of the same name dropped and kept there gives its location over, as for a table.
    List<DeletedEntity> superseded =
        TakeOver.sameNameAt(
            directory, locations, DeletedEntity.VIEW, c.identifier(), metadata.location());
    Optional<Rejection> badLocation =
        Placement.check(
            TakeOver.without(directory.claims(), superseded),
            locations,
            root,
            metadata.location(),
            metadata.properties(),
            LocationAuthority.VIEW_PATH_PROPERTIES,
            directory.viewHolder(c.identifier()));
    if (badLocation.isPresent()) {
      return Decision.rejected(id, badLocation.get());
    }
    return Decision.step(
        TakeOver.supersede(superseded, c.warehouse(), c.header()),
        new CreateViewStep(
            c.header(),
            c.warehouse(),
            c.identifier(),
            json(metadata),
            metadataLocation(metadata, 0, id)));
  }

  static Decision register(
      Directory directory, LocationAuthority locations, RegisterViewCommand c) {
    Optional<Rejection> taken =
        TabularNames.requireFreeName(directory, EntityKind.VIEW, c.identifier());
    if (taken.isPresent()) {
      return Decision.rejected(c.header().commandId(), taken.get());
    }
    Map<String, String> properties = new HashMap<>();
    c.metadata()
        .path("properties")
        .fields()
        .forEachRemaining(e -> properties.put(e.getKey(), e.getValue().asText()));
    Registration placed =
        Registration.decide(
            directory,
            locations,
            new Registration.Request(
                EntityKind.VIEW,
                c.warehouse(),
                c.identifier(),
                c.managedNamespaces(),
                c.metadata().path("view-uuid").asText(null),
                c.metadata().path("location").asText(null),
                c.metadataLocation(),
                properties));
    if (placed.refused().isPresent()) {
      return Decision.rejected(c.header().commandId(), placed.refused().get());
    }
    List<DeletedEntity> superseded = placed.superseded();
    return Decision.step(
        TakeOver.supersede(superseded, c.warehouse(), c.header()),
        new RegisterViewStep(
            c.header(), c.warehouse(), c.identifier(), c.metadata(), c.metadataLocation()));
  }

  static Decision drop(Directory directory, DropViewCommand c) {
    Optional<Rejection> missing =
        TabularNames.requireExisting(directory, EntityKind.VIEW, c.identifier());
    if (missing.isPresent()) {
      return Decision.rejected(c.header().commandId(), missing.get());
    }
    return Decision.step(
        new DropViewStep(
            c.header(),
            c.warehouse(),
            c.identifier(),
            TabularNames.expiresAt(directory, c.header().timestampMillis())));
  }

  /**
   * UUID and default location derive from the command, so a reprocessed create builds the same
   * view.
   */
  private static ViewMetadata build(CreateViewCommand c, String root) {
    CreateViewRequest request = c.request();
    String uuid =
        UUID.nameUUIDFromBytes(
                ("floe-view:" + c.header().commandId()).getBytes(StandardCharsets.UTF_8))
            .toString();
    String location =
        request.location() != null
            ? request.location()
            : LocationAuthority.defaultLocation(Location.parse(root), c.identifier().name(), uuid);
    return ViewMetadata.builder()
        .assignUUID(uuid)
        .setLocation(location)
        .setProperties(request.properties())
        .setCurrentVersion(request.viewVersion(), request.schema())
        .build();
  }

  /** {@code write.metadata.path} when the view sets it, else {@code <location>/metadata}. */
  static String metadataLocation(ViewMetadata metadata, int version, String commandId) {
    String dir = metadata.properties().get(ViewProperties.WRITE_METADATA_LOCATION);
    // The view's own spelling of its locations is kept (no normal form): clients compare them.
    String base = trimSlash(dir != null ? dir : metadata.location() + "/metadata");
    return String.format("%s/%05d-%s.metadata.json", base, version, commandId);
  }

  private static String trimSlash(String location) {
    return location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
  }

  static JsonNode json(ViewMetadata metadata) {
    try {
      return FloeJson.mapper().readTree(ViewMetadataParser.toJson(metadata));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
