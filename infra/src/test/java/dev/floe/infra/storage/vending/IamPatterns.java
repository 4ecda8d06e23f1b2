package dev.floe.infra.storage.vending;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * IAM's matching of {@code Resource} and {@code StringLike} values, as AWS documents it: {@code *}
 * any run of characters, {@code ?} one character, {@code ${*}}, {@code ${?}}, {@code ${$}} the
 * literal character. Lets the tests ask what a policy grants instead of only how it looks.
 */
final class IamPatterns {
  private IamPatterns() {}

  static boolean matches(String pattern, String value) {
    StringBuilder regex = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '$'
          && pattern.startsWith("${", i)
          && i + 3 < pattern.length()
          && pattern.charAt(i + 3) == '}') {
        regex.append(Pattern.quote(String.valueOf(pattern.charAt(i + 2))));
        i += 3;
      } else if (c == '*') {
        regex.append(".*");
      } else if (c == '?') {
        regex.append('.');
      } else {
        regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(regex.toString(), Pattern.DOTALL).matcher(value).matches();
  }

  /** Whether the policy allows the action on the resource (no conditions considered). */
  static boolean allowsObject(String policy, String action, String resourceArn) {
    for (JsonNode statement : statements(policy)) {
      if (statement.path("Effect").asText().equals("Deny")) {
        continue;
      }
      if (values(statement.path("Action")).contains(action)
          && values(statement.path("Resource")).stream().anyMatch(p -> matches(p, resourceArn))) {
        return true;
      }
    }
    return false;
  }

  /** Whether the policy allows {@code s3:ListBucket} on the bucket with this {@code prefix}. */
  static boolean allowsList(String policy, String bucketArn, String prefix) {
    for (JsonNode statement : statements(policy)) {
      if (values(statement.path("Action")).contains("s3:ListBucket")
          && values(statement.path("Resource")).contains(bucketArn)) {
        List<String> prefixes =
            values(statement.path("Condition").path("StringLike").path("s3:prefix"));
        if (prefixes.stream().anyMatch(p -> matches(p, prefix))) {
          return true;
        }
      }
    }
    return false;
  }

  private static List<JsonNode> statements(String policy) {
    try {
      List<JsonNode> out = new ArrayList<>();
      new ObjectMapper().readTree(policy).path("Statement").forEach(out::add);
      return out;
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static List<String> values(JsonNode node) {
    List<String> out = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(n -> out.add(n.asText()));
    } else if (!node.isMissingNode()) {
      out.add(node.asText());
    }
    return out;
  }
}
