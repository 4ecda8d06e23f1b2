package dev.floe.projections;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** One page of a listing; {@code nextPageToken} is null on the last page. */
public record Page<T>(List<T> items, String nextPageToken) {
  public Page {
    // Iceberg's response builders probe with contains(null): immutable lists would throw.
    items = Collections.unmodifiableList(new ArrayList<>(items));
  }
}
