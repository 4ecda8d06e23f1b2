package dev.floe.infra.storage.vending;

import static org.assertj.core.api.Assertions.assertThat;

import dev.floe.infra.storage.config.StorageProfile;
import dev.floe.infra.testing.LocalGoogleSts;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** GCS downscoping against a local endpoint that speaks Google's STS token exchange. */
class GcsDownscopedCredentialVendorTest {
  private final LocalGoogleSts sts = new LocalGoogleSts();

  @AfterEach
  void stop() {
    sts.close();
  }

  @Test
  void exchangesTheCatalogTokenForOneBoundToTheTablePrefix() {
    StorageProfile storage =
        new StorageProfile(
            "gcs",
            "gs://lake/warehouse",
            null,
            new StorageProfile.GcsSettings("proj-1", null, sts.endpoint(), null),
            new StorageProfile.Vending(true, Duration.ofHours(1)),
            false,
            Duration.ofSeconds(5),
            null,
            null,
            null);
    GcsDownscopedCredentialVendor vendor =
        new GcsDownscopedCredentialVendor(
            storage,
            () ->
                new GcsDownscopedCredentialVendor.SourceToken(
                    "catalog-token", Instant.now().plusSeconds(3600)),
            Clock.systemUTC());

    VendedCredentials vended =
        vendor.vend(List.of("gs://lake/warehouse/db/it's"), AccessLevel.READ_WRITE);

    assertThat(sts.requests()).hasSize(1);
    Map<String, String> form = sts.requests().get(0);
    assertThat(form)
        .containsEntry("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange")
        .containsEntry("subject_token_type", "urn:ietf:params:oauth:token-type:access_token")
        .containsEntry("requested_token_type", "urn:ietf:params:oauth:token-type:access_token")
        .containsEntry("subject_token", "catalog-token");
    assertThat(form.get("options"))
        .isEqualTo(
            "{\"accessBoundary\":{\"accessBoundaryRules\":[{\"availableResource\":"
                + "\"//storage.googleapis.com/projects/_/buckets/lake\","
                + "\"availablePermissions\":[\"inRole:roles/storage.objectAdmin\"],"
                + "\"availabilityCondition\":{\"title\":\"floe-table-prefix\",\"expression\":"
                + "\"resource.name.startsWith('projects/_/buckets/lake/objects/warehouse/db/it\\\\'s/')"
                + " || api.getAttribute('storage.googleapis.com/objectListPrefix', '')"
                + ".startsWith('warehouse/db/it\\\\'s/')\"}}]}}");
    assertThat(vended.prefix()).isEqualTo("gs://lake/warehouse/db/it's");
    assertThat(vended.config())
        .containsEntry("gcs.oauth2.token", LocalGoogleSts.token(1))
        .containsEntry(
            "gcs.oauth2.token-expires-at", Long.toString(vended.expiresAt().toEpochMilli()))
        .containsEntry("gcs.project-id", "proj-1");
    assertThat(vended.toString()).doesNotContain(LocalGoogleSts.token(1));
  }

  @Test
  void readOnlyGetsTheViewerRoleAndLiteralsAreEscaped() {
    String boundary = GcsAccessBoundary.build(List.of("gs://b/wh/a\\b'c\"d\ne"), AccessLevel.READ);
    assertThat(boundary)
        .contains("inRole:roles/storage.objectViewer")
        .doesNotContain("objectAdmin");
    assertThat(GcsAccessBoundary.literal("a\\b'c\"d\ne")).isEqualTo("'a\\\\b\\'c\\\"d\\ne'");
    assertThat(GcsAccessBoundary.literal("t2")).isEqualTo("'t2'");
  }

  @Test
  void siblingsAreSeparatedByTheTrailingSlash() {
    String boundary = GcsAccessBoundary.build(List.of("gs://b/wh/t"), AccessLevel.READ);
    assertThat(boundary).contains("'projects/_/buckets/b/objects/wh/t/'").contains("'wh/t/'");
    assertThat(boundary).doesNotContain("'wh/t'");
  }
}
