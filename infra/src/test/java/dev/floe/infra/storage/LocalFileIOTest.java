package dev.floe.infra.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalFileIOTest {
  @TempDir Path dir;

  @Test
  void neverFollowsASymbolicLinkPlantedInsideTheRootToAFileOutside() throws Exception {
    Path root = Files.createDirectories(dir.resolve("warehouse"));
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Files.writeString(outside.resolve("secret.metadata.json"), "{\"secret\":true}");
    Files.createSymbolicLink(root.resolve("ns"), outside);
    LocalFileIO io = LocalFileIO.confinedTo(List.of(root));
    String throughLink = root.resolve("ns").toUri() + "/secret.metadata.json";

    assertThatThrownBy(() -> io.newInputFile(throughLink).newStream())
        .hasMessageContaining("symbolic link");
    assertThatThrownBy(() -> io.newOutputFile(root.resolve("ns").toUri() + "/new.json"))
        .hasMessageContaining("symbolic link");
    assertThatThrownBy(() -> io.deletePrefix(root.resolve("ns").toUri().toString()))
        .hasMessageContaining("symbolic link");
    assertThatThrownBy(() -> io.deleteFile(throughLink)).hasMessageContaining("symbolic link");
    assertThat(outside.resolve("secret.metadata.json")).exists();
  }

  @Test
  void touchesNothingOutsideItsRoots() throws Exception {
    Path root = Files.createDirectories(dir.resolve("warehouse"));
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Files.writeString(outside.resolve("keep"), "x");
    LocalFileIO io = LocalFileIO.confinedTo(List.of(root));

    assertThatThrownBy(() -> io.deletePrefix(outside.toUri().toString()))
        .hasMessageContaining("Outside every storage root");
    assertThatThrownBy(() -> io.deletePrefix(root.toUri().toString()))
        .hasMessageContaining("Outside every storage root");
    assertThatThrownBy(() -> io.newInputFile("file://localhost" + outside.resolve("keep")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(outside.resolve("keep")).exists();

    io.newOutputFile(root.resolve("t/metadata/a.json").toUri().toString()).create().close();
    io.deletePrefix(root.resolve("t").toUri().toString());
    assertThat(root.resolve("t")).doesNotExist();
  }
}
