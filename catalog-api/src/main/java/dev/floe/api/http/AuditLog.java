package dev.floe.api.http;

/** Receives every answered request that matched a route; decides what to keep. */
public interface AuditLog {
  /**
   * @param error the failure answered, or null for a success
   */
  void record(RequestContext request, String route, int status, ApiException error);

  /**
   * One S3 request of an engine to a table's files that the catalog signed, or refused; counted,
   * not kept one by one (a refusal is also {@link #record}ed).
   */
  default void dataAccess(RequestContext request, String table, boolean write, boolean signed) {}

  AuditLog NONE = (request, route, status, error) -> {};
}
