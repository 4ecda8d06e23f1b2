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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where failures become HTTP statuses and the REST spec's ErrorModel ({@code
 * {"error":{"message","type","code"}}}), with the exception type names Iceberg's clients switch on.
 */
public final class HttpErrors {
  private static final Logger LOG = LoggerFactory.getLogger(HttpErrors.class);

  private HttpErrors() {}

  /** A rejection decided by the processor: the command certainly did not apply. */
  public static ApiException fromRejection(Rejection rejection) {
    return switch (rejection.code()) {
      case NAMESPACE_NOT_FOUND -> rejected(404, "NoSuchNamespaceException", rejection);
      case TABLE_NOT_FOUND -> rejected(404, "NoSuchTableException", rejection);
      case VIEW_NOT_FOUND -> rejected(404, "NoSuchViewException", rejection);
      case WAREHOUSE_NOT_FOUND -> rejected(404, "NoSuchWarehouseException", rejection);
      case NAMESPACE_ALREADY_EXISTS, TABLE_ALREADY_EXISTS ->
          rejected(409, "AlreadyExistsException", rejection);
      case NAMESPACE_NOT_EMPTY -> rejected(409, "NamespaceNotEmptyException", rejection);
      case REQUIREMENT_FAILED -> rejected(409, "CommitFailedException", rejection);
      case INVALID_REQUEST -> rejected(400, "BadRequestException", rejection);
        // Iceberg's clients turn a 400 of this type back into an IllegalArgumentException.
      case INVALID_ARGUMENT -> rejected(400, "IllegalArgumentException", rejection);
      case UNPROCESSABLE, IDEMPOTENCY_KEY_REUSED ->
          rejected(422, "UnprocessableEntityException", rejection);
      case STORAGE_FAILED -> rejected(503, "ServiceUnavailableException", rejection);
      case TOO_LARGE -> rejected(413, "RequestTooLargeException", rejection);
      case PRINCIPAL_NOT_FOUND, TOKEN_NOT_FOUND, GRANT_NOT_FOUND ->
          rejected(404, "NotFoundException", rejection);
      case PRINCIPAL_ALREADY_EXISTS -> rejected(409, "AlreadyExistsException", rejection);
      case INTERNAL_ERROR -> rejected(500, "InternalServerError", rejection);
    };
  }

  private static ApiException rejected(int status, String type, Rejection rejection) {
    return new CommandRejectedException(status, type, rejection.code(), rejection.message());
  }

  /** Maps anything a handler threw. Unknown outcomes of writes are 5xx, never 4xx. */
  public static ApiException from(Throwable error) {
    Throwable cause =
        error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (cause instanceof ApiException api) {
      return api;
    }
    if (cause instanceof TimeoutException) {
      return new ApiException(
          504,
          "CommitStateUnknownException",
          "No decision arrived in time; the change may or may not have been applied: "
              + cause.getMessage());
    }
    if (cause instanceof StoreUnavailableException
        || cause instanceof MetadataDocuments.UnavailableException) {
      return new ApiException(503, "ServiceUnavailableException", cause.getMessage());
    }
    if (cause instanceof ValidationException || cause instanceof IllegalArgumentException) {
      return new ApiException(400, "BadRequestException", String.valueOf(cause.getMessage()));
    }
    if (cause instanceof org.apache.kafka.common.errors.RecordTooLargeException) {
      // The command never reached the log (the producer or the broker refused its size), so it
      // certainly did not apply: a client error, not an unknown outcome.
      return new ApiException(
          413,
          "RequestTooLargeException",
          "The command is larger than the command log accepts: " + cause.getMessage());
    }
    if (cause instanceof org.apache.kafka.common.KafkaException) {
      LOG.warn("Kafka failure while handling a request: {}", cause.toString());
      return new ApiException(
          503,
          "CommitStateUnknownException",
          "The command log is unavailable; the change may or may not have been applied");
    }
    LOG.error("Unexpected failure while handling a request", cause);
    return new ApiException(
        500, "InternalServerError", "Internal error: " + cause.getClass().getSimpleName());
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
      error = new ApiException(414, "UriTooLongException", "Request line too long");
    } else if (cause instanceof TooLongHttpHeaderException) {
      error =
          new ApiException(
              431, "RequestHeaderFieldsTooLargeException", "Request headers too large");
    } else {
      String why = cause == null ? "unreadable request" : String.valueOf(cause.getMessage());
      error =
          new ApiException(
              400, "BadRequestException", "Malformed HTTP request: " + abbreviate(why, 200));
    }
    respond(request.response(), error).onComplete(done -> request.connection().close());
  }

  private static String abbreviate(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max) + "…";
  }

  /** Answers the ErrorModel; the future completes once the response is written. */
  public static Future<Void> respond(HttpServerResponse response, ApiException error) {
    ErrorResponse body =
        ErrorResponse.builder()
            .responseCode(error.status())
            .withType(error.type())
            .withMessage(error.getMessage())
            .build();
    return response
        .setStatusCode(error.status())
        .putHeader("Content-Type", "application/json")
        .end(Buffer.buffer(ErrorResponseParser.toJson(body)));
  }
}
