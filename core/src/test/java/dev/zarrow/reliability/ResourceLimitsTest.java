package dev.zarrow.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.ArraySpec;
import dev.zarrow.error.CorruptChunkException;
import dev.zarrow.error.MetadataException;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.codec.core.GzipCodec;
import dev.zarrow.codec.core.ZstdCodec;
import dev.zarrow.metadata.FieldJson;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.Json;
import dev.zarrow.store.FileSystemStore;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.testing.AllocatorExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile sizes are refused before memory is allocated for them: decompression bombs, frames that
 * lie about their size, oversized metadata documents, and nesting deep enough to exhaust the stack.
 */
@ExtendWith(AllocatorExtension.class)
class ResourceLimitsTest {
  private static final long TEN_GB = 10_000_000_000L;
  private static final long MIB = 1 << 20;

  @TempDir Path dir;

  /** A 17-byte zstd frame whose header claims {@code contentSize} bytes: one RLE block of 128 KiB. */
  static ByteBuffer zstdFrameClaiming(long contentSize) {
    ByteBuffer frame = ByteBuffer.allocateDirect(17).order(ByteOrder.LITTLE_ENDIAN);
    frame.putInt(0xFD2FB528); // magic
    frame.put((byte) 0xE0); // 8-byte content size, single segment
    frame.putLong(contentSize);
    int block = 1 | (1 << 1) | ((128 << 10) << 3); // last block, RLE, 128 KiB
    frame.put((byte) block).put((byte) (block >> 8)).put((byte) (block >> 16));
    frame.put((byte) 7);
    return frame.flip();
  }

  @Test
  void zstdFrameClaimingTenGigabytesIsRefusedBeforeAllocating() {
    ZstdCodec zstd = new ZstdCodec(0, false);
    for (long max : new long[] {CodecOptions.DEFAULT.maxChunkBytes(), Long.MAX_VALUE}) {
      CorruptChunkException e = assertRefusedWithin(MIB, () -> zstd.decode(zstdFrameClaiming(TEN_GB), -1, max));
      assertTrue(e.getMessage().contains("declares " + TEN_GB), e.getMessage());
    }
    // the chunk size is known: the frame's claim disagrees with it
    assertRefusedWithin(MIB, () -> zstd.decode(zstdFrameClaiming(TEN_GB), 4096, Long.MAX_VALUE));
    // a claim under every cap, but more than 17 bytes can hold (32768 per byte)
    CorruptChunkException e = assertRefusedWithin(MIB, () -> zstd.decode(zstdFrameClaiming(1L << 30), -1, Long.MAX_VALUE));
    assertTrue(e.getMessage().contains("more than the limit of " + 17 * 32768), e.getMessage());
  }

  @Test
  void zstdBombChunkOfAnArrayIsACorruptChunk(BufferAllocator allocator) {
    MemoryStore store = new MemoryStore();
    ZarrArray array = Zarr.createArray(store, "a", ArraySpec.of(FixedType.INT32, 1024).chunks(1024));
    store.set("a/c/0", zstdFrameClaiming(TEN_GB));
    CorruptChunkException e = assertThrows(CorruptChunkException.class, () -> array.read(allocator).close());
    assertTrue(e.getMessage().contains("a/c/0"), e.getMessage());
  }

  @Test
  void gzipBombIsCappedAtTheExpectedOrMaximumSize() throws IOException {
    ByteBuffer bomb = gzip(new byte[64 << 20]);
    assertTrue(bomb.remaining() < 100_000, "64 MiB of zeros compress to " + bomb.remaining());
    GzipCodec gzip = new GzipCodec(1);
    assertRefusedWithin(4 * MIB, () -> gzip.decode(bomb, MIB, Long.MAX_VALUE));
    assertRefusedWithin(4 * MIB, () -> gzip.decode(bomb, -1, MIB));
    // more than deflate can expand to: refused before reading
    assertRefusedWithin(MIB, () -> gzip.decode(bomb, 1L << 30, Long.MAX_VALUE));
    // an honest size still decodes
    ByteBuffer small = gzip(new byte[1000]);
    assertEquals(1000, gzip.decode(small, 1000, Long.MAX_VALUE).remaining());
    assertEquals(1000, gzip.decode(small, -1, 1000).remaining());
  }

