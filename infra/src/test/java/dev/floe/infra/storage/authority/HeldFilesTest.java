package dev.floe.infra.storage.authority;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.infra.storage.config.StorageConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the catalog may read for a table with its own credentials: files inside what it holds. */
class HeldFilesTest {
  private static final LocationAuthority AUTHORITY =
      new LocationAuthority(StorageConfig.local(Map.of("default", "file:///lake/default")));
  private static final List<String> HELD = List.of("file:///lake/default/db/t-1");

  @Test
  void aFileStrictlyInsideAHeldLocationIsHeld() {
    assertThat(AUTHORITY.holdsFile("file:///lake/default/db/t-1/metadata/snap-1.avro", HELD))
        .isTrue();
    assertThat(AUTHORITY.holdsFile("file:/lake/default/db/t-1/metadata/m.avro", HELD)).isTrue();
  }

  @Test
  void theLocationItselfADirectoryASiblingAndAnEscapeAreNot() {
    assertThat(AUTHORITY.holdsFile("file:///lake/default/db/t-1", HELD)).isFalse();
    assertThat(AUTHORITY.holdsFile("file:///lake/default/db/t-1/", HELD)).isFalse();
    assertThat(AUTHORITY.holdsFile("file:///lake/default/db/t-1/metadata/", HELD)).isFalse();
    assertThat(AUTHORITY.holdsFile("file:///lake/default/db/t-10/m.avro", HELD)).isFalse();
    assertThat(AUTHORITY.holdsFile("file:///lake/default/db/t-1/../t-2/m.avro", HELD)).isFalse();
    assertThat(AUTHORITY.holdsFile("s3://lake/default/db/t-1/m.avro", HELD)).isFalse();
  }
}
