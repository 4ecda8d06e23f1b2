package dev.floe.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A blocking HTTP/1.1 client with one kept-alive connection per calling thread and server: the
 * request is written and the response read on the thread that asks, with no other thread involved.
 * The benchmark's clients share the machine's cores with the catalog under test; {@code
 * java.net.http.HttpClient} hands every exchange to its selector thread and back, which cost the
 * client more CPU than the fastest catalog spent answering (bench/notes.md).
 */
final class Http1 {
  private static final int TIMEOUT_MS = 60_000;

  private final ThreadLocal<Map<String, Connection>> connections =
      ThreadLocal.withInitial(HashMap::new);

  /**
   * Sends one request and reads its whole response. A connection the server closed while it was
   * idle is opened again and the request sent once more, but only when nothing of the response had
   * arrived: the server never read that request.
   */
  RestTarget.Response send(String method, URI uri, String body, String token) throws IOException {
    String authority = uri.getHost() + ":" + port(uri);
    Map<String, Connection> mine = connections.get();
    Connection connection = mine.get(authority);
    boolean reused = connection != null;
    if (connection == null) {
      connection = new Connection(uri.getHost(), port(uri));
      mine.put(authority, connection);
    }
    byte[] request = request(method, uri, authority, body, token);
    try {
      return exchange(mine, authority, connection, method, request);
    } catch (StaleConnection stale) {
      if (!reused) {
        throw new IOException("The server closed a new connection without answering");
      }
      Connection fresh = new Connection(uri.getHost(), port(uri));
      mine.put(authority, fresh);
      return exchange(mine, authority, fresh, method, request);
    }
  }

  private static RestTarget.Response exchange(
      Map<String, Connection> mine,
      String authority,
      Connection connection,
      String method,
      byte[] request)
      throws IOException {
    try {
      RestTarget.Response response = connection.exchange(method, request);
      if (!connection.open) {
        mine.remove(authority);
      }
      return response;
    } catch (IOException | RuntimeException e) {
      connection.close();
      mine.remove(authority);
      throw e;
    }
  }

  private static int port(URI uri) {
    return uri.getPort() > 0 ? uri.getPort() : 80;
  }

  private static byte[] request(
      String method, URI uri, String authority, String body, String token) {
    byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    StringBuilder head = new StringBuilder(256);
    head.append(method).append(' ').append(uri.getRawPath());
    if (uri.getRawQuery() != null) {
      head.append('?').append(uri.getRawQuery());
    }
    head.append(" HTTP/1.1\r\nHost: ").append(authority).append("\r\n");
    head.append("Accept: application/json\r\n");
    if (token != null) {
      head.append("Authorization: Bearer ").append(token).append("\r\n");
    }
    if (body != null) {
      head.append("Content-Type: application/json\r\n");
    }
    if (body != null || !method.equals("GET") && !method.equals("HEAD")) {
      head.append("Content-Length: ").append(content.length).append("\r\n");
    }
    head.append("\r\n");
    byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
    byte[] all = new byte[headBytes.length + content.length];
    System.arraycopy(headBytes, 0, all, 0, headBytes.length);
    System.arraycopy(content, 0, all, headBytes.length, content.length);
    return all;
  }

  /** The connection ended before the first byte of the response. */
  private static final class StaleConnection extends IOException {
    StaleConnection() {
      super("connection closed before the response began");
    }
  }

  private static final class Connection {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private boolean open = true;

    Connection(String host, int port) throws IOException {
      socket = new Socket();
      socket.setTcpNoDelay(true);
      socket.setSoTimeout(TIMEOUT_MS);
      socket.connect(new InetSocketAddress(host, port), 10_000);
      in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
      out = socket.getOutputStream();
    }

    RestTarget.Response exchange(String method, byte[] request) throws IOException {
      try {
        out.write(request);
        out.flush();
      } catch (IOException e) {
        throw new StaleConnection();
      }
      int first = in.read();
      if (first < 0) {
        throw new StaleConnection();
      }
      String statusLine = (char) first + line();
      String[] parts = statusLine.split(" ", 3);
      if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
        throw new IOException("Not an HTTP/1.1 status line: " + statusLine);
      }
      int status = Integer.parseInt(parts[1]);
      long length = -1;
      boolean chunked = false;
      boolean close = parts[0].equals("HTTP/1.0");
      for (String header = line(); !header.isEmpty(); header = line()) {
        int colon = header.indexOf(':');
        if (colon < 0) {
          continue;
        }
        String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
        String value = header.substring(colon + 1).trim();
        switch (name) {
          case "content-length" -> length = Long.parseLong(value);
          case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
          case "connection" -> close = value.equalsIgnoreCase("close");
          default -> {}
        }
      }
      byte[] content;
      if (method.equals("HEAD") || status == 204 || status == 304 || status / 100 == 1) {
        content = new byte[0];
      } else if (chunked) {
        content = chunks();
      } else if (length >= 0) {
        content = in.readNBytes((int) length);
        if (content.length < length) {
          throw new EOFException("The response ended after " + content.length + " bytes");
        }
      } else {
        content = in.readAllBytes();
        close = true;
      }
      if (close) {
        close();
      }
      return new RestTarget.Response(status, new String(content, StandardCharsets.UTF_8));
    }

    private byte[] chunks() throws IOException {
      ByteArrayOutputStream content = new ByteArrayOutputStream();
      while (true) {
        String size = line();
        int semicolon = size.indexOf(';');
        int n = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
        if (n == 0) {
          // Trailers, up to the blank line.
          while (!line().isEmpty()) {}
          return content.toByteArray();
        }
        byte[] chunk = in.readNBytes(n);
        if (chunk.length < n) {
          throw new EOFException("A chunk ended early");
        }
        content.write(chunk);
        line();
      }
    }

    /** One header line without its CRLF. */
    private String line() throws IOException {
      StringBuilder line = new StringBuilder(64);
      while (true) {
        int c = in.read();
        if (c < 0) {
          throw new EOFException("The response ended inside a line");
        }
        if (c == '\n') {
          int end = line.length();
          if (end > 0 && line.charAt(end - 1) == '\r') {
            line.setLength(end - 1);
          }
          return line.toString();
        }
        line.append((char) c);
      }
    }

    void close() {
      open = false;
      try {
        socket.close();
      } catch (IOException ignored) {
        // Nothing to do: the connection is dropped either way.
      }
    }
  }
}
