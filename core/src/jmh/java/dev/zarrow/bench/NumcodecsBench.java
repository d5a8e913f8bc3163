package dev.zarrow.bench;

import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.codec.CodecPipeline;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.spi.Registry;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * Decoding one chunk of 1M float64 (a smooth series, 8 MB) through v2-like numcodecs chains, one thread,
 * best of N rounds of wall time (the JVM's CPU clock ticks in 10 ms here: too coarse); run it on an idle
 * machine and say the load:
 *
 * <pre>
 * mvn -q -o -DskipTests test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath
 * javac -d target/bench-numcodecs -cp target/classes:$(cat target/test-classpath) src/jmh/java/dev/zarrow/bench/NumcodecsBench.java
 * java --add-opens=java.base/java.nio=org.apache.arrow.memory.core,ALL-UNNAMED \
 *   -cp target/bench-numcodecs:target/classes:$(cat target/test-classpath) dev.zarrow.bench.NumcodecsBench 10
 * </pre>
 */
public final class NumcodecsBench {
  private static final int COUNT = 1 << 20;

  static final String[][] CHAINS = {
      {"zlib", "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"numcodecs.zlib\",\"configuration\":{\"level\":1}}]"},
      {"lz4", "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"numcodecs.lz4\",\"configuration\":{\"acceleration\":1}}]"},
      {"bz2", "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"numcodecs.bz2\",\"configuration\":{\"level\":1}}]"},
      {"shuffle+lz4", "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"numcodecs.shuffle\",\"configuration\":{\"elementsize\":8}},"
          + "{\"name\":\"numcodecs.lz4\",\"configuration\":{\"acceleration\":1}}]"},
      {"delta", "[{\"name\":\"numcodecs.delta\",\"configuration\":{\"dtype\":\"<f8\",\"astype\":\"<f8\"}},{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]"},
      {"fixedscaleoffset", "[{\"name\":\"numcodecs.fixedscaleoffset\",\"configuration\":{\"offset\":0,\"scale\":100,\"dtype\":\"<f8\",\"astype\":\"<i4\"}},"
          + "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]"},
      {"quantize", "[{\"name\":\"numcodecs.quantize\",\"configuration\":{\"digits\":3,\"dtype\":\"<f8\",\"astype\":\"<f4\"}},{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]"},
      {"delta+fso+shuffle+zlib", "[{\"name\":\"numcodecs.delta\",\"configuration\":{\"dtype\":\"<f8\",\"astype\":\"<f8\"}},"
          + "{\"name\":\"numcodecs.fixedscaleoffset\",\"configuration\":{\"offset\":0,\"scale\":100,\"dtype\":\"<f8\",\"astype\":\"<i4\"}},"
          + "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"numcodecs.shuffle\",\"configuration\":{\"elementsize\":4}},"
          + "{\"name\":\"numcodecs.zlib\",\"configuration\":{\"level\":1}}]"},
  };

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    Registry registry = Registry.defaults();
    try (BufferAllocator allocator = new RootAllocator()) {
      FieldVector chunk;
      try (ArrowBuf data = allocator.buffer(8L * COUNT)) {
        double x = 0;
        for (int i = 0; i < COUNT; i++) {
          x += Math.sin(i / 1000.0) * 0.01;
          data.setDouble(8L * i, Math.round(x * 100) / 100.0);
        }
        chunk = FixedType.FLOAT64.fromBytes(data, COUNT, allocator);
      }
      ChunkSpec spec = new ChunkSpec(new int[] {COUNT}, FixedType.FLOAT64, FixedType.FLOAT64.defaultFill());
      for (String[] chain : CHAINS) {
        List<dev.zarrow.codec.Codec> codecs = new ArrayList<>();
        var list = Json.parse(chain[1], chain[0]);
        for (int i = 0; i < list.size(); i++) {
          codecs.add(registry.codec(NamedConfig.parse(list.get(i), "/codecs/" + i), CodecOptions.DEFAULT));
        }
        CodecPipeline pipeline = CodecPipeline.of(codecs, spec, registry.context(CodecOptions.DEFAULT));
        ByteBuffer stored = pipeline.encode(chunk, allocator);
        ByteBuffer owned = ByteBuffer.allocateDirect(stored.remaining()).put(stored.duplicate()).flip();
        long best = Long.MAX_VALUE;
        for (int r = 0; r < rounds; r++) {
          long t0 = System.nanoTime();
          try (FieldVector v = pipeline.decode(owned.duplicate(), allocator)) {
            best = Math.min(best, System.nanoTime() - t0);
          }
        }
        System.out.printf("%-24s stored %9d bytes  decode %7.2f ms  %7.0f MB/s%n", chain[0], owned.remaining(), best / 1e6,
            8.0 * COUNT / (best / 1e3));
      }
      chunk.close();
    }
  }
}
