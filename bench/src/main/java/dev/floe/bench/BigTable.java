package dev.floe.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

/** The {@code big-table} workloads' table: thousands of snapshots, megabytes of metadata. */
final class BigTable {
  private BigTable() {}

  /**
   * Registers a table named {@code big} in {@code ns} with {@code count} snapshots, registered from
   * a metadata file this process writes next to a table the catalog created (both catalogs run on
   * this machine, on file://).
   */
  static String register(RestTarget target, String ns, int count) {
    RestTarget.Response seed =
        target.call(
            "POST",
            "namespaces/" + ns + "/tables",
            "{\"name\":\"big_seed\",\"schema\":" + Workloads.SCHEMA + "}");
    if (seed.status() != 200) {
      throw new IllegalStateException("create big_seed: " + seed.status() + " " + seed.body());
    }
    JsonNode metadata = seed.json().path("metadata");
    String location = metadata.path("location").asText();
    target.call("DELETE", "namespaces/" + ns + "/tables/big_seed", null);
    ObjectNode big = metadata.deepCopy();
    ArrayNode snapshots = big.putArray("snapshots");
    ArrayNode log = big.putArray("snapshot-log");
    long now = System.currentTimeMillis() - count * 1000L;
    for (int i = 1; i <= count; i++) {
      ObjectNode snapshot = snapshots.addObject();
      snapshot.put("sequence-number", i);
      snapshot.put("snapshot-id", i);
      if (i > 1) {
        snapshot.put("parent-snapshot-id", i - 1);
      }
      snapshot.put("timestamp-ms", now + i * 1000L);
      ObjectNode summary = snapshot.putObject("summary");
      summary.put("operation", "append");
      summary.put("added-data-files", "1");
      summary.put("added-records", "10");
      summary.put("total-records", String.valueOf(10L * i));
      snapshot.put("manifest-list", location + "/metadata/snap-" + i + "-manifest-list.avro");
      snapshot.put("schema-id", 0);
      ObjectNode entry = log.addObject();
      entry.put("timestamp-ms", now + i * 1000L);
      entry.put("snapshot-id", i);
    }
    big.put("current-snapshot-id", count);
    big.put("last-sequence-number", count);
    big.put("last-updated-ms", now + count * 1000L);
    ObjectNode refs = big.putObject("refs");
    refs.putObject("main").put("snapshot-id", count).put("type", "branch");
    String file = location + "/metadata/00001-big.metadata.json";
    try {
      Path path = Path.of(URI.create(file.startsWith("file:/") ? file : "file:" + file));
      Files.createDirectories(path.getParent());
      Files.writeString(path, big.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    RestTarget.Response registered =
        target.call(
            "POST",
            "namespaces/" + ns + "/register",
            "{\"name\":\"big\",\"metadata-location\":\"" + file + "\"}");
    if (registered.status() != 200) {
      throw new IllegalStateException(
          "register big: " + registered.status() + " " + registered.body());
    }
    System.err.printf(
        "  %s: registered a table with %d snapshots (%d bytes of metadata)%n",
        target.name, count, big.toString().length());
    return "namespaces/" + ns + "/tables/big";
  }
}
