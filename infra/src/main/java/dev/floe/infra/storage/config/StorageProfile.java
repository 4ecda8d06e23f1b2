package dev.floe.infra.storage.config;

import dev.floe.infra.storage.location.InvalidLocationException;
import dev.floe.infra.storage.location.Location;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Where a warehouse (or a named storage profile) keeps its tables, and how the catalog reaches it:
 * a storage root and the catalog's own access to it, plus what it may vend to engines.
 *
 * @param name the warehouse's or the profile's name
 * @param root the storage root, no trailing {@code /}: {@code file:///…}, {@code
 *     s3://bucket/prefix} or {@code gs://bucket/prefix}
 * @param s3 S3 settings, null unless the root is {@code s3://}
 * @param gcs GCS settings, null unless the root is {@code gs://}
 * @param vending whether loads may carry vended credentials, and for how long they last
 * @param remoteSigning whether the catalog signs engines' S3 requests to tables here (S3 only;
 *     docs/storage.md, <i>Remote signing</i>)
 * @param ioTimeout the bound on one metadata read or write, retries included, so a slow store
 *     cannot hold a processor partition past its Kafka transaction timeout
 * @param selfCheck what the start-up probe of this storage does
 * @param writeAhead whether the API writes a commit's metadata file before the processor decides it
 *     (docs/architecture.md, <i>Writing ahead</i>)
 * @param metadataExistsTtl how long after this process last saw a metadata file (wrote it, or found
 *     it) a load trusts it is still there instead of asking storage: zero on a file system, where
 *     asking is one {@code stat}; {@link #DEFAULT_OBJECT_STORE_EXISTS_TTL} on object storage, where
 *     it is a request
 */
public record StorageProfile(
    String name,
    String root,
    S3Settings s3,
    GcsSettings gcs,
    Vending vending,
    boolean remoteSigning,
    Duration ioTimeout,
    SelfCheck selfCheck,
    WriteAhead writeAhead,
    Duration metadataExistsTtl) {

  public enum Scheme {
    FILE,
    S3,
    GCS
  }

  /** What the start-up self-check does (see docs/storage.md). */
  public enum SelfCheck {
    /** No probe. */
    OFF,
    /** Write, read and delete a probe object under the root with the catalog's own access. */
    PROBE,
    /** {@link #PROBE}, then check that a vended credential is refused outside its prefix. */
    FULL;

    static SelfCheck parse(String value) {
      return SelfCheck.valueOf(value.trim().toUpperCase(Locale.ROOT));
    }
  }

  /**
   * Where a commit's metadata file is written: by the API before the command is sent, or by the
   * processor while it decides (docs/architecture.md, <i>Writing ahead</i>).
   */
  public enum WriteAhead {
    /** On object storage, where a write waits on the network; off on a file system. */
    AUTO,
    ON,
    OFF;

    static WriteAhead parse(String value) {
      return WriteAhead.valueOf(value.trim().toUpperCase(Locale.ROOT));
    }
  }

  /**
   * @param enabled vend credentials on {@code X-Iceberg-Access-Delegation: vended-credentials}
   * @param duration how long a vended credential lasts (S3: 15 min to the role's maximum)
   */
  public record Vending(boolean enabled, Duration duration) {
    public Vending {
      Objects.requireNonNull(duration, "duration");
    }
  }

  /**
   * The catalog's access to an S3 (or S3-compatible) bucket, and the role it assumes to vend.
   *
   * @param accessKeyId static key of the catalog, or null for the default provider chain
   * @param secretAccessKey its secret; never logged
   * @param roleArn the role assumed for vending (STS {@code AssumeRole} with a session policy)
   * @param externalId optional external id the role's trust policy requires
   * @param stsEndpoint STS endpoint override (S3-compatible stores, tests), or null for AWS's
   * @param partition the ARN partition: {@code aws}, {@code aws-cn}, {@code aws-us-gov}
   */
  public record S3Settings(
      String region,
      String endpoint,
      boolean pathStyleAccess,
      String accessKeyId,
      String secretAccessKey,
      String roleArn,
      String externalId,
      String stsEndpoint,
      String partition) {
    public S3Settings {
      if ((accessKeyId == null) != (secretAccessKey == null)) {
        throw new IllegalArgumentException(
            "s3.access-key-id and s3.secret-access-key must be set together");
      }
      partition = partition == null ? "aws" : partition;
    }

    @Override
    public String toString() {
      // The secret never reaches a log line or an error message.
      return "S3Settings[region="
          + region
          + ", endpoint="
          + endpoint
          + ", pathStyleAccess="
          + pathStyleAccess
          + ", accessKeyId="
          + (accessKeyId == null ? "(default chain)" : "(static)")
          + ", roleArn="
          + roleArn
          + ", stsEndpoint="
          + stsEndpoint
          + "]";
    }
  }

  /**
   * The catalog's access to a GCS bucket, and how it downscopes tokens for vending.
   *
   * @param projectId the project (for GCSFileIO)
   * @param serviceAccountFile a service account key file, or null for application default
   *     credentials
   * @param stsEndpoint the token exchange endpoint of downscoping (default {@code
   *     https://sts.googleapis.com/v1/token})
   * @param endpoint a GCS endpoint override (emulators), or null
   */
  public record GcsSettings(
      String projectId, String serviceAccountFile, String stsEndpoint, String endpoint) {
    public GcsSettings {
      stsEndpoint = stsEndpoint == null ? "https://sts.googleapis.com/v1/token" : stsEndpoint;
    }
  }

  public StorageProfile {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(root, "root");
    root = trimSlash(root);
    Scheme scheme = schemeOf(root);
    if (scheme == Scheme.S3) {
      s3 = s3 == null ? new S3Settings(null, null, false, null, null, null, null, null, null) : s3;
      requireBucket(root);
    }
    if (scheme == Scheme.GCS) {
      gcs = gcs == null ? new GcsSettings(null, null, null, null) : gcs;
      requireBucket(root);
    }
    if (remoteSigning && scheme != Scheme.S3) {
      throw new IllegalArgumentException(
          "remote-signing.enabled is for s3:// storage only, not " + root);
    }
    vending = vending == null ? new Vending(false, Duration.ofHours(1)) : vending;
    ioTimeout = ioTimeout == null ? Duration.ofSeconds(5) : ioTimeout;
    selfCheck = selfCheck == null ? SelfCheck.OFF : selfCheck;
    writeAhead = writeAhead == null ? WriteAhead.AUTO : writeAhead;
    metadataExistsTtl =
        metadataExistsTtl != null
            ? metadataExistsTtl
            : scheme == Scheme.FILE ? Duration.ZERO : DEFAULT_OBJECT_STORE_EXISTS_TTL;
    if (metadataExistsTtl.isNegative()) {
      throw new IllegalArgumentException(
          "Storage " + name + ": metadata-exists-ttl must not be negative");
    }
    if (vending.enabled() && scheme == Scheme.S3 && s3.roleArn() == null) {
      throw new IllegalArgumentException(
          "Storage " + name + ": vending on S3 needs s3.role-arn (the role assumed to vend)");
    }
    if (vending.enabled() && scheme == Scheme.FILE) {
      throw new IllegalArgumentException(
          "Storage " + name + ": credentials cannot be vended for a file: root");
    }
  }

  /**
   * How long a load trusts that a metadata file this process saw (wrote, or found) is still there
   * without asking storage again, on object storage where asking is a request (docs/storage.md).
   */
  public static final Duration DEFAULT_OBJECT_STORE_EXISTS_TTL = Duration.ofSeconds(10);

  public Scheme scheme() {
    return schemeOf(root);
  }

  /**
   * Whether the API writes commits' metadata files ahead here. {@code auto} does on object storage
   * only: there a write is a request that waits, which would hold the partition's single writer; on
   * a local file system it is about 100 µs of CPU, which costs the same on whichever thread runs
   * it, and handing it to another thread first added 0.3–0.7 ms to a lone commit (bench/notes.md).
   */
  public boolean writesAhead() {
    return writeAhead == WriteAhead.ON
        || (writeAhead == WriteAhead.AUTO && scheme() != Scheme.FILE);
  }

  /**
   * True when the location is this root or lies under it, compared in canonical form by the
   * location authority's {@link Location}; false for a location it refuses.
   */
  public boolean contains(String location) {
    try {
      return Location.parse(root).contains(Location.parse(location));
    } catch (InvalidLocationException e) {
      return false;
    }
  }

  public static Scheme schemeOf(String location) {
    String lower = location.toLowerCase(Locale.ROOT);
    if (lower.startsWith("s3://") || lower.startsWith("s3a://") || lower.startsWith("s3n://")) {
      return Scheme.S3;
    }
    if (lower.startsWith("gs://")) {
      return Scheme.GCS;
    }
    if (lower.startsWith("file:") || lower.startsWith("/")) {
      return Scheme.FILE;
    }
    throw new IllegalArgumentException(
        "Unsupported storage location " + location + ": expected file:, s3:// or gs://");
  }

  private static void requireBucket(String root) {
    String host = URI.create(root.replace(" ", "%20")).getHost();
    if (host == null || host.isEmpty()) {
      throw new IllegalArgumentException("Storage root " + root + " names no bucket");
    }
  }

  static String trimSlash(String location) {
    String trimmed = location.trim();
    while (trimmed.endsWith("/") && !trimmed.endsWith("://") && !trimmed.endsWith(":/")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    return trimmed;
  }
}
