package dev.floe.api.http;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.floe.events.state.MetadataDocuments;
import dev.floe.projections.CatalogQueries;
import dev.floe.projections.replay.AsOfQueries;
import dev.floe.projections.replay.EventLogReader;
import dev.floe.projections.replay.ReplayState;
import java.time.Duration;
import java.time.Instant;

/**
 * The catalog as of a past time, for the read-only warehouse prefixes {@code <warehouse>@<time>}:
 * built by replaying {@code floe.events} up to that time, and kept for a while, since an engine
 * that reads "as of yesterday" sends many requests for the same time.
 */
public final class AsOfCatalogs {
  private final String bootstrapServers;
  private final String eventsTopic;
  private final MetadataDocuments files;
  private final Cache<Instant, CatalogQueries> cache =
      Caffeine.newBuilder().maximumSize(16).expireAfterAccess(Duration.ofMinutes(10)).build();

  /**
   * @param files reads a table's metadata file as written, which an as-of load answers
   */
  public AsOfCatalogs(String bootstrapServers, String eventsTopic, MetadataDocuments files) {
    this.bootstrapServers = bootstrapServers;
    this.eventsTopic = eventsTopic;
    this.files = files;
  }

  /** Blocks while the log is replayed; call it off the event loop. */
  CatalogQueries asOf(Instant time) {
    return cache.get(
        time,
        t -> {
          ReplayState state = new ReplayState();
          EventLogReader.replay(
              bootstrapServers,
              eventsTopic,
              new EventLogReader.Until(t, null),
              state,
              (done, total) -> {});
          return new AsOfQueries(state, files);
        });
  }
}
