package dev.floe.server.cli;

import ch.qos.logback.classic.Level;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import org.slf4j.LoggerFactory;

/**
 * Checks the Kafka bootstrap address of a command-line tool before a Kafka client is made: a Kafka
 * client retries an absent broker for as long as its timeouts allow, logging a warning each time,
 * where the tool should say in one line that nothing listens.
 */
final class KafkaAddress {
  private static final int CONNECT_TIMEOUT_MS = 3000;

  private KafkaAddress() {}

  /**
   * Returns when one of the bootstrap servers ({@code host:port,...}) accepts a connection; fails
   * with what to do otherwise. It also keeps the Kafka clients' logs at ERROR: their warnings
   * (retries, reconnects) are for servers, not for someone at a terminal.
   */
  static void requireReachable(String bootstrap) {
    quietKafkaClients();
    String reason = "no address given";
    for (String address : bootstrap.split(",")) {
      reason = connect(address.strip());
      if (reason == null) {
        return;
      }
    }
    throw new CliFailure(
        "cannot reach Kafka at " + bootstrap + " (" + reason + ")",
        "is the broker running? Start the server with bin/floe serve, or pass --kafka host:port");
  }

  /** Null when {@code host:port} accepts a connection, else why not. */
  private static String connect(String address) {
    int colon = address.lastIndexOf(':');
    int port;
    try {
      port = Integer.parseInt(address.substring(colon + 1));
    } catch (NumberFormatException | IndexOutOfBoundsException e) {
      return "'" + address + "' is not host:port";
    }
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(address.substring(0, colon), port), CONNECT_TIMEOUT_MS);
      return null;
    } catch (UnknownHostException e) {
      return "unknown host";
    } catch (SocketTimeoutException e) {
      return "no answer within " + CONNECT_TIMEOUT_MS / 1000 + " s";
    } catch (ConnectException e) {
      return "connection refused";
    } catch (IOException | IllegalArgumentException e) {
      return e.getMessage();
    }
  }

  private static void quietKafkaClients() {
    if (LoggerFactory.getLogger("org.apache.kafka")
        instanceof ch.qos.logback.classic.Logger kafka) {
      kafka.setLevel(Level.ERROR);
    }
  }
}
