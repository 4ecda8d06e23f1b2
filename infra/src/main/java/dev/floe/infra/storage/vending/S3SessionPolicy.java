package dev.floe.infra.storage.vending;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The inline session policy sent with STS {@code AssumeRole}: the vended credentials may act on
 * objects under the table's prefixes and list those prefixes, nothing else. The effective
 * permissions are the intersection of this policy and the role's own.
 *
 * <p>Every prefix ends in {@code /}, so table {@code t} never reaches {@code t2/}. IAM reads {@code
 * *}, {@code ?} and {@code $} in resources and {@code StringLike} values as wildcards and policy
 * variables: in a name they are written {@code ${*}}, {@code ${?}}, {@code ${$}}, so they match
 * only themselves. A policy that would allow nothing is an explicit deny of everything.
 */
public final class S3SessionPolicy {
  static final List<String> READ_ACTIONS = List.of("s3:GetObject", "s3:GetObjectVersion");
  static final List<String> WRITE_ACTIONS =
      List.of(
          "s3:PutObject",
          "s3:DeleteObject",
          "s3:AbortMultipartUpload",
          "s3:ListMultipartUploadParts");

  private static final ObjectMapper JSON = new ObjectMapper();

  private S3SessionPolicy() {}

  /** A bucket and the key prefix inside it, always ending in {@code /} (empty for a bucket). */
  record S3Prefix(String bucket, String keyPrefix) {
    static S3Prefix parse(String location) {
      int scheme = location.indexOf("://");
      if (scheme < 0) {
        throw new IllegalArgumentException("Not an S3 location: " + location);
      }
      String rest = location.substring(scheme + 3);
      int slash = rest.indexOf('/');
      String bucket = slash < 0 ? rest : rest.substring(0, slash);
      String key = slash < 0 ? "" : rest.substring(slash + 1);
      if (!bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
        throw new IllegalArgumentException("Invalid S3 bucket in " + location);
      }
      while (key.endsWith("/")) {
        key = key.substring(0, key.length() - 1);
      }
      for (String segment : key.split("/", -1)) {
        // S3 keys are literal, but clients may normalise these: never vend over them.
        if (!key.isEmpty() && (segment.isEmpty() || segment.equals(".") || segment.equals(".."))) {
          throw new IllegalArgumentException(
              "Cannot vend credentials for " + location + ": empty or relative path segment");
        }
      }
      return new S3Prefix(bucket, key.isEmpty() ? "" : key + "/");
    }
  }

  /**
   * @param partition the ARN partition ({@code aws}, {@code aws-cn}, …)
   * @param locations the table's locations ({@code s3://bucket/key…})
   * @param access read-only principals get no write action
   */
  public static String build(String partition, List<String> locations, AccessLevel access) {
    List<S3Prefix> prefixes = new ArrayList<>();
    for (String location : locations) {
      prefixes.add(S3Prefix.parse(location));
    }
    ObjectNode policy = JsonNodeFactory.instance.objectNode();
    policy.put("Version", "2012-10-17");
    ArrayNode statements = policy.putArray("Statement");
    if (prefixes.isEmpty()) {
      ObjectNode deny = statements.addObject();
      deny.put("Sid", "DenyAll");
      deny.put("Effect", "Deny");
      deny.put("Action", "s3:*");
      deny.put("Resource", "*");
      return write(policy);
    }
    String arn = "arn:" + partition + ":s3:::";
    Set<String> objects = new LinkedHashSet<>();
    Map<String, Set<String>> listByBucket = new LinkedHashMap<>();
    for (S3Prefix prefix : prefixes) {
      objects.add(arn + prefix.bucket() + "/" + escape(prefix.keyPrefix()) + "*");
      listByBucket
          .computeIfAbsent(prefix.bucket(), b -> new LinkedHashSet<>())
          .add(escape(prefix.keyPrefix()) + "*");
    }
    allow(statements, "ReadObjects", READ_ACTIONS, objects);
    if (access == AccessLevel.READ_WRITE) {
      allow(statements, "WriteObjects", WRITE_ACTIONS, objects);
    }
    int n = 0;
    for (Map.Entry<String, Set<String>> bucket : listByBucket.entrySet()) {
      ObjectNode list = statements.addObject();
      list.put("Sid", "ListTablePrefix" + n++);
      list.put("Effect", "Allow");
      list.put("Action", "s3:ListBucket");
      list.put("Resource", arn + bucket.getKey());
      ArrayNode values = list.putObject("Condition").putObject("StringLike").putArray("s3:prefix");
      bucket.getValue().forEach(values::add);
    }
    ObjectNode location = statements.addObject();
    location.put("Sid", "BucketLocation");
    location.put("Effect", "Allow");
    location.put("Action", "s3:GetBucketLocation");
    ArrayNode buckets = location.putArray("Resource");
    listByBucket.keySet().forEach(bucket -> buckets.add(arn + bucket));
    return write(policy);
  }

  private static void allow(
      ArrayNode statements, String sid, List<String> actions, Set<String> resources) {
    ObjectNode statement = statements.addObject();
    statement.put("Sid", sid);
    statement.put("Effect", "Allow");
    ArrayNode action = statement.putArray("Action");
    actions.forEach(action::add);
    ArrayNode resource = statement.putArray("Resource");
    resources.forEach(resource::add);
  }

  /** Makes IAM's wildcard and variable characters match only themselves. */
  static String escape(String literal) {
    StringBuilder out = new StringBuilder(literal.length() + 8);
    for (int i = 0; i < literal.length(); i++) {
      char c = literal.charAt(i);
      if (c == '*' || c == '?' || c == '$') {
        out.append("${").append(c).append('}');
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static String write(ObjectNode policy) {
    try {
      return JSON.writeValueAsString(policy);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write a session policy", e);
    }
  }
}
