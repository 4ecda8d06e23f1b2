package dev.floe.server.it.support;

import java.io.IOException;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.rest.ParserContext;
import org.apache.iceberg.rest.RESTClient;
import org.apache.iceberg.rest.RESTRequest;
import org.apache.iceberg.rest.RESTResponse;
import org.apache.iceberg.rest.auth.AuthSession;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * Iceberg's own HTTP client with one addition: every 409 answered to a table commit is reported,
 * with the snapshot the commit tried to add. {@code SnapshotProducer} swallows the 409s it retries
 * internally; the fault harness needs each of them to tell a conflict with another writer (normal)
 * from a conflict with the request's own earlier attempt (a false conflict: a bug).
 */
public final class ObservedRestClient implements RESTClient {
  /** Receives each 409 answered to a commit; {@code addedSnapshotId} is null if none was added. */
  public interface ConflictObserver {
    void conflict(String path, Long addedSnapshotId, String message);
  }

  private final RESTClient delegate;
  private final ConflictObserver observer;

  public ObservedRestClient(RESTClient delegate, ConflictObserver observer) {
    this.delegate = delegate;
    this.observer = observer;
  }

  private <T extends RESTResponse> T observe(String path, RESTRequest body, Supplier<T> call) {
    try {
      return call.get();
    } catch (CommitFailedException e) {
      if (body instanceof UpdateTableRequest update) {
        observer.conflict(path, addedSnapshot(update), e.getMessage());
      }
      throw e;
    }
  }

  private static Long addedSnapshot(UpdateTableRequest update) {
    for (MetadataUpdate change : update.updates()) {
      if (change instanceof MetadataUpdate.AddSnapshot add) {
        return add.snapshot().snapshotId();
      }
    }
    return null;
  }

  @Override
  public <T extends RESTResponse> T post(
      String path,
      RESTRequest body,
      Class<T> responseType,
      Map<String, String> headers,
      Consumer<ErrorResponse> errorHandler) {
    return observe(
        path, body, () -> delegate.post(path, body, responseType, headers, errorHandler));
  }

  @Override
  public <T extends RESTResponse> T post(
      String path,
      RESTRequest body,
      Class<T> responseType,
      Supplier<Map<String, String>> headers,
      Consumer<ErrorResponse> errorHandler) {
    return observe(
        path, body, () -> delegate.post(path, body, responseType, headers, errorHandler));
  }

  @Override
  public <T extends RESTResponse> T post(
      String path,
      RESTRequest body,
      Class<T> responseType,
      Supplier<Map<String, String>> headers,
      Consumer<ErrorResponse> errorHandler,
      Consumer<Map<String, String>> responseHeaders) {
    return observe(
        path,
        body,
        () -> delegate.post(path, body, responseType, headers, errorHandler, responseHeaders));
  }

  @Override
  public <T extends RESTResponse> T post(
      String path,
      RESTRequest body,
      Class<T> responseType,
      Map<String, String> headers,
      Consumer<ErrorResponse> errorHandler,
      Consumer<Map<String, String>> responseHeaders) {
    return observe(
        path,
        body,
        () -> delegate.post(path, body, responseType, headers, errorHandler, responseHeaders));
  }

  @Override
  public <T extends RESTResponse> T post(
      String path,
      RESTRequest body,
      Class<T> responseType,
      Map<String, String> headers,
      Consumer<ErrorResponse> errorHandler,
      Consumer<Map<String, String>> responseHeaders,
      ParserContext parserContext) {
    return observe(
        path,
        body,
        () ->
            delegate.post(
                path, body, responseType, headers, errorHandler, responseHeaders, parserContext));
  }

  // Everything else is passed through unchanged.

  @Override
  public RESTClient withAuthSession(AuthSession session) {
    RESTClient scoped = delegate.withAuthSession(session);
    return scoped == delegate ? this : new ObservedRestClient(scoped, observer);
  }

  @Override
  public void head(
      String path, Supplier<Map<String, String>> headers, Consumer<ErrorResponse> errorHandler) {
    delegate.head(path, headers, errorHandler);
  }

  @Override
  public void head(String path, Map<String, String> headers, Consumer<ErrorResponse> errorHandler) {
    delegate.head(path, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T delete(
      String path,
      Map<String, String> queryParams,
      Class<T> responseType,
      Supplier<Map<String, String>> headers,
      Consumer<ErrorResponse> errorHandler) {
    return delegate.delete(path, queryParams, responseType, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T delete(
      String path,
      Class<T> responseType,
      Supplier<Map<String, String>> headers,
      Consumer<ErrorResponse> errorHandler) {
    return delegate.delete(path, responseType, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T delete(
      String path,
      Class<T> responseType,
      Map<String, String> headers,
      Consumer<ErrorResponse> errorHandler) {
    return delegate.delete(path, responseType, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T delete(
      String path,
      Map<String, String> queryParams,
      Class<T> responseType,
      Map<String, String> headers,
      Consumer<ErrorResponse> errorHandler) {
    return delegate.delete(path, queryParams, responseType, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T get(
      String path,
      Class<T> responseType,
      Supplier<Map<String, String>> headers,
      Consumer<ErrorResponse> errorHandler) {
    return delegate.get(path, responseType, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T get(
      String path,
      Class<T> responseType,
      Map<String, String> headers,
      Consumer<ErrorResponse> errorHandler) {
    return delegate.get(path, responseType, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T get(
      String path,
      Map<String, String> queryParams,
      Class<T> responseType,
      Supplier<Map<String, String>> headers,
      Consumer<ErrorResponse> errorHandler) {
    return delegate.get(path, queryParams, responseType, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T get(
      String path,
      Map<String, String> queryParams,
      Class<T> responseType,
      Map<String, String> headers,
      Consumer<ErrorResponse> errorHandler,
      ParserContext parserContext) {
    return delegate.get(path, queryParams, responseType, headers, errorHandler, parserContext);
  }

  @Override
  public <T extends RESTResponse> T get(
      String path,
      Map<String, String> queryParams,
      Class<T> responseType,
      Supplier<Map<String, String>> headers,
      Consumer<ErrorResponse> errorHandler,
      Consumer<Map<String, String>> responseHeaders) {
    return delegate.get(path, queryParams, responseType, headers, errorHandler, responseHeaders);
  }

  @Override
  public <T extends RESTResponse> T get(
      String path,
      Map<String, String> queryParams,
      Class<T> responseType,
      Map<String, String> headers,
      Consumer<ErrorResponse> errorHandler,
      Consumer<Map<String, String>> responseHeaders) {
    return delegate.get(path, queryParams, responseType, headers, errorHandler, responseHeaders);
  }

  @Override
  public <T extends RESTResponse> T get(
      String path,
      Map<String, String> queryParams,
      Class<T> responseType,
      Map<String, String> headers,
      Consumer<ErrorResponse> errorHandler) {
    return delegate.get(path, queryParams, responseType, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T postForm(
      String path,
      Map<String, String> formData,
      Class<T> responseType,
      Supplier<Map<String, String>> headers,
      Consumer<ErrorResponse> errorHandler) {
    return delegate.postForm(path, formData, responseType, headers, errorHandler);
  }

  @Override
  public <T extends RESTResponse> T postForm(
      String path,
      Map<String, String> formData,
      Class<T> responseType,
      Map<String, String> headers,
      Consumer<ErrorResponse> errorHandler) {
    return delegate.postForm(path, formData, responseType, headers, errorHandler);
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
