package dev.zarrow.bench;

import dev.zarrow.codec.ChunkSpec;
import dev.zarrow.codec.CodecOptions;
import dev.zarrow.codec.CodecPipeline;
import dev.zarrow.dtype.FixedType;
import dev.zarrow.metadata.Json;
import dev.zarrow.metadata.NamedConfig;
import dev.zarrow.spi.Registry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * Decoding one chunk of 1M float64 (a smooth series to 0.01, 8 MB) through v2-like numcodecs chains, one
 * thread, against numcodecs 0.11 itself (c-lz4, zlib, numpy for the filters) decoding the same stored
 * bytes in the same run: Java writes each chain's encoded chunk to a temp dir, then {@code /usr/bin/python3}
 * (or {@code python3}) times {@code codec.decode} of every codec of the chain in reverse, as zarr-python 2
 * does. Both sides report the best of N rounds of wall time (the JVM's CPU clock ticks in 10 ms here: too
 * coarse), alternating Java and Python twice so that both see the same load; the ratio is Java's time over
 * numcodecs'.
 *
 * <p>Both sides do the same work per round: read the same stored bytes without a copy, allocate the
 * decoded chunk with {@code malloc} (numpy's arrays; zarrow's unzeroed Arrow memory) and free the previous
 * round's. glibc's dynamic mmap threshold then hands both the same warm block again, so neither pays
 * fresh pages: each side prints its minor page faults per round (0-50 on both, measured; a side near 2,000 per
 * round would be touching 8 MB of fresh pages, 16 us each on some VMs). Run it on an idle machine and say
 * the load (README: "Performance"):
 *
 * <pre>
 * mvn -q -Pbench -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/bench.classpath
 * java --add-opens=java.base/java.nio=ALL-UNNAMED \
 *   -cp target/jmh-classes:target/classes:$(cat target/bench.classpath) dev.zarrow.bench.NumcodecsBench 20
 * </pre>
 *
 * <p>Arguments: rounds (default 10), then optionally the chains to run, comma-separated ({@code lz4,delta}).
 * The Python child runs without {@code OPENBLAS_CORETYPE} (some machines set it for other tools;
 * numpy then picks its kernels for the CPU it finds).
 */
public final class NumcodecsBench {
  private static final int COUNT = 1 << 20;

  private static final String BYTES = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";

  private static String codec(String name, String config) {
    return "{\"name\":\"numcodecs." + name + "\",\"configuration\":" + config + "}";
  }

  /** Name and v3 chain; Python decodes the same chain without {@code bytes}, in reverse. */
  static final String[][] CHAINS = {
      {"lz4", "[" + BYTES + "," + codec("lz4", "{\"acceleration\":1}") + "]"},
      {"zlib", "[" + BYTES + "," + codec("zlib", "{\"level\":1}") + "]"},
      {"bz2", "[" + BYTES + "," + codec("bz2", "{\"level\":1}") + "]"},
      {"shuffle", "[" + BYTES + "," + codec("shuffle", "{\"elementsize\":8}") + "]"},
      {"shuffle+lz4", "[" + BYTES + "," + codec("shuffle", "{\"elementsize\":8}") + "," + codec("lz4", "{\"acceleration\":1}") + "]"},
      {"delta", "[" + codec("delta", "{\"dtype\":\"<f8\",\"astype\":\"<f8\"}") + "," + BYTES + "]"},
      {"fixedscaleoffset", "[" + codec("fixedscaleoffset", "{\"offset\":0,\"scale\":100,\"dtype\":\"<f8\",\"astype\":\"<i4\"}") + "," + BYTES + "]"},
      {"quantize", "[" + codec("quantize", "{\"digits\":3,\"dtype\":\"<f8\",\"astype\":\"<f4\"}") + "," + BYTES + "]"},
      {"astype", "[" + codec("astype", "{\"encode_dtype\":\"<f4\",\"decode_dtype\":\"<f8\"}") + "," + BYTES + "]"},
      {"fixedscaleoffset+zlib", "[" + codec("fixedscaleoffset", "{\"offset\":0,\"scale\":100,\"dtype\":\"<f8\",\"astype\":\"<i4\"}") + "," + BYTES + ","
          + codec("zlib", "{\"level\":1}") + "]"},
      {"delta+fso+shuffle+zlib", "[" + codec("delta", "{\"dtype\":\"<f8\",\"astype\":\"<f8\"}") + ","
          + codec("fixedscaleoffset", "{\"offset\":0,\"scale\":100,\"dtype\":\"<f8\",\"astype\":\"<i4\"}") + "," + BYTES + ","
          + codec("shuffle", "{\"elementsize\":4}") + "," + codec("zlib", "{\"level\":1}") + "]"},
  };

