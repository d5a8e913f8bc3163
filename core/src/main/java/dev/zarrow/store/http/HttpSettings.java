package dev.zarrow.store.http;

import dev.zarrow.store.Stores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How an {@link HttpStore} talks to its server.
 *
 * @param connectTimeout the longest wait for a connection
 * @param readTimeout the longest wait for the answer's headers, and the longest silence within a body
 * @param retries how often a request is tried again after a 5xx, a 429, a time-out or a broken connection
 * @param backoff the wait before the first retry; doubled each time (with jitter), at most {@link #MAX_BACKOFF}
 * @param concurrency the most requests in flight at once from one store
 * @param headers name and value of each header sent with every request (credentials, typically: never
 *     printed, {@link #toString} leaves them out)
 */
record HttpSettings(Duration connectTimeout, Duration readTimeout, int retries, Duration backoff, int concurrency,
    List<Map.Entry<String, String>> headers) {
  static final Duration MAX_BACKOFF = Duration.ofSeconds(10);
  static final Set<String> OPTIONS = Set.of("http.timeout", "http.connect_timeout", "http.retries", "http.concurrency", "http.headers");
  /** Where the headers come from when no option gives them. */
  static final String HEADERS_VARIABLE = "ZARROW_HTTP_HEADERS";
  /** Headers java.net.http sets itself and refuses from callers. */
  private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host", "upgrade");

  HttpSettings {
    if (retries < 0 || concurrency < 1 || readTimeout.isNegative() || readTimeout.isZero() || connectTimeout.isNegative() || connectTimeout.isZero()) {
      throw new IllegalArgumentException("bad HTTP settings: " + retries + " retries, concurrency " + concurrency
          + ", timeouts " + connectTimeout + " and " + readTimeout);
    }
    headers = List.copyOf(headers);
  }

  static HttpSettings defaults() {
    return new HttpSettings(Duration.ofSeconds(10), Duration.ofSeconds(30), 4, Duration.ofMillis(200), 16, List.of());
  }

  /**
   * The defaults changed by the options {@code http.timeout}, {@code http.connect_timeout} (seconds),
   * {@code http.retries}, {@code http.concurrency} and {@code http.headers} (else the variable {@value
   * #HEADERS_VARIABLE} of {@code env}).
   */
  static HttpSettings of(String location, Map<String, String> options, Map<String, String> env) {
    Stores.checkOptions(location, options, OPTIONS);
    HttpSettings d = defaults();
    String headers = options.containsKey("http.headers") ? options.get("http.headers") : env.get(HEADERS_VARIABLE);
    return new HttpSettings(
        seconds(options, "http.connect_timeout", d.connectTimeout),
        seconds(options, "http.timeout", d.readTimeout),
        integer(options, "http.retries", d.retries),
        d.backoff,
        integer(options, "http.concurrency", d.concurrency),
        headers(headers, options.containsKey("http.headers") ? "option http.headers" : HEADERS_VARIABLE));
  }

  /**
   * {@code Name: value} lines (separated by newlines) as headers. A bad line is refused naming its
   * number and the header's name, never its value.
   */
  static List<Map.Entry<String, String>> headers(String text, String source) {
    List<Map.Entry<String, String>> out = new ArrayList<>();
    if (text == null || text.isBlank()) {
      return out;
    }
    String[] lines = text.split("\r?\n");
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty()) {
        continue;
      }
      int colon = line.indexOf(':');
      String name = colon > 0 ? line.substring(0, colon).strip() : "";
      if (name.isEmpty() || !name.chars().allMatch(c -> c > ' ' && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0)) {
        throw new IllegalArgumentException(source + ", line " + (i + 1) + ": not a header 'Name: value'");
      }
      String value = line.substring(colon + 1).strip();
      if (value.chars().anyMatch(c -> c < ' ' && c != '\t' || c == 127)) {
        throw new IllegalArgumentException(source + ", line " + (i + 1) + ": header " + name + " has a control character");
      }
      if (RESTRICTED.contains(name.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException(source + ": header " + name + " cannot be set (the HTTP client sets it)");
      }
      out.add(Map.entry(name, value));
    }
    return out;
  }

  /** The settings without the headers' values, which may be credentials. */
  @Override
  public String toString() {
    return "HttpSettings[connectTimeout=" + connectTimeout + ", readTimeout=" + readTimeout + ", retries=" + retries
        + ", backoff=" + backoff + ", concurrency=" + concurrency + ", headers="
        + headers.stream().map(Map.Entry::getKey).toList() + " (values not shown)]";
  }

  private static Duration seconds(Map<String, String> options, String name, Duration fallback) {
    String value = options.get(name);
    if (value == null) {
      return fallback;
    }
    try {
      return Duration.ofMillis(Math.round(Double.parseDouble(value) * 1000));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("option " + name + ": not a number of seconds: '" + value + "'");
    }
  }

  private static int integer(Map<String, String> options, String name, int fallback) {
    String value = options.get(name);
    if (value == null) {
      return fallback;
    }
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("option " + name + ": not an integer: '" + value + "'");
    }
  }
}
