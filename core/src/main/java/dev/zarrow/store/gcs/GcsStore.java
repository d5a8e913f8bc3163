package dev.zarrow.store.gcs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zarrow.error.StoreException;
import dev.zarrow.internal.BucketPaths;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import dev.zarrow.store.Store;
import dev.zarrow.store.Stores;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A read-only Google Cloud Storage store, {@code gs://BUCKET/PREFIX}: key {@code K} is the object
 * {@code PREFIX/K}.
 *
 * <ul>
 *   <li>Values are read from the public HTTPS endpoint, {@code ENDPOINT/BUCKET/OBJECT}, by the HTTP
 *       store (ranges, suffix ranges, retries, exact-answer checks; its options {@code http.timeout},
 *       {@code http.connect_timeout}, {@code http.retries}, {@code http.concurrency} apply).
 *   <li>Listings come from the JSON API, {@code ENDPOINT/storage/v1/b/BUCKET/o?prefix=...&delimiter=/},
 *       page by page. A bucket that lets anyone read objects may still refuse listings: that is a
 *       {@link StoreException} saying so, and nodes open by path.
 *   <li>Public buckets are read without credentials; a bearer token (option {@code gcs.token}, else
 *       {@code GOOGLE_OAUTH_ACCESS_TOKEN}, e.g. from {@code gcloud auth print-access-token}) is sent on
 *       every request when given, and never printed.
 *   <li>The endpoint is {@code https://storage.googleapis.com} unless the option {@code gcs.endpoint}
 *       or {@code STORAGE_EMULATOR_HOST} (the variable of Google's own libraries, for emulators) says
 *       otherwise.
 * </ul>
 * Thread-safe. Writes are not supported.
 */
public final class GcsStore implements Store {
  static final String DEFAULT_ENDPOINT = "https://storage.googleapis.com";
  private static final Set<String> OPTIONS = Set.of("gcs.endpoint", "gcs.token", "http.timeout", "http.connect_timeout",
      "http.retries", "http.concurrency");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String bucket;
  private final String prefix; // empty or ending with '/'
  private final URI endpoint;
  private final String token;
  private final Store values;
  private final HttpClient client;
  private final Duration timeout;

  private GcsStore(String bucket, String prefix, URI endpoint, String token, Store values, Duration timeout) {
    this.bucket = bucket;
    this.prefix = prefix;
    this.endpoint = endpoint;
    this.token = token;
    this.values = values;
    this.timeout = timeout;
    this.client = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NORMAL).build();
  }

  /** The store at {@code gs://BUCKET/PREFIX}, with {@code options} and the environment {@code env}. */
  static GcsStore open(String location, Map<String, String> options, Map<String, String> env) {
    Stores.checkOptions(location, options, OPTIONS);
    BucketPaths parts = BucketPaths.parse("gs://", location).orElseThrow(
        () -> new IllegalArgumentException("a GCS location is gs://BUCKET/PREFIX, not '" + location + "'"));
    String bucket = parts.bucket();
    String path = parts.path();
    if (!bucket.matches("[a-z0-9][a-z0-9._-]{1,221}[a-z0-9]") || !path.isEmpty() && !valid(path)) {
      throw new IllegalArgumentException("a GCS location is gs://BUCKET/PREFIX (a bucket name of lower-case letters, digits,"
          + " '.', '-' and '_'), not '" + location + "'");
    }
    String endpointText = first(options.get("gcs.endpoint"), env.get("STORAGE_EMULATOR_HOST")).orElse(DEFAULT_ENDPOINT);
    if (!endpointText.contains("://")) {
      endpointText = "http://" + endpointText; // STORAGE_EMULATOR_HOST is often host:port
    }
    while (endpointText.endsWith("/")) {
      endpointText = endpointText.substring(0, endpointText.length() - 1);
    }
    URI endpoint;
    try {
      endpoint = URI.create(endpointText);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("GCS endpoint '" + endpointText + "' is not a URL", e);
    }
    String token = first(options.get("gcs.token"), env.get("GOOGLE_OAUTH_ACCESS_TOKEN")).orElse(null);
    Map<String, String> http = new HashMap<>();
    options.forEach((k, v) -> {
      if (k.startsWith("http.")) {
        http.put(k, v);
      }
    });
    // Only the token: never headers meant for other HTTP stores (ZARROW_HTTP_HEADERS).
    http.put("http.headers", token == null ? "" : "Authorization: Bearer " + token);
    String prefix = path.isEmpty() ? "" : path + "/";
    Store values = Stores.open(endpoint + "/" + bucket + "/" + encode(prefix), http);
    double seconds = options.containsKey("http.timeout") ? Double.parseDouble(options.get("http.timeout")) : 30;
    return new GcsStore(bucket, prefix, endpoint, token, values, Duration.ofMillis(Math.round(seconds * 1000)));
  }

  private static boolean valid(String path) {
    for (String segment : path.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        return false;
      }
    }
    return true;
  }

  @Override
  public Optional<ByteBuffer> get(String key) {
    return values.get(key);
  }

  @Override
  public Optional<ByteBuffer> get(String key, ByteRange range) {
    return values.get(key, range);
  }

  @Override
  public Optional<Long> size(String key) {
    return values.size(key);
  }

  @Override
  public Optional<ByteSource> source(String key) {
    return values.source(key);
  }

  @Override
  public Optional<ByteSource> source(String key, ByteRange first) {
    return values.source(key, first);
  }

  @Override
  public List<String> list(String under) {
    List<String> keys = new ArrayList<>();
    page(under, false, keys, new ArrayList<>());
    keys.sort(null);
    return keys;
  }

  @Override
  public Listing listDir(String under) {
    if (!under.isEmpty() && !under.endsWith("/")) {
      throw new IllegalArgumentException("listDir takes a prefix ending with '/', not '" + under + "'");
    }
    List<String> keys = new ArrayList<>();
    List<String> prefixes = new ArrayList<>();
    page(under, true, keys, prefixes);
    return new Listing(new ArrayList<>(new TreeSet<>(keys)), new ArrayList<>(new TreeSet<>(prefixes)));
  }

  /** Every page of the JSON API's listing of {@code prefix + under}, as keys (and prefixes) of this store. */
  private void page(String under, boolean oneLevel, List<String> keys, List<String> prefixes) {
    String pageToken = null;
    // A server that hands out a token again would page forever: each token is asked for once.
    Set<String> asked = new java.util.HashSet<>();
    do {
      StringBuilder url = new StringBuilder(endpoint + "/storage/v1/b/" + encodeSegment(bucket) + "/o?prefix="
          + encodeSegment(prefix + under) + "&fields=" + encodeSegment("items(name),prefixes,nextPageToken"));
      if (oneLevel) {
        url.append("&delimiter=%2F");
      }
      if (pageToken != null) {
        url.append("&pageToken=").append(encodeSegment(pageToken));
      }
      JsonNode answer = listing(URI.create(url.toString()), under);
      for (JsonNode item : answer.path("items")) {
        String name = item.path("name").asText("");
        if (name.startsWith(prefix) && name.length() > prefix.length() && !name.endsWith("/")) {
          keys.add(name.substring(prefix.length()));
        }
      }
      for (JsonNode p : answer.path("prefixes")) {
        String name = p.asText("");
        if (name.startsWith(prefix) && name.length() > prefix.length()) {
          prefixes.add(name.substring(prefix.length()));
        }
      }
      pageToken = answer.path("nextPageToken").isTextual() ? answer.path("nextPageToken").asText() : null;
      if (pageToken != null && !asked.add(pageToken)) {
        throw new StoreException("listing '" + under + "' in " + describe() + ": the server repeated a page token,"
            + " which would list forever");
      }
    } while (pageToken != null);
  }

  private JsonNode listing(URI url, String under) {
    HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(timeout).header("Accept", "application/json");
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    HttpResponse<byte[]> response;
    try {
      response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new StoreException("cannot list '" + under + "' in " + describe() + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException("interrupted while listing '" + under + "' in " + describe(), e);
    }
    int status = response.statusCode();
    if (status == 401 || status == 403) {
      throw new StoreException("cannot list '" + under + "' in " + describe() + ": access denied (HTTP " + status + ")"
          + (token == null ? "; a public bucket may allow reading objects but not listing them: open nodes by path,"
              + " or give a token (GOOGLE_OAUTH_ACCESS_TOKEN)" : "; check the token"));
    }
    if (status != 200) {
      throw new StoreException("cannot list '" + under + "' in " + describe() + ": HTTP status " + status);
    }
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new StoreException("cannot list '" + under + "' in " + describe() + ": the answer is not JSON", e);
    }
  }

  @Override
  public String describe() {
    return "GCS store gs://" + bucket + "/" + prefix + (endpoint.toString().equals(DEFAULT_ENDPOINT) ? "" : " at " + endpoint)
        + " (read-only)";
  }

  @Override
  public void close() {
    values.close();
  }

  /** A key prefix as URL path segments (each percent-encoded, '/' kept), as the HTTP store encodes keys. */
  private static String encode(String path) {
    StringBuilder out = new StringBuilder();
    for (String segment : path.split("/", -1)) {
      if (out.length() > 0) {
        out.append('/');
      }
      out.append(encodeSegment(segment));
    }
    return out.toString();
  }

  private static String encodeSegment(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static Optional<String> first(String... values) {
    for (String v : values) {
      if (v != null && !v.isBlank()) {
        return Optional.of(v.strip());
      }
    }
    return Optional.empty();
  }
}
