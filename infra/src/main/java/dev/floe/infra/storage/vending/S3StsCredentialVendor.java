package dev.floe.infra.storage.vending;

import dev.floe.infra.storage.config.StorageProfile;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.model.AssumeRoleRequest;
import software.amazon.awssdk.services.sts.model.Credentials;

/**
 * Vends S3 credentials with STS {@code AssumeRole}: the storage's role, narrowed by an inline
 * session policy ({@link S3SessionPolicy}) to the table's prefixes.
 */
public final class S3StsCredentialVendor implements CredentialVendor, AutoCloseable {
  private final StorageProfile storage;
  private final StsClient sts;

  public S3StsCredentialVendor(StorageProfile storage, StsClient sts) {
    this.storage = storage;
    this.sts = sts;
  }

  @Override
  public VendedCredentials vend(List<String> locations, AccessLevel access) {
    StorageProfile.S3Settings s3 = storage.s3();
    AssumeRoleRequest.Builder request =
        AssumeRoleRequest.builder()
            .roleArn(s3.roleArn())
            .roleSessionName(sessionName(locations.get(0)))
            .policy(S3SessionPolicy.build(s3.partition(), locations, access))
            .durationSeconds((int) storage.vending().duration().toSeconds());
    if (s3.externalId() != null) {
      request.externalId(s3.externalId());
    }
    Credentials credentials = sts.assumeRole(request.build()).credentials();
    Instant expires = credentials.expiration();
    Map<String, String> config = new LinkedHashMap<>();
    config.put("s3.access-key-id", credentials.accessKeyId());
    config.put("s3.secret-access-key", credentials.secretAccessKey());
    config.put("s3.session-token", credentials.sessionToken());
    config.put("s3.session-token-expires-at-ms", Long.toString(expires.toEpochMilli()));
    config.putAll(clientConfig(storage));
    return new VendedCredentials(locations.get(0), config, expires);
  }

  /** What a client needs to reach the store, with or without vended credentials. */
  public static Map<String, String> clientConfig(StorageProfile storage) {
    Map<String, String> config = new LinkedHashMap<>();
    StorageProfile.S3Settings s3 = storage.s3();
    if (s3.endpoint() != null) {
      config.put("s3.endpoint", s3.endpoint());
    }
    config.put("s3.path-style-access", Boolean.toString(s3.pathStyleAccess()));
    if (s3.region() != null) {
      config.put("client.region", s3.region());
    }
    return config;
  }

  /**
   * {@code floe-} and a digest of the location: STS allows {@code [\w+=,.@-]{2,64}}, and CloudTrail
   * then shows which table a session was for without the name's characters.
   */
  static String sessionName(String location) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(location.getBytes(StandardCharsets.UTF_8));
      return "floe-" + HexFormat.of().formatHex(hash, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }

  @Override
  public void close() {
    sts.close();
  }
}
