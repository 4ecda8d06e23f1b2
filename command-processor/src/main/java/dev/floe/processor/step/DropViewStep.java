package dev.floe.processor.step;

import dev.floe.events.command.CommandHeader;
import org.apache.iceberg.catalog.TableIdentifier;

/** Remove a view whose name the directory has already released. */
public record DropViewStep(CommandHeader header, String warehouse, TableIdentifier identifier)
    implements Step {}
