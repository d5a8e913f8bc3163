package dev.zarrow.testing;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zarrow.ArraySpec;
import dev.zarrow.NdVector;
import dev.zarrow.Zarr;
import dev.zarrow.ZarrArray;
import dev.zarrow.ZarrGroup;
import dev.zarrow.ipc.IpcReader;
import dev.zarrow.dtype.DataType;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.dtype.VarLenType;
import dev.zarrow.grid.Box;
import dev.zarrow.grid.ChunkKeyEncoding;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.store.Store;
import dev.zarrow.store.WritableStore;
import dev.zarrow.table.TableOptions;
import dev.zarrow.table.TableWriter;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ipc.ArrowStreamReader;

/**
 * Every kind of array zarrow writes, in one store, for the tests of other stores (HTTP, zip, S3) to read
 * back equal: each core data type and the variable-length ones, plain, compressed (zstd, gzip, blosc), transposed, sharded
 * (index at the end and the start, nested, blosc inside), v2 key encoding, 0-d; and a group table of every Arrow gold
 * stream (the {@code arrow} data type and codec), in small chunks and sharded.
 */
public final class StoreCorpus {
  private StoreCorpus() {}

  /** Writes the corpus into {@code store}; returns the paths of its arrays. */
  public static List<String> write(WritableStore store, BufferAllocator allocator) throws Exception {
    return write(store, allocator, true);
  }

  /** The corpus, with the group tables of the gold streams only when {@code tables} (they are most of its keys). */
  public static List<String> write(WritableStore store, BufferAllocator allocator, boolean tables) throws Exception {
    Random random = Seeds.random("store corpus");
    List<String> arrays = new ArrayList<>();
    List<NamedConfig> zstd = List.of(ArraySpec.zstd(3), ArraySpec.crc32c());
    for (FixedType type : FixedType.CORE) {
      for (Map.Entry<String, ArraySpec> v : variants(type, new long[] {13, 9}, new int[] {4, 4}, zstd).entrySet()) {
        String path = "core/" + type.name() + "/" + v.getKey();
        write(store, path, v.getValue(), random, allocator);
        arrays.add(path);
      }
    }
    for (VarLenType type : VarLenType.ALL) {
      for (Map.Entry<String, ArraySpec> v : variants(type, new long[] {37}, new int[] {8}, zstd).entrySet()) {
        if (v.getKey().equals("transposed")) {
          continue;
        }
        String path = "vlen/" + type.name() + "/" + v.getKey();
        write(store, path, v.getValue(), random, allocator);
        arrays.add(path);
      }
    }
    write(store, "scalar", ArraySpec.of(FixedType.FLOAT64), random, allocator);
    arrays.add("scalar");
    try (BufferAllocator child = allocator.newChildAllocator("corpus tables", 0, Long.MAX_VALUE)) {
      for (Path stream : tables ? GoldStreams.goldenStreams() : List.<Path>of()) {
        String name = GoldStreams.caseName(stream);
        if (GoldStreams.UNREADABLE.contains(name)) {
          continue;
        }
        for (Map.Entry<String, TableOptions> t : Map.of(
            "small", TableOptions.defaults().withChunkRows(3),
            "sharded", TableOptions.defaults().withChunkRows(2).withShardRows(6).withNativeTypes(false)).entrySet()) {
          ZarrGroup group = Zarr.createGroup(store, "tables/" + name + "/" + t.getKey());
          try (IpcReader reader = IpcReader.open(stream, child)) { // zarrow's reader: Arrow Java's loses repeated names
            group = TableWriter.write(group, reader, t.getValue(), child);
          }
          for (String column : group.childNames()) {
            arrays.add(group.path() + "/" + column);
          }
        }
      }
    }
    return arrays;
  }