  /** Times numcodecs' decode of {dir}/{name}.bin per chain; prints "name seconds faults" (best of rounds; minor faults per round after two). */
  private static final String PYTHON = """
      import json, resource, sys, time
      import numpy as np
      import numcodecs
      d, rounds = sys.argv[1], int(sys.argv[2])
      for name, chain in json.load(open(d + '/chains.json')):
          codecs = [numcodecs.get_codec(dict(id=c['name'][len('numcodecs.'):], **c['configuration']))
                    for c in chain if c['name'] != 'bytes']
          stored = open(d + '/' + name + '.bin', 'rb').read()
          best = float('inf')
          for r in range(rounds + 2):
              if r == 2:
                  faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
              t0 = time.perf_counter()
              x = stored
              for c in reversed(codecs):
                  x = c.decode(x)
              x = np.frombuffer(x, dtype='<f8') if not isinstance(x, np.ndarray) else x.view('<f8')
              best = min(best, time.perf_counter() - t0)
              assert x.size == %d, (name, x.size)
          print(name, best, (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults) / rounds, flush=True)
      """.formatted(COUNT);

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    List<String> only = args.length > 1 ? List.of(args[1].split(",")) : null;
    Registry registry = Registry.defaults();
    Path dir = BenchSupport.tempDir("numcodecs-bench");
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
      List<CodecPipeline> pipelines = new ArrayList<>();
      List<ByteBuffer> stored = new ArrayList<>();
      StringBuilder chains = new StringBuilder("[");
      List<String[]> selected = new ArrayList<>();
      for (String[] chain : CHAINS) {
        if (only == null || only.contains(chain[0])) {
          selected.add(chain);
        }
      }
      for (String[] chain : selected) {
        List<dev.zarrow.codec.Codec> codecs = new ArrayList<>();
        var list = Json.parse(chain[1], chain[0]);
        for (int i = 0; i < list.size(); i++) {
          codecs.add(registry.codec(NamedConfig.parse(list.get(i), "/codecs/" + i), CodecOptions.DEFAULT));
        }
        CodecPipeline pipeline = CodecPipeline.of(codecs, spec, registry.context(CodecOptions.DEFAULT));
        ByteBuffer encoded = pipeline.encode(chunk, allocator);
        ByteBuffer owned = ByteBuffer.allocateDirect(encoded.remaining()).put(encoded.duplicate()).flip();
        try (FileChannel out = FileChannel.open(dir.resolve(chain[0] + ".bin"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
          out.write(owned.duplicate());
        }
        pipelines.add(pipeline);
        stored.add(owned);
        chains.append(chains.length() > 1 ? "," : "").append("[\"").append(chain[0]).append("\",").append(chain[1]).append("]");
      }
      Files.writeString(dir.resolve("chains.json"), chains.append("]").toString());
      Path script = dir.resolve("timing.py");
      Files.writeString(script, PYTHON);

      long[] zarrow = new long[selected.size()];
      java.util.Arrays.fill(zarrow, Long.MAX_VALUE);
      double[] zarrowFaults = new double[selected.size()];
      Map<String, double[]> python = new HashMap<>();
      for (int pass = 0; pass < 2; pass++) {
        for (int c = 0; c < selected.size(); c++) {
          long faults = 0;
          for (int r = 0; r < rounds + 2; r++) {
            if (r == 2) {
              faults = minorFaults(); // after two warm-up rounds, as on numcodecs' side
            }
            long t0 = System.nanoTime();
            try (FieldVector v = pipelines.get(c).decode(stored.get(c).duplicate(), allocator)) {
              zarrow[c] = Math.min(zarrow[c], System.nanoTime() - t0);
              if (v.getValueCount() != COUNT) {
                throw new AssertionError(selected.get(c)[0] + ": " + v.getValueCount() + " values");
              }
            }
          }
          zarrowFaults[c] = (double) (minorFaults() - faults) / rounds; // the second pass's
        }
        python(script, dir, rounds).forEach((k, v) -> python.merge(k, v, (a, b) -> a[0] <= b[0] ? new double[] {a[0], b[1]} : b));
      }
      System.out.printf("%-24s %10s %12s %12s %8s %16s%n", "chain", "stored", "zarrow ms", "numcodecs ms", "ratio", "faults/round z,n");
      for (int c = 0; c < selected.size(); c++) {
        double j = zarrow[c] / 1e6;
        double[] p = python.get(selected.get(c)[0]);
        System.out.printf("%-24s %10d %12.2f %12.2f %8.2f %8.1f,%.1f%n", selected.get(c)[0], stored.get(c).remaining(), j, p[0] * 1e3,
            j / (p[0] * 1e3), zarrowFaults[c], p[1]);
      }
      chunk.close();
    } finally {
      BenchSupport.delete(dir);
    }
  }

  /** This process's minor page faults so far (Linux' /proc/self/stat), or 0 where there is none. */
  private static long minorFaults() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[7]);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** numcodecs' best time in seconds and minor page faults per round (of the last pass), by chain. */
  private static Map<String, double[]> python(Path script, Path dir, int rounds) throws IOException, InterruptedException {
    String exe = Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
    ProcessBuilder builder = new ProcessBuilder(exe, script.toString(), dir.toString(), String.valueOf(rounds));
    builder.environment().remove("OPENBLAS_CORETYPE");
    builder.redirectError(ProcessBuilder.Redirect.INHERIT);
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (process.waitFor() != 0) {
      throw new IllegalStateException("numcodecs timing failed: " + out);
    }
    Map<String, double[]> times = new HashMap<>();
    for (String line : out.strip().split("\n")) {
      String[] parts = line.split(" ");
      times.put(parts[0], new double[] {Double.parseDouble(parts[1]), Double.parseDouble(parts[2])});
    }
    return times;
  }
}
