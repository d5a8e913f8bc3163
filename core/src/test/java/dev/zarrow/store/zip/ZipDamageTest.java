package dev.zarrow.store.zip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zarrow.ArraySpec;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.error.ZarrException;
import dev.zarrow.grid.Box;
import dev.zarrow.store.ByteRange;
import dev.zarrow.store.ByteSource;
import dev.zarrow.store.MemoryStore;
import dev.zarrow.store.Store;
import dev.zarrow.store.Stores;
import dev.zarrow.testing.AllocatorExtension;
import dev.zarrow.testing.ZipBytes;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Damage that a zip archive's structure alone does not reveal is refused, never read as data: a flipped
 * data byte or a wrong CRC field (stored and deflated entries), a local header that disagrees with the
 * central directory, two entries of one name, and sizes no chunk can have, refused before inflating.
 */
@ExtendWith(AllocatorExtension.class)
class ZipDamageTest {
  @TempDir Path dir;

  private static final byte[] VALUE = "0123456789abcdefghij".repeat(20).getBytes(StandardCharsets.US_ASCII);

  private Path write(byte[] archive) throws Exception {
    Path zip = Files.createTempFile(dir, "damaged", ".zip");
    Files.write(zip, archive);
    return zip;
  }

  /** An archive of the entries {@code a} and {@code b} (VALUE), damaged by {@code damage}. */
  private Path damaged(boolean deflate, java.util.function.BiConsumer<ZipBytes, byte[]> damage) throws Exception {
    ZipBytes zip = new ZipBytes().add("a", "first".getBytes(StandardCharsets.US_ASCII), deflate).add("b", VALUE, deflate);
    byte[] archive = zip.bytes();
    damage.accept(zip, archive);
    return write(archive);
  }

  private static String refused(Path archive, Consumer<Store> read) {
    try (Store store = Stores.open(archive.toString())) {
      ZarrException e = assertThrows(ZarrException.class, () -> read.accept(store));
      assertTrue(e.getMessage().contains(archive.toString()), e.getMessage());
      return e.getMessage();
    }
  }

  private static void readsWhole(Store store) {
    store.get("b");
  }

