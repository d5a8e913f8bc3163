package dev.zarrow.store.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.testing.S3ProxyPeer;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * Writes to S3 survive connections the server closes: S3Proxy behind a proxy on loopback that drops
 * the connection a write is using, mid-body, or every idle keep-alive connection at once (as a server's
 * idle timeout does); each write then succeeds and the stored bytes are the bytes written.
 */
class S3WriteRetryTest {
  static S3ProxyPeer s3;

  @BeforeAll
  static void start() throws Exception {
    s3 = S3ProxyPeer.start("retry");
  }

  @AfterAll
  static void stop() throws Exception {
    s3.close();
  }

  private static S3Store open(DroppingProxy proxy, String prefix, int concurrency) {
    S3Settings settings = new S3Settings(Optional.of(proxy.endpoint()), "us-east-1",
        StaticCredentialsProvider.create(AwsBasicCredentials.create(S3ProxyPeer.ACCESS_KEY, S3ProxyPeer.SECRET_KEY)),
        6L << 20, 5L << 20, concurrency, Duration.ofSeconds(30));
    return S3Store.open("s3://retry/" + prefix, settings);
  }

  private static byte[] random(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  private static byte[] stored(S3Store store, String key) {
    ByteBuffer b = store.get(key).orElseThrow();
    byte[] out = new byte[b.remaining()];
    b.get(out);
    return out;
  }

  @Test
  void aWriteWhoseConnectionIsCutMidBodyIsSentAgainWhole() throws Exception {
    try (DroppingProxy proxy = new DroppingProxy(s3.endpoint()); S3Store store = open(proxy, "cut", 4)) {
      byte[] value = random(1 << 20, 1);
      proxy.cutFirstAfter(300_000); // the headers and part of the body
      store.set("a/c/0", ByteBuffer.wrap(value));
      assertEquals(1, proxy.dropped(), "the first connection was cut");
      assertArrayEquals(value, stored(store, "a/c/0"));
    }
  }

  @Test
  void writesSurviveTheServerClosingEveryIdleConnection() throws Exception {
    try (DroppingProxy proxy = new DroppingProxy(s3.endpoint()); S3Store store = open(proxy, "idle", 8)) {
      for (int round = 0; round < 3; round++) {
        // Writes in parallel leave several connections idle in the client's pool; the server then closes
        // them all, and the next writes must not fail on them.
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
          int n = i;
          int r = round;
          writes.add(CompletableFuture.runAsync(() -> store.set("b/c/" + r + "/" + n, ByteBuffer.wrap(random(200_000, r * 100 + n)))));
        }
        CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
        proxy.dropAll();
        Thread.sleep(100); // the closes reach the client
      }
      byte[] value = random(500_000, 99);
      store.set("b/last", ByteBuffer.wrap(value));
      assertArrayEquals(value, stored(store, "b/last"));
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 8; i++) {
          assertArrayEquals(random(200_000, round * 100 + i), stored(store, "b/c/" + round + "/" + i));
        }
      }
      assertTrue(proxy.dropped() > 0);
    }
  }
}
