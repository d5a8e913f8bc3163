package dev.zarrow.store.http;

import dev.zarrow.store.Stores;
import java.time.Duration;
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
 */
record HttpSettings(Duration connectTimeout, Duration readTimeout, int retries, Duration backoff, int concurrency) {
  static final Duration MAX_BACKOFF = Duration.ofSeconds(10);
  static final Set<String> OPTIONS = Set.of("http.timeout", "http.connect_timeout", "http.retries", "http.concurrency");

  HttpSettings {
    if (retries < 0 || concurrency < 1 || readTimeout.isNegative() || readTimeout.isZero() || connectTimeout.isNegative() || connectTimeout.isZero()) {
      throw new IllegalArgumentException("bad HTTP settings: " + retries + " retries, concurrency " + concurrency
          + ", timeouts " + connectTimeout + " and " + readTimeout);
    }
  }

  static HttpSettings defaults() {
    return new HttpSettings(Duration.ofSeconds(10), Duration.ofSeconds(30), 4, Duration.ofMillis(200), 16);
  }

  /** The defaults changed by the options {@code http.timeout}, {@code http.connect_timeout} (seconds), {@code http.retries}, {@code http.concurrency}. */
  static HttpSettings of(String location, Map<String, String> options) {
    Stores.checkOptions(location, options, OPTIONS);
    HttpSettings d = defaults();
    return new HttpSettings(
        seconds(options, "http.connect_timeout", d.connectTimeout),
        seconds(options, "http.timeout", d.readTimeout),
        integer(options, "http.retries", d.retries),
        d.backoff,
        integer(options, "http.concurrency", d.concurrency));
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
