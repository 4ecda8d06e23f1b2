package dev.floe.api.http;

import dev.floe.api.planning.PlanTokens;
import dev.floe.api.planning.ScanPlanner;
import dev.floe.events.state.TableState;
import dev.floe.infra.storage.vending.AccessLevel;
import dev.floe.infra.storage.vending.VendedCredentials;
import dev.floe.infra.tokens.SealedTokens;
import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.RuntimeIOException;
import org.apache.iceberg.expressions.ExpressionParser;
import org.apache.iceberg.rest.PlanStatus;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.credentials.ImmutableCredential;
import org.apache.iceberg.rest.requests.FetchScanTasksRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.FetchScanTasksResponseParser;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponseParser;

/**
 * Server-side scan planning, the four routes of Iceberg's REST spec. {@code POST …/plan} answers
 * {@code completed} at once: with every file scan task when the snapshot has few data manifests (or
 * the scan is incremental), else with plan tasks, one per slice of data manifests, each fetched by
 * {@code POST …/tasks}. Plan ids and plan tasks are sealed tokens ({@link PlanTokens}): the catalog
 * holds nothing for a plan, so {@code GET …/plan/{id}} has no pending plan to answer and {@code
 * DELETE} has nothing to release. Guarded as a load of the table; a past-time prefix plans the
 * table as it was then.
 */
final class ScanPlanHandlers {
  private final CatalogContext catalog;
  private final ScanPlanner planner;

  ScanPlanHandlers(CatalogContext catalog, ScanPlanner planner) {
    this.catalog = catalog;
    this.planner = planner;
  }

  /** {@code POST /v1/{prefix}/namespaces/{ns}/tables/{table}/plan}. */
  Future<HttpResult> handlePlan(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    TableIdentifier table = request.table();
    PlanTableScanRequest scan = request.body(PlanTableScanRequest.class);
    byte[] secret = catalog.tokenSecret();
    return catalog.read(
        () -> {
          TableState state = catalog.table(request, warehouse, table);
          List<String> held = requireHeld(table, state, request, warehouse);
          TableMetadata metadata = planner.metadata(state.metadataLocation(), state.metadataJson());
          PlanTokens.Bound bound = bound(request, table, state);
          ScanPlanner.Plan plan = planned(() -> planner.plan(metadata, name(table), scan, held));
          PlanTokens.Task whole =
              new PlanTokens.Task(
                  bound,
                  plan.snapshotId() == null ? -1 : plan.snapshotId(),
                  metadata.currentSchemaId(),
                  null,
                  scan,
                  0,
                  0);
          if (plan.tasks() == null || plan.tasks().size() > perAnswer(scan)) {
            requireTokenFits(whole, secret); // plan tasks will be handed out
          }
          PlanTableScanResponse.Builder answer =
              PlanTableScanResponse.builder()
                  .withPlanStatus(PlanStatus.COMPLETED)
                  .withPlanId(PlanTokens.planId(bound, secret))
                  .withSpecsById(metadata.specsById());
          if (plan.tasks() != null) {
            Share first = share(plan.tasks(), whole, secret);
            answer
                .withFileScanTasks(first.tasks())
                .withDeleteFiles(deleteFiles(first.tasks()))
                .withPlanTasks(first.planTasks().isEmpty() ? null : first.planTasks());
          } else {
            answer.withPlanTasks(
                plan.slices().stream().map(slice -> token(whole.slice(slice), secret)).toList());
          }
          if (StorageAccess.wantsVending(request)) {
            answer.withCredentials(credentials(table, state, held));
          }
          return json(PlanTableScanResponseParser.toJson(answer.build()));
        });
  }

  /** {@code POST /v1/{prefix}/namespaces/{ns}/tables/{table}/tasks}: one plan task's files. */
  Future<HttpResult> handleTasks(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    TableIdentifier table = request.table();
    String token = request.body(FetchScanTasksRequest.class).planTask();
    byte[] secret = catalog.tokenSecret();
    PlanTokens.Task task;
    try {
      task = PlanTokens.readPlanTask(token, secret);
    } catch (SealedTokens.InvalidTokenException e) {
      throw ApiException.badRequest("Invalid plan task: %s", e.getMessage());
    }
    return catalog.read(
        () -> {
          TableState state = catalog.table(request, warehouse, table);
          requireBound(request, table, state, task.bound(), ErrorType.NO_SUCH_PLAN_TASK);
          List<String> held = requireHeld(table, state, request, warehouse);
          TableMetadata metadata = planner.metadata(state.metadataLocation(), state.metadataJson());
          List<FileScanTask> all =
              planned(
                  () ->
                      planner.planSlice(
                          metadata,
                          name(table),
                          task.request(),
                          task.snapshotId(),
                          task.schemaId(),
                          task.slice(),
                          held));
          Share share = share(all, task, secret);
          FetchScanTasksResponse answer =
              FetchScanTasksResponse.builder()
                  .withFileScanTasks(share.tasks())
                  .withDeleteFiles(deleteFiles(share.tasks()))
                  .withPlanTasks(share.planTasks())
                  .withSpecsById(metadata.specsById())
                  .build();
          return json(FetchScanTasksResponseParser.toJson(answer));
        });
  }

