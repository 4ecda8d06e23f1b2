package dev.floe.infra.storage;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.floe.events.state.MetadataDocuments;
import dev.floe.infra.storage.authority.LocationAuthority;
import dev.floe.infra.storage.config.S3Clients;
import dev.floe.infra.storage.config.StorageConfig;
import dev.floe.infra.storage.config.StorageProfile;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * Reads and writes {@code metadata.json} files in the warehouse through Iceberg's FileIO: {@link
 * LocalFileIO} for {@code file:}, Iceberg's {@link S3FileIO} for {@code s3://} roots (each storage
 * with its own client, endpoint, credentials and time bound). Writes overwrite: a command
 * reprocessed after a crash writes the same file name again (the name comes from the command), and
 * the file that stays is the one whose Kafka transaction committed last.
 */
public class MetadataFiles implements MetadataDocuments, AutoCloseable {
  private final StorageConfig storage;
  private final LocationAuthority locations;
  private final FileIO local;
  private final Map<String, FileIO> ioByStorage = new ConcurrentHashMap<>();

  /**
   * The documents this process wrote in the last minute, by location. A reply names the metadata
   * file of the change, not its document; when the API instance that answers is the one whose
   * processor decided the change (always with one instance), it serves the body from here instead
   * of reading the file back. A location names one version, so an entry is the file's content (up
   * to the {@code last-updated-ms} of a fenced zombie's late rewrite). Bounded by characters, the
   * oldest dropped first.
   */
  private final RecentDocuments recentlyWritten =
      new RecentDocuments(64L * 1024 * 1024, Duration.ofMinutes(1));

  /**
   * Documents read back from their files, by location (a location names one immutable version): the
   * stores keep only pointers, so a load or a commit whose document this process did not write
   * lately reads it once. Bounded by characters; idle entries leave after 10 minutes.
   */
  private final Cache<String, String> read =
      documentsBy(128L * 1024 * 1024).expireAfterAccess(Duration.ofMinutes(10)).build();

  /**
   * A cache of documents by location, bounded by characters. Maintenance runs on the caller:
   * handing it to the common pool cost a thread wake-up per write on the commit path
   * (bench/notes.md).
   */
  private static Caffeine<String, String> documentsBy(long maxChars) {
    return Caffeine.newBuilder()
        .maximumWeight(maxChars)
        .<String, String>weigher((location, json) -> location.length() + json.length())
        .executor(Runnable::run);
  }

  /**
   * When each metadata file was last seen in storage by this process (written here, or found by a
   * check), plus its storage's {@code metadata-exists-ttl}, as a {@link #ticker} reading: until
   * then a load does not ask storage whether the file is still there, which on object storage is a
   * request per load. Bounded by count.
   */
  private final Cache<String, Long> seenUntil;

  private final Ticker ticker;

  /** Local files anywhere, unconfined (tests). */
  public MetadataFiles() {
    this(StorageConfig.local(Map.of()), Ticker.systemTicker(), false);
  }

  public MetadataFiles(StorageConfig storage) {
    this(storage, Ticker.systemTicker());
  }

  MetadataFiles(StorageConfig storage, Ticker ticker) {
    this(storage, ticker, true);
  }

  /**
   * @param confined whether local files are read and written only inside the configured {@code
   *     file:} roots (always, outside tests)
   */
  private MetadataFiles(StorageConfig storage, Ticker ticker, boolean confined) {
    this.storage = storage;
    this.locations = new LocationAuthority(storage);
    this.local =
        confined
            ? LocalFileIO.confinedTo(
                storage.all().stream()
                    .filter(p -> p.scheme() == StorageProfile.Scheme.FILE)
                    .map(p -> LocalFileIO.toPath(p.root()))
                    .toList())
            : new LocalFileIO();
    this.ticker = ticker;
    Duration longest =
        storage.all().stream()
            .map(StorageProfile::metadataExistsTtl)
            .max(Comparator.naturalOrder())
            .orElse(Duration.ZERO);
    this.seenUntil =
        Caffeine.newBuilder()
            .maximumSize(100_000)
            .expireAfterWrite(longest.isZero() ? Duration.ofNanos(1) : longest)
            .ticker(ticker)
            .executor(Runnable::run)
            .build();
  }

  /** The location authority over this storage: where may be read, written, vended, deleted. */
  public LocationAuthority locations() {
    return locations;
  }

  public void write(TableMetadata metadata, String location) {
    TableMetadataParser.overwrite(metadata, io(location).newOutputFile(location));
    seen(location);
  }

  /** Writes an already serialised metadata document (the processor has the JSON in hand). */
  public void writeJson(String location, String json) {
    try (OutputStream out = io(location).newOutputFile(location).createOrOverwrite()) {
      out.write(json.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + location, e);
    }
    recentlyWritten.put(location, json);
    seen(location);
  }

  /** The document written at this location by this process lately, if it is still held. */
  public Optional<String> recentlyWritten(String location) {
    return Optional.ofNullable(recentlyWritten.get(location));
  }

  /**
   * The document at a metadata location: the one this process wrote there lately, or one it read
   * before, or the file's content as written (decompressed when Iceberg's file name says gzip).
   */
  @Override
  public String document(String location) {
    String json = recentlyWritten.get(location);
    if (json != null) {
      return json;
    }
    json = read.getIfPresent(location);
    if (json != null) {
      return json;
    }
    try (InputStream in = open(location)) {
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      throw new UnavailableException("Cannot read table metadata " + location + ": " + e, e);
    }
    read.put(location, json);
    return json;
  }

