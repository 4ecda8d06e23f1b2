package dev.floe.api.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.floe.api.auth.Authenticator;
import dev.floe.api.auth.Caller;
import dev.floe.client.Uuid7;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.UnprocessableEntityException;
import org.apache.iceberg.rest.RESTRequest;

/** One request: its decoded path parameters, query and body, with the parsing rules of the spec. */
public final class RequestContext {
  /** The REST spec's separator of namespace levels in a path or query parameter. */
  static final String NAMESPACE_SEPARATOR = "\u001f";

  private final HttpServerRequest request;
  private final Map<String, String> params;
  private final Buffer body;
  private final String requestId = Uuid7.next().toString();
  private volatile String commandId;
  private volatile Caller caller;
  private volatile Object parsedBody;
  private volatile boolean answerHere;

  private volatile InternalAuth internalAuth;

  RequestContext(HttpServerRequest request, Map<String, String> params, Buffer body) {
    this.request = request;
    this.params = params;
    this.body = body;
  }

  public String requestId() {
    return requestId;
  }

  /**
   * Whether this instance must answer the request itself rather than send it to another: it was
   * sent here by another instance, or sending it on failed before it left.
   */
  boolean answerHere() {
    return answerHere || request.getHeader(Forwarder.FORWARDED) != null;
  }

  void answerHere(boolean answerHere) {
    this.answerHere = answerHere;
  }

  void internalAuth(InternalAuth internalAuth) {
    this.internalAuth = internalAuth;
  }

  /** What this instance shows another when a request here needs to ask it something. */
  Optional<String> instanceSecret() {
    return internalAuth == null ? Optional.empty() : internalAuth.secret();
  }

  /** The command this request produced, once it produced one. */
  public String commandId() {
    return commandId;
  }

  void commandId(String id) {
    this.commandId = id;
  }

  /** Who sent the request, once authenticated; null before (or when it was not). */
  public Caller caller() {
    return caller;
  }

  void caller(Caller caller) {
    this.caller = caller;
  }

  /** How to authenticate the request's credentials again, now. */
  @FunctionalInterface
  interface Reauthentication {
    Caller authenticate() throws Authenticator.NotAuthenticatedException;
  }

  private Reauthentication reauthentication;

  void reauthentication(Reauthentication again) {
    this.reauthentication = again;
  }

  /**
   * Why the request's credentials no longer hold (a token revoked or expired, its principal
   * deleted, an OIDC token past its {@code exp}, or now another principal's), or null while they
   * do. For answers that outlive the request: an event stream asks before it writes.
   */
  String credentialsProblem() {
    if (reauthentication == null) {
      return null;
    }
    try {
      return reauthentication.authenticate().name().equals(caller.name())
          ? null
          : "The token now names another principal";
    } catch (Authenticator.NotAuthenticatedException e) {
      return e.getMessage();
    }
  }

  /** The caller's name for the log and the audit: {@code unauthenticated} when there is none. */
  public String principalName() {
    Caller current = caller;
    return current == null ? "unauthenticated" : current.name();
  }

  /**
   * A digest of what the request asks (method, path, body): the same Idempotency-Key with another
   * fingerprint is another request.
   */
  public String fingerprint() {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      digest.update(
          (request.method().name() + " " + request.path() + "\n").getBytes(StandardCharsets.UTF_8));
      if (body != null) {
        digest.update(body.getBytes());
      }
      return HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  public String method() {
    return request.method().name();
  }

  /** For a handler that writes its answer itself and completes with {@link HttpResult#STREAMED}. */
  public HttpServerResponse response() {
    return request.response();
  }

  /**
   * The entity a request is about, readable ({@code db.sales}, {@code db.sales.orders}), or null.
   */
  public String target() {
    String namespace = params.get("namespace");
    if (namespace == null) {
      return null;
    }
    String readable = namespace.replace(NAMESPACE_SEPARATOR, ".");
    String table = params.get("table");
    return table == null ? readable : readable + "." + table;
  }

  public String warehouse() {
    return params.get("prefix");
  }

  public Namespace namespace() {
    return parseNamespace(params.get("namespace"));
  }

  public TableIdentifier table() {
    Namespace namespace = namespace();
    return TableIdentifier.of(namespace, Names.requireValidName(params.get("table")));
  }

  public String query(String name) {
    return request.getParam(name);
  }

  /** Every value of a query parameter given several times. */
  public List<String> queryAll(String name) {
    return request.params().getAll(name);
  }

  public String header(String name) {
    return request.getHeader(name);
  }

  public Integer pageSize() {
    String value = query("pageSize");
    if (value == null || value.isEmpty()) {
      return null;
    }
    try {
      int size = Integer.parseInt(value);
      if (size < 1) {
        throw ApiException.badRequest("Invalid pageSize: %s (must be at least 1)", value);
      }
      return size;
    } catch (NumberFormatException e) {
      throw ApiException.badRequest("Invalid pageSize: %s", value);
    }
  }

  static Namespace parseNamespace(String value) {
    if (value == null || value.isEmpty()) {
      throw ApiException.badRequest("Invalid namespace: empty");
    }
    String[] levels = value.split(NAMESPACE_SEPARATOR, -1);
    for (String level : levels) {
      String problem = Names.problem(level);
      if (problem != null) {
        throw ApiException.badRequest("Invalid namespace level: %s", problem);
      }
    }
    return Namespace.of(levels);
  }

  /** The body as a JSON object (management routes); 400 when it is missing or not an object. */
  public JsonNode json() {
    if (body == null || body.length() == 0) {
      throw ApiException.badRequest("Missing request body");
    }
    JsonNode node;
    try {
      node = BodyParser.tree(body.getBytes());
    } catch (IOException | RuntimeException e) {
      throw ApiException.badRequest("Malformed request body: %s", BodyParser.describe(e));
    }
    if (node == null || !node.isObject()) {
      throw ApiException.badRequest("Request body must be a JSON object");
    }
    return node;
  }

  public boolean hasBody() {
    return body != null && body.length() > 0;
  }

  /** A path parameter, decoded. */
  public String param(String name) {
    return params.get(name);
  }

  /** Parses the body as an Iceberg REST request and runs its own validation. */
  public <T extends RESTRequest> T body(Class<T> type) {
    // A route's guard and its handler both read the body: parse and validate it once.
    if (type.isInstance(parsedBody)) {
      return type.cast(parsedBody);
    }
    if (body == null || body.length() == 0) {
      throw ApiException.badRequest("Missing request body for %s", type.getSimpleName());
    }
    T parsed;
    try {
      parsed = BodyParser.parse(body.getBytes(), type);
    } catch (IOException | RuntimeException e) {
      throw ApiException.badRequest(
          "Malformed request body for %s: %s", type.getSimpleName(), BodyParser.describe(e));
    }
    if (parsed == null) {
      throw ApiException.badRequest("Missing request body for %s", type.getSimpleName());
    }
    try {
      parsed.validate();
    } catch (UnprocessableEntityException e) {
      throw new ApiException(ErrorType.UNPROCESSABLE_ENTITY, e.getMessage());
    } catch (RuntimeException e) {
      throw ApiException.badRequest("Invalid %s: %s", type.getSimpleName(), e.getMessage());
    }
    Names.requireValidNames(parsed);
    parsedBody = parsed;
    return parsed;
  }
}
