package dev.floe.infra.storage;

import dev.floe.infra.storage.config.S3Clients;
import dev.floe.infra.storage.config.StorageConfig;
import dev.floe.infra.storage.config.StorageProfile;
import dev.floe.infra.storage.config.StorageProfile.SelfCheck;
import dev.floe.infra.storage.vending.AccessLevel;
import dev.floe.infra.storage.vending.CredentialVendors;
import dev.floe.infra.storage.vending.VendedCredentials;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.io.FileIO;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The start-up check of each storage whose {@code self-check} is on: write, read and delete a probe
 * under the root with the catalog's own access ({@code probe}); with {@code full}, also vend a
 * credential for a probe prefix and check that it can write there and is refused next to it. A
 * failed check stops the start with the reason, never with a credential.
 */
public final class StorageSelfCheck {
  private static final Logger LOG = LoggerFactory.getLogger(StorageSelfCheck.class);
  private static final String DIR = ".floe-self-check";

  private StorageSelfCheck() {}

  public static void run(StorageConfig storage, MetadataFiles files, CredentialVendors vendors) {
    for (StorageProfile profile : storage.all()) {
      if (profile.selfCheck() == SelfCheck.OFF) {
        continue;
      }
      String probe = profile.root() + "/" + DIR + "/" + UUID.randomUUID();
      try {
        probe(files.io(probe), probe + "/probe");
        if (profile.selfCheck() == SelfCheck.FULL) {
          checkConfinement(profile, vendors, probe);
        }
      } catch (RuntimeException e) {
        throw new IllegalStateException(
            "Storage self-check of "
                + profile.name()
                + " ("
                + profile.root()
                + ") failed: "
                + e.getClass().getSimpleName()
                + ": "
                + e.getMessage(),
            e);
      }
      LOG.info(
          "Storage self-check of {} ({}) passed: {}",
          profile.name(),
          profile.root(),
          profile.selfCheck() == SelfCheck.FULL
              ? "probe written, read and deleted; vended credential refused outside its prefix"
              : "probe written, read and deleted");
    }
  }

  private static void probe(FileIO io, String location) {
    byte[] content = ("floe self-check " + location).getBytes(StandardCharsets.UTF_8);
    try (OutputStream out = io.newOutputFile(location).createOrOverwrite()) {
      out.write(content);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the probe " + location, e);
    }
    try (InputStream in = io.newInputFile(location).newStream()) {
      if (!Arrays.equals(in.readAllBytes(), content)) {
        throw new IllegalStateException("The probe read back differs from what was written");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the probe " + location, e);
    }
    io.deleteFile(location);
    if (io.newInputFile(location).exists()) {
      throw new IllegalStateException("The probe " + location + " is still there after delete");
    }
  }

  /** A credential vended for {@code <probe>/inside} writes there and is refused at its sibling. */
  private static void checkConfinement(
      StorageProfile profile, CredentialVendors vendors, String probe) {
    if (!profile.vending().enabled()) {
      throw new IllegalStateException("self-check=full needs vending.enabled=true");
    }
    if (profile.scheme() != StorageProfile.Scheme.S3) {
      throw new IllegalStateException(
          "self-check=full is implemented for S3 only; use self-check=probe");
    }
    String inside = probe + "/inside";
    VendedCredentials vended =
        vendors
            .vend(List.of(inside), AccessLevel.READ_WRITE)
            .orElseThrow(() -> new IllegalStateException("No credential was vended"));
    Map<String, String> c = vended.config();
    try (S3Client client =
        S3Clients.s3(
            profile.s3(),
            profile.ioTimeout(),
            StaticCredentialsProvider.create(
                AwsSessionCredentials.create(
                    c.get("s3.access-key-id"),
                    c.get("s3.secret-access-key"),
                    c.get("s3.session-token"))))) {
      String bucket = URI.create(profile.root()).getHost();
      String insideKey = key(inside + "/object");
      String outsideKey = key(probe + "/inside-sibling/object");
      client.putObject(b -> b.bucket(bucket).key(insideKey), RequestBody.fromString("inside"));
      boolean refused;
      try {
        client.putObject(b -> b.bucket(bucket).key(outsideKey), RequestBody.fromString("outside"));
        refused = false;
      } catch (S3Exception e) {
        refused = e.statusCode() == 403;
      }
      cleanUp(client, bucket, insideKey, outsideKey, refused);
      if (!refused) {
        throw new IllegalStateException(
            "A credential vended for "
                + inside
                + " could write outside it: the store does not enforce session policies (S3Proxy"
                + " and some S3-compatible stores cannot); use self-check=probe there");
      }
    }
  }

  private static String key(String location) {
    String rest = location.substring(location.indexOf("://") + 3);
    return rest.substring(rest.indexOf('/') + 1);
  }

  /** Removes what the confinement check wrote, with the vended credential itself. */
  private static void cleanUp(
      S3Client client, String bucket, String insideKey, String outsideKey, boolean refused) {
    client.deleteObject(b -> b.bucket(bucket).key(insideKey));
    if (!refused) {
      try {
        client.deleteObject(b -> b.bucket(bucket).key(outsideKey));
      } catch (S3Exception e) {
        LOG.warn("Cannot delete the self-check object {}: HTTP {}", outsideKey, e.statusCode());
      }
    }
  }
}
