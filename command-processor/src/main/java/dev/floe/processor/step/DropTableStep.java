package dev.floe.processor.step;

import dev.floe.events.command.CommandHeader;
import org.apache.iceberg.catalog.TableIdentifier;

/** Remove a table whose name the directory has already released. */
public record DropTableStep(
    CommandHeader header, String warehouse, TableIdentifier identifier, boolean purgeRequested)
    implements Step {}
