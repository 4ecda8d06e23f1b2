package dev.floe.server.cli;

import java.net.URI;
import java.net.URISyntaxException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Checks a {@code --url} as picocli reads it: an {@code http://} or {@code https://} URL with a
 * host, so {@code localhost:8181} is refused as a usage error instead of failing a request later.
 */
final class ServerUrl implements ITypeConverter<String> {
  @Override
  public String convert(String value) {
    try {
      URI uri = new URI(value);
      if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          && uri.getHost() != null) {
        return value;
      }
    } catch (URISyntaxException e) {
      // refused below
    }
    throw new TypeConversionException(
        "'" + value + "' is not a server URL such as http://localhost:8181");
  }
}
