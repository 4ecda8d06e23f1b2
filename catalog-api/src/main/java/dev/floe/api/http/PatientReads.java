package dev.floe.api.http;

import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import java.util.function.Supplier;

/**
 * A read that found its key's partition moving (its owner frozen or gone, its store rebalancing,
 * the command log failing over) is tried again on the instance every {@link #RETRY_MS} until
 * {@link #PATIENCE_NANOS} has passed, so the caller gets its answer as soon as the partition has
 * its new owner rather than a 503 and its client's back-off (Iceberg's doubles from 1 s). A 503
 * that still goes out says {@code Retry-After: 1}. Only reads ({@link RestRouter} decides): a
 * commit's 503 means its outcome is unknown and is never tried again, here or, without {@code
 * Retry-After}, by the client; nor is a 503 that sheds load (the events endpoint's) or reports
 * object storage down: those go out at once.
 */
final class PatientReads {
  /** How long a read whose key's partition is moving waits here for its new owner. */
  static final long PATIENCE_NANOS = 4_000_000_000L;

  static final long RETRY_MS = 100;

  private PatientReads() {}

  /** {@code first}, or {@code again} after it while the partition moves, up to the patience. */
  static Future<HttpResult> until(
      Future<HttpResult> first, Supplier<Future<HttpResult>> again, HttpServerResponse response) {
    return until(first, again, response, System.nanoTime() + PATIENCE_NANOS);
  }

  private static Future<HttpResult> until(
      Future<HttpResult> result,
      Supplier<Future<HttpResult>> again,
      HttpServerResponse response,
      long deadline) {
    return result.transform(
        done -> {
          if (!moving(done)) {
            return settled(done);
          }
          Context running = Vertx.currentContext();
          if (running == null
              || System.nanoTime() + RETRY_MS * 1_000_000L > deadline
              || response.closed()) {
            response.putHeader("Retry-After", "1");
            return settled(done);
          }
          return running
              .owner()
              .timer(RETRY_MS)
              .compose(v -> until(again.get(), again, response, deadline));
        });
  }

  private static Future<HttpResult> settled(AsyncResult<HttpResult> done) {
    return done.succeeded()
        ? Future.succeededFuture(done.result())
        : Future.failedFuture(done.cause());
  }

  /**
   * Whether a read's outcome says the key's partition is moving: a failure of that kind here, or a
   * 503 from the owner it was forwarded to (a forwarded read is a keyed catalog read, and the
   * owner's 503 for one is its store rebalancing or the key moving on).
   */
  private static boolean moving(AsyncResult<HttpResult> done) {
    if (done.succeeded()) {
      return done.result() != HttpResult.STREAMED && done.result().status() == 503;
    }
    return HttpErrors.partitionMoving(done.cause());
  }
}
