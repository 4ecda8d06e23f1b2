package dev.floe.infra.storage.vending;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class S3SessionPolicyTest {
  private static final String ARN = "arn:aws:s3:::";

  @Test
  void grantsReadWriteOnTheTablePrefixExactly() {
    String policy =
        S3SessionPolicy.build("aws", List.of("s3://bucket/wh/db/t"), AccessLevel.READ_WRITE);
    assertThat(policy)
        .isEqualTo(
            "{\"Version\":\"2012-10-17\",\"Statement\":["
                + "{\"Sid\":\"ReadObjects\",\"Effect\":\"Allow\","
                + "\"Action\":[\"s3:GetObject\",\"s3:GetObjectVersion\"],"
                + "\"Resource\":[\"arn:aws:s3:::bucket/wh/db/t/*\"]},"
                + "{\"Sid\":\"WriteObjects\",\"Effect\":\"Allow\","
                + "\"Action\":[\"s3:PutObject\",\"s3:DeleteObject\",\"s3:AbortMultipartUpload\","
                + "\"s3:ListMultipartUploadParts\"],"
                + "\"Resource\":[\"arn:aws:s3:::bucket/wh/db/t/*\"]},"
                + "{\"Sid\":\"ListTablePrefix0\",\"Effect\":\"Allow\",\"Action\":\"s3:ListBucket\","
                + "\"Resource\":\"arn:aws:s3:::bucket\","
                + "\"Condition\":{\"StringLike\":{\"s3:prefix\":[\"wh/db/t/*\"]}}},"
                + "{\"Sid\":\"BucketLocation\",\"Effect\":\"Allow\","
                + "\"Action\":\"s3:GetBucketLocation\",\"Resource\":[\"arn:aws:s3:::bucket\"]}]}");
  }

  @Test
  void readOnlyPrincipalsGetNoWriteAction() {
    String policy = S3SessionPolicy.build("aws", List.of("s3://bucket/wh/t"), AccessLevel.READ);
    assertThat(IamPatterns.allowsObject(policy, "s3:GetObject", ARN + "bucket/wh/t/data/f.parquet"))
        .isTrue();
    for (String action : S3SessionPolicy.WRITE_ACTIONS) {
      assertThat(policy).doesNotContain(action);
    }
  }

  @Test
  void nothingAllowedIsAnExplicitDeny() {
    assertThat(S3SessionPolicy.build("aws", List.of(), AccessLevel.READ_WRITE))
        .isEqualTo(
            "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Sid\":\"DenyAll\",\"Effect\":\"Deny\","
                + "\"Action\":\"s3:*\",\"Resource\":\"*\"}]}");
  }

  @ParameterizedTest
  @ValueSource(strings = {"t2", "t_other", "t-x", "tt", "t.backup"})
  void aTableNeverReachesItsSibling(String sibling) {
    String policy =
        S3SessionPolicy.build("aws", List.of("s3://bucket/wh/db/t/"), AccessLevel.READ_WRITE);
    assertThat(IamPatterns.allowsObject(policy, "s3:PutObject", ARN + "bucket/wh/db/t/data/a"))
        .isTrue();
    assertThat(IamPatterns.allowsList(policy, ARN + "bucket", "wh/db/t/")).isTrue();
    assertThat(IamPatterns.allowsList(policy, ARN + "bucket", "wh/db/t/data/")).isTrue();
    assertThat(
            IamPatterns.allowsObject(
                policy, "s3:GetObject", ARN + "bucket/wh/db/" + sibling + "/data/a"))
        .isFalse();
    assertThat(IamPatterns.allowsObject(policy, "s3:GetObject", ARN + "bucket/wh/db/" + sibling))
        .isFalse();
    assertThat(IamPatterns.allowsList(policy, ARN + "bucket", "wh/db/" + sibling + "/")).isFalse();
    assertThat(IamPatterns.allowsList(policy, ARN + "bucket", "wh/db/")).isFalse();
    assertThat(IamPatterns.allowsList(policy, ARN + "bucket", "wh/db/t")).isFalse();
    assertThat(IamPatterns.allowsObject(policy, "s3:GetObject", ARN + "other/wh/db/t/data/a"))
        .isFalse();
  }

  /**
   * A hostile table name's prefix matches itself and nothing else: a {@code *} in a name is not a
   * wildcard, {@code $} starts no policy variable, quotes stay inside their JSON string.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "*",
        "?",
        "$",
        "'",
        "\"",
        "%2F",
        "a*b",
        "t?",
        "${aws:username}",
        "日本語",
        "ü€",
        "a\\b",
        "x y",
        "\u0001"
      })
  void hostileNamesGrantOnlyTheirOwnPrefix(String name) throws Exception {
    String location = "s3://bucket/wh/db/" + name;
    String policy = S3SessionPolicy.build("aws", List.of(location), AccessLevel.READ_WRITE);
    String own = ARN + "bucket/wh/db/" + name + "/f";
    assertThat(IamPatterns.allowsObject(policy, "s3:PutObject", own)).isTrue();
    assertThat(IamPatterns.allowsList(policy, ARN + "bucket", "wh/db/" + name + "/")).isTrue();
    for (String other : List.of("x", "xx", name + "2", "other-" + name, "a", "")) {
      if (other.equals(name)) {
        continue;
      }
      assertThat(
              IamPatterns.allowsObject(
                  policy, "s3:GetObject", ARN + "bucket/wh/db/" + other + "/f"))
          .as("%s must not reach %s", name, other)
          .isFalse();
      assertThat(IamPatterns.allowsList(policy, ARN + "bucket", "wh/db/" + other + "/"))
          .as("%s must not list %s", name, other)
          .isFalse();
    }
    assertThat(policy).doesNotContain("${aws:");
    // The document stays one valid JSON object whatever the name holds.
    assertThat(new ObjectMapper().readTree(policy).size())
        .isEqualTo(2)
        .withFailMessage("policy %s", policy);
  }

  @Test
  void escapesIamWildcardsAndVariables() {
    assertThat(S3SessionPolicy.escape("a*b?c$d")).isEqualTo("a${*}b${?}c${$}d");
    assertThat(S3SessionPolicy.escape("${aws:username}")).isEqualTo("${$}{aws:username}");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "s3://bucket/wh/../other",
        "s3://bucket/wh/./t",
        "s3://bucket/wh//t",
        "s3://B/x",
        "s3://a/x",
        "file:///tmp/x"
      })
  void refusesLocationsItCannotScope(String location) {
    assertThatThrownBy(() -> S3SessionPolicy.build("aws", List.of(location), AccessLevel.READ))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void usesTheConfiguredPartition() {
    assertThat(S3SessionPolicy.build("aws-cn", List.of("s3://bucket/t"), AccessLevel.READ))
        .contains("arn:aws-cn:s3:::bucket/t/*")
        .doesNotContain("arn:aws:s3");
  }
}
