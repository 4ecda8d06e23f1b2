package dev.floe.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Namespaces {@code width} wide and {@code depth} deep under a root, with {@code
 * tablesPerNamespace} tables in each of the deepest: what {@code create-tree} measures and the
 * other workloads read.
 */
final class NamespaceTree {
  private final RestTarget target;
  private final Workloads.Settings settings;

  /** Every level's namespaces, the root's first; each namespace as its levels. */
  private final List<List<List<String>>> levels = new ArrayList<>();

  private final List<String> leaves = new ArrayList<>();

  private NamespaceTree(RestTarget target, Workloads.Settings settings) {
    this.target = target;
    this.settings = settings;
  }

  /** Creates the tree, each create timed into {@code stats}. */
  static NamespaceTree create(
      RestTarget target, Workloads.Settings settings, String root, Stats stats) {
    NamespaceTree tree = new NamespaceTree(target, settings);
    tree.build(root, stats);
    return tree;
  }

  /** The deepest namespaces, as paths of the REST API. */
  List<String> leaves() {
    return leaves;
  }

  /** The deepest namespaces, as their levels, in the order of {@link #leaves()}. */
  List<List<String>> leafLevels() {
    return levels.get(levels.size() - 1);
  }

  private void build(String root, Stats stats) {
    List<List<String>> level = List.of(List.of(root));
    levels.add(level);
    createNamespace(stats, List.of(root));
    for (int d = 0; d < settings.depth(); d++) {
      List<List<String>> next = new ArrayList<>();
      for (List<String> parent : level) {
        for (int w = 0; w < settings.width(); w++) {
          List<String> child = new ArrayList<>(parent);
          child.add("ns" + w);
          next.add(child);
        }
      }
      Load.parallel(next.size(), i -> createNamespace(stats, next.get(i)), settings.clients());
      level = next;
      levels.add(next);
    }
    for (List<String> ns : level) {
      leaves.add(target.namespacePath(ns));
    }
    int perNamespace = settings.tablesPerNamespace();
    Load.parallel(
        leaves.size() * perNamespace,
        i -> {
          String ns = leaves.get(i / perNamespace);
          String name = "t" + (i % perNamespace);
          Load.timed(stats, () -> createTable(target, ns, name));
        },
        settings.clients());
  }

  /** Drops the tree's tables, then its namespaces from the deepest level up. */
  void drop() {
    int perNamespace = settings.tablesPerNamespace();
    Load.parallel(
        leaves.size() * perNamespace,
        i ->
            status(
                "DELETE",
                "namespaces/" + leaves.get(i / perNamespace) + "/tables/t" + (i % perNamespace),
                null),
        settings.clients());
    for (int d = levels.size() - 1; d >= 0; d--) {
      List<List<String>> level = levels.get(d);
      Load.parallel(
          level.size(),
          i -> status("DELETE", "namespaces/" + target.namespacePath(level.get(i)), null),
          settings.clients());
    }
  }

  private void createNamespace(Stats stats, List<String> levels) {
    ObjectNode body = RestTarget.JSON.createObjectNode();
    ArrayNode array = body.putArray("namespace");
    levels.forEach(array::add);
    ObjectNode props = body.putObject("properties");
    for (int p = 0; p < settings.propertiesPerNamespace(); p++) {
      props.put("key" + p, "value" + p);
    }
    Load.timed(stats, () -> status("POST", "namespaces", body.toString()));
  }

  /** Creates a table of one long column; returns the answer's status. */
  static int createTable(RestTarget target, String namespacePath, String name) {
    return target
        .call(
            "POST",
            "namespaces/" + namespacePath + "/tables",
            "{\"name\":\"" + name + "\",\"schema\":" + Workloads.SCHEMA + "}")
        .status();
  }

  private int status(String method, String path, String body) {
    return target.call(method, path, body).status();
  }
}