  /**
   * {@code GET …/plan/{plan-id}}: every plan was answered in full when it was submitted, so no plan
   * is pending; a plan id this catalog issued for this table and caller gets 404
   * NoSuchPlanIdException saying so.
   */
  Future<HttpResult> handleFetchPlan(RequestContext request) {
    return checkedPlanId(request)
        .map(
            ignored -> {
              throw new ApiException(
                  ErrorType.NO_SUCH_PLAN_ID,
                  "The plan is not pending: its tasks were all in the answer that submitted it");
            });
  }

  /** {@code DELETE …/plan/{plan-id}}: nothing is held for a plan; 204 for one issued here. */
  Future<HttpResult> handleCancelPlan(RequestContext request) {
    return checkedPlanId(request).map(ignored -> HttpResult.noContent());
  }

  private Future<Void> checkedPlanId(RequestContext request) {
    String warehouse = catalog.warehouse(request);
    TableIdentifier table = request.table();
    PlanTokens.Bound bound;
    try {
      bound = PlanTokens.readPlanId(request.param("plan-id"), catalog.tokenSecret());
    } catch (SealedTokens.InvalidTokenException e) {
      throw new ApiException(ErrorType.NO_SUCH_PLAN_ID, "No such plan: " + e.getMessage());
    }
    return catalog.read(
        () -> {
          requireBound(
              request,
              table,
              catalog.table(request, warehouse, table),
              bound,
              ErrorType.NO_SUCH_PLAN_ID);
          return null;
        });
  }

  /**
   * The locations the catalog holds for the table now, which must hold the metadata planned: a
   * past-time plan of a table dropped or replaced since finds its files no longer the table's.
   */
  private List<String> requireHeld(
      TableIdentifier table, TableState state, RequestContext request, String warehouse) {
    List<String> held = OwnerReads.held(catalog, request, warehouse, table);
    if (!catalog.metadataFiles().locations().mayReach(state.metadataLocation(), held)) {
      throw new ApiException(
          ErrorType.FORBIDDEN,
          "Cannot plan the scan: the table's files as of then are no longer where the catalog"
              + " holds the table (it was dropped or replaced since)");
    }
    return held;
  }

  private static PlanTokens.Bound bound(
      RequestContext request, TableIdentifier table, TableState state) {
    return new PlanTokens.Bound(
        request.warehouse(), table.toString(), state.tableUuid(), request.principalName());
  }

  /**
   * A token is good only for the warehouse prefix, table and caller it was issued to, while the
   * table it was issued for still holds the name.
   */
  private static void requireBound(
      RequestContext request,
      TableIdentifier table,
      TableState state,
      PlanTokens.Bound issued,
      ErrorType notFound) {
    String what = notFound == ErrorType.NO_SUCH_PLAN_ID ? "plan id" : "plan task";
    if (!issued.principal().equals(request.principalName())) {
      throw new ApiException(
          ErrorType.FORBIDDEN,
          "Principal " + request.principalName() + " may not use a " + what + " issued to another");
    }
    if (!issued.warehouse().equals(request.warehouse())
        || !issued.table().equals(table.toString())) {
      throw ApiException.badRequest("Invalid %s: it was issued for another table", what);
    }
    if (!issued.tableUuid().equals(state.tableUuid())) {
      throw new ApiException(
          notFound, "The " + what + " was issued for a table that no longer holds " + table);
    }
  }

  /** Runs the planner, its refusals as the caller's mistakes. */
  private static <T> T planned(Supplier<T> plan) {
    try {
      return plan.get();
    } catch (ScanPlanner.BadScanException e) {
      throw ApiException.badRequest("Cannot plan the scan: %s", e.getMessage());
    } catch (ScanPlanner.OutsideTableException e) {
      throw new ApiException(ErrorType.FORBIDDEN, "Cannot plan the scan: " + e.getMessage());
    } catch (NotFoundException e) {
      // A file the table's metadata names is not in storage: no stack trace per request.
      throw ApiException.notFound(
          "Cannot plan the scan: a file of the table's snapshot is missing from storage");
    } catch (RuntimeIOException e) {
      throw ApiException.serviceUnavailable(
          "Cannot plan the scan: reading the table's manifests failed; retry");
    }
  }

