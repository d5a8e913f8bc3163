import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;

/** Arrow IPC streams for the start-up measurements: 4M random ASCII strings of 0..32 bytes; 16M float32 temperatures. */
public class MakeIpc {
  public static void main(String[] args) throws Exception {
    Random random = new Random(42);
    int batch = 262_144;
    try (var allocator = new RootAllocator()) {
      try (var v = new VarCharVector("s", allocator); var root = VectorSchemaRoot.of(v);
          var out = new FileOutputStream(args[0]); var w = new ArrowStreamWriter(root, null, out)) {
        w.start();
        byte[] buf = new byte[32];
        for (int b = 0; b < 16; b++) {
          v.reset();
          for (int i = 0; i < batch; i++) {
            int n = random.nextInt(33);
            for (int j = 0; j < n; j++) buf[j] = (byte) ('a' + random.nextInt(26));
            v.setSafe(i, buf, 0, n);
          }
          v.setValueCount(batch);
          root.setRowCount(batch);
          w.writeBatch();
        }
      }
      try (var v = new Float4Vector("t", allocator); var root = VectorSchemaRoot.of(v);
          var out = new FileOutputStream(args[1]); var w = new ArrowStreamWriter(root, null, out)) {
        w.start();
        int rows = 1 << 20;
        v.allocateNew(rows);
        for (int b = 0; b < 16; b++) {
          for (int i = 0; i < rows; i++) v.set(i, Math.round((15 + 10 * Math.sin((b * rows + i) * 1e-5) + random.nextGaussian()) * 100) / 100f);
          v.setValueCount(rows);
          root.setRowCount(rows);
          w.writeBatch();
        }
      }
    }
  }
}
