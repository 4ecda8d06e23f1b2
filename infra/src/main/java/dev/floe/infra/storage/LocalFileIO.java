package dev.floe.infra.storage;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * A {@link FileIO} for {@code file:} locations on java.nio, so the catalog needs no Hadoop for a
 * local warehouse. Overwrites go through a temporary file and an atomic move: a reader never sees
 * half a metadata file.
 */
public class LocalFileIO implements FileIO, SupportsPrefixOperations {

  /**
   * {@code file:///a/b}, {@code file:/a/b} and {@code /a/b} all name {@code /a/b}; nothing is
   * decoded.
   */
  public static Path toPath(String location) {
    String path = location;
    if (path.startsWith("file:")) {
      path = path.substring("file:".length());
      if (path.startsWith("//")) {
        path = path.substring(2);
      }
    }
    return Paths.get(path);
  }

  @Override
  public InputFile newInputFile(String location) {
    return new LocalInputFile(location, toPath(location));
  }

  @Override
  public OutputFile newOutputFile(String location) {
    return new LocalOutputFile(location, toPath(location));
  }

  @Override
  public void deleteFile(String location) {
    try {
      Files.deleteIfExists(toPath(location));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete " + location, e);
    }
  }

  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    Path root = toPath(prefix);
    if (!Files.exists(root)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(Files::isRegularFile)
          .map(p -> new FileInfo("file://" + p.toAbsolutePath(), size(p), modified(p)))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + prefix, e);
    }
  }

  /** Deletes every file under the prefix, then the emptied directories. */
  @Override
  public void deletePrefix(String prefix) {
    Path root = toPath(prefix);
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete " + prefix, e);
    }
  }

  private static long size(Path path) {
    try {
      return Files.size(path);
    } catch (IOException e) {
      return 0;
    }
  }

  private static long modified(Path path) {
    try {
      return Files.getLastModifiedTime(path).toMillis();
    } catch (IOException e) {
      return 0;
    }
  }

  private record LocalInputFile(String location, Path path) implements InputFile {
    @Override
    public long getLength() {
      try {
        return Files.size(path);
      } catch (NoSuchFileException e) {
        throw new NotFoundException("File does not exist: %s", location);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public SeekableInputStream newStream() {
      try {
        return new ChannelInputStream(FileChannel.open(path, StandardOpenOption.READ));
      } catch (NoSuchFileException e) {
        throw new NotFoundException("File does not exist: %s", location);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public boolean exists() {
      return Files.exists(path);
    }
  }

  private record LocalOutputFile(String location, Path path) implements OutputFile {
    @Override
    public PositionOutputStream create() {
      if (Files.exists(path)) {
        throw new AlreadyExistsException("File already exists: %s", location);
      }
      return open(false);
    }

    @Override
    public PositionOutputStream createOrOverwrite() {
      return open(true);
    }

    private PositionOutputStream open(boolean overwrite) {
      try {
        Files.createDirectories(path.getParent());
        Path temp = Files.createTempFile(path.getParent(), "." + path.getFileName(), ".tmp");
        return new AtomicPositionOutputStream(temp, path, overwrite, location);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot create " + location, e);
      }
    }

    @Override
    public InputFile toInputFile() {
      return new LocalInputFile(location, path);
    }
  }

  private static final class ChannelInputStream extends SeekableInputStream {
    private final FileChannel channel;

    ChannelInputStream(FileChannel channel) {
      this.channel = channel;
    }

    @Override
    public long getPos() throws IOException {
      return channel.position();
    }

    @Override
    public void seek(long newPos) throws IOException {
      channel.position(newPos);
    }

    @Override
    public int read() throws IOException {
      ByteBuffer one = ByteBuffer.allocate(1);
      int n = channel.read(one);
      return n <= 0 ? -1 : one.get(0) & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return channel.read(ByteBuffer.wrap(b, off, len));
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  private static final class AtomicPositionOutputStream extends PositionOutputStream {
    private final Path temp;
    private final Path target;
    private final boolean overwrite;
    private final String location;
    private final OutputStream out;
    private long pos;
    private boolean closed;

    AtomicPositionOutputStream(Path temp, Path target, boolean overwrite, String location)
        throws IOException {
      this.temp = temp;
      this.target = target;
      this.overwrite = overwrite;
      this.location = location;
      this.out = Files.newOutputStream(temp);
    }

    @Override
    public long getPos() {
      return pos;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      pos++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      pos += len;
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      out.close();
      try {
        if (overwrite) {
          Files.move(
              temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } else {
          Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        }
      } catch (FileAlreadyExistsException e) {
        Files.deleteIfExists(temp);
        throw new AlreadyExistsException("File already exists: %s", location);
      }
    }
  }
}
