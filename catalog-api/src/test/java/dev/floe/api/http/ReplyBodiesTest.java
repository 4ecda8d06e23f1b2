package dev.floe.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.events.CommandReply;
import dev.floe.events.FloeJson;
import dev.floe.infra.config.FloeConfig;
import dev.floe.infra.storage.MetadataFiles;
import dev.floe.infra.storage.vending.CredentialVendors;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.view.ImmutableSQLViewRepresentation;
import org.apache.iceberg.view.ImmutableViewVersion;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewMetadataParser;
import org.apache.iceberg.view.ViewVersion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Answers to table and view changes are built from the metadata file the reply names: from memory
 * when this process wrote it, else from the file; an unreadable file is a 5xx, never a 4xx.
 */
class ReplyBodiesTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  @TempDir Path warehouse;
  private Vertx vertx;

  @BeforeEach
  void startVertx() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void closeVertx() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
  }

  @Test
  void answersWithTheDocumentAndTheLoadsETagWhenAnotherInstanceWroteTheFile() throws Exception {
    String location = location("00001-a.metadata.json");
    String json = tableJson(location);
    new MetadataFiles().writeJson(location, json);

    HttpResult result = await(ReplyBodies.table(catalog(new MetadataFiles()), reply(location)));

    assertThat(result.status()).isEqualTo(200);
    assertThat(new String(result.body(), StandardCharsets.UTF_8))
        .isEqualTo(new String(LoadTableResponses.body(location, json), StandardCharsets.UTF_8));
    assertThat(result.headers())
        .containsEntry(
            "ETag", LoadTableResponses.etag(location, LoadTableResponses.SnapshotMode.ALL));
  }

  /** The processor of this process has just written the file: no read is needed to answer. */
  @Test
  void answersFromMemoryWhatThisProcessWrote() throws Exception {
    String location = location("00001-b.metadata.json");
    String json = tableJson(location);
    MetadataFiles files = new MetadataFiles();
    files.writeJson(location, json);
    Files.delete(Path.of(location.substring("file://".length())));

    HttpResult result = await(ReplyBodies.table(catalog(files), reply(location)));

    assertThat(result.body()).isEqualTo(LoadTableResponses.body(location, json));
  }

  /**
   * A view's file as the processor writes it (Jackson's tree of Iceberg's JSON) reads back equal.
   */
  @Test
  void answersAViewChangeWithTheDocumentWhenAnotherInstanceWroteTheFile() throws Exception {
    String location = location("00001-v.metadata.json");
    String json = FloeJson.mapper().readTree(ViewMetadataParser.toJson(viewMetadata())).toString();
    new MetadataFiles().writeJson(location, json);

    HttpResult result = await(ReplyBodies.view(catalog(new MetadataFiles()), reply(location)));

    assertThat(new String(result.body(), StandardCharsets.UTF_8))
        .isEqualTo(new String(LoadTableResponses.body(location, json), StandardCharsets.UTF_8));
  }

  @Test
  void anAppliedChangeWhoseFileIsGoneIsAnUnknownOutcomeNotARefusal() {
    String location = location("00001-gone.metadata.json");

    assertFailsWithUnknownOutcome(ReplyBodies.table(catalog(new MetadataFiles()), reply(location)));
    assertFailsWithUnknownOutcome(ReplyBodies.view(catalog(new MetadataFiles()), reply(location)));
  }

  /** Iceberg's parser throws IllegalArgumentException, which the edge maps to 400 elsewhere. */
  @Test
  void anAppliedChangeWhoseFileCannotBeParsedIsAnUnknownOutcomeNotARefusal() throws Exception {
    String location = location("00001-garbled.metadata.json");
    Files.writeString(Path.of(location.substring("file://".length())), "{\"format-version\":9}");

    assertFailsWithUnknownOutcome(ReplyBodies.table(catalog(new MetadataFiles()), reply(location)));
  }

  @Test
  void aStagedCreateIsAnsweredFromTheReplyWithoutAFile() throws Exception {
    String json = tableJson(location("staged"));

    HttpResult result =
        await(ReplyBodies.table(catalog(new MetadataFiles()), CommandReply.staged("c", json)));

    assertThat(result.body()).isEqualTo(LoadTableResponses.body(null, json));
    assertThat(result.headers()).doesNotContainKey("ETag");
  }

  private void assertFailsWithUnknownOutcome(Future<HttpResult> answer) {
    assertThatThrownBy(() -> await(answer))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(500);
              assertThat(e.type()).isEqualTo("CommitStateUnknownException");
              assertThat(e.getMessage()).startsWith("The change was applied but its metadata file");
            });
  }

  private String location(String name) {
    return "file://" + warehouse.toAbsolutePath() + "/" + name;
  }

  private String tableJson(String location) {
    TableMetadata metadata =
        TableMetadata.newTableMetadata(
            SCHEMA,
            PartitionSpec.unpartitioned(),
            SortOrder.unsorted(),
            "file://" + warehouse.toAbsolutePath(),
            Map.of("owner", "alice"));
    return TableMetadataParser.toJson(metadata);
  }

  private ViewMetadata viewMetadata() {
    ViewVersion version =
        ImmutableViewVersion.builder()
            .versionId(1)
            .timestampMillis(1_700_000_000_000L)
            .schemaId(0)
            .defaultNamespace(Namespace.of("db"))
            .summary(Map.of("operation", "create"))
            .addRepresentations(
                ImmutableSQLViewRepresentation.builder()
                    .sql("select \"id\" from t -- é")
                    .dialect("spark")
                    .build())
            .build();
    return ViewMetadata.builder()
        .assignUUID("0190b3c2-0000-7000-8000-00000000000a")
        .setLocation("file://" + warehouse.toAbsolutePath() + "/v")
        .setProperties(Map.of("comment", "a \"quoted\" view"))
        .setCurrentVersion(version, SCHEMA)
        .build();
  }

  private CatalogContext catalog(MetadataFiles files) {
    Properties props = new Properties();
    props.setProperty("floe.data-dir", warehouse.toString());
    FloeConfig config = FloeConfig.fromProperties(props);
    return new CatalogContext(
        config,
        null,
        null,
        vertx,
        files,
        null,
        null,
        new CredentialVendors(config.storage(), Clock.systemUTC()));
  }

  private static CommandReply reply(String location) {
    return CommandReply.table("0190b3c2-0000-7000-8000-000000000001", location);
  }

  private static HttpResult await(Future<HttpResult> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
  }
}
