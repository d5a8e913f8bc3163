package dev.zarrow.store.http;

import dev.zarrow.error.StoreException;
import dev.zarrow.internal.IoThreads;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import dev.zarrow.store.Keys;
import dev.zarrow.store.RemoteSource;
import dev.zarrow.store.Store;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A read-only store over HTTP(S) on {@code java.net.http}: key {@code a/c/0} is the URL
 * {@code BASE/a/c/0}.
 *
 * <ul>
 *   <li>A 404 (or 410) is an absent key, and so is a redirect to a directory (a URL ending with
 *       {@code /}: a prefix, whatever page the server shows there). There is no listing: {@link #list} and {@link #listDir} say so.
 *   <li>Partial reads send {@code Range: bytes=a-b}, or {@code bytes=-n} for the last {@code n} bytes (a
 *       shard index at the end). {@link #source(String, ByteRange)} fetches its first range with the
 *       request that finds the key and learns the size from {@code Content-Range}; the ranges of one
 *       {@link ByteSource#readAll(List)} are coalesced and sent concurrently, each pinned to the first
 *       answer's version with {@code If-Match} (a strong ETag) and checked against its size.
 *   <li>An answer is data only when it is exactly what was asked: a 206 whose {@code Content-Range}
 *       names the range asked and whose body has exactly its length, or a 200 with the whole value (a
 *       server that ignores ranges). Anything else, a body cut short or longer than announced, is a
 *       {@link StoreException} naming the URL and the key, never data.
 *   <li>5xx, 429, time-outs and broken connections are retried with exponential backoff and jitter
 *       (honouring {@code Retry-After}); at most {@link HttpSettings#concurrency()} requests are in
 *       flight; a connection or a body that stays silent longer than the read time-out is dropped.
 * </ul>
 * Thread-safe. Closing stops its request threads.
 */
public final class HttpStore implements Store {
  private static final Pattern CONTENT_RANGE = Pattern.compile("^bytes (\\d+)-(\\d+)/(\\d+|\\*)$");
  private static final Pattern UNSATISFIED = Pattern.compile("^bytes \\*/(\\d+)$");
  /** The largest body: one buffer. */
  private static final long MAX_BODY = Integer.MAX_VALUE - 8;

  private final URI base;
  private final HttpSettings settings;
  private final HttpClient client;
  private final Semaphore inFlight;
  private final ExecutorService requests;

  HttpStore(URI base, HttpSettings settings) {
    String text = base.toString();
    this.base = URI.create(text.endsWith("/") ? text : text + "/");
    this.settings = settings;
    this.client = HttpClient.newBuilder()
        .connectTimeout(settings.connectTimeout())
        .followRedirects(HttpClient.Redirect.NORMAL)
        // HTTP/1.1 on plain http (no h2c upgrade headers that some servers refuse); https negotiates.
        .version("https".equalsIgnoreCase(base.getScheme()) ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1)
        .build();
    this.inFlight = new Semaphore(settings.concurrency());
    this.requests = IoThreads.pool("zarrow-http", settings.concurrency());
  }

  /** The store at {@code url} (http or https, no query or fragment). */
  static HttpStore open(String url, HttpSettings settings) {
    URI uri;
    try {
      uri = URI.create(url);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a URL: '" + url + "': " + e.getMessage(), e);
    }
    if (uri.getHost() == null || uri.getRawQuery() != null || uri.getRawFragment() != null) {
      throw new IllegalArgumentException("an HTTP store location is http(s)://HOST/PATH without query or fragment, not '" + url + "'");
    }
    return new HttpStore(uri, settings);
  }

  @Override
  public Optional<ByteBuffer> get(String key) {
    Answer a = fetch(key, null, null, false);
    if (a.absent()) {
      return Optional.empty();
    }
    a.expect(200);
    return Optional.of(a.body);
  }

  @Override
  public Optional<ByteBuffer> get(String key, ByteRange range) {
    Keys.check(key);
    if (range instanceof ByteRange.FromStart r && r.length() == 0 || range instanceof ByteRange.Suffix s && s.length() == 0) {
      // "bytes=a-(a-1)" cannot be said: an empty range only needs the size.
      Optional<Long> size = size(key);
      size.ifPresent(n -> checkFits(key, range, n));
      return size.map(n -> ByteBuffer.allocateDirect(0));
    }
    if (range instanceof ByteRange.FromStart r && r.offset() > Long.MAX_VALUE - r.length()) {
      throw new StoreException("byte range " + range + " of key " + key + " is outside any value");
    }
    Answer a = fetch(key, range, null, false);
    if (a.absent()) {
      return Optional.empty();
    }
    return Optional.of(a.exactly(range));
  }

  @Override
  public Optional<Long> size(String key) {
    Answer a = fetch(key, null, null, true);
    if (a.absent()) {
      return Optional.empty();
    }
    a.expect(200);
    OptionalLong length = a.headers.firstValueAsLong("Content-Length");
    if (length.isEmpty()) {
      throw a.failure("the answer to HEAD has no Content-Length");
    }
    return Optional.of(length.getAsLong());
  }

  /** The whole value, with one request. */
  @Override
  public Optional<ByteSource> source(String key) {
    return get(key).map(ByteSource::owned);
  }

  /**
   * One request for {@code first} (clamped to the value) tells whether the key exists and its size; later
   * ranges are fetched concurrently, pinned to that version of the value.
   */
  @Override
  public Optional<ByteSource> source(String key, ByteRange first) {
    Answer a = fetch(key, first, null, false);
    if (a.absent()) {
      return Optional.empty();
    }
    if (a.status == 200) {
      return Optional.of(ByteSource.owned(a.body)); // a server without ranges: the whole value came
    }
    long size;
    long start;
    ByteBuffer bytes;
    if (a.status == 416) {
      // Nothing of the value lies in the hint (an empty value): the size comes as "bytes */SIZE".
      Matcher m = UNSATISFIED.matcher(a.headers.firstValue("Content-Range").orElse(""));
      if (!m.matches()) {
        return size(key).map(n -> new RemoteSource(n, 0, ByteBuffer.allocate(0), ranges -> fetchAll(key, ranges, n, null)));
      }
      size = Long.parseLong(m.group(1));
      start = 0;
      bytes = ByteBuffer.allocate(0);
    } else {
      a.expect(206);
      long[] got = a.contentRange();
      if (got[2] < 0) {
        throw a.failure("Content-Range '" + a.headers.firstValue("Content-Range").orElse("") + "' gives no size");
      }
      size = got[2];
      start = got[0];
      bytes = a.body;
      long wantStart = Math.max(0, first.start(size));
      long wantEnd = Math.min(size, first instanceof ByteRange.Suffix ? size : first.start(size) + first.length(size));
      if (start != wantStart || got[1] + 1 != wantEnd || bytes.remaining() != wantEnd - wantStart) {
        throw a.failure("asked for " + rangeHeader(first) + ", the answer holds bytes " + got[0] + "-" + got[1] + "/" + size
            + " in a body of " + bytes.remaining() + " bytes");
      }
    }
    String etag = a.headers.firstValue("ETag").filter(e -> !e.startsWith("W/")).orElse(null);
    return Optional.of(new RemoteSource(size, start, bytes, ranges -> fetchAll(key, ranges, size, etag)));
  }

  /** The exact {@code ranges} of {@code key} (a value of {@code size} bytes), concurrently. */
  private List<ByteBuffer> fetchAll(String key, List<ByteRange> ranges, long size, String etag) {
    List<Future<ByteBuffer>> later = new ArrayList<>();
    try {
      for (int i = 1; i < ranges.size(); i++) {
        ByteRange range = ranges.get(i);
        later.add(requests.submit(() -> fetchRange(key, range, size, etag)));
      }
      List<ByteBuffer> out = new ArrayList<>(ranges.size());
      out.add(fetchRange(key, ranges.get(0), size, etag));
      for (Future<ByteBuffer> f : later) {
        out.add(f.get());
      }
      return out;
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException re ? re : new StoreException(e.getCause().toString(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException("interrupted while reading key " + key + " from " + describe(), e);
    } finally {
      later.forEach(f -> f.cancel(true));
    }
  }

  private ByteBuffer fetchRange(String key, ByteRange range, long size, String etag) {
    Answer a = fetch(key, range, etag, false);
    if (a.absent() || a.status == 412) {
      throw a.failure("the value changed while being read (it is gone or has another ETag)");
    }
    ByteBuffer bytes = a.exactly(range);
    long total = a.status == 200 ? a.body.remaining() : a.contentRange()[2];
    if (total >= 0 && total != size) {
      throw a.failure("the value changed while being read: it was " + size + " bytes, now " + total);
    }
    return bytes;
  }

  @Override
  public boolean canList() {
    return false;
  }

  @Override
  public List<String> list(String prefix) {
    throw noListing();
  }

  @Override
  public Listing listDir(String prefix) {
    throw noListing();
  }

  private StoreException noListing() {
    return new StoreException(describe() + " cannot list keys (HTTP has no listing): this needs a listing; "
        + "copy the data to a directory, zip or S3 store, or open nodes by path");
  }

  @Override
  public String describe() {
    return "HTTP store " + base;
  }

  @Override
  public void close() {
    requests.shutdownNow();
  }

  // ---- one request, with retries ----

  /** The answer to one request; {@code body} is null unless the status is 200 or 206. */
  private final class Answer {
    final String key;
    final URI uri;
    final String range;
    final int status;
    final HttpHeaders headers;
    final ByteBuffer body;

    Answer(String key, URI uri, String range, int status, HttpResponse<ByteBuffer> response) {
      this.key = key;
      this.uri = uri;
      this.range = range;
      this.status = status;
      this.headers = response.headers();
      this.body = response.body();
    }

    boolean absent() {
      return status == 404 || status == 410;
    }

    void expect(int wanted) {
      if (status != wanted) {
        throw failure("unexpected status " + status);
      }
    }

    /** {Content-Range first, last, total or -1}. */
    long[] contentRange() {
      String header = headers.firstValue("Content-Range").orElse("");
      Matcher m = CONTENT_RANGE.matcher(header);
      if (!m.matches()) {
        throw failure("a 206 answer with Content-Range '" + header + "'");
      }
      long first = Long.parseLong(m.group(1));
      long last = Long.parseLong(m.group(2));
      long total = m.group(3).equals("*") ? -1 : Long.parseLong(m.group(3));
      if (last < first || total >= 0 && last >= total) {
        throw failure("a 206 answer with Content-Range '" + header + "'");
      }
      return new long[] {first, last, total};
    }

    /** The bytes of exactly {@code asked}: a 206 that names it, or its slice of a 200's whole value. */
    ByteBuffer exactly(ByteRange asked) {
      if (status == 416) {
        throw failure("byte range " + asked + " is outside the value (416)");
      }
      if (status == 200) {
        long size = body.remaining();
        checkFits(key, asked, size);
        return body.slice((int) asked.start(size), (int) asked.length(size));
      }
      expect(206);
      long[] got = contentRange();
      boolean matches;
      if (asked instanceof ByteRange.Suffix s) {
        matches = got[2] >= 0 && got[1] == got[2] - 1 && got[1] - got[0] + 1 == s.length();
        if (got[2] >= 0 && got[2] < s.length() && got[0] == 0) {
          throw failure("byte range " + asked + " is outside the value of " + got[2] + " bytes");
        }
      } else {
        ByteRange.FromStart r = (ByteRange.FromStart) asked;
        matches = got[0] == r.offset() && got[1] - got[0] + 1 == r.length();
        if (!matches && got[0] == r.offset() && got[2] >= 0 && got[1] == got[2] - 1) {
          throw failure("byte range " + asked + " is outside the value of " + got[2] + " bytes");
        }
      }
      if (!matches) {
        throw failure("asked for " + range + ", the answer's Content-Range is '" + headers.firstValue("Content-Range").orElse("") + "'");
      }
      if (body.remaining() != got[1] - got[0] + 1) {
        throw failure("asked for " + range + ", the body has " + body.remaining() + " bytes");
      }
      return body;
    }

    StoreException failure(String why) {
      return new StoreException(HttpStore.this.failure(key, uri, range, why));
    }
  }

  private String failure(String key, URI uri, String range, String why) {
    return "key " + key + " at " + uri + (range == null ? "" : " (" + range + ")") + ": " + why;
  }

  private static void checkFits(String key, ByteRange range, long size) {
    if (!range.fits(size)) {
      throw new StoreException("byte range " + range + " is outside key " + key + " of " + size + " bytes");
    }
  }

  static String rangeHeader(ByteRange range) {
    if (range instanceof ByteRange.Suffix s) {
      return "bytes=-" + s.length();
    }
    ByteRange.FromStart r = (ByteRange.FromStart) range;
    return "bytes=" + r.offset() + "-" + (r.offset() + (r.length() - 1));
  }

  /** Sends one request, retrying what may pass on a second try; a 404 is an answer, not a failure. */
  private Answer fetch(String key, ByteRange range, String ifMatch, boolean head) {
    URI uri = base.resolve(encode(Keys.check(key)));
    String rangeHeader = range == null ? null : rangeHeader(range);
    HttpRequest.Builder builder = HttpRequest.newBuilder(uri).timeout(settings.readTimeout());
    if (head) {
      builder.method("HEAD", HttpRequest.BodyPublishers.noBody());
    }
    if (rangeHeader != null) {
      builder.header("Range", rangeHeader);
    }
    if (ifMatch != null) {
      builder.header("If-Match", ifMatch);
    }
    for (Map.Entry<String, String> header : settings.headers()) {
      builder.header(header.getKey(), header.getValue());
    }
    HttpRequest request = builder.build();
    // Limit what a 206 may bring to what was asked; a suffix or a hint may be clamped (shorter).
    long rangeLimit = range == null ? MAX_BODY : Math.min(MAX_BODY, range.length(Long.MAX_VALUE));
    String last = null;
    for (int attempt = 0; ; attempt++) {
      long retryAfter = -1;
      try {
        HttpResponse<ByteBuffer> response = send(request, rangeLimit);
        int status = response.statusCode();
        // Redirected to a directory (a web server adds the slash): a prefix, not a value.
        if (response.uri().getRawPath().endsWith("/")) {
          return new Answer(key, uri, rangeHeader, 404, response);
        }
        if (status < 500 && status != 429) {
          if (status == 401 || status == 403) {
            throw new StoreException(failure(key, uri, rangeHeader, "access denied (HTTP " + status + ")"));
          }
          if (status >= 400 && status != 404 && status != 410 && status != 412 && status != 416) {
            throw new StoreException(failure(key, uri, rangeHeader, "HTTP status " + status));
          }
          return new Answer(key, uri, rangeHeader, status, response);
        }
        last = "HTTP status " + status;
        retryAfter = response.headers().firstValueAsLong("Retry-After").orElse(-1);
      } catch (BodyCollector.Overlong e) {
        throw new StoreException(failure(key, uri, rangeHeader, e.getMessage() + ": never data"), e);
      } catch (IOException e) {
        last = (e instanceof HttpTimeoutException ? "timed out: " : "connection failed: ") + e;
      }
      if (attempt >= settings.retries()) {
        throw new StoreException(failure(key, uri, rangeHeader, last + " (tried " + (attempt + 1) + " times)"));
      }
      sleep(key, retryAfter >= 0 ? Math.min(retryAfter * 1000, HttpSettings.MAX_BACKOFF.toMillis()) : backoff(attempt));
    }
  }

  private long backoff(int attempt) {
    long ceiling = Math.min(HttpSettings.MAX_BACKOFF.toMillis(), settings.backoff().toMillis() << Math.min(attempt, 20));
    return ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1);
  }

  private void sleep(String key, long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException("interrupted while reading key " + key + " from " + describe(), e);
    }
  }

  /**
   * One exchange, within the store's bound of requests in flight; gives up when the headers, or the
   * next bytes of the body, take longer than the read time-out.
   */
  private HttpResponse<ByteBuffer> send(HttpRequest request, long rangeLimit) throws IOException {
    AtomicReference<BodyCollector> collector = new AtomicReference<>();
    HttpResponse.BodyHandler<ByteBuffer> handler = info -> {
      int status = info.statusCode();
      if (status != 200 && status != 206 || request.method().equals("HEAD")) {
        return HttpResponse.BodySubscribers.replacing(null);
      }
      OptionalLong length = info.headers().firstValueAsLong("Content-Length");
      long limit = status == 206 ? rangeLimit : MAX_BODY;
      BodyCollector c = new BodyCollector(length.isPresent() ? Math.min(length.getAsLong(), limit) : -1, limit);
      collector.set(c);
      return c;
    };
    try {
      inFlight.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    CompletableFuture<HttpResponse<ByteBuffer>> future = client.sendAsync(request, handler);
    try {
      long timeout = settings.readTimeout().toNanos();
      long started = System.nanoTime();
      while (true) {
        try {
          return future.get(Math.min(timeout, TimeUnit.MILLISECONDS.toNanos(100)), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
          BodyCollector c = collector.get();
          long since = c == null ? started : Math.max(started, c.lastActivity());
          if (System.nanoTime() - since > timeout) {
            future.cancel(true);
            if (c != null) {
              c.cancel();
            }
            throw new HttpTimeoutException("no answer for " + settings.readTimeout().toMillis() + " ms"
                + (c == null ? "" : " in the middle of the body"));
          }
        }
      }
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new IOException(cause.toString(), cause);
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } finally {
      inFlight.release();
    }
  }

  /** {@code key} as a relative URL path: each segment percent-encoded as UTF-8 (keys may hold any character). */
  static String encode(String key) {
    StringBuilder out = new StringBuilder();
    for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "-._~/".indexOf(c) >= 0) {
        out.append((char) c);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16))).append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
      }
    }
    return out.toString();
  }
}
