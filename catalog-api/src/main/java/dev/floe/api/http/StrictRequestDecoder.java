package dev.floe.api.http;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpMessage;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * Vert.x's HTTP/1.x request decoder, refusing a request that carries both {@code Transfer-Encoding}
 * and {@code Content-Length}: the shape of request smuggling, which RFC 9112 §6.3 lets a server
 * refuse. Netty's decoder would drop the {@code Content-Length} and read the chunks; a proxy in
 * front of Floe might have framed the same bytes by the length. Refused, the request reaches the
 * server's invalid-request handler (400 with the ErrorModel) and the connection is closed, so
 * nothing after it is read as a request.
 */
public final class StrictRequestDecoder extends VertxHttpRequestDecoder {
  private static final String NAME = "httpDecoder";

  private StrictRequestDecoder(HttpServerOptions options) {
    super(options);
  }

  /**
   * Puts the strict decoder in place of Vert.x's on a new HTTP/1.x connection, before its first
   * byte is decoded. Returns whether it did (not for a connection of another kind).
   */
  public static boolean install(HttpConnection connection, HttpServerOptions options) {
    if (!(connection instanceof ConnectionBase base)) {
      return false;
    }
    ChannelPipeline pipeline = base.channel().pipeline();
    if (!(pipeline.get(NAME) instanceof VertxHttpRequestDecoder)) {
      return false;
    }
    pipeline.replace(NAME, NAME, new StrictRequestDecoder(options));
    return true;
  }

  @Override
  protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
    throw new IllegalArgumentException(
        "a request may not carry both Transfer-Encoding and Content-Length");
  }
}
