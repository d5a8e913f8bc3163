package dev.zarrow.store.s3;

import dev.zarrow.error.StoreException;
import dev.zarrow.internal.BucketPaths;
import dev.zarrow.internal.IoThreads;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import dev.zarrow.store.KeyLocks;
import dev.zarrow.store.Keys;
import dev.zarrow.store.RemoteSource;
import dev.zarrow.store.WritableStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * An S3-compatible object store, read and written through the AWS SDK for Java v2 over the JDK's
 * HTTP client ({@link JdkHttpClient}): key {@code a/c/0} is the object {@code PREFIX/a/c/0} in the bucket.
 *
 * <ul>
 *   <li>Reads are GETs, ranged ({@code bytes=a-b}, {@code bytes=-n}) where a source reads parts:
 *       {@link #source(String, ByteRange)} learns existence, size and ETag from its first ranged GET; later
 *       ranges are coalesced, fetched concurrently and pinned to that ETag ({@code If-Match}). An answer
 *       that is not exactly the range asked is a {@link StoreException}, never data.
 *   <li>{@link #set} is one PUT, or a multipart upload above the threshold (aborted on failure): either way
 *       the object appears whole or not at all. {@link #delete} is a DELETE; listings are paginated LISTs.
 *   <li>The SDK retries throttling, 5xx and connection failures, each attempt sending the whole body
 *       again (on another connection when the server closed one); errors name the bucket, prefix and key
 *       (an access refusal says to check the credentials).
 * </ul>
 * S3 has no rename: a reader sees each object replaced atomically, but a node written object by object
 * appears object by object. Thread-safe; closing closes the client.
 */
public final class S3Store implements WritableStore {
  private static final Pattern CONTENT_RANGE = Pattern.compile("^bytes (\\d+)-(\\d+)/(\\d+)$");
  private static final long MAX_VALUE_BYTES = Integer.MAX_VALUE - 8;

  private final S3Client client;
  private final String bucket;
  private final String prefix; // "" or ending with "/"
  private final S3Settings settings;
  private final KeyLocks locks = new KeyLocks();
  private volatile boolean batchDeletes = true;
  private final ExecutorService requests;

  S3Store(S3Client client, String bucket, String prefix, S3Settings settings) {
    this.client = client;
    this.bucket = bucket;
    this.prefix = prefix;
    this.settings = settings;
    this.requests = IoThreads.pool("zarrow-s3", settings.concurrency());
  }

  /** The store at {@code s3://BUCKET/PREFIX}. */
  static S3Store open(String location, S3Settings settings) {
    BucketPaths parts = BucketPaths.parse("s3://", location).orElseThrow(
        () -> new IllegalArgumentException("an S3 location is s3://BUCKET/PREFIX, not '" + location + "'"));
    String bucket = parts.bucket();
    String path = parts.path();
    if (bucket.isEmpty() || !path.isEmpty() && !valid(path)) {
      throw new IllegalArgumentException("an S3 location is s3://BUCKET/PREFIX, not '" + location + "'");
    }
    S3ClientBuilder builder = S3Client.builder()
        .region(Region.of(settings.region()))
        .credentialsProvider(settings.credentials())
        // A bucket of another region answers 301 naming its region: the SDK asks again there.
        .crossRegionAccessEnabled(true)
        .httpClient(new JdkHttpClient(settings.timeout()));
    settings.endpoint().ifPresent(endpoint -> builder.endpointOverride(endpoint).forcePathStyle(true)
        // S3-compatible servers do not all know the newer integrity checksums; send them only when required.
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED));
    return new S3Store(builder.build(), bucket, path.isEmpty() ? "" : path + "/", settings);
  }

  private static boolean valid(String path) {
    try {
      Keys.check(path);
      return true;
    } catch (StoreException e) {
      return false;
    }
  }

  private String object(String key) {
    return prefix + Keys.check(key);
  }

  // ---- reading ----

  /** One GET's answer: the bytes, and what the headers say of the value. */
  private record Got(ByteBuffer bytes, GetObjectResponse response) {}

  /** A GET of {@code range} (or the whole value when null); empty when there is no such object. */
  private Optional<Got> fetch(String key, String range, String ifMatch, long limit) {
    GetObjectRequest.Builder request = GetObjectRequest.builder().bucket(bucket).key(object(key));
    if (range != null) {
      request.range(range);
    }
    if (ifMatch != null) {
      request.ifMatch(ifMatch);
    }
    ResponseTransformer<GetObjectResponse, Got> collect = (response, in) -> new Got(readBody(key, in, response.contentLength(), limit), response);
    try {
      return Optional.of(client.getObject(request.build(), collect));
    } catch (SdkServiceException e) {
      if (e.statusCode() == 404) {
        return Optional.empty();
      }
      if (e.statusCode() == 416) {
        throw new StoreException(where(key) + ": byte range " + range + " is outside the value (416)", e);
      }
      if (e.statusCode() == 412) {
        throw new StoreException(where(key) + ": the value changed while being read (its ETag is no longer " + ifMatch + ")", e);
      }
      throw failure("read", key, e);
    } catch (SdkException | UncheckedIOException e) {
      throw failure("read", key, e);
    }
  }

  private ByteBuffer readBody(String key, InputStream in, Long length, long limit) throws IOException {
    if (length == null || length < 0 || length > limit) {
      throw new StoreException(where(key) + ": the answer announces " + length + " bytes, more than the " + limit + " asked for");
    }
    ByteBuffer out = ByteBuffer.allocateDirect((int) (long) length);
    byte[] chunk = new byte[64 << 10];
    while (out.hasRemaining()) {
      int n = in.read(chunk, 0, Math.min(chunk.length, out.remaining()));
      if (n < 0) {
        throw new StoreException(where(key) + ": the body ended after " + out.position() + " of " + length + " bytes");
      }
      out.put(chunk, 0, n);
    }
    if (in.read() >= 0) {
      throw new StoreException(where(key) + ": the body is longer than its " + length + " bytes");
    }
    return out.flip();
  }

  @Override
  public Optional<ByteBuffer> get(String key) {
    return fetch(key, null, null, MAX_VALUE_BYTES).map(Got::bytes);
  }

  @Override
  public Optional<ByteBuffer> get(String key, ByteRange range) {
    if (range.length(Long.MAX_VALUE) == 0 || range instanceof ByteRange.FromStart r && r.offset() > Long.MAX_VALUE - r.length()) {
      Optional<Long> size = size(key);
      size.ifPresent(n -> checkFits(key, range, n));
      return size.map(n -> ByteBuffer.allocateDirect(0));
    }
    Optional<Got> got = fetch(key, header(range), null, range.length(Long.MAX_VALUE));
    return got.map(g -> exactly(key, range, g, -1));
  }

  @Override
  public Optional<Long> size(String key) {
    try {
      return Optional.of(client.headObject(b -> b.bucket(bucket).key(object(key))).contentLength());
    } catch (SdkServiceException e) {
      if (e.statusCode() == 404) {
        return Optional.empty();
      }
      throw failure("stat", key, e);
    } catch (SdkException | UncheckedIOException e) {
      throw failure("stat", key, e);
    }
  }

  @Override
  public Optional<ByteSource> source(String key) {
    return get(key).map(ByteSource::owned);
  }

  /** One ranged GET for {@code first} (clamped to the value) gives existence, size, ETag and the first bytes. */
  @Override
  public Optional<ByteSource> source(String key, ByteRange first) {
    Optional<Got> got;
    try {
      got = fetch(key, header(first), null, first.length(Long.MAX_VALUE));
    } catch (StoreException e) {
      if (e.getCause() instanceof SdkServiceException s && s.statusCode() == 416) {
        // Nothing of the value lies in the hint: it is empty (or shorter than a prefix hint starts).
        return size(key).map(n -> new RemoteSource(n, 0, ByteBuffer.allocate(0), ranges -> fetchAll(key, ranges, n, null)));
      }
      throw e;
    }
    if (got.isEmpty()) {
      return Optional.empty();
    }
    Got g = got.get();
    String etag = g.response.eTag();
    String contentRange = g.response.contentRange();
    if (contentRange == null) {
      return Optional.of(ByteSource.owned(g.bytes)); // the whole value came
    }
    Matcher m = CONTENT_RANGE.matcher(contentRange);
    if (!m.matches()) {
      throw new StoreException(where(key) + ": Content-Range '" + contentRange + "'");
    }
    long start = Long.parseLong(m.group(1));
    long size = Long.parseLong(m.group(3));
    long wantStart = Math.max(0, first.start(size));
    long wantEnd = Math.min(size, first instanceof ByteRange.Suffix ? size : first.start(size) + first.length(size));
    if (start != wantStart || Long.parseLong(m.group(2)) + 1 != wantEnd || g.bytes.remaining() != wantEnd - wantStart) {
      throw new StoreException(where(key) + ": asked for " + header(first) + ", the answer holds " + contentRange
          + " in " + g.bytes.remaining() + " bytes");
    }
    return Optional.of(new RemoteSource(size, start, g.bytes, ranges -> fetchAll(key, ranges, size, etag)));
  }

  private List<ByteBuffer> fetchAll(String key, List<ByteRange> ranges, long size, String etag) {
    Supplier<StoreException> gone = () -> new StoreException(where(key) + ": the value vanished while being read");
    List<Future<ByteBuffer>> later = new ArrayList<>();
    try {
      for (int i = 1; i < ranges.size(); i++) {
        ByteRange range = ranges.get(i);
        later.add(requests.submit(() -> exactly(key, range, fetch(key, header(range), etag, range.length(size)).orElseThrow(gone), size)));
      }
      List<ByteBuffer> out = new ArrayList<>();
      ByteRange range = ranges.get(0);
      out.add(exactly(key, range, fetch(key, header(range), etag, range.length(size)).orElseThrow(gone), size));
      for (Future<ByteBuffer> f : later) {
        out.add(f.get());
      }
      return out;
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException re ? re : new StoreException(e.getCause().toString(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException(where(key) + ": interrupted", e);
    } finally {
      later.forEach(f -> f.cancel(true));
    }
  }

  /** The bytes of exactly {@code asked}, checked against the answer's Content-Range (and {@code size} when known). */
  private ByteBuffer exactly(String key, ByteRange asked, Got got, long size) {
    String contentRange = got.response.contentRange();
    Matcher m = CONTENT_RANGE.matcher(contentRange == null ? "" : contentRange);
    if (!m.matches()) {
      throw new StoreException(where(key) + ": asked for " + header(asked) + ", the answer's Content-Range is '" + contentRange + "'");
    }
    long first = Long.parseLong(m.group(1));
    long last = Long.parseLong(m.group(2));
    long total = Long.parseLong(m.group(3));
    if (size >= 0 && total != size) {
      throw new StoreException(where(key) + ": the value changed while being read: it was " + size + " bytes, now " + total);
    }
    checkFits(key, asked, total);
    if (first != asked.start(total) || last - first + 1 != asked.length(total) || got.bytes.remaining() != asked.length(total)) {
      throw new StoreException(where(key) + ": asked for " + header(asked) + ", the answer holds " + contentRange + " in "
          + got.bytes.remaining() + " bytes");
    }
    return got.bytes;
  }

  private void checkFits(String key, ByteRange range, long size) {
    if (!range.fits(size)) {
      throw new StoreException("byte range " + range + " is outside key " + key + " of " + size + " bytes in " + describe());
    }
  }

  static String header(ByteRange range) {
    if (range instanceof ByteRange.Suffix s) {
      return "bytes=-" + s.length();
    }
    ByteRange.FromStart r = (ByteRange.FromStart) range;
    return "bytes=" + r.offset() + "-" + (r.offset() + (r.length() - 1));
  }

  // ---- listing ----

  @Override
  public List<String> list(String under) {
    Keys.checkPrefix(under);
    List<String> keys = new ArrayList<>();
    try {
      for (S3Object o : client.listObjectsV2Paginator(ListObjectsV2Request.builder().bucket(bucket).prefix(prefix + under).build()).contents()) {
        keys.add(o.key().substring(prefix.length()));
      }
    } catch (SdkException | UncheckedIOException e) {
      throw failure("list", under, e);
    }
    keys.removeIf(k -> !valid(k));
    keys.sort(null);
    return keys;
  }

  @Override
  public Listing listDir(String under) {
    Keys.checkPrefix(under);
    List<String> keys = new ArrayList<>();
    TreeSet<String> prefixes = new TreeSet<>();
    try {
      for (ListObjectsV2Response page : client.listObjectsV2Paginator(
          ListObjectsV2Request.builder().bucket(bucket).prefix(prefix + under).delimiter("/").build())) {
        page.contents().stream().map(o -> o.key().substring(prefix.length())).filter(S3Store::valid).forEach(keys::add);
        page.commonPrefixes().stream().map(CommonPrefix::prefix).map(p -> p.substring(prefix.length())).forEach(prefixes::add);
      }
    } catch (SdkException | UncheckedIOException e) {
      throw failure("list", under, e);
    }
    keys.sort(null);
    return new Listing(keys, new ArrayList<>(prefixes));
  }

  // ---- writing ----

  @Override
  public void set(String key, ByteBuffer value) {
    String object = object(key);
    long length = value.remaining();
    try {
      if (length < settings.multipartThreshold()) {
        client.putObject(b -> b.bucket(bucket).key(object).contentLength(length), RequestBody.fromRemainingByteBuffer(value.duplicate()));
      } else {
        multipart(object, value.duplicate());
      }
    } catch (SdkException | UncheckedIOException e) {
      throw failure("write", key, e);
    }
  }

  /** Parts of {@code partSize}; the object appears only when the upload completes, and a failed one is aborted. */
  private void multipart(String object, ByteBuffer value) {
    String upload = client.createMultipartUpload(b -> b.bucket(bucket).key(object)).uploadId();
    try {
      List<CompletedPart> parts = new ArrayList<>();
      for (int number = 1; value.hasRemaining(); number++) {
        int n = (int) Math.min(settings.partSize(), value.remaining());
        ByteBuffer part = value.slice(value.position(), n);
        value.position(value.position() + n);
        int partNumber = number;
        String etag = client.uploadPart(b -> b.bucket(bucket).key(object).uploadId(upload).partNumber(partNumber).contentLength((long) n),
            RequestBody.fromRemainingByteBuffer(part)).eTag();
        parts.add(CompletedPart.builder().partNumber(partNumber).eTag(etag).build());
      }
      client.completeMultipartUpload(b -> b.bucket(bucket).key(object).uploadId(upload)
          .multipartUpload(CompletedMultipartUpload.builder().parts(parts).build()));
    } catch (RuntimeException e) {
      try {
        client.abortMultipartUpload(b -> b.bucket(bucket).key(object).uploadId(upload));
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  @Override
  public Lock lock(String key) {
    return locks.lock(Keys.check(key));
  }

  @Override
  public void delete(String key) {
    String object = object(key);
    try {
      client.deleteObject(b -> b.bucket(bucket).key(object));
    } catch (SdkException | UncheckedIOException e) {
      throw failure("delete", key, e);
    }
  }

  /**
   * One LIST, then DELETEs of up to 1000 objects each; one DELETE per object on servers that do not
   * implement the batch request with the checksum the SDK sends (HTTP 501, e.g. older S3-compatible
   * servers), remembered for the store's life.
   */
  @Override
  public void deletePrefix(String under) {
    List<String> keys = list(under);
    for (int i = 0; i < keys.size(); i += 1000) {
      List<String> batch = keys.subList(i, Math.min(keys.size(), i + 1000));
      if (!batchDeletes) {
        batch.forEach(this::delete);
        continue;
      }
      List<ObjectIdentifier> objects = batch.stream().map(k -> ObjectIdentifier.builder().key(prefix + k).build()).toList();
      try {
        var result = client.deleteObjects(b -> b.bucket(bucket).delete(Delete.builder().objects(objects).quiet(true).build()));
        if (!result.errors().isEmpty()) {
          throw new StoreException("cannot delete " + result.errors().size() + " objects under " + under + " in " + describe()
              + ": " + result.errors().get(0));
        }
      } catch (SdkServiceException e) {
        if (e.statusCode() != 501) {
          throw failure("delete", under, e);
        }
        batchDeletes = false;
        batch.forEach(this::delete);
      } catch (SdkException | UncheckedIOException e) {
        throw failure("delete", under, e);
      }
    }
  }

  // ---- messages ----

  private String where(String key) {
    return "key " + key + " in " + describe();
  }

  /**
   * {@code e} is the SDK's, or an {@link UncheckedIOException} from its parsing of an answer's document
   * that broke off (the SDK does not wrap those).
   */
  private StoreException failure(String what, String key, RuntimeException e) {
    String why = e.getMessage();
    if (e instanceof UncheckedIOException broken) {
      why = "the answer broke off: " + broken.getCause();
    }
    if (e instanceof SdkServiceException s && (s.statusCode() == 403 || s.statusCode() == 401) && settings.anonymous()) {
      why = "access denied (HTTP " + s.statusCode() + ") to an anonymous request (s3.anonymous or AWS_NO_SIGN_REQUEST): "
          + "the bucket does not allow this without credentials; " + e.getMessage();
    } else if (e instanceof SdkServiceException s && (s.statusCode() == 403 || s.statusCode() == 401)) {
      why = "access denied (HTTP " + s.statusCode() + "): check the credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, "
          + "or AWS_PROFILE) and the endpoint; " + e.getMessage();
    }
    return new StoreException("cannot " + what + " key " + key + " in " + describe() + ": " + why, e);
  }

  @Override
  public String describe() {
    return "S3 store s3://" + bucket + "/" + prefix + settings.endpoint().map(e -> " at " + e).orElse("")
        + (settings.anonymous() ? " (anonymous)" : "");
  }

  @Override
  public void close() {
    requests.shutdownNow();
    client.close();
  }
}
