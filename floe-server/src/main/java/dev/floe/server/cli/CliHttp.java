package dev.floe.server.cli;

import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;

/**
 * HTTP for the command-line tools: a server that does not listen is reported within seconds, as a
 * {@link CliFailure} naming it and saying how to start one.
 */
final class CliHttp {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);
  private static final String START_IT = "is the server running? Start it with bin/floe serve";

  private CliHttp() {}

  static HttpClient client() {
    return HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
  }

  /** Sends a request to the server at {@code url}. */
  static <T> HttpResponse<T> send(
      HttpClient client, HttpRequest request, HttpResponse.BodyHandler<T> body, String url)
      throws InterruptedException {
    try {
      return client.send(request, body);
    } catch (HttpConnectTimeoutException e) {
      throw new CliFailure(
          "cannot reach " + url + " (no answer within " + CONNECT_TIMEOUT.toSeconds() + " s)",
          START_IT,
          e);
    } catch (ConnectException e) {
      if (unresolved(e)) {
        throw new CliFailure(
            "cannot reach " + url + " (unknown host)", "check the host name in --url", e);
      }
      throw new CliFailure("cannot reach " + url + " (connection refused)", START_IT, e);
    } catch (HttpTimeoutException e) {
      throw new CliFailure(
          url + " did not answer in time", "is the server overloaded? Try again", e);
    } catch (IOException e) {
      throw new CliFailure(
          "cannot reach " + url + " (" + e.getMessage() + ")", "check the URL; " + START_IT, e);
    }
  }

  private static boolean unresolved(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof UnresolvedAddressException) {
        return true;
      }
    }
    return false;
  }

  /**
   * A failure for an answer that is not a success, its body reported as {@code <type>: <message>}
   * ({@link Output#refusal}): a refused token says how to give another, a refused right whom to
   * ask.
   */
  static CliFailure refused(int status, String body) {
    String message = Output.refusal(status, body);
    if (status == 401) {
      return new CliFailure(
          message, "pass a valid --token, set FLOE_TOKEN, or run where floe-data/admin.token is");
    }
    if (status == 403) {
      return new CliFailure(message, "ask an admin for a role or grant that allows it");
    }
    return new CliFailure(message, null);
  }
}
