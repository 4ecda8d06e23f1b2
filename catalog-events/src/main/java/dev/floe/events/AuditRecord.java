package dev.floe.events;

import java.util.Objects;

/**
 * One request outcome on {@code floe.audit}: who asked for what, and what came of it. Written by
 * the API instance that answered, after it answered. Never holds a token or a credential.
 *
 * @param id unique id of this record (UUIDv7)
 * @param time when the answer was sent (RFC 3339)
 * @param principal who asked
 * @param requestId the request's id (also in the {@code X-Request-Id} response header)
 * @param idempotencyKey the client's {@code Idempotency-Key}, or null
 * @param method the HTTP method
 * @param route the route template, e.g. {@code POST
 *     /v1/{prefix}/namespaces/{namespace}/tables/{table}}
 * @param warehouse the warehouse (the path prefix), or null for routes without one
 * @param target the entity: {@code db.sales} or {@code db.sales.orders}, or null
 * @param status the HTTP status answered
 * @param errorType the ErrorModel type for a 4xx/5xx (e.g. {@code CommitFailedException}), or null
 * @param message the ErrorModel message (e.g. the requirement that failed), or null
 * @param commandId the command the request produced, or null for reads and refused input
 */
public record AuditRecord(
    String id,
    String time,
    String principal,
    String requestId,
    String idempotencyKey,
    String method,
    String route,
    String warehouse,
    String target,
    int status,
    String errorType,
    String message,
    String commandId) {
  public AuditRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(principal, "principal");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(route, "route");
  }

  public byte[] toBytes() {
    return FloeJson.toBytes(this);
  }

  public static AuditRecord fromBytes(byte[] bytes) {
    return FloeJson.fromBytes(bytes, AuditRecord.class);
  }
}
