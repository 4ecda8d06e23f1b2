package dev.floe.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.infra.testing.FloeProcess;
import dev.floe.infra.testing.S3ProxyProcess;
import dev.floe.server.it.support.AuthHttp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On object storage the location authority compares locations segment by segment ({@code …/vic} and
 * {@code …/victim} do not overlap), while a store lists a prefix as a plain string: a purge of
 * {@code s3://lake/warehouse/evil/vic} must delete under {@code …/evil/vic/} only, never the live
 * table at {@code …/evil/victim}. A writer of {@code evil} cannot place a table in another
 * namespace's area at all.
 */
class S3PurgePrefixIT {
  private static final String KEY = "AKIAFLOETEST";
  private static final String SECRET = "floe-test-secret-key";
  private static final String SCHEMA =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
          + "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";

  @TempDir static Path dir;
  private static S3ProxyProcess s3;
  private static FloeProcess floe;
  private static String admin;
  private static String bob;

  @BeforeAll
  static void start() throws Exception {
    s3 = new S3ProxyProcess(dir.resolve("s3"), KEY, SECRET).bucket("lake");
    s3.start();
    Map<String, String> props = new HashMap<>();
    String prefix = "floe.warehouse.lake.";
    props.putAll(s3.storage(prefix, "s3://lake/warehouse"));
    // A drop is final at once: what is tested is the purge itself.
    props.put(prefix + "recovery-period", "PT0S");
    props.put("floe.auth", "token");
    props.put("floe.purge-interval", "PT1S");
    floe = new FloeProcess(dir.resolve("floe-s3-purge"), props).start();
    admin = floe.adminToken();
    bob = AuthHttp.principalWithToken(floe.uri(), admin, "bob");
    for (String ns : new String[] {"sec", "evil"}) {
      AuthHttp.expect(
          200,
          floe.uri(),
          "POST",
          "/v1/lake/namespaces",
          admin,
          "{\"namespace\":[\"" + ns + "\"]}");
    }
    AuthHttp.expect(
        204,
        floe.uri(),
        "POST",
        "/management/v1/warehouses/lake/grants",
        admin,
        "{\"principal\":\"bob\",\"namespace\":[\"evil\"],\"action\":\"write\"}");
  }

  @AfterAll
  static void stop() throws Exception {
    if (floe != null) {
      floe.close();
    }
    if (s3 != null) {
      s3.close();
    }
  }

  @Test
  void purgingAShorterSiblingLocationDeletesNoOtherTablesFiles() throws Exception {
    String victimMetadata =
        AuthHttp.expect(
                200,
                floe.uri(),
                "POST",
                "/v1/lake/namespaces/evil/tables",
                admin,
                "{\"name\":\"victim\",\"schema\":"
                    + SCHEMA
                    + ",\"location\":\"s3://lake/warehouse/evil/victim\"}")
            .json()
            .path("metadata-location")
            .asText();
    Path victimFile = objectFile(victimMetadata);
    assertThat(Files.exists(victimFile)).isTrue();
    // Another namespace's area is out of bob's reach altogether.
    assertThat(
            AuthHttp.send(
                    floe.uri(),
                    "POST",
                    "/v1/lake/namespaces/evil/tables",
                    bob,
                    "{\"name\":\"t\",\"schema\":"
                        + SCHEMA
                        + ",\"location\":\"s3://lake/warehouse/sec/vic\"}")
                .status())
        .isEqualTo(400);

    // bob places a table at a free sibling whose name is a string prefix of the victim's
    // directory: no overlap, so the create is accepted; its purge must stop at its own directory.
    String bobsMetadata =
        AuthHttp.expect(
                200,
                floe.uri(),
                "POST",
                "/v1/lake/namespaces/evil/tables",
                bob,
                "{\"name\":\"t\",\"schema\":"
                    + SCHEMA
                    + ",\"location\":\"s3://lake/warehouse/evil/vic\"}")
            .json()
            .path("metadata-location")
            .asText();
    Path bobsFile = objectFile(bobsMetadata);
    assertThat(Files.exists(bobsFile)).isTrue();

    AuthHttp.expect(
        204,
        floe.uri(),
        "DELETE",
        "/v1/lake/namespaces/evil/tables/t?purgeRequested=true",
        bob,
        null);
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < deadline && Files.exists(bobsFile)) {
      Thread.sleep(200);
    }
    assertThat(Files.exists(bobsFile)).as("the purger ran on bob's location").isFalse();
    Thread.sleep(1500);

    assertThat(Files.exists(victimFile))
        .as("the live victim's metadata file survives the purge of its string-prefix sibling")
        .isTrue();
    AuthHttp.Response load =
        AuthHttp.send(floe.uri(), "GET", "/v1/lake/namespaces/evil/tables/victim", admin, null);
    assertThat(load.status()).as(load.body()).isEqualTo(200);
  }

  /** S3Proxy keeps objects as files under its data directory. */
  private static Path objectFile(String s3Location) {
    return dir.resolve("s3/data/lake").resolve(s3Location.substring("s3://lake/".length()));
  }
}
