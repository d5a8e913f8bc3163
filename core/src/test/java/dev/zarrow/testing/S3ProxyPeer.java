package dev.zarrow.testing;

import java.net.URI;
import java.time.Duration;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.AuthenticationType;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real S3-compatible server for tests: S3Proxy (test scope) on loopback with blobs in memory (jclouds'
 * {@code transient} blob store), signed requests required (access key {@link #ACCESS_KEY}, secret {@link #SECRET_KEY}). Stopped by {@link #close}.
 */
public final class S3ProxyPeer implements AutoCloseable {
  public static final String ACCESS_KEY = "zarrow-access";
  public static final String SECRET_KEY = "zarrow-secret";

  private final BlobStoreContext blobs;
  private final S3Proxy proxy;
  private final URI endpoint;

  private S3ProxyPeer(BlobStoreContext blobs, S3Proxy proxy, URI endpoint) {
    this.blobs = blobs;
    this.proxy = proxy;
    this.endpoint = endpoint;
  }

  /** Starts the server and creates {@code buckets}. */
  public static S3ProxyPeer start(String... buckets) throws Exception {
    BlobStoreContext blobs = ContextBuilder.newBuilder("transient").build(BlobStoreContext.class);
    S3Proxy proxy = S3Proxy.builder()
        .blobStore(blobs.getBlobStore())
        .endpoint(URI.create("http://127.0.0.1:0"))
        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
        .build();
    proxy.start();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!"STARTED".equals(proxy.getState())) {
      if (System.nanoTime() > deadline) {
        proxy.stop();
        blobs.close();
        throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
      }
      Thread.sleep(20);
    }
    S3ProxyPeer peer = new S3ProxyPeer(blobs, proxy, URI.create("http://127.0.0.1:" + proxy.getPort()));
    try (S3Client client = peer.client()) {
      for (String bucket : buckets) {
        client.createBucket(b -> b.bucket(bucket));
      }
    }
    return peer;
  }

  /** {@code http://127.0.0.1:PORT} */
  public URI endpoint() {
    return endpoint;
  }

  /** A client of the server with the right credentials (path-style), for what a test arranges. */
  public S3Client client() {
    return S3Client.builder().endpointOverride(endpoint).forcePathStyle(true).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
        .httpClientBuilder(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.builder())
        .build();
  }

  @Override
  public void close() throws Exception {
    try {
      proxy.stop();
    } finally {
      blobs.close();
    }
  }
}
