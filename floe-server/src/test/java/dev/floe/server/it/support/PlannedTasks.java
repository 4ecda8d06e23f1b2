package dev.floe.server.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.ExpressionParser;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponseParser;

/**
 * A plan's file scan tasks as compared: by data file, its delete files, its residual, its spec and
 * which column bounds it carries.
 */
public final class PlannedTasks {
  private PlannedTasks() {}

  /** What a plan says about one data file. */
  public record Planned(
      Set<String> deletes, String residual, int specId, Set<Integer> boundedColumns) {}

  public static Map<String, Planned> of(TableScan scan) {
    return of(scan.planFiles());
  }

  public static Map<String, Planned> of(CloseableIterable<FileScanTask> tasks) {
    Map<String, Planned> planned = new TreeMap<>();
    try (tasks) {
      for (FileScanTask task : tasks) {
        Set<String> deletes = new TreeSet<>();
        task.deletes().forEach(delete -> deletes.add(delete.location()));
        Planned previous =
            planned.put(
                task.file().location(),
                new Planned(
                    deletes,
                    String.valueOf(task.residual()),
                    task.file().specId(),
                    bounded(task.file())));
        if (previous != null) {
          throw new AssertionError("Planned twice: " + task.file().location());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return planned;
  }

  private static Set<Integer> bounded(ContentFile<?> file) {
    return file.lowerBounds() == null ? Set.of() : new TreeSet<>(file.lowerBounds().keySet());
  }

  /**
   * An incremental plan served by {@code POST …/plan} with {@code start-snapshot-id} and {@code
   * end-snapshot-id} (Iceberg's Java client plans incremental scans itself), read with Iceberg's
   * parser; all its tasks come in that answer.
   */
  public static Map<String, Planned> served(
      String uri,
      String token,
      Table table,
      TableIdentifier name,
      long start,
      long end,
      Expression filter) {
    String body =
        "{\"start-snapshot-id\":"
            + start
            + ",\"end-snapshot-id\":"
            + end
            + ",\"filter\":"
            + ExpressionParser.toJson(filter)
            + "}";
    AuthHttp.Response answer =
        AuthHttp.expect(
            200,
            uri,
            "POST",
            "/v1/default/namespaces/" + name.namespace() + "/tables/" + name.name() + "/plan",
            token,
            body);
    JsonNode json = answer.json();
    PlanTableScanResponse response =
        PlanTableScanResponseParser.fromJson(json, table.specs(), true);
    if (response.planTasks() != null && !response.planTasks().isEmpty()) {
      throw new AssertionError("An incremental plan came with plan tasks");
    }
    return of(CloseableIterable.withNoopClose(response.fileScanTasks()));
  }

  /**
   * The data files of a plan answered by {@code POST …/plan}, following every plan task (and the
   * plan tasks their answers hand out in turn) through {@code POST …/tasks}; a file planned twice
   * fails.
   */
  public static List<String> followed(
      String uri, String token, TableIdentifier name, String planRequest) {
    String table = "/v1/default/namespaces/" + name.namespace() + "/tables/" + name.name();
    List<String> files = new ArrayList<>();
    Deque<String> pending = new ArrayDeque<>();
    JsonNode answer = AuthHttp.expect(200, uri, "POST", table + "/plan", token, planRequest).json();
    while (true) {
      answer
          .path("file-scan-tasks")
          .forEach(t -> files.add(t.path("data-file").path("file-path").asText()));
      answer.path("plan-tasks").forEach(t -> pending.add(t.asText()));
      if (pending.isEmpty()) {
        break;
      }
      ObjectNode body = AuthHttp.JSON.createObjectNode().put("plan-task", pending.poll());
      answer = AuthHttp.expect(200, uri, "POST", table + "/tasks", token, body.toString()).json();
    }
    if (new HashSet<>(files).size() != files.size()) {
      throw new AssertionError("A file was planned twice");
    }
    return files;
  }
}
