package dev.floe.server.it.support;

import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * Empties the catalog through the client, as a user would ({@code DROP … CASCADE} of everything),
 * so each test of a shared server starts with no live namespace. What the drops keep for the
 * warehouse's recovery period stays kept: nothing is expunged.
 */
public final class CatalogCleaner {
  private CatalogCleaner() {}

  public static void empty(RESTCatalog client) {
    for (Namespace namespace : client.listNamespaces()) {
      dropRecursively(client, namespace);
    }
  }

  private static void dropRecursively(RESTCatalog client, Namespace namespace) {
    for (Namespace child : client.listNamespaces(namespace)) {
      dropRecursively(client, child);
    }
    for (TableIdentifier view : client.listViews(namespace)) {
      client.dropView(view);
    }
    for (TableIdentifier table : client.listTables(namespace)) {
      client.dropTable(table, false);
    }
    client.dropNamespace(namespace);
  }
}
