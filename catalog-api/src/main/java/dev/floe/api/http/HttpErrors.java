package dev.floe.api.http;

import dev.floe.events.Rejection;
import dev.floe.projections.StoreUnavailableException;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.apache.iceberg.rest.responses.ErrorResponseParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where failures become HTTP statuses and the REST spec's ErrorModel
 * ({@code {"error":{"message","type","code"}}}), with the exception type names Iceberg's clients
 * switch on.
 */
public final class HttpErrors {
  private static final Logger LOG = LoggerFactory.getLogger(HttpErrors.class);

  private HttpErrors() {}

  /** A rejection decided by the processor: the command certainly did not apply. */
  public static ApiException fromRejection(Rejection rejection) {
    return switch (rejection.code()) {
      case NAMESPACE_NOT_FOUND -> new ApiException(404, "NoSuchNamespaceException", rejection.message());
      case TABLE_NOT_FOUND -> new ApiException(404, "NoSuchTableException", rejection.message());
      case WAREHOUSE_NOT_FOUND -> new ApiException(404, "NoSuchWarehouseException", rejection.message());
      case NAMESPACE_ALREADY_EXISTS, TABLE_ALREADY_EXISTS ->
          new ApiException(409, "AlreadyExistsException", rejection.message());
      case NAMESPACE_NOT_EMPTY -> new ApiException(409, "NamespaceNotEmptyException", rejection.message());
      case REQUIREMENT_FAILED -> new ApiException(409, "CommitFailedException", rejection.message());
      case INVALID_REQUEST -> new ApiException(400, "BadRequestException", rejection.message());
      case UNPROCESSABLE -> new ApiException(422, "UnprocessableEntityException", rejection.message());
      case STORAGE_FAILED -> new ApiException(503, "ServiceUnavailableException", rejection.message());
      case INTERNAL_ERROR -> new ApiException(500, "InternalServerError", rejection.message());
    };
  }

  /** Maps anything a handler threw. Unknown outcomes of writes are 5xx, never 4xx. */
  public static ApiException from(Throwable error) {
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (cause instanceof ApiException api) {
      return api;
    }
    if (cause instanceof TimeoutException) {
      return new ApiException(
          504,
          "CommitStateUnknownException",
          "No decision arrived in time; the change may or may not have been applied: " + cause.getMessage());
    }
    if (cause instanceof StoreUnavailableException) {
      return new ApiException(503, "ServiceUnavailableException", cause.getMessage());
    }
    if (cause instanceof ValidationException || cause instanceof IllegalArgumentException) {
      return new ApiException(400, "BadRequestException", String.valueOf(cause.getMessage()));
    }
    if (cause instanceof org.apache.kafka.common.KafkaException) {
      LOG.warn("Kafka failure while handling a request: {}", cause.toString());
      return new ApiException(
          503,
          "CommitStateUnknownException",
          "The command log is unavailable; the change may or may not have been applied");
    }
    LOG.error("Unexpected failure while handling a request", cause);
    return new ApiException(500, "InternalServerError", "Internal error: " + cause.getClass().getSimpleName());
  }

  public static void respond(HttpServerResponse response, ApiException error) {
    ErrorResponse body =
        ErrorResponse.builder()
            .responseCode(error.status())
            .withType(error.type())
            .withMessage(error.getMessage())
            .build();
    response
        .setStatusCode(error.status())
        .putHeader("Content-Type", "application/json")
        .end(Buffer.buffer(ErrorResponseParser.toJson(body)));
  }
}
