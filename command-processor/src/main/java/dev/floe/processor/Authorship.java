package dev.floe.processor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotParser;

/**
 * Stamps every added snapshot's summary with who committed it ({@code floe.author-name}, {@code
 * floe.author-email}, {@code floe.author-id}), overwriting whatever the client sent: the catalog,
 * not the client, vouches for authorship. Other summary keys (including the lineage keys {@code
 * floe.source.*}) pass through untouched. The stamped updates are what the event records, so a
 * replay rebuilds the same snapshots.
 */
public final class Authorship {
  public static final String AUTHOR_NAME = "floe.author-name";
  public static final String AUTHOR_EMAIL = "floe.author-email";
  public static final String AUTHOR_ID = "floe.author-id";

  private Authorship() {}

  public static List<MetadataUpdate> stamp(List<MetadataUpdate> updates, String principal) {
    List<MetadataUpdate> stamped = new ArrayList<>(updates.size());
    for (MetadataUpdate update : updates) {
      stamped.add(
          update instanceof MetadataUpdate.AddSnapshot add
              ? new MetadataUpdate.AddSnapshot(stamp(add.snapshot(), principal))
              : update);
    }
    return stamped;
  }

  static Snapshot stamp(Snapshot snapshot, String principal) {
    try {
      ObjectNode json = (ObjectNode) FloeJson.mapper().readTree(SnapshotParser.toJson(snapshot));
      JsonNode existing = json.get("summary");
      ObjectNode summary = existing instanceof ObjectNode node ? node : json.putObject("summary");
      summary.put(AUTHOR_NAME, principal);
      // No e-mail is known for a principal until identities carry one: an empty value still
      // replaces whatever the client claimed.
      summary.put(AUTHOR_EMAIL, "");
      summary.put(AUTHOR_ID, principal);
      return SnapshotParser.fromJson(FloeJson.mapper().writeValueAsString(json));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot stamp snapshot " + snapshot.snapshotId(), e);
    }
  }
}
