package dev.floe.events;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.CommitTransactionRequestParser;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequestParser;

/**
 * Bounds on what a REST request body may contain, enforced while it is parsed by {@link
 * FloeJson#rest()}: a request past a bound fails to parse (a 400 at the edge) before anything is
 * built from it (the properties' bounds by {@link PropertyBounds}). The log's own mapper is not
 * bounded: what was accepted once must stay readable.
 */
public final class RestRequestLimits {
  /** The largest request body, in bytes (the edge answers 413 above it). */
  public static final long MAX_DOCUMENT_BYTES = 10L * 1024 * 1024;

  /**
   * Objects and arrays inside one another: room for about 20 levels of nested structs in a schema,
   * far below what would exhaust a thread's stack in a recursive parser.
   */
  public static final int MAX_NESTING_DEPTH = 64;

  /** Characters in one string value (a property value, a location, a doc). */
  public static final int MAX_STRING_CHARS = 1024 * 1024;

  /** Characters of one number: ids and timestamps need 20, decimals' bounds a few more. */
  public static final int MAX_NUMBER_CHARS = 100;

  /** Requirements, and separately updates, in one commit. */
  public static final int MAX_COMMIT_CHANGES = 1000;

  /** Tables in one multi-table transaction. */
  public static final int MAX_TABLES_PER_TRANSACTION = 100;

  /**
   * Properties one request sets or removes: a namespace's, table's or view's create, a namespace's
   * update (updates and removals together), one table's or view's commit (its {@code
   * set-properties} and {@code remove-properties} together; in a transaction, each table's). The
   * processor applies a change as one unit: 400,000 properties held it for 4.5 s, about 11 µs each,
   * so this bound keeps one change near 10 ms; Iceberg and the engines use tens of properties.
   */
  public static final int MAX_PROPERTIES_PER_REQUEST = 1000;

  /** Bytes of UTF-8 of the keys and values those properties hold (removed keys included). */
  public static final int MAX_PROPERTY_BYTES_PER_REQUEST = 1024 * 1024;

  private RestRequestLimits() {}

  static StreamReadConstraints readConstraints() {
    return StreamReadConstraints.builder()
        .maxDocumentLength(MAX_DOCUMENT_BYTES)
        .maxNestingDepth(MAX_NESTING_DEPTH)
        .maxStringLength(MAX_STRING_CHARS)
        .maxNumberLength(MAX_NUMBER_CHARS)
        .build();
  }

  /**
   * Replaces Iceberg's {@code UpdateTableRequest} deserialiser with one that counts the
   * requirements and updates before Iceberg builds them: a commit is decided as one unit, so an
   * unbounded one would hold the table's single writer for as long as it takes.
   */
  static SimpleModule module() {
    SimpleModule module = new SimpleModule("floe-rest-request-limits");
    module.addDeserializer(UpdateTableRequest.class, new BoundedUpdateTableRequestDeserializer());
    module.addDeserializer(
        CommitTransactionRequest.class, new BoundedCommitTransactionRequestDeserializer());
    module.setDeserializerModifier(PropertyBounds.modifier());
    return module;
  }

  /** The same bounds for every table of a multi-table transaction, and on the number of tables. */
  private static final class BoundedCommitTransactionRequestDeserializer
      extends JsonDeserializer<CommitTransactionRequest> {
    @Override
    public CommitTransactionRequest deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      JsonNode node = parser.getCodec().readTree(parser);
      JsonNode changes = node == null ? null : node.get("table-changes");
      if (changes != null && changes.size() > MAX_TABLES_PER_TRANSACTION) {
        throw JsonMappingException.from(
            parser,
            String.format(
                "Too many tables in one transaction: %d (at most %d)",
                changes.size(), MAX_TABLES_PER_TRANSACTION));
      }
      if (changes != null) {
        for (JsonNode change : changes) {
          BoundedUpdateTableRequestDeserializer.requireAtMost(parser, change, "requirements");
          BoundedUpdateTableRequestDeserializer.requireAtMost(parser, change, "updates");
          PropertyBounds.requireWithinCommit(parser, change);
        }
      }
      return CommitTransactionRequestParser.fromJson(node);
    }
  }

  private static final class BoundedUpdateTableRequestDeserializer
      extends JsonDeserializer<UpdateTableRequest> {
    @Override
    public UpdateTableRequest deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      JsonNode node = parser.getCodec().readTree(parser);
      requireAtMost(parser, node, "requirements");
      requireAtMost(parser, node, "updates");
      PropertyBounds.requireWithinCommit(parser, node);
      return UpdateTableRequestParser.fromJson(node);
    }

    private static void requireAtMost(JsonParser parser, JsonNode node, String field)
        throws JsonMappingException {
      JsonNode list = node == null ? null : node.get(field);
      if (list != null && list.size() > MAX_COMMIT_CHANGES) {
        throw JsonMappingException.from(
            parser,
            String.format(
                "Too many %s in one commit: %d (at most %d)",
                field, list.size(), MAX_COMMIT_CHANGES));
      }
    }
  }
}
