package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.Main;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.FileHashes;
import dev.floe.server.it.support.RestClients;
import dev.floe.server.it.support.SharedFloe;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The orphan files report: files under a table's location that its metadata no longer reaches and
 * older than the threshold are listed; files its metadata reaches, younger files and files beside
 * the table are not; nothing on disk changes; only a principal that manages the table may ask.
 */
class OrphanFilesIT {
  @RegisterExtension static final SharedFloe SHARED = SharedFloe.withTokens();

  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  @Test
  void listsOldFilesTheMetadataDoesNotReachAndChangesNothing() throws Exception {
    FloeProcess floe = SHARED.process();
    String writer = AuthHttp.writerToken(floe, "orphans-writer");
    TableIdentifier name = TableIdentifier.of(Namespace.of("orphans"), "t");
    Path tableDir;
    Path referenced;
    try (RESTCatalog catalog = RestClients.connect(floe.uri(), Map.of("token", writer))) {
      catalog.createNamespace(name.namespace());
      Table table = catalog.createTable(name, SCHEMA, PartitionSpec.unpartitioned());
      tableDir = Path.of(URI.create(table.location().replaceFirst("^file:/+", "file:///")));
      referenced = write(tableDir.resolve("data/kept.parquet"));
      DataFile kept =
          DataFiles.builder(table.spec())
              .withPath(table.location() + "/data/kept.parquet")
              .withFileSizeInBytes(Files.size(referenced))
              .withRecordCount(1)
              .build();
      table.newFastAppend().appendFile(kept).commit();
      DataFile dropped =
          DataFiles.builder(table.spec())
              .withPath(table.location() + "/data/dropped.parquet")
              .withFileSizeInBytes(5)
              .withRecordCount(1)
              .build();
      write(tableDir.resolve("data/dropped.parquet"));
      table.newFastAppend().appendFile(dropped).commit();
      // Still reached through the snapshot before the delete.
      table.newDelete().deleteFile(dropped).commit();
    }
    Path oldOrphan = write(tableDir.resolve("data/stray-old.parquet"));
    Path newOrphan = write(tableDir.resolve("data/stray-new.parquet"));
    Path beside = write(tableDir.getParent().resolve("beside-old.txt"));
    FileTime tenDaysAgo = FileTime.from(Instant.now().minus(10, ChronoUnit.DAYS));
    for (Path old : List.of(oldOrphan, beside, referenced)) {
      Files.setLastModifiedTime(old, tenDaysAgo);
    }
    Map<String, String> before = FileHashes.of(floe.warehouse());

    String route = "/management/v1/warehouses/default/namespaces/orphans/tables/t/orphan-files";
    JsonNode report =
        AuthHttp.expect(200, floe.uri(), "GET", route, floe.adminToken(), null).json();
    assertThat(locations(report)).containsExactly(oldOrphan.toString());
    assertThat(report.path("older-than").asText()).isEqualTo("PT72H");
    assertThat(report.path("truncated").asBoolean()).isFalse();
    assertThat(report.path("orphan-files").get(0).path("size-in-bytes").asLong()).isEqualTo(5);

    JsonNode all =
        AuthHttp.expect(200, floe.uri(), "GET", route + "?older-than=PT0S", floe.adminToken(), null)
            .json();
    assertThat(locations(all)).containsExactly(newOrphan.toString(), oldOrphan.toString());
    assertThat(all.path("listed").asLong()).isGreaterThan(6);

    // A writer of the table does not manage it; a bad threshold is the caller's mistake.
    assertThat(AuthHttp.send(floe.uri(), "GET", route, writer, null).status()).isEqualTo(403);
    JsonNode bad =
        AuthHttp.send(floe.uri(), "GET", route + "?older-than=3days", floe.adminToken(), null)
            .json();
    assertThat(bad.path("error").path("code").asInt()).isEqualTo(400);
    assertThat(
            AuthHttp.send(
                    floe.uri(),
                    "GET",
                    "/management/v1/warehouses/default/namespaces/orphans/tables/nope/orphan-files",
                    floe.adminToken(),
                    null)
                .status())
        .isEqualTo(404);

    // The command line: the same report as a table.
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int exit =
        Main.run(
            new String[] {
              "maintenance",
              "orphans",
              "--warehouse",
              "default",
              "--table",
              "orphans.t",
              "--url",
              floe.uri(),
              "--token",
              floe.adminToken()
            },
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    assertThat(exit).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .startsWith("LOCATION")
        .contains("stray-old.parquet")
        .doesNotContain("stray-new.parquet")
        .doesNotContain("kept.parquet");

    assertThat(FileHashes.of(floe.warehouse())).as("a report deletes nothing").isEqualTo(before);
  }

  private static List<String> locations(JsonNode report) {
    List<String> locations = new ArrayList<>();
    report
        .path("orphan-files")
        .forEach(f -> locations.add(Path.of(URI.create(f.path("location").asText())).toString()));
    return locations;
  }

  private static Path write(Path file) throws Exception {
    Files.createDirectories(file.getParent());
    return Files.writeString(file, "bytes");
  }
}
