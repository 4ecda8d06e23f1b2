package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.infra.testing.FloeProcess;
import dev.floe.server.it.support.AuthHttp;
import dev.floe.server.it.support.AuthHttp.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Red team: what another namespace leaves in the warehouse is open to any namespace writer. A table
 * of namespace {@code sec} dropped without purge releases its location, but its files stay (that is
 * what a drop without purge is for). {@code bob}, who may write only namespace {@code evil}, can
 * then register that table's metadata into his own namespace (reading its schema, properties and
 * snapshots), or place a table of his own over its directory and drop it with purge, and the purger
 * deletes the other namespace's files.
 */
class LeftoverFilesIT {
  private static final String SCHEMA =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
          + "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";

  @TempDir static Path dir;
  private static FloeProcess floe;
  private static Path whb;
  private static String admin;
  private static String bob;

  @BeforeAll
  static void start() throws Exception {
    whb = Files.createDirectories(dir.resolve("whb"));
    floe =
        new FloeProcess(
                dir.resolve("data"),
                Map.of(
                    "floe.auth", "token",
                    "floe.warehouse.whb.location", whb.toUri().toString(),
                    "floe.purge-interval", "PT1S"))
            .start();
    admin = floe.adminToken();
    bob = AuthHttp.principalWithToken(floe.uri(), admin, "bob");
    for (String ns : new String[] {"sec", "evil"}) {
      AuthHttp.expect(
          200, floe.uri(), "POST", "/v1/whb/namespaces", admin, "{\"namespace\":[\"" + ns + "\"]}");
    }
    AuthHttp.expect(
        204,
        floe.uri(),
        "POST",
        "/management/v1/warehouses/whb/grants",
        admin,
        "{\"principal\":\"bob\",\"namespace\":[\"evil\"],\"action\":\"write\"}");
  }

  @AfterAll
  static void stop() throws InterruptedException {
    floe.close();
  }

  /** A table of {@code sec} with a secret property, dropped without purge: its metadata file. */
  private static String droppedWithoutPurge(String name) {
    AuthHttp.expect(
        200,
        floe.uri(),
        "POST",
        "/v1/whb/namespaces/sec/tables",
        admin,
        "{\"name\":\"" + name + "\",\"schema\":" + SCHEMA + "}");
    String metadata =
        AuthHttp.expect(
                200,
                floe.uri(),
                "POST",
                "/v1/whb/namespaces/sec/tables/" + name,
                admin,
                "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\","
                    + "\"updates\":{\"secret\":\"s3cr3t-of-sec\"}}]}")
            .json()
            .path("metadata-location")
            .asText();
    AuthHttp.expect(
        204,
        floe.uri(),
        "DELETE",
        "/v1/whb/namespaces/sec/tables/" + name + "?purgeRequested=false",
        admin,
        null);
    return metadata;
  }

  @Test
  void aNamespaceWriterCannotRegisterAnotherNamespacesDroppedTable() {
    String metadata = droppedWithoutPurge("kept");
    Response stolen =
        AuthHttp.send(
            floe.uri(),
            "POST",
            "/v1/whb/namespaces/evil/register",
            bob,
            "{\"name\":\"stolen\",\"metadata-location\":" + json(metadata) + "}");
    // The file lies outside evil's area: refused before it is opened.
    assertThat(stolen.body()).doesNotContain("s3cr3t-of-sec");
    assertThat(stolen.status()).as(stolen.body()).isEqualTo(400);
  }

  @Test
  void aNamespaceWriterCannotPurgeAnotherNamespacesLeftoverFiles() throws Exception {
    String metadata = droppedWithoutPurge("leftover");
    Path file = Path.of(URI.create(metadata));
    Path tableDir = file.getParent().getParent();
    assertThat(Files.exists(file)).isTrue();

    // bob places a table of his own over sec's leftover directory: nothing holds it any more.
    Response grab =
        AuthHttp.send(
            floe.uri(),
            "POST",
            "/v1/whb/namespaces/evil/tables",
            bob,
            "{\"name\":\"grab\",\"schema\":"
                + SCHEMA
                + ",\"location\":"
                + json(tableDir.toUri().toString())
                + "}");
    // Refused: the location lies outside evil's area (were it accepted, its purge would delete
    // sec's files). Nothing was touched.
    assertThat(grab.status()).as(grab.body()).isEqualTo(400);
    assertThat(Files.exists(file)).as("sec's dropped-but-kept files are still there").isTrue();
    assertThat(Files.exists(tableDir)).isTrue();
  }

  private static String json(String value) {
    try {
      return AuthHttp.JSON.writeValueAsString(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
