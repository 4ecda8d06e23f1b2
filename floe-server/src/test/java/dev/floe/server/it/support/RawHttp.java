package dev.floe.server.it.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One HTTP/1.1 exchange over a plain socket, for requests {@code java.net.http} refuses to send:
 * control characters and invalid percent-encodings in the path, broken headers, lying lengths, bad
 * chunk framing. Reads one response (by its length or chunks, or to the end of the stream).
 */
public final class RawHttp {
  /** A response; {@code status} is -1 when the server closed the connection without answering. */
  public record Response(int status, Map<String, String> headers, byte[] body) {
    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  private RawHttp() {}

  public static Response exchange(URI server, byte[] request, boolean head, int timeoutMillis)
      throws IOException {
    try (Socket socket = new Socket(server.getHost(), server.getPort())) {
      socket.setSoTimeout(timeoutMillis);
      try {
        socket.getOutputStream().write(request);
        socket.getOutputStream().flush();
      } catch (IOException e) {
        // The server may answer and close before the whole request is written (a refused body).
      }
      return read(socket.getInputStream(), head);
    }
  }

  /** Reads one response from a connection the caller keeps (keep-alive). */
  public static Response read(InputStream in, boolean head) throws IOException {
    String headerBlock = readHeaderBlock(in);
    if (headerBlock == null) {
      return new Response(-1, Map.of(), new byte[0]);
    }
    String[] lines = headerBlock.split("\r\n");
    String[] statusLine = lines[0].split(" ", 3);
    int status = Integer.parseInt(statusLine[1]);
    Map<String, String> headers = new TreeMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        headers.put(
            lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
            lines[i].substring(colon + 1).trim());
      }
    }
    byte[] body;
    if (head || status == 204 || status == 304 || (status >= 100 && status < 200)) {
      body = new byte[0];
    } else if (headers.containsKey("content-length")) {
      body = in.readNBytes(Integer.parseInt(headers.get("content-length")));
    } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      body = readChunked(in);
    } else {
      body = in.readAllBytes();
    }
    return new Response(status, headers, body);
  }

  /** The status line and headers, or null when the stream ended before any byte. */
  private static String readHeaderBlock(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        if (head.size() == 0) {
          return null;
        }
        throw new IOException("Connection closed inside the response headers: " + head);
      }
      head.write(b);
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    String text = head.toString(StandardCharsets.ISO_8859_1);
    return text.substring(0, text.length() - 4);
  }

  private static byte[] readChunked(InputStream in) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      String sizeLine = readLine(in);
      int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
      if (size == 0) {
        while (!readLine(in).isEmpty()) {
          // trailers
        }
        return body.toByteArray();
      }
      body.write(in.readNBytes(size));
      readLine(in);
    }
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0 && b != '\n') {
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.ISO_8859_1);
  }
}