  @Test
  void metadataOverTheSizeLimitIsRefusedBeforeReading() throws IOException {
    FileSystemStore store = FileSystemStore.open(dir);
    try (RandomAccessFile file = new RandomAccessFile(dir.resolve("zarr.json").toFile(), "rw")) {
      file.setLength(TEN_GB); // sparse: costs no disk
    }
    MetadataException e = assertRefusedWithin(MIB, () -> Zarr.open(store, "/"), MetadataException.class);
    assertTrue(e.getMessage().contains("exceeds the limit of " + Json.MAX_DOCUMENT_BYTES), e.getMessage());
    assertTrue(e.getMessage().contains("zarr.json"), e.getMessage());

    ByteBuffer justOver = ByteBuffer.allocate(Json.MAX_DOCUMENT_BYTES + 1);
    assertThrows(MetadataException.class, () -> Json.parse(justOver, "big.json"));
  }

  @Test
  void deepJsonNestingIsAMetadataErrorNotAStackOverflow() {
    for (int depth : new int[] {Json.MAX_DEPTH + 1, 100_000}) {
      String doc = "[".repeat(depth) + "]".repeat(depth);
      assertThrows(MetadataException.class, () -> Json.parse(doc, "deep.json"));
      MemoryStore store = new MemoryStore();
      store.set("zarr.json", ByteBuffer.wrap(("{\"zarr_format\":3,\"node_type\":\"group\",\"attributes\":{\"x\":" + doc + "}}")
          .getBytes(StandardCharsets.UTF_8)));
      assertThrows(MetadataException.class, () -> Zarr.open(store, "/"));
    }
    String shallow = "[".repeat(Json.MAX_DEPTH - 1) + "]".repeat(Json.MAX_DEPTH - 1);
    Json.parse(shallow, "fine.json");
  }

  @Test
  void nestedArrowFieldsDeeperThanTheBoundAreRefused() {
    assertEquals(FieldJson.MAX_DEPTH, depth(FieldJson.parse(Json.parse(nestedLists(FieldJson.MAX_DEPTH), "ok"))));
    MetadataException e = assertThrows(MetadataException.class,
        () -> FieldJson.parse(Json.parse(nestedLists(FieldJson.MAX_DEPTH + 1), "deep")));
    assertTrue(e.getMessage().contains(String.valueOf(FieldJson.MAX_DEPTH)), e.getMessage());
  }

  private static int depth(org.apache.arrow.vector.types.pojo.Field field) {
    List<org.apache.arrow.vector.types.pojo.Field> children = field.getChildren();
    return 1 + (children.isEmpty() ? 0 : depth(children.get(0)));
  }

  /** A list of lists ... of int32, {@code depth} fields deep. */
  private static String nestedLists(int depth) {
    String field = "{\"name\":\"item\",\"nullable\":true,\"type\":{\"name\":\"int\",\"bitWidth\":32,\"isSigned\":true},\"children\":[]}";
    for (int i = 1; i < depth; i++) {
      field = "{\"name\":\"item\",\"nullable\":true,\"type\":{\"name\":\"list\"},\"children\":[" + field + "]}";
    }
    return field;
  }

  private static ByteBuffer gzip(byte[] data) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(data);
    }
    byte[] all = bytes.toByteArray();
    return ByteBuffer.allocateDirect(all.length).put(all).flip();
  }

  private static CorruptChunkException assertRefusedWithin(long bytes, Executable decode) {
    return assertRefusedWithin(bytes, decode, CorruptChunkException.class);
  }

  /**
   * Runs {@code action}, which must throw {@code type}, and checks that direct memory in use never
   * grew by more than {@code bytes} meanwhile (sampled after: a refused allocation leaves nothing
   * behind, so the buffers still held by the pool's count are what was allocated and not yet freed).
   */
  private static <T extends Throwable> T assertRefusedWithin(long bytes, Executable action, Class<T> type) {
    BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
        .filter(p -> p.getName().equals("direct")).findFirst().orElseThrow();
    long before = direct.getTotalCapacity();
    T e = assertThrows(type, action);
    long grown = direct.getTotalCapacity() - before;
    assertTrue(grown <= bytes, "direct memory grew by " + grown + " bytes before the refusal");
    return e;
  }
}
