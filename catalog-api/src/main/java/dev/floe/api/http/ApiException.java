package dev.floe.api.http;

/**
 * A failure of a request, typed by its {@link ErrorType} (which fixes the HTTP status), rendered as
 * the REST spec's ErrorModel by {@link HttpErrors}.
 */
public class ApiException extends RuntimeException {
  private final ErrorType errorType;

  public ApiException(ErrorType errorType, String message) {
    super(message);
    this.errorType = errorType;
  }

  public ErrorType errorType() {
    return errorType;
  }

  public int status() {
    return errorType.status();
  }

  /** The ErrorModel's {@code type}. */
  public String type() {
    return errorType.typeName();
  }

  public static ApiException badRequest(String format, Object... args) {
    return new ApiException(ErrorType.BAD_REQUEST, String.format(format, args));
  }

  /**
   * The caller is authenticated but may not do this; names no more than the request did. The
   * message does not repeat the type: Iceberg's clients print it after "Forbidden: ".
   */
  public static ApiException forbidden(String caller, String what) {
    return new ApiException(ErrorType.FORBIDDEN, "Principal " + caller + " may not " + what);
  }

  /** No valid credentials; Iceberg's clients print the message after "Not authorized: ". */
  public static ApiException notAuthenticated(String why) {
    return new ApiException(ErrorType.NOT_AUTHORIZED, why);
  }

  public static ApiException notFound(String message) {
    return new ApiException(ErrorType.NOT_FOUND, message);
  }

  public static ApiException noSuchWarehouse(String warehouse) {
    return new ApiException(ErrorType.NO_SUCH_WAREHOUSE, "Warehouse does not exist: " + warehouse);
  }

  public static ApiException noSuchNamespace(Object namespace) {
    return new ApiException(ErrorType.NO_SUCH_NAMESPACE, "Namespace does not exist: " + namespace);
  }

  public static ApiException noSuchTable(Object table) {
    return new ApiException(ErrorType.NO_SUCH_TABLE, "Table does not exist: " + table);
  }

  public static ApiException noSuchView(Object view) {
    return new ApiException(ErrorType.NO_SUCH_VIEW, "View does not exist: " + view);
  }

  public static ApiException serviceUnavailable(String message) {
    return new ApiException(ErrorType.SERVICE_UNAVAILABLE, message);
  }

  /** The partition that answers the key is moving ({@link ErrorType#PARTITION_MOVING}). */
  public static ApiException partitionMoving(String message) {
    return new ApiException(ErrorType.PARTITION_MOVING, message);
  }

  public static ApiException internalError(Throwable cause) {
    return new ApiException(
        ErrorType.INTERNAL_SERVER_ERROR, "Internal error: " + cause.getClass().getSimpleName());
  }
}
