package dev.floe.infra.storage.vending;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.infra.storage.config.S3Clients;
import dev.floe.infra.storage.config.StorageProfile;
import dev.floe.infra.testing.LocalSts;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** STS vending against a local endpoint that speaks {@code AssumeRole}. */
class S3StsCredentialVendorTest {
  private final LocalSts sts = new LocalSts("ASIAVENDED", "vended-secret");

  @AfterEach
  void stop() {
    sts.close();
  }

  private StorageProfile storage(boolean pathStyle) {
    return new StorageProfile(
        "lake",
        "s3://lake-bucket/warehouse",
        new StorageProfile.S3Settings(
            "eu-west-1",
            "http://127.0.0.1:9000",
            pathStyle,
            "AKIACATALOG",
            "catalog-secret",
            "arn:aws:iam::123456789012:role/floe-vending",
            "ext-42",
            sts.endpoint(),
            null),
        null,
        new StorageProfile.Vending(true, Duration.ofMinutes(30)),
        false,
        Duration.ofSeconds(5),
        null,
        null,
        null);
  }

  @Test
  void assumesTheRoleWithTheTablesSessionPolicyAndReturnsWhatStsAnswered() {
    StorageProfile storage = storage(true);
    try (S3StsCredentialVendor vendor =
        new S3StsCredentialVendor(storage, S3Clients.sts(storage.s3(), Duration.ofSeconds(5)))) {
      VendedCredentials vended =
          vendor.vend(List.of("s3://lake-bucket/warehouse/db/t"), AccessLevel.READ);

      assertThat(sts.requests()).hasSize(1);
      Map<String, String> request = sts.requests().get(0);
      assertThat(request)
          .containsEntry("Action", "AssumeRole")
          .containsEntry("RoleArn", "arn:aws:iam::123456789012:role/floe-vending")
          .containsEntry("ExternalId", "ext-42")
          .containsEntry("DurationSeconds", "1800")
          .containsEntry(
              "RoleSessionName",
              S3StsCredentialVendor.sessionName("s3://lake-bucket/warehouse/db/t"));
      assertThat(request.get("Policy"))
          .isEqualTo(
              "{\"Version\":\"2012-10-17\",\"Statement\":["
                  + "{\"Sid\":\"ReadObjects\",\"Effect\":\"Allow\","
                  + "\"Action\":[\"s3:GetObject\",\"s3:GetObjectVersion\"],"
                  + "\"Resource\":[\"arn:aws:s3:::lake-bucket/warehouse/db/t/*\"]},"
                  + "{\"Sid\":\"ListTablePrefix0\",\"Effect\":\"Allow\","
                  + "\"Action\":\"s3:ListBucket\",\"Resource\":\"arn:aws:s3:::lake-bucket\","
                  + "\"Condition\":{\"StringLike\":{\"s3:prefix\":[\"warehouse/db/t/*\"]}}},"
                  + "{\"Sid\":\"BucketLocation\",\"Effect\":\"Allow\","
                  + "\"Action\":\"s3:GetBucketLocation\","
                  + "\"Resource\":[\"arn:aws:s3:::lake-bucket\"]}]}");

      assertThat(vended.prefix()).isEqualTo("s3://lake-bucket/warehouse/db/t");
      assertThat(vended.config())
          .containsEntry("s3.access-key-id", "ASIAVENDED")
          .containsEntry("s3.secret-access-key", "vended-secret")
          .containsEntry("s3.session-token", LocalSts.sessionToken(1))
          .containsEntry(
              "s3.session-token-expires-at-ms", Long.toString(vended.expiresAt().toEpochMilli()))
          .containsEntry("s3.endpoint", "http://127.0.0.1:9000")
          .containsEntry("s3.path-style-access", "true")
          .containsEntry("client.region", "eu-west-1");
      assertThat(vended.toString())
          .doesNotContain("vended-secret")
          .doesNotContain(LocalSts.sessionToken(1));
    }
  }

  @Test
  void cachesPerLocationAndAccessLevelBelowTheExpiry() {
    StorageProfile storage = storage(false);
    try (S3StsCredentialVendor sts3 =
        new S3StsCredentialVendor(storage, S3Clients.sts(storage.s3(), Duration.ofSeconds(5)))) {
      CredentialVendor vendor =
          new CachingCredentialVendor(sts3, Duration.ofMinutes(30), Clock.systemUTC());
      List<String> t = List.of("s3://lake-bucket/warehouse/db/t");
      VendedCredentials first = vendor.vend(t, AccessLevel.READ_WRITE);
      assertThat(vendor.vend(t, AccessLevel.READ_WRITE)).isSameAs(first);
      assertThat(vendor.vend(t, AccessLevel.READ)).isNotSameAs(first);
      assertThat(vendor.vend(List.of("s3://lake-bucket/warehouse/db/t2"), AccessLevel.READ_WRITE))
          .isNotSameAs(first);
      assertThat(sts.requests()).hasSize(3);
    }
  }

  @Test
  void aCredentialCloseToItsExpiryIsNotReused() {
    StorageProfile storage = storage(false);
    try (S3StsCredentialVendor sts3 =
        new S3StsCredentialVendor(storage, S3Clients.sts(storage.s3(), Duration.ofSeconds(5)))) {
      Clock later = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(16));
      List<String> t = List.of("s3://lake-bucket/warehouse/db/t");
      VendedCredentials first = sts3.vend(t, AccessLevel.READ);
      CredentialVendor vendor =
          new CachingCredentialVendor((locations, access) -> first, Duration.ofMinutes(30), later);
      // 30 min credential, 16 min later: less than half its life is left.
      assertThat(vendor.vend(t, AccessLevel.READ)).isSameAs(first);
      CredentialVendor counting = new CachingCredentialVendor(sts3, Duration.ofMinutes(30), later);
      VendedCredentials a = counting.vend(t, AccessLevel.READ);
      VendedCredentials b = counting.vend(t, AccessLevel.READ);
      assertThat(b).isNotSameAs(a);
    }
  }
}
