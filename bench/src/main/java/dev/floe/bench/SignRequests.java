package dev.floe.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code sign} workload: S3 requests an engine asks the catalog to sign ({@code POST
 * …/tables/{t}/sign}), each a {@code GET} of another object under one table's location, as
 * Iceberg's {@code S3FileIO} sends them for a scan's data files. Needs a table whose storage signs
 * ({@code remote-signing.enabled}: bench/signing.sh); the object itself is never fetched.
 */
final class SignRequests {
  static final String WORKLOAD = "sign";

  private final RestTarget target;
  private final String table;
  private final AtomicLong next = new AtomicLong();
  private String objectBase;
  private String region;

  /**
   * @param table the table's path under the catalog's prefix ({@code namespaces/<ns>/tables/<t>})
   */
  SignRequests(RestTarget target, String table) {
    this.target = target;
    this.table = table;
  }

  Stats run(int seconds, int clients) {
    locate();
    return Load.closedLoop(seconds, clients, this::sign);
  }

  /** Where the table's objects are, as the load answer tells a client to reach them. */
  private void locate() {
    RestTarget.Response load = target.call("GET", table, null);
    if (load.status() != 200) {
      throw new IllegalStateException("Cannot load " + table + ": " + load.status());
    }
    JsonNode answer;
    try {
      answer = RestTarget.JSON.readTree(load.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    JsonNode config = answer.path("config");
    if (!config.path("s3.remote-signing-enabled").asBoolean()) {
      throw new IllegalStateException(
          "The table's storage does not sign (remote-signing.enabled): " + table);
    }
    URI location = URI.create(answer.path("metadata").path("location").asText());
    String endpoint = config.path("s3.endpoint").asText();
    objectBase = endpoint + "/" + location.getHost() + location.getPath() + "/data/";
    region = config.path("client.region").asText("us-east-1");
  }

  private int sign() {
    ObjectNode request = RestTarget.JSON.createObjectNode();
    request.put("region", region);
    request.put("method", "GET");
    request.put("uri", objectBase + "part-" + next.incrementAndGet() + ".parquet");
    ObjectNode headers = request.putObject("headers");
    headers.putArray("amz-sdk-invocation-id").add("bench");
    headers.putArray("amz-sdk-request").add("attempt=1; max=4");
    headers.putArray("Range").add("bytes=4-1023");
    headers.putArray("User-Agent").add("floe-bench");
    request.put("provider", "s3");
    return target.call("POST", table + "/sign", request.toString()).status();
  }
}
