package dev.floe.events;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The outcome of one command, on {@code floe.replies}, keyed by the waiting instance. Exactly one
 * of {@code rejection} and the result fields describes it.
 *
 * <p>A table or view change names its metadata file and never carries the document: the file at a
 * location never changes, so the API answers with the file's document (a commit's reply stays a few
 * hundred bytes however large the table grows, and so does the idempotency record that keeps it for
 * retries).
 *
 * @param metadataLocation for table and view commands: the current metadata file after the command
 * @param metadata only for a staged create, which writes no file: the metadata it would create, as
 *     Iceberg's JSON (bounded by the create request). Replies of earlier versions carried it for
 *     every table command; a reader still accepts them.
 * @param properties for namespace commands: the namespace's properties after the command; for a
 *     token's issue, its id under {@code token-id} (a retry with the same Idempotency-Key gets this
 *     reply, which names the token the first request created)
 */
public record CommandReply(
    String commandId,
    Rejection rejection,
    String metadataLocation,
    String metadata,
    Map<String, String> properties,
    List<String> updated,
    List<String> removed,
    List<String> missing) {
  private static final String TOKEN_ID = "token-id";
  private static final String UUID = "uuid";

  public CommandReply {
    Objects.requireNonNull(commandId, "commandId");
  }

  public static CommandReply rejected(String commandId, Rejection rejection) {
    return new CommandReply(commandId, rejection, null, null, null, null, null, null);
  }

  /** A table or view change: the answer's body is the document of the file at this location. */
  public static CommandReply table(String commandId, String metadataLocation) {
    Objects.requireNonNull(metadataLocation, "metadataLocation");
    return new CommandReply(commandId, null, metadataLocation, null, null, null, null, null);
  }

  /** A staged create: no file is written, so the reply carries the metadata it would create. */
  public static CommandReply staged(String commandId, String metadata) {
    return new CommandReply(commandId, null, null, metadata, null, null, null, null);
  }

  /** A restored table or view: its metadata file and its uuid (under {@code uuid}). */
  public static CommandReply restored(String commandId, String metadataLocation, String uuid) {
    Objects.requireNonNull(metadataLocation, "metadataLocation");
    return new CommandReply(
        commandId, null, metadataLocation, null, Map.of(UUID, uuid), null, null, null);
  }

  /** The uuid of a restored table or view, or null for any other reply. */
  public String restoredUuid() {
    return properties == null ? null : properties.get(UUID);
  }

  public static CommandReply done(String commandId) {
    return new CommandReply(commandId, null, null, null, null, null, null, null);
  }

  /** A token was issued: names its id (never the token or its hash). */
  public static CommandReply tokenIssued(String commandId, String tokenId) {
    return namespace(commandId, Map.of(TOKEN_ID, tokenId));
  }

  /** The id of the token an issue created, or null (another reply, or one of an older version). */
  public String issuedTokenId() {
    return properties == null ? null : properties.get(TOKEN_ID);
  }

  public static CommandReply namespace(String commandId, Map<String, String> properties) {
    return new CommandReply(commandId, null, null, null, properties, null, null, null);
  }

  public static CommandReply namespaceUpdated(
      String commandId, List<String> updated, List<String> removed, List<String> missing) {
    return new CommandReply(commandId, null, null, null, null, updated, removed, missing);
  }

  public boolean accepted() {
    return rejection == null;
  }
}
