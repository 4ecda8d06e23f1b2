package dev.floe.infra.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A local HTTP endpoint that speaks STS {@code AssumeRole} (the Query protocol: a form POST, an XML
 * answer). It records every request's form fields and answers with the credentials it was given, so
 * a test can assert the exact session policy sent and that the catalog hands on what STS returned.
 */
public final class LocalSts implements AutoCloseable {
  private final HttpServer server;
  private final List<Map<String, String>> requests = new CopyOnWriteArrayList<>();
  private final String accessKeyId;
  private final String secretAccessKey;
  private volatile int issued;

  public LocalSts(String accessKeyId, String secretAccessKey) {
    this.accessKeyId = accessKeyId;
    this.secretAccessKey = secretAccessKey;
    try {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(Executors.newSingleThreadExecutor());
    server.createContext(
        "/",
        exchange -> {
          String body =
              new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          Map<String, String> form = parseForm(body);
          requests.add(form);
          byte[] answer;
          int status;
          if (!"AssumeRole".equals(form.get("Action"))) {
            status = 400;
            answer = error("InvalidAction", "Unsupported action").getBytes(StandardCharsets.UTF_8);
          } else {
            status = 200;
            int n = ++issued;
            long seconds = Long.parseLong(form.getOrDefault("DurationSeconds", "3600"));
            answer =
                success(sessionToken(n), Instant.now().plusSeconds(seconds))
                    .getBytes(StandardCharsets.UTF_8);
          }
          exchange.getResponseHeaders().add("Content-Type", "text/xml");
          exchange.sendResponseHeaders(status, answer.length);
          exchange.getResponseBody().write(answer);
          exchange.close();
        });
    server.start();
  }

  public String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The form fields of every request received, in order. */
  public List<Map<String, String>> requests() {
    return List.copyOf(requests);
  }

  public String accessKeyId() {
    return accessKeyId;
  }

  public String secretAccessKey() {
    return secretAccessKey;
  }

  /** The session token of the n-th credential issued (from 1). */
  public static String sessionToken(int n) {
    return "local-sts-session-token-" + n;
  }

  private String success(String token, Instant expires) {
    return "<AssumeRoleResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
        + "<AssumeRoleResult><Credentials>"
        + "<AccessKeyId>"
        + accessKeyId
        + "</AccessKeyId><SecretAccessKey>"
        + secretAccessKey
        + "</SecretAccessKey><SessionToken>"
        + token
        + "</SessionToken><Expiration>"
        + expires.truncatedTo(ChronoUnit.SECONDS)
        + "</Expiration></Credentials>"
        + "<AssumedRoleUser><AssumedRoleId>AROALOCAL:floe</AssumedRoleId>"
        + "<Arn>arn:aws:sts::000000000000:assumed-role/floe/floe</Arn></AssumedRoleUser>"
        + "</AssumeRoleResult><ResponseMetadata><RequestId>local</RequestId></ResponseMetadata>"
        + "</AssumeRoleResponse>";
  }

  private static String error(String code, String message) {
    return "<ErrorResponse><Error><Type>Sender</Type><Code>"
        + code
        + "</Code><Message>"
        + message
        + "</Message></Error><RequestId>local</RequestId></ErrorResponse>";
  }

  static Map<String, String> parseForm(String body) {
    Map<String, String> form = new LinkedHashMap<>();
    for (String pair : body.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      form.put(
          URLDecoder.decode(key, StandardCharsets.UTF_8),
          URLDecoder.decode(value, StandardCharsets.UTF_8));
    }
    return form;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
