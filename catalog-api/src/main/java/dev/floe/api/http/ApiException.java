package dev.floe.api.http;

/** A failure with its HTTP status and the REST spec's error type, rendered as an ErrorModel. */
public class ApiException extends RuntimeException {
  private final int status;
  private final String type;

  public ApiException(int status, String type, String message) {
    super(message);
    this.status = status;
    this.type = type;
  }

  public int status() {
    return status;
  }

  public String type() {
    return type;
  }

  public static ApiException badRequest(String format, Object... args) {
    return new ApiException(400, "BadRequestException", String.format(format, args));
  }

  /** The caller is authenticated but may not do this; names no more than the request did. */
  public static ApiException forbidden(String caller, String what) {
    return new ApiException(403, "ForbiddenException", "Forbidden: " + caller + " may not " + what);
  }

  public static ApiException notAuthenticated(String why) {
    return new ApiException(401, "NotAuthorizedException", "Not authorized: " + why);
  }

  public static ApiException noSuchWarehouse(String warehouse) {
    return new ApiException(
        404, "NoSuchWarehouseException", "Warehouse does not exist: " + warehouse);
  }

  public static ApiException noSuchNamespace(Object namespace) {
    return new ApiException(
        404, "NoSuchNamespaceException", "Namespace does not exist: " + namespace);
  }

  public static ApiException noSuchTable(Object table) {
    return new ApiException(404, "NoSuchTableException", "Table does not exist: " + table);
  }
}
