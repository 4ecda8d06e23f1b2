package dev.floe.events;

import java.util.Objects;

/**
 * How many of one principal's S3 requests to one table's files the catalog signed, and refused, in
 * one minute, on {@code floe.data-access}: written by the instance that answered them, once the
 * minute is over (or when it stops). Every refusal is also on {@code floe.audit}, one record each.
 * Never holds a signature, a key or an object's name.
 *
 * @param minute the minute's start (RFC 3339, UTC)
 * @param warehouse the warehouse (the path prefix)
 * @param principal who asked
 * @param table the table: {@code db.sales}
 * @param operation {@code read} (GET, HEAD) or {@code write} (anything else)
 * @param signed requests signed
 * @param refused requests refused (403: outside the table, or a write without the right)
 */
public record DataAccessRecord(
    String minute,
    String warehouse,
    String principal,
    String table,
    String operation,
    long signed,
    long refused) {
  public DataAccessRecord {
    Objects.requireNonNull(minute, "minute");
    Objects.requireNonNull(principal, "principal");
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(operation, "operation");
  }

  public byte[] toBytes() {
    return FloeJson.toBytes(this);
  }

  public static DataAccessRecord fromBytes(byte[] bytes) {
    return FloeJson.fromBytes(bytes, DataAccessRecord.class);
  }
}
