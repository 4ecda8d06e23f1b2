package dev.floe.server.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.floe.events.FloeJson;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code floe principals|tokens|grants|visibility …}: the management API from the command line. The
 * token comes from {@code --token}, else {@code FLOE_TOKEN}, else {@code ./floe-data/admin.token};
 * it is sent only in the Authorization header and never printed.
 */
public final class ManageCommand {
  static final String USAGE =
      """
Usage: floe principals list
       floe principals create NAME [--kind user|service] [--email E]
       floe principals delete NAME
       floe principals role NAME --warehouse W|* --role reader|writer|admin|none
       floe tokens create PRINCIPAL [--expires-in-seconds N]
       floe tokens list PRINCIPAL
       floe tokens revoke TOKEN_ID
       floe grants list --warehouse W
       floe grants add --warehouse W --principal P --namespace a.b [--table T] --action read|write|manage
       floe grants revoke --warehouse W --principal P --namespace a.b [--table T]
       floe visibility get --warehouse W --namespace a.b
       floe visibility set --warehouse W --namespace a.b --visibility private|public
  every command also takes --url http://localhost:8181 and --token T (default: $FLOE_TOKEN,
  else ./floe-data/admin.token)
""";

  private ManageCommand() {}

  public static int run(String group, String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0) {
      err.print(USAGE);
      return 2;
    }
    String verb = args[0];
    String subject = null;
    Map<String, String> flags = new HashMap<>();
    for (int i = 1; i < args.length; i++) {
      if (args[i].startsWith("--")) {
        if (i + 1 >= args.length) {
          err.println("Missing value for " + args[i]);
          return 2;
        }
        flags.put(args[i], args[++i]);
      } else if (subject == null) {
        subject = args[i];
      } else {
        err.println("Unexpected argument: " + args[i]);
        return 2;
      }
    }
    String url = flags.getOrDefault("--url", "http://localhost:8181");
    Request request;
    try {
      request = request(group, verb, subject, flags);
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      err.print(USAGE);
      return 2;
    }
    String token = ClientToken.resolve(flags.get("--token"), Path.of("floe-data"));
    if (token == null) {
      err.println("No token: pass --token, set FLOE_TOKEN, or run where floe-data/admin.token is");
      return 2;
    }
    try {
      HttpRequest.Builder http =
          HttpRequest.newBuilder(URI.create(url + request.path()))
              .timeout(Duration.ofSeconds(60))
              .header("Authorization", "Bearer " + token)
              .header("Content-Type", "application/json")
              .method(
                  request.method(),
                  request.body() == null
                      ? HttpRequest.BodyPublishers.noBody()
                      : HttpRequest.BodyPublishers.ofString(request.body().toString()));
      HttpResponse<String> response =
          HttpClient.newHttpClient().send(http.build(), HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() / 100 != 2) {
        err.println("HTTP " + response.statusCode() + ": " + response.body());
        return 1;
      }
      out.println(response.body().isEmpty() ? "OK" : pretty(response.body()));
      return 0;
    } catch (IOException e) {
      err.println("Cannot reach " + url + ": " + e.getMessage());
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    }
  }

  record Request(String method, String path, ObjectNode body) {}

  static Request request(String group, String verb, String subject, Map<String, String> flags) {
    String m = "/management/v1";
    ObjectNode body = FloeJson.mapper().createObjectNode();
    switch (group + " " + verb) {
      case "principals list":
        return new Request("GET", m + "/principals", null);
      case "principals create":
        body.put("name", required(subject, "NAME"));
        putIfPresent(body, "kind", flags.get("--kind"));
        putIfPresent(body, "email", flags.get("--email"));
        return new Request("POST", m + "/principals", body);
      case "principals delete":
        return new Request("DELETE", m + "/principals/" + enc(required(subject, "NAME")), null);
      case "principals role":
        {
          String path =
              m
                  + "/principals/"
                  + enc(required(subject, "NAME"))
                  + "/roles/"
                  + enc(required(flags.get("--warehouse"), "--warehouse"));
          String role = required(flags.get("--role"), "--role");
          if (role.equals("none")) {
            return new Request("DELETE", path, null);
          }
          body.put("role", role);
          return new Request("PUT", path, body);
        }
      case "tokens create":
        if (flags.containsKey("--expires-in-seconds")) {
          body.put("expires-in-seconds", Long.parseLong(flags.get("--expires-in-seconds")));
        }
        return new Request(
            "POST", m + "/principals/" + enc(required(subject, "PRINCIPAL")) + "/tokens", body);
      case "tokens list":
        return new Request(
            "GET", m + "/principals/" + enc(required(subject, "PRINCIPAL")) + "/tokens", null);
      case "tokens revoke":
        return new Request("DELETE", m + "/tokens/" + enc(required(subject, "TOKEN_ID")), null);
      case "grants list":
        return new Request("GET", warehouse(flags) + "/grants", null);
      case "grants add":
      case "grants revoke":
        {
          body.put("principal", required(flags.get("--principal"), "--principal"));
          ArrayNode levels = body.putArray("namespace");
          for (String level : required(flags.get("--namespace"), "--namespace").split("\\.")) {
            levels.add(level);
          }
          putIfPresent(body, "table", flags.get("--table"));
          if (verb.equals("add")) {
            body.put("action", required(flags.get("--action"), "--action"));
            return new Request("POST", warehouse(flags) + "/grants", body);
          }
          return new Request("POST", warehouse(flags) + "/grants/revoke", body);
        }
      case "visibility get":
      case "visibility set":
        {
          String path =
              warehouse(flags)
                  + "/namespaces/"
                  + enc(required(flags.get("--namespace"), "--namespace").replace('.', '\u001f'))
                  + "/visibility";
          if (verb.equals("get")) {
            return new Request("GET", path, null);
          }
          String visibility = required(flags.get("--visibility"), "--visibility");
          body.put("visibility", visibility.equals("public") ? "AUTHENTICATED_PUBLIC" : visibility);
          return new Request("PUT", path, body);
        }
      default:
        throw new IllegalArgumentException("Unknown command: floe " + group + " " + verb);
    }
  }

  private static String warehouse(Map<String, String> flags) {
    return "/management/v1/warehouses/" + enc(required(flags.get("--warehouse"), "--warehouse"));
  }

  private static String required(String value, String name) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException("Missing " + name);
    }
    return value;
  }

  private static void putIfPresent(ObjectNode body, String field, String value) {
    if (value != null) {
      body.put(field, value);
    }
  }

  private static String enc(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String pretty(String json) {
    try {
      return FloeJson.mapper()
          .writerWithDefaultPrettyPrinter()
          .writeValueAsString(FloeJson.mapper().readTree(json));
    } catch (IOException e) {
      return json;
    }
  }
}
