package dev.floe.server.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.infra.testing.FloeProcess;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;

/** Empties the catalog through the client, so each test of a shared server starts from nothing. */
public final class CatalogCleaner {
  private CatalogCleaner() {}

  public static void empty(RESTCatalog client) {
    for (Namespace namespace : client.listNamespaces()) {
      dropRecursively(client, namespace);
    }
  }

  /**
   * Empties the catalog, and expunges (data retained) the dropped namespaces, tables and views the
   * warehouse keeps for its recovery period, so no earlier test's names or locations stay held. A
   * namespace goes first: its expunge takes what is kept inside it along.
   */
  public static void empty(RESTCatalog client, FloeProcess floe) {
    empty(client);
    String deleted = "/management/v1/warehouses/default/deleted";
    while (true) {
      List<JsonNode> kept = new ArrayList<>();
      AuthHttp.expect(200, floe.uri(), "GET", deleted, floe.adminToken(), null)
          .json()
          .path("deleted")
          .forEach(kept::add);
      if (kept.isEmpty()) {
        return;
      }
      JsonNode entity =
          kept.stream()
              .filter(e -> e.path("kind").asText().equals("namespace"))
              .findFirst()
              .orElse(kept.get(0));
      ObjectNode target = AuthHttp.JSON.createObjectNode();
      target.put("kind", entity.path("kind").asText());
      target.set("namespace", entity.path("namespace"));
      if (entity.has("name")) {
        target.put("name", entity.path("name").asText());
        target.put("uuid", entity.path("uuid").asText());
      }
      target.put("retain-data", true);
      AuthHttp.expect(
          204, floe.uri(), "POST", deleted + "/expunge", floe.adminToken(), target.toString());
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