  private static void readsWholeFromASource(Store store) {
    try (ByteSource source = store.source("b").orElseThrow()) {
      source.readAll();
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aFlippedDataByteIsACrcMismatch(boolean deflate) throws Exception {
    // In a stored entry, a data byte; in a deflated one, a byte of a literal that still inflates (the
    // deflate stream of text keeps its literals), so only the CRC can tell.
    Path archive = damaged(deflate, (zip, bytes) -> {
      int at = zip.data(1) + (deflate ? 5 : 100);
      bytes[at] ^= 0x01;
    });
    for (Consumer<Store> read : java.util.List.<Consumer<Store>>of(ZipDamageTest::readsWhole, ZipDamageTest::readsWholeFromASource)) {
      String message = refused(archive, read);
      assertTrue(message.contains("entry b") && (message.contains("CRC-32 mismatch") || deflate), message);
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aWrongCrcFieldIsACrcMismatch(boolean deflate) throws Exception {
    Path archive = damaged(deflate, (zip, bytes) -> {
      int crc = zip.entries().get(1).crc() ^ 0x10;
      ZipBytes.putInt(bytes, zip.localHeader(1) + 14, crc);
      ZipBytes.putInt(bytes, zip.centralEntry(1) + 16, crc);
    });
    String message = refused(archive, ZipDamageTest::readsWhole);
    assertTrue(message.contains("entry b") && message.contains("CRC-32 mismatch"), message);
    refused(archive, ZipDamageTest::readsWholeFromASource);
  }

  @Test
  void aCentralCrcTheLocalHeaderDisagreesWithIsRefused() throws Exception {
    Path archive = damaged(false, (zip, bytes) -> ZipBytes.putInt(bytes, zip.centralEntry(1) + 16, zip.entries().get(1).crc() ^ 1));
    String message = refused(archive, s -> s.get("b", ByteRange.of(0, 4)));
    assertTrue(message.contains("local header says CRC-32"), message);
  }

  @Test
  void aLocalNameOtherThanTheCentralOneIsRefusedBeforeTheDataIsUsed() throws Exception {
    Path archive = damaged(false, (zip, bytes) -> bytes[zip.localHeader(1) + 30] = 'c');
    String message = refused(archive, s -> s.get("b", ByteRange.of(0, 4)));
    assertTrue(message.contains("entry b") && message.contains("local header names 1 bytes \"c\""), message);
  }

  @Test
  void aLocalNameLengthOtherThanTheCentralOneIsRefused() throws Exception {
    // Read at the local length, the data would start a byte late: a range read would be silently wrong.
    Path archive = damaged(false, (zip, bytes) -> ZipBytes.putShort(bytes, zip.localHeader(1) + 26, 2));
    String message = refused(archive, s -> s.get("b", ByteRange.of(0, 4)));
    assertTrue(message.contains("local header names 2 bytes"), message);
  }

  @Test
  void aLocalMethodOrSizeOtherThanTheCentralOneIsRefused() throws Exception {
    Path method = damaged(false, (zip, bytes) -> ZipBytes.putShort(bytes, zip.localHeader(1) + 8, 8));
    assertTrue(refused(method, ZipDamageTest::readsWhole).contains("compression method 8"));
    Path size = damaged(true, (zip, bytes) -> ZipBytes.putInt(bytes, zip.localHeader(1) + 22, VALUE.length + 1));
    assertTrue(refused(size, ZipDamageTest::readsWhole).contains("local header says size " + (VALUE.length + 1)));
  }

  @Test
  void twoEntriesOfOneNameAreRefusedWhenTheArchiveOpens() throws Exception {
    byte[] archive = new ZipBytes().add("a", "first".getBytes(StandardCharsets.US_ASCII), false).add("a", VALUE, true).bytes();
    Path zip = write(archive);
    ZarrException e = assertThrows(ZarrException.class, () -> Stores.open(zip.toString()).close());
    assertTrue(e.getMessage().contains("two entries are named a") && e.getMessage().contains(zip.toString()), e.getMessage());
  }

  @Test
  void aDeclaredSizeItsDeflateDataCannotHoldIsRefusedBeforeAllocating() throws Exception {
    byte[] small = ZipBytes.deflate(new byte[4096]);
    Path zip = write(new ZipBytes().add(new ZipBytes.Entry("b", 8, 0, small, 1L << 30)).bytes());
    long grown = directGrowth(() -> {
      String message = refused(zip, ZipDamageTest::readsWhole);
      assertTrue(message.contains("declares 1073741824 bytes, more than its " + small.length + " bytes of deflate data can hold"), message);
    });
    assertTrue(grown < 1 << 20, "direct memory grew by " + grown);
  }

  @Test
  void aChunkDeclaringMoreThanItsSpecCanTakeIsRefusedBeforeInflating(BufferAllocator allocator) throws Exception {
    MemoryStore memory = new MemoryStore();
    ZarrArray array = Zarr.createArray(memory, "a", ArraySpec.of(FixedType.INT32, 1024).chunks(1024));
    try (IntVector v = new IntVector("v", allocator)) {
      v.allocateNew(1024);
      for (int i = 0; i < 1024; i++) {
        v.set(i, i);
      }
      v.setValueCount(1024);
      array.write(0, v);
    }
    ZipBytes zip = ZipBytes.of(memory, true);
    zip.entries().set(zip.indexOf("a/c/0"), ZipBytes.zeros("a/c/0", 1024)); // 1 GiB of zeros, really
    Path archive = write(zip.bytes());
    long grown = directGrowth(() -> {
      long start = System.nanoTime();
      try (Store store = Stores.open(archive.toString())) {
        ZarrArray a = Zarr.openArray(store, "a");
        for (Runnable read : java.util.List.<Runnable>of(
            () -> a.read(allocator).close(),
            () -> a.read(new Box(new long[] {10}, new long[] {5}), allocator).close(),
            () -> a.decodeChunk(new long[] {0}, allocator).orElseThrow().close())) {
          ZarrException e = assertThrows(ZarrException.class, read::run);
          assertTrue(e.getMessage().contains("the stored chunk is 1073741824 bytes, more than a") && e.getMessage().contains("a/c/0"),
              e.getMessage());
        }
      }
      assertTrue(System.nanoTime() - start < 1_000_000_000L, "refused within a second");
    });
    assertTrue(grown < 1 << 20, "direct memory grew by " + grown);
  }

  @Test
  void aVariableLengthChunkIsBoundedByTheChunkLimitThroughItsCompressor(BufferAllocator allocator) throws Exception {
    // The serialized size of strings is unknown, but zstd decodes it to at most maxChunkBytes, so a stored
    // chunk larger than zstd's bound for that is refused from its declared size.
    MemoryStore memory = new MemoryStore();
    Zarr.createArray(memory, "s", ArraySpec.of(dev.zarrow.dtype.VarLenType.STRING, 4).chunks(4));
    ZipBytes zip = ZipBytes.of(memory, true);
    zip.add(ZipBytes.zeros("s/c/0", 64));
    Path archive = write(zip.bytes());
    dev.zarrow.ZarrOptions options = dev.zarrow.ZarrOptions.defaults()
        .withCodecOptions(dev.zarrow.codec.CodecOptions.DEFAULT.withMaxChunkBytes(1 << 20));
    try (Store store = Stores.open(archive.toString())) {
      ZarrArray s = Zarr.openArray(store, "s", options);
      ZarrException e = assertThrows(ZarrException.class, () -> s.read(allocator).close());
      assertTrue(e.getMessage().contains("the stored chunk is " + (64 << 20) + " bytes, more than a"), e.getMessage());
    }
  }

  @Test
  void undamagedEntriesReadWholeAndByRange() throws Exception {
    for (boolean deflate : new boolean[] {false, true}) {
      Path archive = damaged(deflate, (zip, bytes) -> {});
      try (Store store = Stores.open(archive.toString())) {
        ByteBuffer whole = store.get("b").orElseThrow();
        byte[] got = new byte[whole.remaining()];
        whole.get(got);
        assertArrayEquals(VALUE, got);
        ByteBuffer range = store.get("b", ByteRange.of(10, 5)).orElseThrow();
        assertTrue(StandardCharsets.US_ASCII.decode(range).toString().equals("abcde"));
        try (ByteSource source = store.source("b").orElseThrow()) {
          assertTrue(source.size() == VALUE.length);
          assertTrue(source.readAll().remaining() == VALUE.length);
        }
      }
    }
  }

  /** How much direct memory (ByteBuffer.allocateDirect) is held after {@code action}, more than before. */
  private static long directGrowth(Runnable action) {
    BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
        .filter(p -> p.getName().equals("direct")).findFirst().orElseThrow();
    long before = direct.getTotalCapacity();
    action.run();
    return direct.getTotalCapacity() - before;
  }
}
