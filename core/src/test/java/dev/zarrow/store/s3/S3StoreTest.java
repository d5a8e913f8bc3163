package dev.zarrow.store.s3;

import dev.zarrow.store.StoreContract;
import dev.zarrow.store.WritableStore;
import dev.zarrow.testing.S3ProxyPeer;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/** The S3 store is a store like the others, against S3Proxy on loopback (a fresh prefix per test). */
class S3StoreTest extends StoreContract {
  static S3ProxyPeer s3;
  static final AtomicInteger tests = new AtomicInteger();

  @BeforeAll
  static void start() throws Exception {
    s3 = S3ProxyPeer.start("contract");
  }

  @AfterAll
  static void stop() throws Exception {
    s3.close();
  }

  static S3Settings settings(S3ProxyPeer s3, String access, String secret) {
    return new S3Settings(Optional.of(s3.endpoint()), "us-east-1",
        StaticCredentialsProvider.create(AwsBasicCredentials.create(access, secret)), 6L << 20, 5L << 20, 8, Duration.ofSeconds(30));
  }

  /** S3Proxy's in-memory store lists an object being written under a temporary name ({@code KEY-UUID}); S3 does not. */
  @Override
  protected String listedKeyPattern() {
    return "w/c/\\d+/\\d(-[0-9a-f-]{36})?";
  }

  @Override
  protected WritableStore newStore() {
    return S3Store.open("s3://contract/test-" + tests.incrementAndGet(), settings(s3, S3ProxyPeer.ACCESS_KEY, S3ProxyPeer.SECRET_KEY));
  }
}
