package dev.floe.api.http;

import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * The error types Floe answers with, each with its HTTP status: the only place a type is paired
 * with a status. The names are the exception types Iceberg's clients switch on. On a commit route a
 * 4xx type says the change certainly did not apply; an unknown outcome is always a 5xx type.
 */
public enum ErrorType {
  BAD_REQUEST(400, "BadRequestException"),
  /** Iceberg's clients turn a 400 of this type back into an {@link IllegalArgumentException}. */
  ILLEGAL_ARGUMENT(400, "IllegalArgumentException"),
  NOT_AUTHORIZED(401, "NotAuthorizedException"),
  FORBIDDEN(403, "ForbiddenException"),
  NOT_FOUND(404, "NotFoundException"),
  NO_SUCH_ENDPOINT(404, "NoSuchEndpointException"),
  NO_SUCH_WAREHOUSE(404, "NoSuchWarehouseException"),
  NO_SUCH_NAMESPACE(404, "NoSuchNamespaceException"),
  NO_SUCH_TABLE(404, "NoSuchTableException"),
  NO_SUCH_VIEW(404, "NoSuchViewException"),
  NO_SUCH_PLAN_ID(404, "NoSuchPlanIdException"),
  NO_SUCH_PLAN_TASK(404, "NoSuchPlanTaskException"),
  METHOD_NOT_ALLOWED(405, "MethodNotAllowedException"),
  ALREADY_EXISTS(409, "AlreadyExistsException"),
  NAMESPACE_NOT_EMPTY(409, "NamespaceNotEmptyException"),
  /** A requirement of the commit did not hold: it was not applied, the client may retry. */
  COMMIT_FAILED(409, "CommitFailedException"),
  /** A continuation token of the events endpoint points before the log's retention. */
  GONE(410, "GoneException"),
  REQUEST_TOO_LARGE(413, "RequestTooLargeException"),
  URI_TOO_LONG(414, "UriTooLongException"),
  UNPROCESSABLE_ENTITY(422, "UnprocessableEntityException"),
  TOO_MANY_REQUESTS(429, "TooManyRequestsException"),
  REQUEST_HEADER_FIELDS_TOO_LARGE(431, "RequestHeaderFieldsTooLargeException"),
  INTERNAL_SERVER_ERROR(500, "InternalServerError"),
  /** The change applied, but its answer cannot be produced. */
  COMMIT_STATE_UNKNOWN(500, "CommitStateUnknownException"),
  SERVICE_UNAVAILABLE(503, "ServiceUnavailableException"),
  /**
   * The partition that answers the key is moving to another instance (its owner silent or gone, its
   * store rebalancing): the same answer as {@link #SERVICE_UNAVAILABLE}, but a read that gets it is
   * tried again on the instance for a while (PatientReads).
   */
  PARTITION_MOVING(503, "ServiceUnavailableException"),
  /** The command log failed under the command: it may or may not have been applied. */
  COMMIT_STATE_UNKNOWN_LOG_UNAVAILABLE(503, "CommitStateUnknownException"),
  /** No decision arrived in time: the command may or may not have been applied. */
  COMMIT_STATE_UNKNOWN_TIMEOUT(504, "CommitStateUnknownException");

  private final int status;
  private final String typeName;

  ErrorType(int status, String typeName) {
    this.status = status;
    this.typeName = typeName;
  }

  /** The HTTP status of every answer of this type. */
  public int status() {
    return status;
  }

  /** The ErrorModel of an answer of this type. */
  ErrorResponse response(String message) {
    return ErrorResponse.builder()
        .responseCode(status)
        .withType(typeName)
        .withMessage(message)
        .build();
  }

  /** The ErrorModel's {@code type}. */
  public String typeName() {
    return typeName;
  }
}
