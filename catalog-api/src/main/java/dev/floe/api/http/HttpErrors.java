package dev.floe.api.http;

import dev.floe.events.Rejection;
import dev.floe.events.state.MetadataDocuments;
import dev.floe.projections.StoreUnavailableException;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where failures become the REST spec's ErrorModel ({@code
 * {"error":{"message","type","code"}}}): processor rejections and other exceptions are given their
 * {@link ErrorType}, whose status and type name the answer carries.
 */
public final class HttpErrors {
  private static final Logger LOG = LoggerFactory.getLogger(HttpErrors.class);

  private HttpErrors() {}

  /** A rejection decided by the processor: the command certainly did not apply. */
  public static ApiException fromRejection(Rejection rejection) {
    ErrorType type =
        switch (rejection.code()) {
          case NAMESPACE_NOT_FOUND -> ErrorType.NO_SUCH_NAMESPACE;
          case TABLE_NOT_FOUND -> ErrorType.NO_SUCH_TABLE;
          case VIEW_NOT_FOUND -> ErrorType.NO_SUCH_VIEW;
          case WAREHOUSE_NOT_FOUND -> ErrorType.NO_SUCH_WAREHOUSE;
          case NAMESPACE_ALREADY_EXISTS, TABLE_ALREADY_EXISTS, PRINCIPAL_ALREADY_EXISTS ->
              ErrorType.ALREADY_EXISTS;
          case NAMESPACE_NOT_EMPTY -> ErrorType.NAMESPACE_NOT_EMPTY;
          case REQUIREMENT_FAILED -> ErrorType.COMMIT_FAILED;
          case INVALID_REQUEST -> ErrorType.BAD_REQUEST;
          case INVALID_ARGUMENT -> ErrorType.ILLEGAL_ARGUMENT;
          case UNPROCESSABLE, IDEMPOTENCY_KEY_REUSED -> ErrorType.UNPROCESSABLE_ENTITY;
          case STORAGE_FAILED -> ErrorType.SERVICE_UNAVAILABLE;
          case TOO_LARGE -> ErrorType.REQUEST_TOO_LARGE;
          case PRINCIPAL_NOT_FOUND, TOKEN_NOT_FOUND, GRANT_NOT_FOUND -> ErrorType.NOT_FOUND;
          case INTERNAL_ERROR -> ErrorType.INTERNAL_SERVER_ERROR;
        };
    return new CommandRejectedException(type, rejection.code(), rejection.message());
  }

  /** Maps anything a handler threw. Unknown outcomes of writes are 5xx, never 4xx. */
  public static ApiException from(Throwable error) {
    Throwable cause = unwrap(error);
    if (cause instanceof ApiException api) {
      return api;
    }
    if (cause instanceof TimeoutException) {
      return new ApiException(
          ErrorType.COMMIT_STATE_UNKNOWN_TIMEOUT,
          "No decision arrived in time; the change may or may not have been applied: "
              + cause.getMessage());
    }
    if (cause instanceof StoreUnavailableException) {
      return ApiException.partitionMoving(cause.getMessage());
    }
    if (cause instanceof MetadataDocuments.UnavailableException) {
      return ApiException.serviceUnavailable(cause.getMessage());
    }
    if (cause instanceof ValidationException || cause instanceof IllegalArgumentException) {
      return new ApiException(ErrorType.BAD_REQUEST, String.valueOf(cause.getMessage()));
    }
    if (cause instanceof RecordTooLargeException) {
      // The command never reached the log (the producer or the broker refused its size), so it
      // certainly did not apply: a client error, not an unknown outcome.
      return new ApiException(
          ErrorType.REQUEST_TOO_LARGE,
          "The command is larger than the command log accepts: " + cause.getMessage());
    }
    if (cause instanceof KafkaException) {
      LOG.warn("Kafka failure while handling a request: {}", cause.toString());
      return new ApiException(
          ErrorType.COMMIT_STATE_UNKNOWN_LOG_UNAVAILABLE,
          "The command log is unavailable; the change may or may not have been applied");
    }
    LOG.error("Unexpected failure while handling a request", cause);
    return ApiException.internalError(cause);
  }

  /**
   * Whether {@code error} says the key's partition is moving (or the command log is failing over),
   * without logging it: a 503 that a moment may cure. Not a 503 that sheds load, nor one of object
   * storage.
   */
  static boolean partitionMoving(Throwable error) {
    Throwable cause = unwrap(error);
    if (cause instanceof ApiException api) {
      return api.errorType() == ErrorType.PARTITION_MOVING;
    }
    return cause instanceof StoreUnavailableException
        || (cause instanceof KafkaException && !(cause instanceof RecordTooLargeException));
  }

  /** What failed, without the {@link CompletionException} an asynchronous step wraps it in. */
  static Throwable unwrap(Throwable error) {
    return error instanceof CompletionException && error.getCause() != null
        ? error.getCause()
        : error;
  }

  /**
   * A request the HTTP decoder could not read (a malformed request line or header, control
   * characters, a line or headers too long): the ErrorModel with the status Vert.x would have sent
   * bare, then the connection is closed (what follows cannot be trusted to be a request).
   */
  public static void respondToUndecodable(HttpServerRequest request) {
    Throwable cause = request.decoderResult().cause();
    ApiException error;
    if (cause instanceof TooLongHttpLineException) {
      error = new ApiException(ErrorType.URI_TOO_LONG, "Request line too long");
    } else if (cause instanceof TooLongHttpHeaderException) {
      error =
          new ApiException(ErrorType.REQUEST_HEADER_FIELDS_TOO_LARGE, "Request headers too large");
    } else {
      String why = cause == null ? "unreadable request" : String.valueOf(cause.getMessage());
      error =
          new ApiException(
              ErrorType.BAD_REQUEST, "Malformed HTTP request: " + abbreviate(why, 200));
    }
    respond(request.response(), error).onComplete(done -> request.connection().close());
  }

  private static String abbreviate(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max) + "…";
  }

  /** Answers the ErrorModel; the future completes once the response is written. */
  public static Future<Void> respond(HttpServerResponse response, ApiException error) {
    ErrorResponse body = error.errorType().response(error.getMessage());
    return response
        .setStatusCode(error.status())
        .putHeader("Content-Type", "application/json")
        .end(Buffer.buffer(ErrorResponseParser.toJson(body)));
  }
}
