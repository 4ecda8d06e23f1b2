package dev.floe.processor;

import static dev.floe.events.RejectionCode.NAMESPACE_NOT_FOUND;
import static dev.floe.events.RejectionCode.TABLE_ALREADY_EXISTS;
import static dev.floe.events.RejectionCode.VIEW_NOT_FOUND;

import dev.floe.events.FloeJson;
import dev.floe.events.Rejection;
import dev.floe.events.command.CreateViewCommand;
import dev.floe.events.command.DropViewCommand;
import dev.floe.events.command.RegisterViewCommand;
import dev.floe.events.command.RenameViewCommand;
import dev.floe.processor.step.CreateViewStep;
import dev.floe.processor.step.DropViewStep;
import dev.floe.processor.step.MoveViewOutStep;
import dev.floe.processor.step.RegisterViewStep;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewMetadataParser;

/**
 * The name half of view commands, on the warehouse key. Tables and views share one name space per
 * namespace: a name held by either is taken for both.
 */
final class ViewNameDecider {
  private ViewNameDecider() {}

  static Decision create(Directory directory, CreateViewCommand c) {
    String id = c.header().commandId();
    Optional<Rejection> taken = requireFreeName(directory, c.identifier());
    if (taken.isPresent()) {
      return Decision.rejected(id, taken.get());
    }
    ViewMetadata metadata;
    try {
      metadata = build(c);
    } catch (RuntimeException e) {
      return Decision.rejected(id, Rejection.invalid(e));
    }
    return Decision.step(
        new CreateViewStep(
            c.header(),
            c.warehouse(),
            c.identifier(),
            json(metadata),
            metadataLocation(metadata, 0, id)));
  }

  static Decision register(Directory directory, RegisterViewCommand c) {
    Optional<Rejection> taken = requireFreeName(directory, c.identifier());
    if (taken.isPresent()) {
      return Decision.rejected(c.header().commandId(), taken.get());
    }
    return Decision.step(
        new RegisterViewStep(
            c.header(), c.warehouse(), c.identifier(), c.metadata(), c.metadataLocation()));
  }

  static Decision drop(Directory directory, DropViewCommand c) {
    if (!directory.viewExists(c.identifier())) {
      return Decision.rejected(
          c.header().commandId(),
          Rejection.of(VIEW_NOT_FOUND, "View does not exist: %s", c.identifier()));
    }
    return Decision.step(new DropViewStep(c.header(), c.warehouse(), c.identifier()));
  }

  static Decision rename(Directory directory, RenameViewCommand c) {
    String id = c.header().commandId();
    if (!directory.viewExists(c.source())) {
      return Decision.rejected(
          id, Rejection.of(VIEW_NOT_FOUND, "View does not exist: %s", c.source()));
    }
    if (directory.namespace(c.destination().namespace()).isEmpty()) {
      return Decision.rejected(id, namespaceMissing(c.destination().namespace()));
    }
    if (directory.tableExists(c.destination())) {
      return Decision.rejected(
          id,
          Rejection.of(
              TABLE_ALREADY_EXISTS,
              "Cannot rename %s to %s. Table already exists",
              c.source(),
              c.destination()));
    }
    if (directory.viewExists(c.destination())) {
      return Decision.rejected(
          id,
          Rejection.of(
              TABLE_ALREADY_EXISTS,
              "Cannot rename %s to %s. View already exists",
              c.source(),
              c.destination()));
    }
    return Decision.step(
        new MoveViewOutStep(c.header(), c.warehouse(), c.source(), c.destination()));
  }

  private static Optional<Rejection> requireFreeName(Directory directory, TableIdentifier view) {
    if (directory.namespace(view.namespace()).isEmpty()) {
      return Optional.of(namespaceMissing(view.namespace()));
    }
    if (directory.tableExists(view)) {
      return Optional.of(
          Rejection.of(TABLE_ALREADY_EXISTS, "Table with same name already exists: %s", view));
    }
    if (directory.viewExists(view)) {
      return Optional.of(Rejection.of(TABLE_ALREADY_EXISTS, "View already exists: %s", view));
    }
    return Optional.empty();
  }

  /**
   * UUID and default location derive from the command, so a reprocessed create builds the same
   * view.
   */
  private static ViewMetadata build(CreateViewCommand c) {
    CreateViewRequest request = c.request();
    String uuid =
        UUID.nameUUIDFromBytes(
                ("floe-view:" + c.header().commandId()).getBytes(StandardCharsets.UTF_8))
            .toString();
    String location =
        request.location() != null
            ? request.location()
            : defaultLocation(c.warehouseRoot(), c.identifier(), uuid);
    return ViewMetadata.builder()
        .assignUUID(uuid)
        .setLocation(location)
        .setProperties(request.properties())
        .setCurrentVersion(request.viewVersion(), request.schema())
        .build();
  }

  private static String defaultLocation(String root, TableIdentifier view, String uuid) {
    List<String> parts = new ArrayList<>();
    parts.add(root);
    for (String level : view.namespace().levels()) {
      parts.add(level.replaceAll("[^A-Za-z0-9_-]", "_"));
    }
    parts.add(view.name().replaceAll("[^A-Za-z0-9_-]", "_") + "-" + uuid.replace("-", ""));
    return String.join("/", parts);
  }

  /** {@code write.metadata.path} when the view sets it, else {@code <location>/metadata}. */
  static String metadataLocation(ViewMetadata metadata, int version, String commandId) {
    String dir =
        metadata.properties().get(org.apache.iceberg.view.ViewProperties.WRITE_METADATA_LOCATION);
    // The view's own spelling of its locations is kept (no normal form): clients compare them.
    String base = trimSlash(dir != null ? dir : metadata.location() + "/metadata");
    return String.format("%s/%05d-%s.metadata.json", base, version, commandId);
  }

  private static String trimSlash(String location) {
    return location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
  }

  static com.fasterxml.jackson.databind.JsonNode json(ViewMetadata metadata) {
    try {
      return FloeJson.mapper().readTree(ViewMetadataParser.toJson(metadata));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Rejection namespaceMissing(Namespace namespace) {
    return Rejection.of(NAMESPACE_NOT_FOUND, "Namespace does not exist: %s", namespace);
  }
}
