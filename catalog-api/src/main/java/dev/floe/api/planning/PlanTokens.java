package dev.floe.api.planning;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import dev.floe.infra.tokens.SealedTokens;
import java.io.IOException;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequestParser;

/**
 * The plan ids and plan tasks scan planning hands out, sealed ({@link SealedTokens}) so that they
 * work on every instance and across restarts, and so that the catalog holds nothing for a plan:
 * each names the warehouse prefix (a past-time one included), the table and its uuid, and the
 * principal it was issued to; a plan task also the snapshot, the slice of its data manifests and
 * the request itself.
 */
public final class PlanTokens {
  private static final SealedTokens PLAN_IDS =
      new SealedTokens("pi1.", "floe-plan-id-key:", "plan id", 4 * 1024);

  /** The longest plan task handed out: one a client can send back within a body's limits. */
  static final int PLAN_TASK_MAX_CHARS = 768 * 1024;

  private static final SealedTokens PLAN_TASKS =
      new SealedTokens("pt1.", "floe-plan-task-key:", "plan task", PLAN_TASK_MAX_CHARS);

  private PlanTokens() {}

  /** Whom and what a plan was issued for. */
  public record Bound(String warehouse, String table, String tableUuid, String principal) {
    void write(ObjectNode body) {
      body.put("w", warehouse);
      body.put("t", table);
      body.put("u", tableUuid);
      body.put("p", principal);
    }

    static Bound read(JsonNode body) {
      return new Bound(
          body.path("w").asText(),
          body.path("t").asText(),
          body.path("u").asText(),
          body.path("p").asText());
    }
  }

  /**
   * One plan task: a slice of a snapshot's data manifests (or, with none, the whole plan), planned
   * as the request asks with the schema the plan used, and of its file scan tasks in order the
   * {@code count} from {@code skip}, or with {@code count} 0 all from {@code skip} (answered in
   * parts again).
   *
   * @param schemaId the table's current schema when the plan was made: a plan task plans with it
   *     even when the table's schema changed since, so that its parts stay the plan's
   */
  public record Task(
      Bound bound,
      long snapshotId,
      int schemaId,
      ScanPlanner.Slice slice,
      PlanTableScanRequest request,
      int skip,
      int count) {
    /** The same plan's task for another part. */
    public Task part(int from, int length) {
      return new Task(bound, snapshotId, schemaId, slice, request, from, length);
    }

    /** The same plan's task for another slice, whole. */
    public Task slice(ScanPlanner.Slice other) {
      return new Task(bound, snapshotId, schemaId, other, request, 0, 0);
    }
  }

  public static String planId(Bound bound, byte[] secret) {
    ObjectNode body = FloeJson.mapper().createObjectNode();
    bound.write(body);
    return PLAN_IDS.seal(secret, FloeJson.toBytes(body));
  }

  /**
   * @throws SealedTokens.InvalidTokenException when it is not a plan id this catalog issued
   */
  public static Bound readPlanId(String planId, byte[] secret) {
    return Bound.read(json(PLAN_IDS.open(secret, planId), "plan id"));
  }

  public static String planTask(Task task, byte[] secret) {
    ObjectNode body = FloeJson.mapper().createObjectNode();
    task.bound().write(body);
    body.put("s", Long.toString(task.snapshotId()));
    body.put("c", task.schemaId());
    if (task.slice() != null) {
      body.put("f", task.slice().from());
      body.put("e", task.slice().to());
    }
    body.put("k", task.skip());
    body.put("n", task.count());
    body.put("r", PlanTableScanRequestParser.toJson(task.request()));
    String token = PLAN_TASKS.seal(secret, FloeJson.toBytes(body));
    if (token.length() > PLAN_TASK_MAX_CHARS) {
      throw new IllegalArgumentException(
          "The scan's request is too large to be handed out in plan tasks ("
              + token.length() / 1024
              + " KiB, more than the "
              + PLAN_TASK_MAX_CHARS / 1024
              + " KiB a plan task may be); send a smaller filter");
    }
    return token;
  }

  /**
   * @throws SealedTokens.InvalidTokenException when it is not a plan task this catalog issued
   */
  public static Task readPlanTask(String token, byte[] secret) {
    JsonNode body = json(PLAN_TASKS.open(secret, token), "plan task");
    try {
      return new Task(
          Bound.read(body),
          Long.parseLong(body.path("s").asText()),
          body.path("c").asInt(),
          body.has("f")
              ? new ScanPlanner.Slice(body.path("f").asInt(), body.path("e").asInt())
              : null,
          PlanTableScanRequestParser.fromJson(body.path("r").asText()),
          body.path("k").asInt(),
          body.path("n").asInt());
    } catch (RuntimeException e) {
      throw new SealedTokens.InvalidTokenException("Malformed plan task");
    }
  }

  private static JsonNode json(byte[] payload, String name) {
    try {
      JsonNode body = FloeJson.mapper().readTree(payload);
      if (body == null || !body.isObject()) {
        throw new SealedTokens.InvalidTokenException("Malformed " + name);
      }
      return body;
    } catch (IOException e) {
      throw new SealedTokens.InvalidTokenException("Malformed " + name);
    }
  }
}
