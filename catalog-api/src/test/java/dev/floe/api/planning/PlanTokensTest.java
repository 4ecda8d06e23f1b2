package dev.floe.api.planning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.floe.infra.tokens.SealedTokens;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.junit.jupiter.api.Test;

class PlanTokensTest {
  private static final byte[] SECRET = "instances-secret".getBytes(StandardCharsets.UTF_8);
  private static final PlanTokens.Bound BOUND =
      new PlanTokens.Bound("default@2026-12-01T00:00:00Z", "db.t", "uuid-1", "reader");

  @Test
  void aPlanTaskCarriesItsRequestSnapshotAndSliceSealed() {
    PlanTableScanRequest request =
        PlanTableScanRequest.builder()
            .withSelect(List.of("id"))
            .withFilter(Expressions.lessThan("id", 5))
            .withCaseSensitive(false)
            .withStatsFields(List.of("id"))
            .withSnapshotId(42L)
            .withUseSnapshotSchema(true)
            .build();
    String token =
        PlanTokens.planTask(
            new PlanTokens.Task(BOUND, 42L, 3, new ScanPlanner.Slice(32, 64), request, 100, 50),
            SECRET);

    assertThat(token).startsWith("pt1.").doesNotContain("reader").doesNotContain("db.t");
    PlanTokens.Task read = PlanTokens.readPlanTask(token, SECRET);
    assertThat(read.bound()).isEqualTo(BOUND);
    assertThat(read.snapshotId()).isEqualTo(42L);
    assertThat(read.schemaId()).isEqualTo(3);
    assertThat(read.slice()).isEqualTo(new ScanPlanner.Slice(32, 64));
    assertThat(read.skip()).isEqualTo(100);
    assertThat(read.count()).isEqualTo(50);
    assertThat(read.request().select()).containsExactly("id");
    assertThat(read.request().filter().toString()).isEqualTo(request.filter().toString());
    assertThat(read.request().caseSensitive()).isFalse();
    assertThat(read.request().statsFields()).containsExactly("id");
    assertThat(read.request().snapshotId()).isEqualTo(42L);
    assertThat(read.request().useSnapshotSchema()).isTrue();
  }

  @Test
  void refusesAlteredForeignAndCrossedTokens() {
    String planId = PlanTokens.planId(BOUND, SECRET);
    assertThat(PlanTokens.readPlanId(planId, SECRET)).isEqualTo(BOUND);

    char last = planId.charAt(planId.length() - 1);
    String altered = planId.substring(0, planId.length() - 1) + (last == 'A' ? 'B' : 'A');
    assertThatThrownBy(() -> PlanTokens.readPlanId(altered, SECRET))
        .isInstanceOf(SealedTokens.InvalidTokenException.class);
    assertThatThrownBy(
            () -> PlanTokens.readPlanId(planId, "other".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(SealedTokens.InvalidTokenException.class);
    // A plan id is not a plan task, even with the other's prefix.
    assertThatThrownBy(() -> PlanTokens.readPlanTask(planId, SECRET))
        .isInstanceOf(SealedTokens.InvalidTokenException.class);
    assertThatThrownBy(() -> PlanTokens.readPlanTask("pt1." + planId.substring(4), SECRET))
        .isInstanceOf(SealedTokens.InvalidTokenException.class);
    assertThatThrownBy(() -> PlanTokens.readPlanId("pi1.%%%", SECRET))
        .isInstanceOf(SealedTokens.InvalidTokenException.class);
  }
}
