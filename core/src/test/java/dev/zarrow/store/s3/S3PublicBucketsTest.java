package dev.zarrow.store.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.ArraySpec;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrOptions;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.error.StoreException;
import dev.zarrow.grid.Box;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.store.http.FaultyServer;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.S3ProxyPeer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;

/**
 * Public data without credentials: S3Proxy with a public-read bucket, read with unsigned requests
 * ({@code s3.anonymous=true} or {@code AWS_NO_SIGN_REQUEST=YES}), whose writes and the private bucket
 * are refused; and a bucket in another region, whose 301 naming its region the store follows.
 */
@ExtendWith(AllocatorExtension.class)
class S3PublicBucketsTest {
  static S3ProxyPeer s3;

  @BeforeAll
  static void start() throws Exception {
    s3 = S3ProxyPeer.start("closed");
    for (String bucket : List.of("open", "closed")) {
      if (bucket.equals("open")) {
        try (var client = s3.client()) {
          client.createBucket(b -> b.bucket("open").acl(BucketCannedACL.PUBLIC_READ));
        }
      }
      try (S3Store signed = S3Store.open("s3://" + bucket + "/era", S3StoreTest.settings(s3, S3ProxyPeer.ACCESS_KEY, S3ProxyPeer.SECRET_KEY));
          BufferAllocator allocator = new RootAllocator()) {
        write(signed, allocator);
      }
    }
    // S3Proxy serves anonymous readers objects whose own ACL is public-read (as S3 does without a bucket policy)
    try (var client = software.amazon.awssdk.services.s3.S3Client.builder().endpointOverride(s3.endpoint()).forcePathStyle(true)
        .region(software.amazon.awssdk.regions.Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(S3ProxyPeer.ACCESS_KEY, S3ProxyPeer.SECRET_KEY)))
        .requestChecksumCalculation(software.amazon.awssdk.core.checksums.RequestChecksumCalculation.WHEN_REQUIRED)
        .httpClientBuilder(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.builder()).build()) {
      for (var object : client.listObjectsV2Paginator(b -> b.bucket("open")).contents()) {
        byte[] bytes = client.getObjectAsBytes(b -> b.bucket("open").key(object.key())).asByteArray();
        client.putObject(b -> b.bucket("open").key(object.key()).acl(ObjectCannedACL.PUBLIC_READ),
            software.amazon.awssdk.core.sync.RequestBody.fromBytes(bytes));
      }
    }
  }

  @AfterAll
  static void stop() throws Exception {
    s3.close();
  }

  private static void write(dev.zarrow.store.WritableStore store, BufferAllocator allocator) {
    ZarrArray a = Zarr.createArray(store, "t2m", ArraySpec.of(FixedType.INT32, 6, 4).chunks(3, 2));
    try (IntVector v = new IntVector("v", allocator)) {
      v.allocateNew(24);
      for (int i = 0; i < 24; i++) {
        v.set(i, 270 + i);
      }
      v.setValueCount(24);
      a.write(new long[] {0, 0}, new NdVector(v, new long[] {6, 4}));
    }
  }

  private static S3Store anonymous(String location, Map<String, String> options, Map<String, String> env) {
    Map<String, String> all = new java.util.HashMap<>(options);
    all.put("s3.endpoint", s3.endpoint().toString());
    return S3Store.open(location, S3Settings.of(location, all, env));
  }

  @Test
  void aPublicBucketReadsWithoutCredentials(BufferAllocator allocator) {
    for (S3Store store : List.of(anonymous("s3://open/era", Map.of("s3.anonymous", "true"), Map.of()),
        anonymous("s3://open/era", Map.of(), Map.of("AWS_NO_SIGN_REQUEST", "YES")))) {
      try (store) {
        assertTrue(store.describe().contains("anonymous"), store.describe());
        ZarrArray a = Zarr.openArray(store, "t2m", ZarrOptions.defaults());
        try (NdVector all = a.read(Box.parse(":,:", a.shape()), allocator)) {
          IntVector v = (IntVector) all.vector();
          for (int i = 0; i < 24; i++) {
            assertEquals(270 + i, v.get(i));
          }
        }
      }
    }
  }

  @Test
  void anonymousWritesAndPrivateBucketsAreRefused() {
    try (S3Store open = anonymous("s3://open/era", Map.of("s3.anonymous", "true"), Map.of())) {
      StoreException e = assertThrows(StoreException.class, () -> open.set("t2m/c/9/9", ByteBuffer.wrap(new byte[] {1})));
      assertTrue(e.getMessage().contains("anonymous"), e.getMessage());
      assertTrue(open.get("t2m/c/9/9").isEmpty(), "nothing was written");
    }
    try (S3Store closed = anonymous("s3://closed/era", Map.of(), Map.of("AWS_NO_SIGN_REQUEST", "YES"))) {
      StoreException e = assertThrows(StoreException.class, () -> closed.get("t2m/zarr.json"));
      assertTrue(e.getMessage().contains("403") && e.getMessage().contains("anonymous"), e.getMessage());
    }
    // the option wins over the variable, and says what it takes
    try (S3Store signed = anonymous("s3://closed/era", Map.of("s3.anonymous", "false"), Map.of("AWS_NO_SIGN_REQUEST", "YES"))) {
      assertFalse(signed.describe().contains("anonymous"));
    }
    assertThrows(IllegalArgumentException.class, () -> anonymous("s3://open/era", Map.of("s3.anonymous", "maybe"), Map.of()));
  }

  @Test
  void aBucketOfAnotherRegionIsFollowedThere(BufferAllocator allocator) throws Exception {
    MemoryStore objects = new MemoryStore();
    write(objects, allocator);
    try (FaultyServer far = new FaultyServer()) {
      List<String> regions = new ArrayList<>();
      far.script(request -> {
        String auth = request.headers().getOrDefault("authorization", "");
        String region = auth.replaceAll(".*Credential=[^/]*/[0-9]+/([^/]+)/s3/.*", "$1");
        regions.add(region);
        if (!region.equals("eu-north-1")) {
          byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>PermanentRedirect</Code><Message>The bucket"
              + " you are attempting to access must be addressed using the specified endpoint.</Message></Error>").getBytes(StandardCharsets.UTF_8);
          return FaultyServer.Reply.of(301, Map.of("x-amz-bucket-region", "eu-north-1", "Content-Type", "application/xml"), body);
        }
        String path = request.path().replaceAll("\\?.*", "");
        String key = path.startsWith("/far/era/") ? path.substring("/far/era/".length()) : "";
        return objects.get(key).map(b -> {
          byte[] bytes = new byte[b.remaining()];
          b.duplicate().get(bytes);
          return FaultyServer.Reply.of(200, Map.of("Content-Type", "application/octet-stream"), bytes);
        }).orElse(FaultyServer.Reply.of(404, Map.of("Content-Type", "application/xml"),
            "<Error><Code>NoSuchKey</Code><Message>none</Message></Error>".getBytes(StandardCharsets.UTF_8)));
      });
      String endpoint = far.url().resolve("/").toString();
      S3Settings signed = new S3Settings(java.util.Optional.of(java.net.URI.create(endpoint)), "us-east-1",
          StaticCredentialsProvider.create(AwsBasicCredentials.create("far-key", "far-secret")), 6L << 20, 5L << 20, 8,
          java.time.Duration.ofSeconds(30));
      try (S3Store store = S3Store.open("s3://far/era", signed)) {
        ZarrArray a = Zarr.openArray(store, "t2m", ZarrOptions.defaults());
        try (NdVector row = a.read(Box.parse("5:6,:", a.shape()), allocator)) {
          assertEquals(270 + 20, ((IntVector) row.vector()).get(0));
          assertEquals(270 + 23, ((IntVector) row.vector()).get(3));
        }
      }
      assertEquals("us-east-1", regions.get(0), "asked first in the configured region");
      assertTrue(regions.size() >= 3, regions.toString());
      assertEquals(List.of("eu-north-1"), regions.subList(1, regions.size()).stream().distinct().toList(),
          "then always in the bucket's region: " + regions);
    }
  }
}
