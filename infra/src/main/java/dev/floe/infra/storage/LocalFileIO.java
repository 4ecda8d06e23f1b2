package dev.floe.infra.storage;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
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
 *
 * <p>Built with storage roots, it reads, writes, lists and deletes only below them, and never
 * through a symbolic link below a root: a link planted inside a warehouse (by anyone who can write
 * to its disk) cannot send Floe, which may run with more rights, to a file outside it.
 */
public class LocalFileIO implements FileIO, SupportsPrefixOperations {
  /** The directories it may touch below; null when unconfined. */
  private final List<Path> roots;

  /** Unconfined: any absolute path (tests, and tools that are given a path by hand). */
  public LocalFileIO() {
    this.roots = null;
  }

  private LocalFileIO(List<Path> roots) {
    this.roots = roots.stream().map(p -> p.toAbsolutePath().normalize()).toList();
  }

  /** Confined to these directories (to none at all when the list is empty). */
  public static LocalFileIO confinedTo(List<Path> roots) {
    return new LocalFileIO(roots);
  }

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
    Path resolved = Paths.get(path);
    if (!resolved.isAbsolute()) {
      throw new IllegalArgumentException("Not an absolute file location: " + location);
    }
    return resolved;
  }

  /**
   * The path of a location, when it lies below a root and no existing component below that root is
   * a symbolic link; otherwise {@link LocationRefusedException}.
   */
  private Path confined(String location) {
    Path path = below(location);
    if (roots != null) {
      Path root = roots.stream().filter(path::startsWith).findFirst().orElseThrow();
      Path current = root;
      for (Path part : root.relativize(path)) {
        current = current.resolve(part);
        if (Files.isSymbolicLink(current)) {
          throw new LocationRefusedException(
              "Refusing a symbolic link inside the storage root: " + location);
        }
      }
    }
    return path;
  }

  /**
   * The path of a location strictly below a root, checked by name only: enough to ask whether a
   * file is there (a load asks on every request), where following a link reads and writes nothing.
   */
  private Path below(String location) {
    Path path = toPath(location).normalize();
    if (roots == null) {
      return path;
    }
    for (Path root : roots) {
      if (path.startsWith(root) && !path.equals(root)) {
        return path;
      }
    }
    throw new LocationRefusedException("Outside every storage root: " + location);
  }

  @Override
  public InputFile newInputFile(String location) {
    return new LocalInputFile(location, below(location), this);
  }

  @Override
  public OutputFile newOutputFile(String location) {
    return new LocalOutputFile(location, confined(location), this);
  }

  @Override
  public void deleteFile(String location) {
    try {
      Files.deleteIfExists(confined(location));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete " + location, e);
    }
  }

  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    Path root = confined(prefix);
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
    Path root = confined(prefix);
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
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

  /**
   * A file to read: its links are checked when it is opened or measured, not to ask if it exists.
   */
  private record LocalInputFile(String location, Path path, LocalFileIO io) implements InputFile {
    @Override
    public long getLength() {
      try {
        return Files.size(io.confined(location));
      } catch (NoSuchFileException e) {
        throw new NotFoundException("File does not exist: %s", location);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public SeekableInputStream newStream() {
      try {
        return new ChannelInputStream(
            FileChannel.open(io.confined(location), StandardOpenOption.READ));
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

  private record LocalOutputFile(String location, Path path, LocalFileIO io) implements OutputFile {
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
      return new LocalInputFile(location, path, io);
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