  private InputStream open(String location) throws IOException {
    InputStream in = io(location).newInputFile(location).newStream();
    return TableMetadataParser.Codec.fromFileName(location) == TableMetadataParser.Codec.GZIP
        ? new GZIPInputStream(in)
        : in;
  }

  /**
   * Deletes everything under a location (a dropped table's files, when a purge was asked for):
   * under {@code <location>/} only. Object stores list a prefix as a plain string, so without the
   * slash {@code …/sec/vic} would take {@code …/sec/victim}'s files too.
   */
  public void deleteAll(String location) {
    FileIO io = io(location);
    if (!(io instanceof SupportsPrefixOperations prefixes)) {
      throw new UnsupportedOperationException("Cannot delete by prefix at " + location);
    }
    prefixes.deletePrefix(location.endsWith("/") ? location : location + "/");
  }

  /**
   * Deletes the files under {@code <location>/} last modified before {@code beforeMs}, except those
   * {@code kept} says to keep; {@code kept} is asked for after the listing, so that it sees every
   * holder of a file listed. Returns how many were deleted.
   */
  public long deleteOlderUnder(String location, long beforeMs, Supplier<Predicate<String>> kept) {
    FileIO io = io(location);
    if (!(io instanceof SupportsPrefixOperations prefixes)) {
      throw new UnsupportedOperationException("Cannot list files at " + location);
    }
    List<String> old = new ArrayList<>();
    for (FileInfo file : prefixes.listPrefix(location.endsWith("/") ? location : location + "/")) {
      if (file.createdAtMillis() < beforeMs) {
        old.add(file.location());
      }
    }
    Predicate<String> keep = kept.get();
    long deleted = 0;
    for (String file : old) {
      if (!keep.test(file)) {
        io.deleteFile(file);
        deleted++;
      }
    }
    if (isLocal(location)) {
      removeEmptyDirectories(LocalFileIO.toPath(location), keep);
    }
    return deleted;
  }

  /**
   * A local file system keeps the directories the deleted files were in: those left empty and not
   * kept go, deepest first (object stores have no directories). A directory's time says nothing
   * here (deleting a file in it sets it), so an empty one made since is removed too; a writer that
   * made it writes its file with its directories again or fails, and loses nothing.
   */
  private static void removeEmptyDirectories(Path root, Predicate<String> keep) {
    if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path dir :
          paths
              .filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
              .sorted(Comparator.reverseOrder())
              .toList()) {
        if (!keep.test("file://" + dir.toAbsolutePath())) {
          try {
            Files.delete(dir);
          } catch (DirectoryNotEmptyException e) {
            // Something is still in it: it stays.
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot remove the emptied directories under " + root, e);
    }
  }

  /** Whether the location is on a local file system, where checking or reading it is a syscall. */
  private boolean isLocal(String location) {
    return io(location) == local;
  }

  /**
   * Whether the file is in storage: true without asking when this process saw it within its
   * storage's {@code metadata-exists-ttl}, otherwise storage's answer (a {@code stat} locally, a
   * request on object storage).
   */
  public boolean exists(String location) {
    if (seenLately(location)) {
      return true;
    }
    boolean exists = io(location).newInputFile(location).exists();
    if (exists) {
      seen(location);
    } else {
      seenUntil.invalidate(location);
    }
    return exists;
  }

  /**
   * Whether the file is known to be in storage without waiting on a request: seen within the ttl,
   * or found by a {@code stat} on a local file system. False when absent or when only a request
   * could tell.
   */
  public boolean knownToExist(String location) {
    return seenLately(location) || (isLocal(location) && exists(location));
  }

  /** Deletes one file (a metadata file written ahead that no commit took). */
  public void delete(String location) {
    seenUntil.invalidate(location);
    io(location).deleteFile(location);
  }

  private void seen(String location) {
    Duration ttl =
        storage.forLocation(location).map(StorageProfile::metadataExistsTtl).orElse(Duration.ZERO);
    if (!ttl.isZero()) {
      seenUntil.put(location, ticker.read() + ttl.toNanos());
    }
  }

  private boolean seenLately(String location) {
    Long until = seenUntil.getIfPresent(location);
    return until != null && until - ticker.read() > 0;
  }

  public TableMetadata read(String location) {
    return TableMetadataParser.read(io(location), location);
  }

  /**
   * The FileIO of the configured storage that holds the location. A {@code file:} location outside
   * every configured root gets the local FileIO, which refuses it (it reads and writes only inside
   * the roots).
   */
  public FileIO io(String location) {
    StorageProfile profile = storage.forLocation(location).orElse(null);
    if (profile == null) {
      if (StorageProfile.schemeOf(location) == StorageProfile.Scheme.FILE) {
        return local;
      }
      throw new IllegalArgumentException("No storage configured for " + location);
    }
    return ioByStorage.computeIfAbsent(profile.name() + "|" + profile.root(), k -> open(profile));
  }

  private FileIO open(StorageProfile profile) {
    return switch (profile.scheme()) {
      case FILE -> local;
      case S3 -> {
        var client =
            S3Clients.s3(
                profile.s3(), profile.ioTimeout(), S3Clients.catalogCredentials(profile.s3()));
        S3FileIO io = new S3FileIO(() -> client);
        io.initialize(Map.of());
        yield io;
      }
      case GCS -> GcsFileIOs.open(profile);
    };
  }

  @Override
  public void close() {
    ioByStorage.values().stream().filter(io -> io != local).forEach(FileIO::close);
    ioByStorage.clear();
  }
}