  private static Map<String, ArraySpec> variants(DataType type, long[] shape, int[] chunks, List<NamedConfig> zstd) {
    int[] inner = new int[chunks.length];
    int[] shard = new int[chunks.length];
    int[] nested = new int[chunks.length];
    for (int d = 0; d < chunks.length; d++) {
      inner[d] = Math.max(1, chunks[d] / 2);
      shard[d] = inner[d] * 2;
      nested[d] = inner[d] * 4;
    }
    ArraySpec plain = ArraySpec.of(type, shape).chunks(chunks);
    NamedConfig serializer = plain.toMetadata().codecs().stream().filter(c -> !c.name().equals("transpose")).findFirst().orElseThrow();
    int[] order = new int[shape.length];
    for (int d = 0; d < order.length; d++) {
      order[d] = order.length - 1 - d;
    }
    ObjectNode transpose = JsonNodeFactory.instance.objectNode();
    transpose.putArray("order").addAll(java.util.Arrays.stream(order).mapToObj(JsonNodeFactory.instance::numberNode).toList());
    Map<String, ArraySpec> out = new java.util.LinkedHashMap<>();
    out.put("plain", plain);
    out.put("zstd", ArraySpec.of(type, shape).chunks(chunks).compressors(zstd));
    out.put("gzip_v2_keys", ArraySpec.of(type, shape).chunks(chunks).compressors(List.of(ArraySpec.gzip(5)))
        .keyEncoding(new ChunkKeyEncoding(true, '.')));
    out.put("blosc", ArraySpec.of(type, shape).chunks(chunks).compressors(List.of(ArraySpec.blosc("lz4", 5, null))));
    out.put("transposed", ArraySpec.of(type, shape).chunks(chunks).arrayCodecs(List.of(NamedConfig.of("transpose", transpose))));
    // Nothing after the shards: a read of part of a shard reads only the inner chunks it needs.
    out.put("sharded", ArraySpec.of(type, shape).chunks(shard).compressors(List.of()).serializer(ArraySpec.shardingIndexed(inner, List.of(serializer, ArraySpec.zstd(1)))));
    out.put("sharded_blosc", ArraySpec.of(type, shape).chunks(shard).compressors(List.of()).serializer(
        ArraySpec.shardingIndexed(inner, List.of(serializer, ArraySpec.blosc("zstd", 3, "bitshuffle")))));
    out.put("sharded_index_start", ArraySpec.of(type, shape).chunks(shard).compressors(List.of()).serializer(
        ArraySpec.shardingIndexed(inner, List.of(serializer), ArraySpec.defaultIndexCodecs(), "start")));
    out.put("sharded_nested", ArraySpec.of(type, shape).chunks(nested).compressors(List.of()).serializer(
        ArraySpec.shardingIndexed(shard, List.of(ArraySpec.shardingIndexed(inner, List.of(serializer))))));
    return out;
  }

  private static void write(WritableStore store, String path, ArraySpec spec, Random random, BufferAllocator allocator) {
    ZarrArray array = Zarr.createArray(store, path, spec);
    long n = Box.of(array.shape()).size();
    try (FieldVector data = values(array.dataType(), (int) n, random, allocator)) {
      array.write(Box.of(array.shape()), data);
    }
  }

  private static FieldVector values(DataType type, int n, Random random, BufferAllocator allocator) {
    if (type instanceof VarLenType) {
      String[] words = new String[n];
      for (int i = 0; i < n; i++) {
        words[i] = i % 5 == 0 ? "" : "w" + random.nextInt(1000) + "é".repeat(random.nextInt(3));
      }
      FieldVector utf8 = Vectors.utf8(allocator, "x", words);
      if (type.equals(VarLenType.STRING)) {
        return utf8;
      }
      try (utf8) {
        return convert(type, utf8, allocator);
      }
    }
    return Vectors.random(type, n, random, allocator);
  }

  /** The strings of {@code utf8} as a vector of the (binary or large) {@code type}. */
  private static FieldVector convert(DataType type, FieldVector utf8, BufferAllocator allocator) {
    FieldVector out = type.field("x").createVector(allocator);
    out.allocateNew();
    var holder = (org.apache.arrow.vector.VarCharVector) utf8;
    for (int i = 0; i < holder.getValueCount(); i++) {
      byte[] bytes = holder.get(i);
      if (out instanceof org.apache.arrow.vector.VarBinaryVector b) {
        b.setSafe(i, bytes);
      } else if (out instanceof org.apache.arrow.vector.LargeVarCharVector l) {
        l.setSafe(i, bytes);
      } else {
        ((org.apache.arrow.vector.LargeVarBinaryVector) out).setSafe(i, bytes);
      }
    }
    out.setValueCount(holder.getValueCount());
    return out;
  }

  /** Asserts that every array of {@code paths} reads the same from {@code actual} as from {@code expected}: whole, and one region. */
  public static void assertSameArrays(Store expected, Store actual, List<String> paths, BufferAllocator allocator) {
    for (String path : paths) {
      ZarrArray want = Zarr.openArray(expected, path);
      ZarrArray got = Zarr.openArray(actual, path);
      try (NdVector a = want.read(allocator); NdVector b = got.read(allocator)) {
        Vectors.assertSameValues(a.vector(), b.vector(), path);
      }
      long[] start = new long[want.rank()];
      long[] shape = want.shape().clone();
      for (int d = 0; d < shape.length; d++) {
        start[d] = shape[d] / 3;
        shape[d] = Math.max(0, shape[d] - start[d] - 1);
      }
      Box region = new Box(start, shape);
      try (NdVector a = want.read(region, allocator); NdVector b = got.read(region, allocator)) {
        Vectors.assertSameValues(a.vector(), b.vector(), path + " region " + region);
      }
    }
  }
}
