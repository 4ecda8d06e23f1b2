package dev.floe.api.http;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;

/**
 * Reads a request body into memory up to a limit, whether or not it declares its length (a chunked
 * body has no {@code Content-Length}): past the limit nothing more is kept. A refused body is then
 * read and dropped up to {@link #DRAIN_BYTES} more, so a client still sending it can read the 413
 * instead of a reset connection, and the connection is closed.
 */
final class BoundedBody {
  /** How much of a refused body is read and dropped before the connection is cut. */
  static final long DRAIN_BYTES = 16L * 1024 * 1024;

  /** The body went past the limit; carries how much of it had arrived. */
  static final class TooLargeException extends RuntimeException {
    private final long received;

    TooLargeException(long received) {
      super("Request body exceeds the limit", null, false, false);
      this.received = received;
    }

    long received() {
      return received;
    }
  }

  private BoundedBody() {}

  /** The body's declared {@code Content-Length}, or -1 when it declares none that is a number. */
  static long declaredLength(HttpServerRequest request) {
    String value = request.getHeader("Content-Length");
    if (value == null) {
      return -1;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The whole body, or a {@link TooLargeException} as soon as it passes {@code limit} bytes. */
  static Future<Buffer> read(HttpServerRequest request, long limit) {
    Promise<Buffer> promise = Promise.promise();
    Buffer body = Buffer.buffer();
    long[] received = {0};
    request.handler(
        chunk -> {
          received[0] += chunk.length();
          if (received[0] <= limit) {
            body.appendBuffer(chunk);
          } else {
            request.handler(null);
            request.endHandler(null);
            promise.tryFail(new TooLargeException(received[0]));
          }
        });
    request.endHandler(v -> promise.tryComplete(body));
    request.exceptionHandler(
        e ->
            promise.tryFail(
                new ApiException(
                    ErrorType.BAD_REQUEST, "Cannot read the request body: " + e.getMessage())));
    return promise.future();
  }

  /**
   * After a refusal has been answered ({@code answered}): drops the rest of the body and closes the
   * connection when it ends, or at once if more than {@link #DRAIN_BYTES} would still come.
   *
   * @param received bytes of the body already read
   * @param declared the {@code Content-Length}, or -1 when the body is chunked
   */
  static void discardAndClose(
      HttpServerRequest request, Future<Void> answered, long received, long declared) {
    Runnable close = () -> answered.onComplete(done -> request.connection().close());
    if (request.isEnded()) {
      close.run();
      return;
    }
    if (declared - received > DRAIN_BYTES) {
      close.run();
      return;
    }
    long[] dropped = {0};
    request.handler(
        chunk -> {
          dropped[0] += chunk.length();
          if (dropped[0] > DRAIN_BYTES) {
            request.handler(null);
            close.run();
          }
        });
    request.endHandler(v -> close.run());
    request.exceptionHandler(e -> close.run());
    request.resume();
  }
}