  /** The longest answer's tasks, estimated, before the rest is handed out as plan tasks. */
  private static final long ANSWER_BYTES = 8L * 1024 * 1024;

  /** The most bytes of plan tasks one answer hands out, and the most plan tasks. */
  private static final long PLAN_TASK_BYTES = 4L * 1024 * 1024;

  private static final int MAX_PLAN_TASKS = 16;

  /**
   * How many file scan tasks one answer holds: each carries its data file (about 1 KiB, more with
   * column stats) and a residual filter as large as the request's at most, so a large filter over
   * many files is answered in parts instead of one answer of hundreds of megabytes.
   */
  static int perAnswer(PlanTableScanRequest request) {
    long filter = request.filter() == null ? 0 : ExpressionParser.toJson(request.filter()).length();
    long stats =
        request.statsFields() == null ? 0 : 256L * new HashSet<>(request.statsFields()).size();
    return (int) Math.max(1, ANSWER_BYTES / (1024 + filter + stats));
  }

  /** The file scan tasks an answer holds, and the plan tasks for what follows them. */
  private record Share(List<FileScanTask> tasks, List<String> planTasks) {}

  /**
   * What answers a plan task over {@code all} (in order): the {@code count} from {@code skip}; or,
   * with {@code count} 0, as many from {@code skip} as one answer holds, and for the rest plan
   * tasks of as many again each, as many as fit an answer, the last of them covering all that is
   * left (answered the same way in turn), so no answer grows with the plan.
   */
  private static Share share(List<FileScanTask> all, PlanTokens.Task task, byte[] secret) {
    int size = all.size();
    int from = Math.min(task.skip(), size);
    if (task.count() > 0) {
      return new Share(
          all.subList(from, (int) Math.min(size, (long) from + task.count())), List.of());
    }
    int per = perAnswer(task.request());
    int next = (int) Math.min(size, (long) from + per);
    List<String> planTasks = new ArrayList<>();
    int most = MAX_PLAN_TASKS;
    while (next < size) {
      boolean last = planTasks.size() == most - 1 && (long) next + per < size;
      String token = token(task.part(next, last ? 0 : per), secret);
      planTasks.add(token);
      if (planTasks.size() == 1) {
        most = (int) Math.max(2, Math.min(MAX_PLAN_TASKS, PLAN_TASK_BYTES / token.length()));
      }
      if (last) {
        break;
      }
      next = (int) Math.min(size, (long) next + per);
    }
    return new Share(all.subList(from, (int) Math.min(size, (long) from + per)), planTasks);
  }

  /**
   * Refuses, before anything is handed out, a request whose plan tasks could not travel: the
   * longest such token (every number at its widest) must fit.
   */
  private static void requireTokenFits(PlanTokens.Task whole, byte[] secret) {
    token(
        new PlanTokens.Task(
            whole.bound(),
            Long.MIN_VALUE,
            Integer.MIN_VALUE,
            new ScanPlanner.Slice(Integer.MAX_VALUE, Integer.MAX_VALUE),
            whole.request(),
            Integer.MAX_VALUE,
            Integer.MAX_VALUE),
        secret);
  }

  private static String token(PlanTokens.Task task, byte[] secret) {
    try {
      return PlanTokens.planTask(task, secret);
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("Cannot plan the scan: %s", e.getMessage());
    }
  }

  /** Every delete file the tasks name, once each, in the order first named. */
  private static List<DeleteFile> deleteFiles(List<FileScanTask> tasks) {
    Map<String, DeleteFile> deletes = new LinkedHashMap<>();
    for (FileScanTask task : tasks) {
      for (DeleteFile delete : task.deletes()) {
        deletes.putIfAbsent(delete.location(), delete);
      }
    }
    return List.copyOf(deletes.values());
  }

  /** Read-only credentials for the plan's files, when the table's storage vends. */
  private List<Credential> credentials(TableIdentifier table, TableState state, List<String> held) {
    VendedCredentials vended =
        catalog
            .storage()
            .vend(table, state.metadataJson(), () -> held, AccessLevel.READ)
            .orElse(null);
    return vended == null
        ? List.of()
        : List.of(
            ImmutableCredential.builder().prefix(vended.prefix()).config(vended.config()).build());
  }

  private static String name(TableIdentifier table) {
    return "floe." + table;
  }

  private static HttpResult json(String body) {
    return new HttpResult(
        200, body.getBytes(StandardCharsets.UTF_8), Map.of("Cache-Control", "no-store"));
  }
}
