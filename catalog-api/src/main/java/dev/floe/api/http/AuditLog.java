package dev.floe.api.http;

/** Receives every answered request that matched a route; decides what to keep. */
public interface AuditLog {
  /**
   * @param error the failure answered, or null for a success
   */
  void record(RequestContext request, String route, int status, ApiException error);

  AuditLog NONE = (request, route, status, error) -> {};
}
