package dev.zarrow.store.s3;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * The AWS SDK's HTTP client on the JDK's {@link HttpClient}, as the HTTP store uses it. The JDK's
 * older {@code HttpURLConnection} (the SDK's {@code url-connection-client}) reuses a kept-alive
 * connection without noticing that the server closed it, and does not send a request body again on
 * another connection: a write then fails on every dead connection of its pool, one SDK attempt each
 * ("Error writing request body to server (SDK Attempt Count: 4)"). {@link HttpClient} watches its idle
 * connections and drops the ones the server closed; each SDK attempt sends the whole body again, from
 * a fresh stream of the request's content.
 */
final class JdkHttpClient implements SdkHttpClient {
  /** Headers the JDK client sets itself and refuses from callers; it sends the same values. */
  private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host", "upgrade");

  private static final int DOCUMENT_LIMIT = 1 << 20;

  private final HttpClient client;
  private final Duration timeout;

  JdkHttpClient(Duration timeout) {
    this.timeout = timeout;
    this.client = HttpClient.newBuilder()
        .connectTimeout(timeout)
        .followRedirects(HttpClient.Redirect.NEVER) // the SDK handles S3's redirects itself
        .version(HttpClient.Version.HTTP_1_1)
        .build();
  }

  @Override
  public ExecutableHttpRequest prepareRequest(HttpExecuteRequest execute) {
    SdkHttpRequest request = execute.httpRequest();
    HttpRequest.Builder builder = HttpRequest.newBuilder(request.getUri());
    boolean expectContinue = false;
    long length = -1;
    for (Map.Entry<String, List<String>> header : request.headers().entrySet()) {
      String name = header.getKey().toLowerCase(Locale.ROOT);
      if (name.equals("content-length")) {
        length = Long.parseLong(header.getValue().get(0).trim());
      } else if (name.equals("expect")) {
        expectContinue = header.getValue().stream().anyMatch(v -> v.equalsIgnoreCase("100-continue"));
      } else if (!RESTRICTED.contains(name)) {
        header.getValue().forEach(value -> builder.header(header.getKey(), value));
      }
    }
    // The JDK's timeout spans the whole exchange, body included (HttpURLConnection's was per read): a
    // body adds a second per 64 KiB, so that a large part on a slow link is not cut short.
    builder.timeout(timeout.plusSeconds(Math.max(0, length) >> 16));
    builder.expectContinue(expectContinue);
    builder.method(request.method().name(), body(execute.contentStreamProvider(), length));
    HttpRequest built = builder.build();
    return new ExecutableHttpRequest() {
      private volatile CompletableFuture<HttpResponse<InputStream>> sent;

      @Override
      public HttpExecuteResponse call() throws IOException {
        sent = client.sendAsync(built, HttpResponse.BodyHandlers.ofInputStream());
        HttpResponse<InputStream> response;
        try {
          response = sent.get();
        } catch (InterruptedException e) {
          sent.cancel(true);
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted: " + request.method() + " " + request.getUri());
        } catch (CancellationException e) {
          throw new IOException("aborted: " + request.method() + " " + request.getUri(), e);
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          throw cause instanceof IOException io ? io : new IOException(String.valueOf(cause), cause);
        }
        InputStream body = response.statusCode() >= 300 ? document(response.body()) : response.body();
        return HttpExecuteResponse.builder()
            .response(SdkHttpResponse.builder().statusCode(response.statusCode()).headers(response.headers().map()).build())
            .responseBody(AbortableInputStream.create(body, () -> close(body)))
            .build();
      }

      @Override
      public void abort() {
        CompletableFuture<HttpResponse<InputStream>> f = sent;
        if (f != null) {
          f.cancel(true);
        }
      }
    };
  }

  /**
   * An error answer's document, read whole before the attempt returns. A server may answer a write it
   * refuses before reading its body, then close the connection (S3Proxy does): the JDK fails the
   * exchange on the broken pipe while the document is still unread. Parsed later, a document that
   * breaks off escapes the SDK as an {@code UncheckedIOException} (not retried) or becomes an error
   * without S3's code and message. Read here, the failure is this attempt's IOException, which the SDK
   * retries. Error documents are small; past {@link #DOCUMENT_LIMIT} the rest is dropped.
   */
  private static InputStream document(InputStream body) throws IOException {
    try (body) {
      return new ByteArrayInputStream(body.readNBytes(DOCUMENT_LIMIT));
    }
  }

  /** The body, read from a new stream of {@code content} on each send (every attempt sends it whole). */
  private static HttpRequest.BodyPublisher body(Optional<ContentStreamProvider> content, long length) {
    if (content.isEmpty() || length == 0) {
      return HttpRequest.BodyPublishers.noBody();
    }
    HttpRequest.BodyPublisher stream = HttpRequest.BodyPublishers.ofInputStream(content.get()::newStream);
    return length > 0 ? HttpRequest.BodyPublishers.fromPublisher(stream, length) : stream;
  }

  private static void close(InputStream body) {
    try {
      body.close();
    } catch (IOException ignored) {
      // aborting: nothing more to read
    }
  }

  @Override
  public String clientName() {
    return "zarrow-jdk";
  }

  /** Nothing to release: the JDK client's connections close when idle (and it has no close before JDK 21). */
  @Override
  public void close() {}
}
