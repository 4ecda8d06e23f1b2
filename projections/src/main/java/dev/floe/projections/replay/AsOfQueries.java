package dev.floe.projections.replay;

import dev.floe.events.state.MetadataDocuments;
import dev.floe.events.state.NamespaceState;
import dev.floe.events.state.PendingAreaPurge;
import dev.floe.events.state.TableState;
import dev.floe.projections.CatalogQueries;
import dev.floe.projections.Page;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * {@link CatalogQueries} over a catalog replayed up to a point in time: read-only, as of then. A
 * table's document is the metadata file its replayed pointer names, as written then (its {@code
 * last-updated-ms} and metadata-log times are the commit's, not the replay's); only a file that can
 * no longer be read is answered from the replay's rebuild.
 */
public final class AsOfQueries implements CatalogQueries {
  private final ReplayState state;
  private final MetadataDocuments files;

  /**
   * @param files reads a metadata file as written
   */
  public AsOfQueries(ReplayState state, MetadataDocuments files) {
    this.state = state;
    this.files = files;
  }

  @Override
  public Optional<NamespaceState> namespace(String warehouse, Namespace namespace) {
    return Optional.ofNullable(
        state.namespaces().get(new ReplayState.NamespaceRef(warehouse, namespace)));
  }

  @Override
  public Page<Namespace> listNamespaces(
      String warehouse, Namespace parent, String pageToken, Integer pageSize) {
    List<Namespace> children = new ArrayList<>();
    for (ReplayState.NamespaceRef ref : state.namespaces().keySet()) {
      Namespace ns = ref.namespace();
      if (ref.warehouse().equals(warehouse)
          && ns.length() == parent.length() + 1
          && startsWith(ns, parent)) {
        children.add(ns);
      }
    }
    return page(children, Namespace::toString, pageToken, pageSize);
  }

  @Override
  public Page<TableIdentifier> listTables(
      String warehouse, Namespace namespace, String pageToken, Integer pageSize) {
    List<TableIdentifier> tables = new ArrayList<>();
    for (ReplayedTable table : state.tables()) {
      if (table.warehouse().equals(warehouse) && table.identifier().namespace().equals(namespace)) {
        tables.add(table.identifier());
      }
    }
    return page(tables, TableIdentifier::name, pageToken, pageSize);
  }

  @Override
  public Optional<TableState> table(String warehouse, TableIdentifier identifier) {
    return Optional.ofNullable(state.table(warehouse, identifier, files));
  }

  @Override
  public Optional<TableState> view(String warehouse, TableIdentifier identifier) {
    return Optional.ofNullable(state.view(warehouse, identifier));
  }

  @Override
  public Page<TableIdentifier> listViews(
      String warehouse, Namespace namespace, String pageToken, Integer pageSize) {
    List<TableIdentifier> views = new ArrayList<>();
    for (ReplayedTable view : state.views()) {
      if (view.warehouse().equals(warehouse) && view.identifier().namespace().equals(namespace)) {
        views.add(view.identifier());
      }
    }
    return page(views, TableIdentifier::name, pageToken, pageSize);
  }

  @Override
  public List<String> pendingPurges(String warehouse) {
    return List.of();
  }

  @Override
  public List<PendingAreaPurge> pendingAreaPurges(String warehouse) {
    return List.of();
  }

  private static boolean startsWith(Namespace namespace, Namespace prefix) {
    for (int i = 0; i < prefix.length(); i++) {
      if (!namespace.level(i).equals(prefix.level(i))) {
        return false;
      }
    }
    return true;
  }

  /** Sorted by name; the page token is the last name served. */
  private static <T> Page<T> page(
      List<T> items, Function<T, String> name, String pageToken, Integer pageSize) {
    items.sort(Comparator.comparing(name));
    List<T> page = new ArrayList<>();
    for (T item : items) {
      if (pageToken != null && !pageToken.isEmpty() && name.apply(item).compareTo(pageToken) <= 0) {
        continue;
      }
      if (pageSize != null && page.size() == pageSize) {
        return new Page<>(page, name.apply(page.get(page.size() - 1)));
      }
      page.add(item);
    }
    return new Page<>(page, null);
  }
}
