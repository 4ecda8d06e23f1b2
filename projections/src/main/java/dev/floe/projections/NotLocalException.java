package dev.floe.projections;

/**
 * The key's partition is hosted by another instance of the same Kafka Streams application: the read
 * must be answered there (Kafka Streams' {@code application.server} of that instance).
 */
public class NotLocalException extends RuntimeException {
  private final String host;
  private final int port;

  public NotLocalException(String host, int port) {
    super("Answered by the instance at " + host + ":" + port);
    this.host = host;
    this.port = port;
  }

  public String host() {
    return host;
  }

  public int port() {
    return port;
  }
}
