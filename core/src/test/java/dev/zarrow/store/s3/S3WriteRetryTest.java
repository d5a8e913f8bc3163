package dev.zarrow.store.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.error.StoreException;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * Writes to S3 survive connections the server closes: S3Proxy behind a proxy on loopback that drops
 * the connection a write is using, mid-body, or every idle keep-alive connection at once (as a server's
 * idle timeout does); each write then succeeds and the stored bytes are the bytes written. Answers that
 * break off mid-document are asked again when they are errors, and a clear error when they are listings.
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

  private static S3Store open(DroppingProxy proxy, String location, int concurrency) {
    S3Settings settings = new S3Settings(Optional.of(proxy.endpoint()), "us-east-1",
        StaticCredentialsProvider.create(AwsBasicCredentials.create(S3ProxyPeer.ACCESS_KEY, S3ProxyPeer.SECRET_KEY)),
        6L << 20, 5L << 20, concurrency, Duration.ofSeconds(30));
    return S3Store.open(location, settings);
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
    try (DroppingProxy proxy = new DroppingProxy(s3.endpoint()); S3Store store = open(proxy, "s3://retry/cut", 4)) {
      byte[] value = random(1 << 20, 1);
      proxy.cutFirstAfter(300_000); // the headers and part of the body
      store.set("a/c/0", ByteBuffer.wrap(value));
      assertEquals(1, proxy.dropped(), "the first connection was cut");
      assertArrayEquals(value, stored(store, "a/c/0"));
    }
  }

  /** Cut before the document's first byte (which the SDK lets escape as an UncheckedIOException), and inside it. */
  @ParameterizedTest
  @ValueSource(longs = {0, 20})
  void anErrorAnswerThatBreaksOffIsAskedAgain(long cut) throws Exception {
    try (DroppingProxy proxy = new DroppingProxy(s3.endpoint()); S3Store store = open(proxy, "s3://retry/answers", 1)) {
      proxy.cutFirstAnswerAfter(cut); // S3's NoSuchKey document
      assertEquals(Optional.empty(), store.get("missing"));
      assertEquals(1, proxy.dropped(), "the first answer was cut");
    }
    try (DroppingProxy proxy = new DroppingProxy(s3.endpoint()); S3Store store = open(proxy, "s3://no-such-bucket/x", 1)) {
      proxy.cutFirstAnswerAfter(cut); // S3's NoSuchBucket document
      StoreException e = assertThrows(StoreException.class, () -> store.delete("k"));
      assertTrue(e.getMessage().contains("The specified bucket does not exist"), e.getMessage());
      assertEquals(1, proxy.dropped(), "the first answer was cut");
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {0, 500})
  void aListingThatBreaksOffIsAStoreError(long cut) throws Exception {
    try (S3Store direct = S3Store.open("s3://retry/listing", S3StoreTest.settings(s3, S3ProxyPeer.ACCESS_KEY, S3ProxyPeer.SECRET_KEY))) {
      for (int i = 0; i < 40; i++) {
        direct.set("k" + i, ByteBuffer.allocate(1));
      }
    }
    try (DroppingProxy proxy = new DroppingProxy(s3.endpoint()); S3Store store = open(proxy, "s3://retry/listing", 1)) {
      proxy.cutFirstAnswerAfter(cut); // the listing's document is several KB
      StoreException e = assertThrows(StoreException.class, () -> store.list(""));
      assertTrue(e.getMessage().contains("cannot list") && e.getMessage().contains("s3://retry/listing/")
          && e.getMessage().contains(cut == 0 ? "the answer broke off" : "Could not parse XML"), e.getMessage());
      assertEquals(1, proxy.dropped(), "the first answer was cut");
      assertEquals(40, store.list("").size(), "the next listing, on a new connection, is whole");
    }
  }

  @Test
  void writesSurviveTheServerClosingEveryIdleConnection() throws Exception {
    try (DroppingProxy proxy = new DroppingProxy(s3.endpoint()); S3Store store = open(proxy, "s3://retry/idle", 8)) {
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
